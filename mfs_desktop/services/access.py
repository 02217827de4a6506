"""Can this user read and write the data folder? Asked before anything is opened, so that a
permission problem is named as one — never as a damaged database (SQLite reports a folder
where it cannot create its -wal/-shm files as "unable to open database file")."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

from mfs_desktop.errors import StorageAccess
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

log = logging.getLogger(__name__)
_OPTION = "--data-dir"  # a command-line option, not translated: a value of the sentences that name it


def require_data_access(root: Path, *, readable: tuple[Path, ...], writable: tuple[Path, ...]) -> None:
    """Files in `root` that, when present, must be readable (the key files: replaced, never
    written in place) or readable and writable (the database and its journal)."""
    try:
        _require_access(root, readable, writable)
    except PermissionError as exc:  # a folder above cannot be entered: even asking if it exists fails
        raise StorageAccess.worded(QT_TRANSLATE_NOOP("", "The data folder {root} cannot be reached: permission denied "
                                                         "on {path}. Give your user access, or choose another with "
                                                         "{option}. Nothing was changed."),
                                   root=root, path=exc.filename or root, option=_OPTION) from None


def _require_access(root: Path, readable: tuple[Path, ...], writable: tuple[Path, ...]) -> None:
    if not root.exists():
        _require_creatable(root)
        return
    if not root.is_dir():
        raise StorageAccess.worded(QT_TRANSLATE_NOOP("", "The data folder {root} is not a folder; choose another with "
                                                         "{option}. Nothing was changed."), root=root, option=_OPTION)
    if not os.access(root, os.R_OK | os.X_OK):
        raise StorageAccess.worded(QT_TRANSLATE_NOOP("", "The data folder {root} cannot be read: permission denied. "
                                                         "Give your user access to it ({command}). Nothing was "
                                                         "changed."), root=root, command=f"chmod u+rwx {root}")
    for path in (*readable, *writable):
        if path.exists() and not os.access(path, os.R_OK):
            raise StorageAccess.worded(QT_TRANSLATE_NOOP("", "{path} cannot be read: permission denied. Give your "
                                                             "user access to it ({command}). Nothing was changed."),
                                       path=path, command=f"chmod u+rw {path}")
    if not os.access(root, os.W_OK):
        raise StorageAccess.worded(QT_TRANSLATE_NOOP("", "The data folder {root} is read-only: the database keeps its "
                                                         "journal (-wal and -shm files) beside it. Make the folder "
                                                         "writable ({command}), or copy it to a writable place and "
                                                         "use {option}. The database is not damaged, and nothing was "
                                                         "changed."), root=root, command=f"chmod u+w {root}",
                                   option=_OPTION)
    for path in writable:
        if path.exists() and not os.access(path, os.W_OK):
            raise StorageAccess.worded(QT_TRANSLATE_NOOP("", "{path} is read-only; the app must write to it. Make it "
                                                             "writable ({command}). The file is not damaged, and "
                                                             "nothing was changed."), path=path,
                                       command=f"chmod u+w {path}")


def _require_creatable(root: Path) -> None:
    ancestor = next(parent for parent in root.parents if parent.exists())
    if not ancestor.is_dir():
        raise StorageAccess.worded(QT_TRANSLATE_NOOP("", "The data folder {root} cannot be created: {ancestor} is a "
                                                         "file, not a folder. Choose another with {option}."),
                                   root=root, ancestor=ancestor, option=_OPTION)
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise StorageAccess.worded(QT_TRANSLATE_NOOP("", "The data folder {root} cannot be created: {ancestor} is not "
                                                         "writable for you (read-only or permission denied). Choose "
                                                         "another with {option}, or make it writable."),
                                   root=root, ancestor=ancestor, option=_OPTION)


def make_data_folder(root: Path) -> None:
    try:
        root.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:  # a race with a permission change, or a full disk
        raise StorageAccess.worded(QT_TRANSLATE_NOOP("", "The data folder {root} cannot be created: {error}."),
                                   root=root, error=exc.strerror or exc) from exc


def make_private(root: Path, files: tuple[Path, ...]) -> None:
    """The folder 0700 and `files` 0600, tightened where an older version or a user left them
    looser (the database is encrypted, but nobody else needs to read even that). SQLite gives
    the -wal and -shm files the database file's mode when it creates them."""
    for path, private in ((root, 0o700), *((f, 0o600) for f in files)):
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
        except FileNotFoundError:
            continue
        if mode & 0o077:
            try:
                path.chmod(private)
            except PermissionError:  # not ours to change (a shared folder): said, not fatal
                log.warning("could not tighten %s from %o to %o", path.name or path, mode, private)
                continue
            log.info("tightened %s from %o to %o", path.name or path, mode, private)


def create_private_file(path: Path) -> None:
    """An empty file only its owner may read, so that SQLite's journal files inherit that."""
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
