"""Content-addressed document snapshots inside the encrypted database (never plaintext files)."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from mfs_desktop.errors import NotFound
from mfs_desktop.store.database import Connection, Database
from mfs_desktop.store.models import Attachment
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

FIRST_LINE_CHARS = 200
_COLUMNS = "sha256, name, media_type, size, first_line, created_at, unreferenced_since"


def first_line_of(data: bytes) -> str:
    """The first non-empty line if the blob is text; a plain label if it is binary."""
    try:
        text = data[:64 * 1024].decode("utf-8")
    except UnicodeDecodeError:
        return "(binary content)"
    if "\x00" in text:
        return "(binary content)"
    line = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return line[:FIRST_LINE_CHARS]


@dataclass(frozen=True)
class AttachmentBlob:
    """A snapshot about to be stored (an import carries its name, type and time)."""

    data: bytes
    name: str = ""
    media_type: str = "application/octet-stream"
    created_at: float | None = None


def insert_attachment(connection: Connection, blob: AttachmentBlob) -> str:
    """Inside the caller's transaction; stored once per content. Returns its sha256."""
    digest = hashlib.sha256(blob.data).hexdigest()
    stamp = time.time() if blob.created_at is None else blob.created_at
    connection.execute(
        "INSERT OR IGNORE INTO attachments (sha256, name, media_type, size, first_line, data, created_at, "
        "unreferenced_since) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (digest, blob.name, blob.media_type, len(blob.data), first_line_of(blob.data), blob.data, stamp, stamp),
    )
    return digest


class AttachmentStore:
    def __init__(self, database: Database) -> None:
        self._db = database

    def put(self, data: bytes, *, name: str = "", media_type: str = "application/octet-stream",
            now: float | None = None) -> Attachment:
        """Store a snapshot once per content; until a message references it, it counts as unreferenced."""
        digest = self._db.write(lambda connection: insert_attachment(connection, AttachmentBlob(data, name,
                                                                                              media_type, now)))
        return self.info(digest)

    def info(self, sha256: str) -> Attachment:
        row = (
            self._db.connection().execute(f"SELECT {_COLUMNS} FROM attachments WHERE sha256 = ?", (sha256,)).fetchone()
        )
        if row is None:
            raise NotFound.worded(QT_TRANSLATE_NOOP("", "No attachment {sha256}."), sha256=sha256)
        return Attachment(*row)

    def data(self, sha256: str) -> bytes:
        row = self._db.connection().execute("SELECT data FROM attachments WHERE sha256 = ?", (sha256,)).fetchone()
        if row is None:
            raise NotFound.worded(QT_TRANSLATE_NOOP("", "No attachment {sha256}; it may have been cleaned up after its "
                                                        "last reference went away."), sha256=sha256)
        return bytes(row[0])

    def purge_unreferenced(self, cutoff: float) -> int:
        """Delete snapshots no message has referenced since before `cutoff`."""

        def delete(connection: Connection) -> int:
            return connection.execute(
                "DELETE FROM attachments WHERE unreferenced_since IS NOT NULL AND unreferenced_since < ? "
                "AND NOT EXISTS (SELECT 1 FROM messages WHERE attachment_sha256 = attachments.sha256)",
                (cutoff,),
            ).rowcount

        return self._db.write(delete)
