"""The canonical transcript: conversations and their append-only messages.

Messages are never updated or deleted (the database's triggers refuse it). Editing or
deleting history retracts messages in a new epoch and lineage, which invalidates every
segment and unfinished generation of the old lineage (DESIGN invariant 1, seed 000's
epoch/lineage rules).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence

from mfs_desktop.errors import InvalidInput, NotFound
from mfs_desktop.store.database import Connection, Database
from mfs_desktop.store.models import (
    DEFAULT_ORIGIN,
    ROLES,
    Conversation,
    ConversationSummary,
    Message,
    MessageDraft,
    Retraction,
    sha256_text,
)
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

TITLE_CHARS = 80

CONVERSATION_COLUMNS = (
    "id, title, created_at, updated_at, epoch, lineage_id, lineage_base_uid, memory_mode, "
    "preference_revision, transcript_revision, block_version, trashed_at"
)
MESSAGE_COLUMNS = (
    "conversation_id, uid, turn_ordinal, role, origin, text, text_sha256, created_at, epoch, status, "
    "generation_id, tool_name, tool_arguments, tool_call_id, quoted_uid, edit_of_uid, attachment_sha256, thinking"
)
# Everything that belongs to a conversation, deleted before it when it is purged (children first).
_CONVERSATION_TABLES = ("conversation_tags", "imported_sources", "conversation_settings", "conversation_models",
                        "pins", "knowledge", "trajectory", "ledger", "segments", "generations", "hidden_alternatives",
                        "retractions", "kv_states", "recalls", "messages")
_VISIBLE = (
    "NOT EXISTS (SELECT 1 FROM retractions r WHERE r.conversation_id = m.conversation_id AND r.uid = m.uid) "
    "AND NOT EXISTS (SELECT 1 FROM hidden_alternatives h WHERE h.conversation_id = m.conversation_id AND h.uid = m.uid)"
)

# A conversation's newest visible turn ordinal (its turn count), read through the (conversation,
# uid) index: a count would scan every message of every conversation on each refresh of a list.
NEWEST_TURN = (f"coalesce((SELECT m.turn_ordinal FROM messages m WHERE m.conversation_id = c.id AND {_VISIBLE} "
               "ORDER BY m.uid DESC LIMIT 1), 0)")


def new_id() -> str:
    return uuid.uuid4().hex


def title_from(text: str) -> str:
    first_line = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return first_line if len(first_line) <= TITLE_CHARS else first_line[: TITLE_CHARS - 1] + "…"


class TranscriptStore:
    def __init__(self, database: Database) -> None:
        self._db = database

    def create_conversation(self, title: str = "", *, now: float | None = None) -> Conversation:
        stamp = time.time() if now is None else now
        conversation_id = new_id()
        self._db.write(lambda connection: connection.execute(
            "INSERT INTO conversations (id, title, created_at, updated_at, lineage_id) VALUES (?, ?, ?, ?, ?)",
            (conversation_id, title, stamp, stamp, new_id())))
        return self.conversation(conversation_id)

    def conversation(self, conversation_id: str) -> Conversation:
        return _read_conversation(self._db.connection(), conversation_id)

    def list_conversations(self, *, trashed: bool = False) -> list[ConversationSummary]:
        rows = self._db.connection().execute(
            f"SELECT c.id, c.title, {NEWEST_TURN}, c.updated_at, c.trashed_at FROM conversations c "
            "WHERE (c.trashed_at IS NOT NULL) = ? ORDER BY c.updated_at DESC, c.id", (int(trashed),))
        return [ConversationSummary(*row) for row in rows]

    def _change_live(self, conversation_id: str, statement: str, parameters: tuple) -> None:
        """One statement about a conversation that is not in the trash (else InvalidInput)."""

        def change(connection: Connection) -> None:
            _require_live(connection, conversation_id)
            connection.execute(statement, parameters)

        self._db.write(change)

    def rename(self, conversation_id: str, title: str) -> None:
        self._change_live(conversation_id, "UPDATE conversations SET title = ? WHERE id = ?", (title, conversation_id))

    def append(
        self, conversation_id: str, drafts: Sequence[MessageDraft], *, now: float | None = None
    ) -> list[Message]:
        """Append messages atomically: all of them, or none after a crash."""
        if not drafts:
            return []
        return self._db.write(lambda connection: append_in_transaction(connection, conversation_id, drafts,
                                                                        now=now))

    def messages(
        self, conversation_id: str, *, include_retracted: bool = False, uid_from: int = 1, uid_to: int | None = None
    ) -> list[Message]:
        """The current view (or, with `include_retracted`, every stored message), oldest first."""
        visible = "1" if include_retracted else _VISIBLE
        rows = self._db.connection().execute(
            f"SELECT {MESSAGE_COLUMNS} FROM messages m WHERE conversation_id = ? AND uid BETWEEN ? AND ? "
            f"AND {visible} ORDER BY uid",
            (conversation_id, uid_from, uid_to if uid_to is not None else 2**62),
        )
        return [_message_from_row(row) for row in rows]

    def newest_page(self, conversation_id: str, *, limit: int = 50, before_uid: int | None = None) -> list[Message]:
        """One page of the current view ending before `before_uid` (newest page by default), oldest first."""
        rows = self._db.connection().execute(
            f"SELECT {MESSAGE_COLUMNS} FROM messages m WHERE conversation_id = ? AND uid < ? AND {_VISIBLE} "
            "ORDER BY uid DESC LIMIT ?",
            (conversation_id, before_uid if before_uid is not None else 2**62, limit),
        )
        return [_message_from_row(row) for row in reversed(rows.fetchall())]

    def next_uid(self, conversation_id: str) -> int:
        """The uid the next appended message will get (uids never repeat, retracted or not)."""
        row = self._db.connection().execute(
            "SELECT coalesce(max(uid), 0) + 1 FROM messages WHERE conversation_id = ?", (conversation_id,)).fetchone()
        return row[0]

    def hidden_alternatives(self, conversation_id: str) -> list[tuple[int, str]]:
        rows = self._db.connection().execute(
            "SELECT uid, generation_id FROM hidden_alternatives WHERE conversation_id = ? ORDER BY uid",
            (conversation_id,))
        return [tuple(row) for row in rows]

    def knowledge(self, conversation_id: str) -> list[tuple[str, str, int | None, float]]:
        rows = self._db.connection().execute(
            "SELECT key, value, source_uid, updated_at FROM knowledge WHERE conversation_id = ? ORDER BY key",
            (conversation_id,))
        return [tuple(row) for row in rows]

    def set_knowledge(self, conversation_id: str, key: str, value: str, *, now: float | None = None,
                      source_uid: int | None = None) -> None:
        """A recorded value, the user's or a tool call's (`source_uid`); the slot gets it at the next compaction."""
        if not key.strip() or not value.strip():
            raise InvalidInput(QT_TRANSLATE_NOOP("", "A recorded value needs a name and a value."))
        self._change_live(conversation_id, "INSERT OR REPLACE INTO knowledge (conversation_id, key, value, "
                          "source_uid, updated_at) VALUES (?, ?, ?, ?, ?)",
                          (conversation_id, key.strip(), value.strip(), source_uid, now or time.time()))

    def delete_knowledge(self, conversation_id: str, key: str) -> None:
        self._change_live(conversation_id, "DELETE FROM knowledge WHERE conversation_id = ? AND key = ?",
                          (conversation_id, key))

    def retractions(self, conversation_id: str) -> list[Retraction]:
        rows = self._db.connection().execute(
            "SELECT conversation_id, uid, epoch, reason, retracted_at FROM retractions WHERE conversation_id = ? "
            "ORDER BY uid",
            (conversation_id,),
        )
        return [Retraction(*row) for row in rows]

    def edit_message(self, conversation_id: str, uid: int, new_text: str, *, now: float | None = None) -> Message:
        """Replace a message by a new one in a new epoch; it and everything after it are retracted.

        As in other chat apps, an edit rewinds the conversation to that point: the later turns
        were answers to the old text. The originals stay stored and exportable.
        """
        stamp = time.time() if now is None else now

        def edit(connection: Connection) -> Message:
            conversation = _require_live(connection, conversation_id)
            original = _read_visible_message(connection, conversation_id, uid)
            if original.role == "tool":
                raise InvalidInput(QT_TRANSLATE_NOOP("", "Tool results are not edited; delete the answer instead."))
            later = [row[0] for row in connection.execute(
                f"SELECT uid FROM messages m WHERE conversation_id = ? AND uid >= ? AND {_VISIBLE}",
                (conversation_id, uid),
            )]
            conversation = _start_new_epoch(connection, conversation, stamp)
            _retract(connection, conversation, later, "edited", stamp)
            top_uid = connection.execute(
                "SELECT max(uid) FROM messages WHERE conversation_id = ?", (conversation_id,)
            ).fetchone()[0]
            draft = MessageDraft(role=original.role, text=new_text, origin="edited")
            _validate_draft(draft)
            row = _message_row(conversation, draft, top_uid + 1, original.turn_ordinal, stamp, uid)
            insert_messages(connection, [row])
            return _message_from_row(row)

        return self._db.write(edit)

    def delete_message(self, conversation_id: str, uid: int, *, now: float | None = None) -> list[int]:
        """Delete from the view in a new epoch: a user message takes its whole turn with it,
        an assistant or tool message takes the whole answer (so no tool call loses its result)."""
        stamp = time.time() if now is None else now

        def delete(connection: Connection) -> list[int]:
            conversation = _require_live(connection, conversation_id)
            target = _read_visible_message(connection, conversation_id, uid)
            roles = ("user", "assistant", "tool") if target.role == "user" else ("assistant", "tool")
            placeholders = ", ".join("?" for _ in roles)
            uids = [row[0] for row in connection.execute(
                f"SELECT uid FROM messages m WHERE conversation_id = ? AND turn_ordinal = ? "
                f"AND role IN ({placeholders}) AND {_VISIBLE}",
                (conversation_id, target.turn_ordinal, *roles),
            )]
            conversation = _start_new_epoch(connection, conversation, stamp)
            _retract(connection, conversation, uids, "deleted", stamp)
            return uids

        return self._db.write(delete)

    def set_memory_mode(self, conversation_id: str, mode: str) -> Conversation:
        """Change the memory preference. Turning automatic memory back on starts a lineage at
        the current end: old segments never stretch across the time memory was off (seed 000)."""

        def change(connection: Connection) -> None:
            conversation = _require_live(connection, conversation_id)
            if mode == conversation.memory_mode:
                return
            connection.execute(
                "UPDATE conversations SET memory_mode = ?, preference_revision = preference_revision + 1 WHERE id = ?",
                (mode, conversation_id),
            )
            if mode == "automatic":
                top = connection.execute(
                    "SELECT coalesce(max(uid), 0) FROM messages WHERE conversation_id = ?", (conversation_id,)
                ).fetchone()[0]
                _invalidate_lineage(connection, conversation)
                connection.execute(
                    "UPDATE conversations SET lineage_id = ?, lineage_base_uid = ? WHERE id = ?",
                    (new_id(), top, conversation_id),
                )

        self._db.write(change)
        return self.conversation(conversation_id)

    def trash(self, conversation_id: str, *, now: float | None = None) -> None:
        self._change_live(conversation_id, "UPDATE conversations SET trashed_at = ? WHERE id = ?",
                          (time.time() if now is None else now, conversation_id))

    def restore(self, conversation_id: str) -> None:
        def change(connection: Connection) -> None:
            conversation = _read_conversation(connection, conversation_id)
            if conversation.trashed_at is None:
                raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Conversation {id} is not in the trash."),
                                          id=conversation_id)
            connection.execute("UPDATE conversations SET trashed_at = NULL WHERE id = ?", (conversation_id,))

        self._db.write(change)

    def purge(self, conversation_ids: Sequence[str]) -> int:
        """Delete trashed conversations for real; secure_delete zeroes the freed pages."""

        def change(connection: Connection) -> None:
            for conversation_id in conversation_ids:
                conversation = _read_conversation(connection, conversation_id)
                if conversation.trashed_at is None:
                    raise InvalidInput(f"Conversation {conversation_id} is not in the trash; delete it first.")
                connection.execute("UPDATE conversations SET purging = 1 WHERE id = ?", (conversation_id,))
                for table in _CONVERSATION_TABLES:
                    connection.execute(f"DELETE FROM {table} WHERE conversation_id = ?", (conversation_id,))
                connection.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))

        self._db.write(change)
        if conversation_ids:
            self._db.checkpoint()
        return len(conversation_ids)

    def trashed_before(self, cutoff: float) -> list[str]:
        rows = self._db.connection().execute(
            "SELECT id FROM conversations WHERE trashed_at IS NOT NULL AND trashed_at < ? ORDER BY trashed_at",
            (cutoff,),
        )
        return [row[0] for row in rows]


# helpers that run inside a caller's transaction ------------------------------------------


def append_in_transaction(
    connection: Connection, conversation_id: str, drafts: Sequence[MessageDraft], *, now: float | None = None
) -> list[Message]:
    """Assign uids and turn ordinals and insert, inside the caller's transaction."""
    stamp = time.time() if now is None else now
    conversation = _require_live(connection, conversation_id)
    last = connection.execute(
        f"SELECT uid, turn_ordinal FROM messages m WHERE conversation_id = ? AND {_VISIBLE} ORDER BY uid DESC LIMIT 1",
        (conversation_id,),
    ).fetchone()
    top_uid = connection.execute(
        "SELECT coalesce(max(uid), 0) FROM messages WHERE conversation_id = ?", (conversation_id,)
    ).fetchone()[0]
    turn = last[1] if last else 0
    rows = []
    for offset, draft in enumerate(drafts, start=1):
        _validate_draft(draft)
        if draft.role == "user":
            turn += 1
        elif turn == 0:
            raise InvalidInput(QT_TRANSLATE_NOOP("", "A conversation starts with a user message."))
        rows.append(_message_row(conversation, draft, top_uid + offset, turn, stamp, None))
    insert_messages(connection, rows)
    first_user = next((d.text for d in drafts if d.role == "user"), None)
    title = conversation.title or (title_from(first_user) if first_user else "")
    connection.execute(
        "UPDATE conversations SET transcript_revision = transcript_revision + 1, updated_at = ?, title = ? "
        "WHERE id = ?",
        (stamp, title, conversation_id),
    )
    return [_message_from_row(row) for row in rows]


def _read_conversation(connection: Connection, conversation_id: str) -> Conversation:
    row = connection.execute(
        f"SELECT {CONVERSATION_COLUMNS} FROM conversations WHERE id = ?", (conversation_id,)
    ).fetchone()
    if row is None:
        raise NotFound.worded(QT_TRANSLATE_NOOP("", "No conversation with id {id}."), id=conversation_id)
    return Conversation(*row)


def _require_live(connection: Connection, conversation_id: str) -> Conversation:
    conversation = _read_conversation(connection, conversation_id)
    if conversation.trashed_at is not None:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Conversation {id} is in the trash; restore it first."),
                                  id=conversation_id)
    return conversation


def _read_visible_message(connection: Connection, conversation_id: str, uid: int) -> Message:
    row = connection.execute(
        f"SELECT {MESSAGE_COLUMNS} FROM messages m WHERE conversation_id = ? AND uid = ? AND {_VISIBLE}",
        (conversation_id, uid),
    ).fetchone()
    if row is None:
        raise NotFound.worded(QT_TRANSLATE_NOOP("", "No message {uid} in the current view of conversation {id}."),
                              uid=uid, id=conversation_id)
    return _message_from_row(row)


def _validate_draft(draft: MessageDraft) -> None:
    if draft.role not in ROLES:
        raise InvalidInput(f"Unknown role {draft.role!r}.")
    if "\x00" in draft.text:
        raise InvalidInput("Message text may not contain NUL characters; attach binary content as a document.")


def _message_row(
    conversation: Conversation, draft: MessageDraft, uid: int, turn: int, stamp: float, edit_of: int | None
) -> tuple:
    return (
        conversation.id, uid, turn, draft.role, draft.origin or DEFAULT_ORIGIN[draft.role], draft.text,
        sha256_text(draft.text), stamp, conversation.epoch, draft.status, draft.generation_id, draft.tool_name,
        draft.tool_arguments, draft.tool_call_id, draft.quoted_uid, edit_of, draft.attachment_sha256, draft.thinking,
    )


def insert_messages(connection: Connection, rows: list[tuple]) -> None:
    placeholders = ", ".join("?" for _ in rows[0])
    connection.executemany(f"INSERT INTO messages ({MESSAGE_COLUMNS}) VALUES ({placeholders})", rows)


def _message_from_row(row: tuple) -> Message:
    return Message(*row)


def _invalidate_lineage(connection: Connection, conversation: Conversation) -> None:
    connection.execute(
        "UPDATE segments SET state = 'invalidated' WHERE conversation_id = ? AND lineage_id = ? "
        "AND state IN ('candidate', 'active')",
        (conversation.id, conversation.lineage_id),
    )
    connection.execute(
        "UPDATE generations SET status = 'abandoned' WHERE conversation_id = ? AND status IN ('frozen', 'streaming')",
        (conversation.id,),
    )


def _start_new_epoch(connection: Connection, conversation: Conversation, stamp: float) -> Conversation:
    _invalidate_lineage(connection, conversation)
    connection.execute(
        "UPDATE conversations SET epoch = epoch + 1, lineage_id = ?, lineage_base_uid = 0, "
        "transcript_revision = transcript_revision + 1, block_version = block_version + 1, updated_at = ? "
        "WHERE id = ?",
        (new_id(), stamp, conversation.id),
    )
    return _read_conversation(connection, conversation.id)


def _retract(
    connection: Connection, conversation: Conversation, uids: Sequence[int], reason: str, stamp: float
) -> None:
    connection.executemany(
        "INSERT INTO retractions (conversation_id, uid, epoch, reason, retracted_at) VALUES (?, ?, ?, ?, ?)",
        [(conversation.id, uid, conversation.epoch, reason, stamp) for uid in uids],
    )
