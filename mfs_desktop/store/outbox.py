"""The user's messages on their way into the transcript (migration 0009).

A message is put here first, before any model work that must precede its turn, and moved
into the transcript in one transaction with its deletion here: a process killed at any
moment loses none and stores none twice, and messages keep the order they were given in.
"""

from __future__ import annotations

import time

from mfs_desktop.store.database import Database
from mfs_desktop.store.models import Message, MessageDraft
from mfs_desktop.store.transcript import append_in_transaction


class Outbox:
    def __init__(self, database: Database) -> None:
        self._db = database

    def put(self, conversation_id: str, draft: MessageDraft) -> None:
        with self._db.transaction() as connection:
            connection.execute(
                "INSERT INTO outbox (conversation_id, content, origin, quoted_uid, attachment_sha256, queued_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (conversation_id, draft.text, draft.origin, draft.quoted_uid, draft.attachment_sha256, time.time()))

    def waiting(self, conversation_id: str) -> int:
        return self._db.connection().execute(
            "SELECT COUNT(*) FROM outbox WHERE conversation_id = ?", (conversation_id,)).fetchone()[0]

    def deliver(self, conversation_id: str) -> list[Message]:
        """Every waiting message of the conversation into the transcript, in the order given."""
        with self._db.transaction() as connection:
            rows = connection.execute(
                "SELECT seq, content, origin, quoted_uid, attachment_sha256 FROM outbox WHERE conversation_id = ? "
                "ORDER BY seq", (conversation_id,)).fetchall()
            if not rows:
                return []
            drafts = [MessageDraft("user", content, origin=origin, quoted_uid=quoted, attachment_sha256=sha)
                      for _, content, origin, quoted, sha in rows]
            messages = append_in_transaction(connection, conversation_id, drafts)
            connection.execute("DELETE FROM outbox WHERE conversation_id = ? AND seq <= ?", (conversation_id, rows[-1][0]))
        return messages
