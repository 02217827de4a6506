"""A conversation inserted exactly as it was exported (services/transfer.py checks every field
first): one transaction, so a row the schema refuses leaves nothing imported."""

from __future__ import annotations

from collections.abc import Sequence

import sqlcipher3

from mfs_desktop.errors import InvalidInput
from mfs_desktop.store.attachments import AttachmentBlob, insert_attachment
from mfs_desktop.store.database import Connection, Database
from mfs_desktop.store.models import Conversation, Message, Retraction
from mfs_desktop.store.transcript import CONVERSATION_COLUMNS, MESSAGE_COLUMNS, insert_messages


def import_conversation(
    database: Database, conversation: Conversation, messages: Sequence[Message], retractions: Sequence[Retraction],
    hidden: Sequence[tuple[int, str]] = (), knowledge: Sequence[tuple[str, str, int | None, float]] = (),
    attachments: Sequence[AttachmentBlob] = (),
) -> None:
    """Insert a conversation exactly as exported: same ids, uids, ordinals, epochs, hashes,
    the same answer shown where Regenerate left alternatives, the same knowledge slot. One
    transaction: a row the schema refuses leaves nothing imported."""
    try:
        _import_in_transaction(database, conversation, messages, retractions, hidden, knowledge, attachments)
    except sqlcipher3.IntegrityError as exc:
        raise InvalidInput(f"The export breaks a rule of the database ({exc}); nothing was imported.") from None


def _import_in_transaction(
    database: Database, conversation: Conversation, messages: Sequence[Message], retractions: Sequence[Retraction],
    hidden: Sequence[tuple[int, str]], knowledge: Sequence[tuple[str, str, int | None, float]],
    attachments: Sequence[AttachmentBlob],
) -> None:
    def change(connection: Connection) -> None:
        exists = connection.execute("SELECT 1 FROM conversations WHERE id = ?", (conversation.id,)).fetchone()
        if exists:
            raise InvalidInput(f"Conversation {conversation.id} already exists here; import it with a new id.")
        values = [getattr(conversation, name.strip()) for name in CONVERSATION_COLUMNS.split(",")]
        placeholders = ", ".join("?" for _ in values)
        connection.execute(f"INSERT INTO conversations ({CONVERSATION_COLUMNS}) VALUES ({placeholders})", values)
        for blob in attachments:
            insert_attachment(connection, blob)
        if messages:
            insert_messages(connection, [
                tuple(getattr(message, name.strip()) for name in MESSAGE_COLUMNS.split(",")) for message in messages
            ])
        connection.executemany(
            "INSERT INTO retractions (conversation_id, uid, epoch, reason, retracted_at) VALUES (?, ?, ?, ?, ?)",
            [(r.conversation_id, r.uid, r.epoch, r.reason, r.retracted_at) for r in retractions],
        )
        connection.executemany(
            "INSERT INTO hidden_alternatives (conversation_id, uid, generation_id) VALUES (?, ?, ?)",
            [(conversation.id, uid, generation_id) for uid, generation_id in hidden],
        )
        connection.executemany(
            "INSERT INTO knowledge (conversation_id, key, value, source_uid, updated_at) VALUES (?, ?, ?, ?, ?)",
            [(conversation.id, *row) for row in knowledge],
        )

    database.write(change)
