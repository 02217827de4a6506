"""Use, download and remove model files; the Hub token.

A chosen model's window starts at the file's own context length, capped where the memory
estimate for the chat context and the compactor's second context stops fitting in the
memory this machine has free (invariant 12: everything else scales from the window).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import unquote, urlparse

from mfs_desktop.errors import EnvironmentFault, InvalidInput
from mfs_desktop.runtime.download import Downloaded, DownloadSource, Progress, download, part_paths
from mfs_desktop.runtime.model_files import default_model_path
from mfs_desktop.runtime.model_info import ModelInfo, read_model_info
from mfs_desktop.services.access import make_private
from mfs_desktop.services.models.choice import ModelChoice
from mfs_desktop.services.models.library import downloads_folder
from mfs_desktop.services.models.templates import (
    check_model_template,
    checked_family,
    set_template_family,
    template_family,
)
from mfs_desktop.services.preferences import WINDOW_RANGE, load_preferences, save_preferences
from mfs_desktop.services.session import Session
from mfs_desktop.store.conversation_models import ConversationModel, conversation_model, set_conversation_model
from mfs_desktop.store.database import Database
from mfs_desktop.store.settings import SettingsStore
from mfs_desktop.translatable import QT_TRANSLATE_NOOP
from mfs_desktop.vault import keychain
from mfs_desktop.vault.vault_file import read_vault

CONTEXTS = 2  # the chat's llama.cpp context and the compactor's, over one mapped file
MEMORY_SHARE = 0.8  # of the memory free now: the app, the desktop and the page cache need the rest
# llama.cpp allocates a context's whole KV cache when the model loads: a 128k-token model on a
# 24 GB machine would take 18 GB before the first word. The default window stops here; the
# Window field in Settings (or `models use --window`) goes to the file's own limit.
DEFAULT_WINDOW_CEILING = 32_768
_HEX64 = re.compile(r"^[0-9a-fA-F]{64}$")
_TOKEN_SECRET = "huggingface.token"


def available_memory() -> int:
    import psutil

    return int(psutil.virtual_memory().available)


@dataclass(frozen=True)
class Fit:
    window: int  # the window to run this model at
    fits: bool  # False: even the smallest window's estimate exceeds the memory budget
    estimate: int  # bytes at `window`
    budget: int


def fit_to_machine(info: ModelInfo, available: int | None = None) -> Fit:
    budget = int((available_memory() if available is None else available) * MEMORY_SHARE)
    low, high = WINDOW_RANGE
    capped = replace(info, context_length=min(info.context_length or low, DEFAULT_WINDOW_CEILING))
    window = capped.fitting_window(budget, CONTEXTS)
    fits = window is not None
    chosen = min(high, max(low, window if window is not None else min(info.context_length or low, 2048)))
    return Fit(chosen, fits, info.memory_bytes(chosen, CONTEXTS), budget)


@dataclass(frozen=True)
class Chosen:
    info: ModelInfo
    fit: Fit


def use_model(session: Session, path: Path, window: int | None = None,
              conversation_id: str | None = None, template: str | None = None) -> Chosen:
    """Make `path` the default model (or the model of one conversation), at `window` or at
    the window that fits this machine. `template` names a known family's chat template to use
    for this file (OWN: its own; None: as chosen before); the template is tried first."""
    info = read_model_info(path.expanduser().resolve())
    if info.problem:
        raise InvalidInput(f"{path} cannot be used: {info.problem}.")
    family = template_family(session.database, info.path) if template is None else checked_family(template)
    check_model_template(Path(info.path), family)
    fit = fit_to_machine(info)
    if window is not None:
        low, high = WINDOW_RANGE
        if not low <= window <= high:
            raise InvalidInput(f"The window must be between {low:,} and {high:,} tokens.")
        fit = replace(fit, window=window, estimate=info.memory_bytes(window, CONTEXTS))
    model_path = "" if _is_bundled(Path(info.path)) else info.path
    if template is not None:
        set_template_family(session.database, info.path, family)
    if conversation_id is not None:
        set_conversation_model(session.database, conversation_id, ConversationModel(model_path, fit.window))
    else:
        preferences = replace(load_preferences(session.database), provider="embedded", model_path=model_path,
                              window=fit.window)
        save_preferences(session.database, preferences)
    return Chosen(info, fit)


def model_choice_for(database: Database, default: ModelChoice, conversation_id: str | None) -> ModelChoice:
    """The model a conversation runs on: its own when one was chosen for it, else `default`."""
    own = conversation_model(database, conversation_id) if conversation_id else None
    if own is None:
        return default
    return ModelChoice("embedded", Path(own.model_path) if own.model_path else None, own.window, default.threads)


def _is_bundled(path: Path) -> bool:
    try:
        return path.resolve() == default_model_path().resolve()
    except (OSError, EnvironmentFault):  # no bundled model: nothing is it
        return False


def remove_model(session: Session, path: Path) -> bool:
    """Delete a file the app downloaded (and its unfinished parts); True when it was the
    default model, which falls back to the bundled one."""
    target = path.expanduser().resolve()
    folder = downloads_folder(session.data_dir).resolve()
    if folder not in target.parents:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{path} was not downloaded by MFS Desktop, so it stays; remove "
                                                        "it in the app that keeps it."), path=path)
    if not target.exists() and not part_paths(target)[0].exists():
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{path} does not exist."), path=path)
    for leftover in (target, *part_paths(target)):
        leftover.unlink(missing_ok=True)
    preferences = load_preferences(session.database)
    if preferences.model_path and Path(preferences.model_path).resolve() == target:
        save_preferences(session.database, replace(preferences, model_path=""))
        return True
    return False


def parse_sha256(text: str | None) -> str | None:
    if text is None:
        return None
    if not _HEX64.match(text.strip()):
        raise InvalidInput("--sha256 takes the file's SHA-256 as 64 hexadecimal digits.")
    return text.strip().lower()


def source_for(what: str, file: str | None, revision: str, sha256: str | None,
               token: str | None) -> tuple[DownloadSource, Path]:
    """The download and where it lands (relative to the downloads folder), from `URL` or
    `REPO FILE`; a checksum given by the user overrides the Hub's."""
    if what.startswith(("http://", "https://")):
        if file:
            raise InvalidInput(QT_TRANSLATE_NOOP("", "Give either a URL or a repository and a file name, not both."))
        url = urlparse(what)
        name = Path(unquote(url.path)).name
        if not name.lower().endswith(".gguf"):
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{url} does not name a .gguf file."), url=what)
        return DownloadSource(what, name, sha256=sha256), Path(url.hostname or "web") / name
    if not file or what.count("/") != 1:
        raise InvalidInput(QT_TRANSLATE_NOOP("", "Download takes a URL, or a Hub repository (owner/name) and a file "
                                                 "in it."))
    if not file.lower().endswith(".gguf"):
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{file} is not a .gguf file."), file=file)
    relative = Path(*what.split("/")) / file
    if relative.is_absolute() or any(part in ("..", ".", "") for part in (*what.split("/"), *Path(file).parts)):
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{repo} {file} does not name a file inside a repository."),
                                  repo=what, file=file)
    from mfs_desktop.runtime.hub import resolve_hub_file

    source = resolve_hub_file(what, file, revision, token)
    if sha256:
        source = replace(source, sha256=sha256)
    return source, relative


def download_model(session: Session, what: str, file: str | None = None, *, revision: str = "main",
                   sha256: str | None = None, on_progress: Callable[[Progress], None] | None = None,
                   cancelled: Callable[[], bool] = lambda: False) -> Downloaded:
    source, relative = source_for(what, file, revision, parse_sha256(sha256), load_hub_token(session))
    folder = downloads_folder(session.data_dir)
    make_private(folder, ())  # the app's own folder, left 0755 by versions before 0700 folders
    return download(source, folder / relative, on_progress=on_progress, cancelled=cancelled)


def _token_keychain_user(session: Session) -> str:
    record = read_vault(session.data_dir.vault)
    return f"{record.database_id}-huggingface-token" if record.mode == "keychain" else ""


def save_hub_token(session: Session, token: str) -> str:
    """Keep the token where the database key is; say where ("keychain", "database", "")."""
    user = _token_keychain_user(session)
    settings = SettingsStore(session.database)
    if user:
        if token:
            keychain.store_secret(user, token.strip(), "the Hugging Face token")
        else:
            keychain.forget_key(user)
    settings.set_secret(_TOKEN_SECRET, "" if user else token.strip())
    return "" if not token else ("keychain" if user else "database")


def load_hub_token(session: Session) -> str | None:
    user = _token_keychain_user(session)
    token = keychain.load_secret(user) if user else SettingsStore(session.database).secret(_TOKEN_SECRET)
    return token or None
