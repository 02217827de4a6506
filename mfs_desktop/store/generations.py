"""Durable generations: the frozen snapshot is stored before the model is called (invariant 6)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum

from mfs_desktop.errors import ConversationBusy, NotFound
from mfs_desktop.store.database import Connection, Database
from mfs_desktop.store.models import Message, MessageDraft
from mfs_desktop.store.trajectory import record_in_transaction
from mfs_desktop.store.transcript import append_in_transaction, new_id


class GenerationStatus(StrEnum):
    """A generation's life (migration 0002's CHECK): frozen → streaming → completed | partial |
    failed; abandoned when an edit or delete invalidates its lineage. Stored as the value."""

    FROZEN = "frozen"
    STREAMING = "streaming"
    COMPLETED = "completed"
    PARTIAL = "partial"
    FAILED = "failed"
    ABANDONED = "abandoned"


UNFINISHED = (GenerationStatus.FROZEN, GenerationStatus.STREAMING)


@dataclass(frozen=True)
class GenerationRecord:
    id: str
    conversation_id: str
    user_uid: int
    epoch: int
    lineage_id: str
    snapshot: bytes
    fingerprint: str
    status: GenerationStatus
    provider: str
    model: str
    prompt_tokens: int | None
    prompt_tokens_reused: int | None
    prompt_tokens_evaluated: int | None
    completion_tokens: int | None
    prefill_ms: float | None
    decode_ms: float | None
    finish_reason: str | None
    error: str | None
    regenerates: str | None
    created_at: float
    owner: str | None  # the process writing it while frozen/streaming (migration 0010)


_COLUMNS = (
    "id, conversation_id, user_uid, epoch, lineage_id, snapshot, fingerprint, status, provider, model, prompt_tokens, "
    "prompt_tokens_reused, prompt_tokens_evaluated, completion_tokens, prefill_ms, decode_ms, finish_reason, error, "
    "regenerates, created_at, owner"
)


def _record(row: tuple) -> GenerationRecord:
    values = list(row)
    values[5] = bytes(values[5])
    values[7] = GenerationStatus(values[7])
    return GenerationRecord(*values)


class GenerationStore:
    def __init__(self, database: Database) -> None:
        self._db = database

    def freeze(
        self, conversation_id: str, user_uid: int, epoch: int, lineage_id: str, snapshot: bytes, fingerprint: str,
        *, provider: str, model: str, owner: str, regenerates: str | None = None,
    ) -> str:
        generation_id = new_id()

        def change(connection: Connection) -> None:
            connection.execute(
                "INSERT INTO generations (id, conversation_id, user_uid, epoch, lineage_id, snapshot, fingerprint, "
                "provider, model, regenerates, created_at, owner) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (generation_id, conversation_id, user_uid, epoch, lineage_id, snapshot, fingerprint, provider, model,
                 regenerates, time.time(), owner),
            )

        self._db.write(change)
        return generation_id

    def get(self, generation_id: str) -> GenerationRecord:
        row = (
            self._db.connection()
            .execute(f"SELECT {_COLUMNS} FROM generations WHERE id = ?", (generation_id,))
            .fetchone()
        )
        if row is None:
            raise NotFound(f"No generation {generation_id}.")
        return _record(row)

    def for_conversation(self, conversation_id: str) -> list[GenerationRecord]:
        rows = self._db.connection().execute(
            f"SELECT {_COLUMNS} FROM generations WHERE conversation_id = ? ORDER BY created_at, rowid",
            (conversation_id,),
        )
        return [_record(row) for row in rows]

    def unfinished(self, conversation_id: str) -> list[GenerationRecord]:
        rows = self._db.connection().execute(
            f"SELECT {_COLUMNS} FROM generations WHERE conversation_id = ? AND status IN ('frozen', 'streaming') "
            "ORDER BY created_at", (conversation_id,))
        return [_record(row) for row in rows]

    def start(self, generation: GenerationRecord, owner: str) -> None:
        """frozen/streaming → streaming, owned by `owner`, if no one took it since `generation`
        was read (two processes finishing one crashed answer: one wins); a finished, failed or
        abandoned one is refused."""

        def take(connection: Connection) -> tuple[int, tuple | None]:
            changed = connection.execute(
                "UPDATE generations SET status = 'streaming', owner = ? WHERE id = ? AND status IN ('frozen', "
                "'streaming') AND owner IS ?", (owner, generation.id, generation.owner)).rowcount
            return changed, connection.execute("SELECT status FROM generations WHERE id = ?",
                                               (generation.id,)).fetchone()

        changed, current = self._db.write(take)
        if not changed and current is not None and current[0] in UNFINISHED:
            raise ConversationBusy(f"Generation {generation.id} is being answered by another MFS Desktop process.")
        if not changed:
            raise NotFound(f"Generation {generation.id} is no longer open; start a new answer instead.")

    def mark(self, generation_id: str, status: GenerationStatus, *, error: str | None = None) -> None:
        self._db.write(lambda connection: connection.execute(
            "UPDATE generations SET status = ?, error = ? WHERE id = ?", (status, error, generation_id)))

    def commit_answer(
        self, generation: GenerationRecord, drafts: list[MessageDraft], *, status: GenerationStatus, finish_reason: str,
        usage: dict[str, float | int], hide_generation: str | None = None,
    ) -> list[Message]:
        """Append the answer and record its usage in one transaction; a crash leaves neither."""

        def commit(connection: Connection) -> list[Message]:
            _require_open(connection, generation.id)
            if hide_generation:
                _hide_generation(connection, generation.conversation_id, hide_generation)
            messages = append_in_transaction(connection, generation.conversation_id, drafts)
            connection.execute(
                "UPDATE generations SET status = ?, finish_reason = ?, prompt_tokens = ?, prompt_tokens_reused = ?, "
                "prompt_tokens_evaluated = ?, completion_tokens = ?, prefill_ms = ?, decode_ms = ?, "
                "thinking_tokens = ?, thinking_ms = ?, thinking_capped = ?, finished_at = ? WHERE id = ?",
                (status, finish_reason, usage["prompt_tokens"], usage["prompt_tokens_reused"],
                 usage["prompt_tokens_evaluated"], usage["completion_tokens"], usage["prefill_ms"], usage["decode_ms"],
                 usage.get("thinking_tokens", 0), usage.get("thinking_ms", 0.0), usage.get("thinking_capped", 0),
                 time.time(), generation.id),
            )
            return messages

        return self._db.write(commit)

    def commit_tool_exchange(
        self, generation: GenerationRecord, tool_name: str, arguments: str, call_id: str, result: str, status: str,
        duration_ms: float, *, server: str | None = None, approval: str | None = None,
        full_result_sha256: str | None = None,
    ) -> list[Message]:
        """The call and its result enter the transcript together, never one without the other;
        `full_result_sha256` names the snapshot of a result too long to keep in the message."""

        def commit(connection: Connection) -> list[Message]:
            _require_open(connection, generation.id)
            messages = append_in_transaction(connection, generation.conversation_id, [
                MessageDraft("assistant", "", generation_id=generation.id, tool_name=tool_name,
                             tool_arguments=arguments, tool_call_id=call_id),
                MessageDraft("tool", result, generation_id=generation.id, tool_name=tool_name, tool_call_id=call_id,
                             attachment_sha256=full_result_sha256),
            ])
            record_in_transaction(connection, generation.conversation_id, generation.id, messages[0].uid,
                                  messages[1].uid, tool_name, arguments, status, duration_ms, server, approval)
            return messages

        return self._db.write(commit)

    def select_answer(self, conversation_id: str, generation_id: str) -> None:
        """Show another stored answer of the newest turn; the others stay, hidden."""

        def change(connection: Connection) -> None:
            row = connection.execute(f"SELECT {_COLUMNS} FROM generations WHERE id = ?", (generation_id,)).fetchone()
            if row is None or row[1] != conversation_id:
                raise NotFound(f"No generation {generation_id} in conversation {conversation_id}.")
            chosen = _record(row)
            siblings = [row[0] for row in connection.execute(
                "SELECT id FROM generations WHERE conversation_id = ? AND user_uid = ? AND id != ?",
                (conversation_id, chosen.user_uid, generation_id))]
            connection.execute("DELETE FROM hidden_alternatives WHERE generation_id = ?", (generation_id,))
            for sibling in siblings:
                _hide_generation(connection, conversation_id, sibling)
            connection.execute(
                "UPDATE conversations SET transcript_revision = transcript_revision + 1 WHERE id = ?",
                (conversation_id,),
            )

        self._db.write(change)

def _require_open(connection: Connection, generation_id: str) -> None:
    current = connection.execute("SELECT status FROM generations WHERE id = ?", (generation_id,)).fetchone()
    if current is None or current[0] not in UNFINISHED:
        raise NotFound(f"Generation {generation_id} is no longer open (it was {current and current[0]}).")


def _hide_generation(connection: Connection, conversation_id: str, generation_id: str) -> None:
    connection.execute(
        "INSERT OR IGNORE INTO hidden_alternatives (conversation_id, uid, generation_id) "
        "SELECT conversation_id, uid, generation_id FROM messages WHERE conversation_id = ? AND generation_id = ?",
        (conversation_id, generation_id),
    )


def answer_alternatives(database: Database, conversation_id: str) -> list[tuple[str, str, bool]]:
    """The stored answers to the newest user turn: (generation id, answer text, shown now)."""
    connection = database.connection()
    newest = connection.execute(
        "SELECT max(user_uid) FROM generations WHERE conversation_id = ?", (conversation_id,)).fetchone()[0]
    if newest is None:
        return []
    rows = connection.execute(
        "SELECT g.id, group_concat(m.text, char(10)), "
        "NOT EXISTS (SELECT 1 FROM hidden_alternatives h WHERE h.generation_id = g.id) "
        "FROM generations g JOIN messages m ON m.generation_id = g.id AND m.role = 'assistant' "
        "WHERE g.conversation_id = ? AND g.user_uid = ? GROUP BY g.id ORDER BY g.created_at",
        (conversation_id, newest))
    return [(generation_id, text or "", bool(shown)) for generation_id, text, shown in rows]


@dataclass(frozen=True)
class AnswerSpeed:
    """One finished generation's figures as the model reported them."""

    prompt_tokens: int
    reused: int
    completion_tokens: int
    prefill_ms: float
    decode_ms: float
    thinking_tokens: int = 0  # of completion_tokens
    thinking_ms: float = 0.0
    thinking_capped: bool = False


def answer_speeds(database: Database, conversation_id: str) -> dict[str, AnswerSpeed]:
    """Per finished generation, by its id."""
    rows = database.connection().execute(
        "SELECT id, prompt_tokens, prompt_tokens_reused, completion_tokens, prefill_ms, decode_ms, thinking_tokens, "
        "thinking_ms, thinking_capped FROM generations "
        "WHERE conversation_id = ? AND completion_tokens IS NOT NULL AND decode_ms IS NOT NULL", (conversation_id,))
    return {row[0]: AnswerSpeed(row[1] or 0, row[2] or 0, row[3], row[4] or 0.0, row[5], row[6] or 0, row[7] or 0.0,
                                bool(row[8])) for row in rows}
