"""Saved KV caches: sealed files in `<data>/kv/`, their rows in `kv_states`, a size cap with
least-recently-used eviction, and a sweep of files no row names (a trashed or purged
conversation's, a file a killed process left half-written). The files are sealed before they
reach this module (services/conversation/warm_start.py); it never sees a cache in the clear."""

from __future__ import annotations

import logging
import os
import secrets
import stat
import time
from collections.abc import Sequence
from pathlib import Path

from mfs_desktop.store.database import Connection, Database

log = logging.getLogger(__name__)

FOLDER = "kv"
SUFFIX = ".kv"


class KvStateStore:
    def __init__(self, database: Database, cap_bytes: int) -> None:
        self._db = database
        self.cap_bytes = cap_bytes
        self.folder = database.path.parent / FOLDER

    def save(self, conversation_id: str, pieces: Sequence[bytes | memoryview], model_id: str, window: int,
             tokens: int) -> int:
        """Keep the sealed cache, written piece by piece, as the conversation's; returns the bytes
        written (0 when the cap is 0 or the cache alone exceeds it)."""
        size = sum(len(piece) for piece in pieces)
        if not self.cap_bytes or size > self.cap_bytes:
            self.delete(conversation_id)
            return 0
        self.folder.mkdir(mode=0o700, exist_ok=True)
        name = f"{secrets.token_hex(8)}{SUFFIX}"
        temporary = self.folder / (name + ".part")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(descriptor, "wb") as handle:
                for piece in pieces:
                    handle.write(piece)
            os.replace(temporary, self.folder / name)
        except BaseException:
            # A full disk or a stop mid-write: a half cache is useless, and left behind it would hold the very
            # space the next message needs.
            temporary.unlink(missing_ok=True)
            raise

        def change(connection: Connection) -> str | None:
            if connection.execute("SELECT trashed_at IS NOT NULL FROM conversations WHERE id = ?",
                                  (conversation_id,)).fetchone() in (None, (1,)):
                return name  # gone or trashed meanwhile: the new file is not kept either
            old = connection.execute("SELECT file_name FROM kv_states WHERE conversation_id = ?",
                                     (conversation_id,)).fetchone()
            connection.execute(
                "INSERT OR REPLACE INTO kv_states (conversation_id, file_name, model_id, window, tokens, bytes, "
                "used_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (conversation_id, name, model_id, window, tokens, size, time.time()))
            return old[0] if old else None

        stale = self._db.write(change)
        if stale:
            (self.folder / stale).unlink(missing_ok=True)
        self.evict()
        return size

    def load(self, conversation_id: str, model_id: str, window: int) -> bytes | None:
        """The sealed cache of the conversation if it was made by this model at this window."""
        row = self._db.connection().execute(
            "SELECT file_name, model_id, window, bytes FROM kv_states WHERE conversation_id = ?",
            (conversation_id,)).fetchone()
        if row is None or row[1] != model_id or row[2] != window:
            return None
        try:
            blob = _read_regular(self.folder / row[0], row[3])
        except OSError as error:
            log.warning("saved cache of conversation %s ignored: %s", conversation_id, error.strerror or error)
            self.delete(conversation_id)
            return None
        self._db.write(lambda connection: connection.execute(
            "UPDATE kv_states SET used_at = ? WHERE conversation_id = ?", (time.time(), conversation_id)))
        return blob

    def delete(self, conversation_id: str) -> None:
        def change(connection: Connection) -> str | None:
            row = connection.execute("SELECT file_name FROM kv_states WHERE conversation_id = ?",
                                     (conversation_id,)).fetchone()
            connection.execute("DELETE FROM kv_states WHERE conversation_id = ?", (conversation_id,))
            return row[0] if row else None

        name = self._db.write(change)
        if name:
            (self.folder / name).unlink(missing_ok=True)

    def total_bytes(self) -> int:
        return self._db.connection().execute("SELECT coalesce(sum(bytes), 0) FROM kv_states").fetchone()[0]

    def evict(self) -> list[str]:
        """Drop the least recently used caches until the rest fit the cap; then sweep."""
        rows = self._db.connection().execute(
            "SELECT conversation_id, bytes FROM kv_states ORDER BY used_at DESC").fetchall()
        kept, dropped = 0, []
        for conversation_id, size in rows:
            kept += size
            if kept > self.cap_bytes:
                dropped.append(conversation_id)
        for conversation_id in dropped:
            self.delete(conversation_id)
        sweep(self._db)
        return dropped


def _read_regular(path: Path, size: int) -> bytes:
    """The file's bytes if it is a regular file of exactly the size written: a symlink to /dev/zero
    or a FIFO put in its place is refused without reading or waiting."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(descriptor, "rb") as handle:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise OSError("not a regular file")
        if status.st_size != size:
            raise OSError(f"{status.st_size:,} bytes where {size:,} were written")
        blob = handle.read(size + 1)
    if len(blob) != size:
        raise OSError("the cache file changed while it was read")
    return blob


def sweep(database: Database) -> int:
    """Delete every file in the cache folder that no row names; returns how many."""
    folder: Path = database.path.parent / FOLDER
    if not folder.is_dir():
        return 0
    named = {row[0] for row in database.connection().execute("SELECT file_name FROM kv_states")}
    removed = 0
    for path in folder.iterdir():
        if path.name not in named and (path.suffix == SUFFIX or path.name.endswith(SUFFIX + ".part")):
            if path.name.endswith(".part") and time.time() - path.stat().st_mtime < 60:
                continue  # another process may be writing it right now
            path.unlink(missing_ok=True)
            removed += 1
    return removed
