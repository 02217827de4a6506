"""Messages the user pinned as standing instructions: the one channel that needs no guessing
(DESIGN section 5, zone 2). A pin or unpin rewrites the knowledge slot as one event: the
block version moves (a candidate planned before it is refused by its CAS) and the ledger says
so, in the same transaction."""

from __future__ import annotations

import time
from collections.abc import Callable

from mfs_desktop.errors import InvalidInput
from mfs_desktop.store.database import Connection, Database
from mfs_desktop.store.ledger import LedgerEvent, LedgerOutcome, record_in_transaction
from mfs_desktop.store.transcript import _read_visible_message, _require_live
from mfs_desktop.translatable import QT_TRANSLATE_NOOP


def pinned_uids(database: Database, conversation_id: str) -> list[int]:
    rows = database.connection().execute(
        "SELECT uid FROM pins WHERE conversation_id = ? ORDER BY uid", (conversation_id,))
    return [row[0] for row in rows]


def set_pinned(database: Database, conversation_id: str, uid: int, pinned: bool,
               render_slot: Callable[[], str]) -> str:
    """Pin or unpin one of the user's messages and rewrite the slot with `render_slot`, which
    runs inside the transaction on the writer thread (whose reads go through the writing
    connection), so it sees the change and may refuse it by raising; returns the new slot text."""

    def change(connection: Connection) -> str:
        _require_live(connection, conversation_id)
        message = _read_visible_message(connection, conversation_id, uid)
        if message.role != "user":
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Message {uid} is the {role}'s; only your own messages can "
                                                            "be pinned."), uid=uid, role=message.role)
        if pinned:
            changed = connection.execute(
                "INSERT OR IGNORE INTO pins (conversation_id, uid, pinned_at) VALUES (?, ?, ?)",
                (conversation_id, uid, time.time()),
            ).rowcount
        else:
            changed = connection.execute("DELETE FROM pins WHERE conversation_id = ? AND uid = ?",
                                         (conversation_id, uid)).rowcount
        if not changed:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Message {uid} is already pinned.") if pinned
                                      else QT_TRANSLATE_NOOP("", "Message {uid} is not pinned."), uid=uid)
        slot_text = render_slot()
        connection.execute("UPDATE conversations SET block_version = block_version + 1, slot_snapshot = ? WHERE id = ?",
                           (slot_text, conversation_id))
        event = LedgerEvent.PIN if pinned else LedgerEvent.UNPIN
        record_in_transaction(connection, conversation_id, event, LedgerOutcome.OK,
                              f"uid {uid} {event}ned; the knowledge slot was rewritten")
        return slot_text

    return database.write(change)
