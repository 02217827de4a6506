"""The user's messages on their way into the transcript (migration 0009).

A message is put here first, before any model work that must precede its turn, and moved
into the transcript in one transaction with its deletion here: a process killed at any
moment loses none and stores none twice, and messages keep the order they were given in.
Each row names the process that took it; a live process delivers and answers its own, and
the rows of a process that died are anyone's (`claimable` decides, see services/conversation/owner.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from mfs_desktop.store.database import Connection, Database
from mfs_desktop.store.models import Message, MessageDraft
from mfs_desktop.store.transcript import append_in_transaction

Claimable = Callable[[str], bool]
"""Given a row's owner: may this process deliver it?"""


class Outbox:
    def __init__(self, database: Database) -> None:
        self._db = database

    def put(self, conversation_id: str, draft: MessageDraft, owner: str) -> None:
        def change(connection: Connection) -> None:
            connection.execute(
                "INSERT INTO outbox (conversation_id, content, origin, quoted_uid, attachment_sha256, owner, "
                "queued_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    conversation_id,
                    draft.text,
                    draft.origin,
                    draft.quoted_uid,
                    draft.attachment_sha256,
                    owner,
                    time.time(),
                ),
            )

        self._db.write(change)

    def waiting(self, conversation_id: str, claimable: Claimable) -> int:
        rows = self._db.connection().execute("SELECT owner FROM outbox WHERE conversation_id = ?", (conversation_id,))
        return sum(1 for (owner,) in rows if claimable(owner))

    def deliver(self, conversation_id: str, claimable: Claimable) -> list[Message]:
        """This process's waiting messages (and a dead one's) into the transcript, in the order given."""

        def deliver(connection: Connection) -> list[Message]:
            rows = [row for row in connection.execute(
                "SELECT seq, content, origin, quoted_uid, attachment_sha256, owner FROM outbox "
                "WHERE conversation_id = ? ORDER BY seq", (conversation_id,)) if claimable(row[5])]
            if not rows:
                return []
            drafts = [MessageDraft("user", content, origin=origin, quoted_uid=quoted, attachment_sha256=sha)
                      for _, content, origin, quoted, sha, _ in rows]
            messages = append_in_transaction(connection, conversation_id, drafts)
            connection.executemany("DELETE FROM outbox WHERE seq = ?", [(row[0],) for row in rows])
            return messages

        return self._db.write(deliver)
