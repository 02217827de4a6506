"""The model list: every GGUF on this machine the app can find, what each is, whether it fits.

Headers are read once per file: the results are kept in the encrypted settings table keyed
by path, size and modification time (and the llama.cpp version, which decides what loads),
so listing a few hundred files again costs their `stat` calls.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from mfs_desktop.runtime.model_files import default_model_path
from mfs_desktop.runtime.model_info import ModelInfo, is_later_split, read_model_info
from mfs_desktop.runtime.model_sources import Candidate, app_candidates, folder_candidates
from mfs_desktop.services.unlock import DataDir
from mfs_desktop.store.database import Database
from mfs_desktop.store.settings import SettingsStore

log = logging.getLogger(__name__)

CACHE_KEY = "models.header_cache"
FOLDERS_KEY = "models.folders"
SOURCES = ("bundled", "downloaded", "lmstudio", "gpt4all", "jan", "huggingface", "ollama", "folder")


@dataclass(frozen=True)
class LibraryModel:
    info: ModelInfo
    source: str
    label: str

    @property
    def downloaded(self) -> bool:
        """Files the app downloaded are the only ones it may delete."""
        return self.source == "downloaded"


def downloads_folder(data_dir: DataDir) -> Path:
    return data_dir.root / "models"


def _llama_version() -> str:
    try:
        from importlib.metadata import version

        return version("llama-cpp-python")
    except Exception:  # not installed: headers are still readable, loading is judged later
        return ""


class HeaderCache:
    """ModelInfo by path, valid while the file's size and mtime are unchanged."""

    def __init__(self, stored: object = None) -> None:
        self.version = _llama_version()
        entries = stored.get("files", {}) if isinstance(stored, dict) and stored.get("llama") == self.version else {}
        self._entries: dict[str, list] = dict(entries) if isinstance(entries, dict) else {}
        self.changed = False
        self.reads = 0

    def info(self, path: Path) -> ModelInfo:
        try:
            status = path.stat()
        except OSError:
            return read_model_info(path)
        stamp = [status.st_size, status.st_mtime_ns]
        key = str(path)
        entry = self._entries.get(key)
        if entry and entry[:2] == stamp:
            try:
                return ModelInfo(**entry[2])
            except TypeError:
                pass  # written by another version of ModelInfo: read again
        self.reads += 1
        info = read_model_info(path)
        self._entries[key] = [*stamp, asdict(info)]
        self.changed = True
        return info

    def keep_only(self, paths: Iterable[str]) -> None:
        wanted = set(paths)
        if set(self._entries) - wanted:
            self._entries = {key: value for key, value in self._entries.items() if key in wanted}
            self.changed = True

    def as_json(self) -> dict:
        return {"llama": self.version, "files": self._entries}


def user_folders(database: Database) -> list[Path]:
    return [Path(text) for text in SettingsStore(database).get(FOLDERS_KEY, [])]


def set_user_folders(database: Database, folders: Iterable[Path]) -> list[Path]:
    unique = list(dict.fromkeys(str(Path(folder).expanduser().resolve()) for folder in folders))
    SettingsStore(database).set(FOLDERS_KEY, unique)
    return [Path(text) for text in unique]


def _bundled() -> Iterator[Candidate]:
    try:
        path = default_model_path()
    except Exception:  # NotFound: the list says nothing bundled, the doctor says why
        return
    yield Candidate(path, "bundled", "SmolLM2-135M-Instruct (bundled)")


def candidates(data_dir: DataDir, folders: Iterable[Path]) -> Iterator[Candidate]:
    yield from _bundled()
    yield from folder_candidates([downloads_folder(data_dir)], "downloaded")
    yield from app_candidates()
    yield from folder_candidates(list(folders), "folder")


def discover(data_dir: DataDir, folders: Iterable[Path], cache: HeaderCache) -> list[LibraryModel]:
    """Every model file once (the first source to name a file keeps it), parts 2… of split
    files left out, each with what its header says or why it cannot be used."""
    began = time.perf_counter()
    seen: set[str] = set()
    models: list[LibraryModel] = []
    for candidate in candidates(data_dir, folders):
        real = os.path.realpath(candidate.path)
        if real in seen or is_later_split(candidate.path):
            continue
        seen.add(real)
        models.append(LibraryModel(cache.info(candidate.path), candidate.source, candidate.label))
    cache.keep_only(str(model.info.path) for model in models)
    log.info("model list: %d files, %d headers read, %.0f ms", len(models), cache.reads,
             (time.perf_counter() - began) * 1000)
    return models


def list_models(database: Database, data_dir: DataDir) -> list[LibraryModel]:
    settings = SettingsStore(database)
    cache = HeaderCache(settings.get(CACHE_KEY))
    models = discover(data_dir, user_folders(database), cache)
    if cache.changed:
        settings.set(CACHE_KEY, cache.as_json())
    return models
