"""A conversation inserted exactly as it was exported (services/transfer/exports.py checks every field
first): one transaction, so a row the schema refuses leaves nothing imported."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import sqlcipher3

from mfs_desktop.errors import InvalidInput
from mfs_desktop.store.attachments import AttachmentBlob, insert_attachment
from mfs_desktop.store.database import Connection, Database
from mfs_desktop.store.models import Conversation, Message, MessageDraft, Retraction
from mfs_desktop.store.transcript import (
    CONVERSATION_COLUMNS,
    MESSAGE_COLUMNS,
    _message_row,
    _read_conversation,
    _validate_draft,
    insert_messages,
    new_id,
    title_from,
)


@dataclass(frozen=True)
class ImportedMessage:
    """A message of another app's export. A tool call is an assistant message with a tool name
    and no text, its result a `tool` message with the same call id (as the app's own tools
    store them); a pasted document is carried as its snapshot."""

    role: str  # user | assistant | tool
    text: str
    created_at: float
    thinking: str | None = None  # the model's reasoning, kept apart from its answer (messages.thinking)
    origin: str = ""  # "" is the role's default; "document" when `document` is set
    tool_name: str | None = None
    tool_arguments: str | None = None
    tool_call_id: str | None = None
    document: AttachmentBlob | None = None


def import_plain_conversations(
    database: Database, source: str, conversations: Sequence[tuple[str, str, float, Sequence[ImportedMessage]]],
) -> tuple[list[str], int]:
    """Conversations from another app, as (source id, title, created_at, messages), in one
    transaction; one imported before from `source` is skipped. Returns the new ids and how many
    were skipped."""

    def change(connection: Connection) -> tuple[list[str], int]:
        known = {row[0] for row in connection.execute(
            "SELECT source_id FROM imported_sources WHERE source = ?", (source,))}
        created: list[str] = []
        for source_id, title, created_at, messages in conversations:
            if source_id in known or not messages:
                continue
            known.add(source_id)
            created.append(_insert_plain(connection, source, source_id, title, created_at, messages))
        return created, len(conversations) - len(created)

    return database.write(change)


def _insert_plain(connection: Connection, source: str, source_id: str, title: str, created_at: float,
                  messages: Sequence[ImportedMessage]) -> str:
    conversation_id = new_id()
    first_user = next((m.text for m in messages if m.role == "user"), "")
    updated_at = max(m.created_at for m in messages)
    connection.execute(
        "INSERT INTO conversations (id, title, created_at, updated_at, lineage_id) VALUES (?, ?, ?, ?, ?)",
        (conversation_id, title or title_from(first_user), created_at or messages[0].created_at, updated_at,
         new_id()))
    conversation = _read_conversation(connection, conversation_id)
    rows, turn = [], 0
    for uid, message in enumerate(messages, start=1):
        snapshot = insert_attachment(connection, message.document) if message.document is not None else None
        draft = MessageDraft(message.role, message.text, origin=message.origin, tool_name=message.tool_name,
                             tool_arguments=message.tool_arguments, tool_call_id=message.tool_call_id,
                             attachment_sha256=snapshot, thinking=message.thinking)
        _validate_draft(draft)
        turn += message.role == "user"
        rows.append(_message_row(conversation, draft, uid, max(turn, 1), message.created_at, None))
    insert_messages(connection, rows)
    connection.execute("INSERT INTO imported_sources (source, source_id, conversation_id, imported_at) "
                       "VALUES (?, ?, ?, ?)", (source, source_id, conversation_id, time.time()))
    return conversation_id


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
