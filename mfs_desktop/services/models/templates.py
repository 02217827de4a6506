"""Which chat template each model file runs with: its own, or a known family's in its place.

A template belongs to a file, not to a conversation, so the choice is kept per file path in
the settings table and follows the file into every conversation that uses it.
"""

from __future__ import annotations

from pathlib import Path

from mfs_desktop.errors import InvalidInput
from mfs_desktop.runtime.chat_template import FAMILIES, template_unusable
from mfs_desktop.runtime.gguf_header import GgufUnreadable, read_gguf_header
from mfs_desktop.runtime.model_files import default_model_path
from mfs_desktop.runtime.template_check import failure_of
from mfs_desktop.store.database import Database
from mfs_desktop.store.settings import SettingsStore
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

__all__ = ["FAMILIES", "OWN", "check_model_template", "checked_family", "set_template_family", "template_family"]

_KEY = "model_templates"
OWN = ""  # the file's own template


def _key(path: Path | str | None) -> str:
    return str(Path(path).expanduser().resolve()) if path else str(default_model_path())


def template_family(database: Database | None, path: Path | str | None) -> str:
    """The family chosen for the file at `path` (None or "" is the bundled model), or OWN."""
    if database is None:
        return OWN
    family = SettingsStore(database).get(_KEY, {}).get(_key(path), OWN)
    return family if family in FAMILIES else OWN


def set_template_family(database: Database, path: Path | str | None, family: str) -> None:
    chosen = dict(SettingsStore(database).get(_KEY, {}))
    if family == OWN:
        chosen.pop(_key(path), None)
    else:
        chosen[_key(path)] = checked_family(family)
    SettingsStore(database).set(_KEY, chosen)


def checked_family(family: str) -> str:
    if family != OWN and family not in FAMILIES:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Unknown chat template family {family!r}; use one of "
                                                        "{families}."), family=family, families=", ".join(FAMILIES))
    return family


def check_model_template(path: Path | str | None, family: str = OWN) -> None:
    """Refuse (TemplateUnusable, naming the model and a family to use) a file whose own template fails on a
    sample conversation; a known family's template needs no trial."""
    if checked_family(family) != OWN:
        return
    file = Path(path).expanduser() if path else default_model_path()
    try:
        source = read_gguf_header(file).metadata.get("tokenizer.chat_template")
    except (GgufUnreadable, OSError):
        return  # the model list and `check_gguf` say what is wrong with the file itself
    if not isinstance(source, str) or not source.strip():
        raise template_unusable(file, "", "the file carries no chat template")
    failure = failure_of(source)
    if failure is not None:
        raise template_unusable(file, source, failure)
