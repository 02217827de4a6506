"""The segment block and its compare-and-swap commit (invariant 7).

A candidate becomes active only inside one transaction that re-checks epoch, lineage,
block version, memory mode, contiguity with the block's end, and the digest of the
per-message hashes of the range it claims — otherwise it is stored as `rejected` and the
ledger records `commit_rejected` with the reason.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from mfs_desktop.store.database import Connection, Database
from mfs_desktop.store.ledger import LedgerEvent, LedgerOutcome, record_in_transaction
from mfs_desktop.store.models import Conversation
from mfs_desktop.store.segment_records import GuideItem, SegmentDraft, source_digest
from mfs_desktop.store.transcript import _VISIBLE, MESSAGE_COLUMNS, _message_from_row, _read_conversation, new_id


@dataclass(frozen=True)
class BlockExpectation:
    """What the pre-compactor saw when it took its snapshot."""

    epoch: int
    lineage_id: str
    block_version: int


class SegmentState(StrEnum):
    """A segment row's state (migration 0002's CHECK); stored as the value. A fold or a merge
    ends `active` or `rejected`; a merged segment's parts become `superseded`; an edit or a
    memory switch leaves a lineage's segments `invalidated`."""

    CANDIDATE = "candidate"
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    REJECTED = "rejected"
    INVALIDATED = "invalidated"


@dataclass(frozen=True)
class CommitOutcome:
    state: SegmentState  # ACTIVE or REJECTED
    reason: str
    segment_id: str


_COLUMNS = "uid_start, uid_end, depth, degraded, source_digest, guide, facts"


def _draft(row: tuple) -> SegmentDraft:
    uid_start, uid_end, depth, degraded, digest, guide, facts = row
    body = json.loads(guide)
    return SegmentDraft(uid_start, uid_end, body["turns"][0], body["turns"][1], depth, bool(degraded), digest,
                        tuple(GuideItem(i["text"], tuple(i["source_turns"])) for i in body["items"]),
                        tuple(json.loads(facts)), body.get("dropped_facts", 0),
                        tuple(tuple(span) for span in body.get("days", ())),
                        tuple(body.get("quotes", ())), body.get("dropped_quotes", 0))


class SegmentStore:
    def __init__(self, database: Database) -> None:
        self._db = database

    def active_block(self, conversation_id: str) -> list[SegmentDraft]:
        return _active(self._db.connection(), conversation_id)

    def read_block(self, conversation_id: str) -> tuple[BlockExpectation, str, int, list[SegmentDraft]]:
        """State and active segments read in one transaction, so a concurrent commit is seen
        either wholly or not at all."""
        connection = self._db.connection()
        connection.execute("BEGIN")
        try:
            expected, slot, clear_uid = self.block_state(conversation_id)
            return expected, slot, clear_uid, _active(connection, conversation_id)
        finally:
            connection.execute("COMMIT")

    def block_state(self, conversation_id: str) -> tuple[BlockExpectation, str, int]:
        """(expectation for a CAS, knowledge slot snapshot, tool-clear uid)."""
        row = self._db.connection().execute(
            "SELECT epoch, lineage_id, block_version, slot_snapshot, tool_clear_uid FROM conversations WHERE id = ?",
            (conversation_id,)).fetchone()
        return BlockExpectation(row[0], row[1], row[2]), row[3], row[4]

    def seed_slot(self, conversation_id: str, slot_text: str) -> bool:
        """Fill the knowledge slot of a conversation that has sent nothing yet: no cached prefix
        exists to break, so the profile applies from the first request instead of waiting for
        the first compaction. Later the slot changes only with a compaction (DESIGN §5)."""
        changed = self._db.write(lambda connection: connection.execute(
            "UPDATE conversations SET slot_snapshot = ? WHERE id = ? AND block_version = 0 "
            "AND NOT EXISTS (SELECT 1 FROM messages WHERE conversation_id = ?)",
            (slot_text, conversation_id, conversation_id)).rowcount)
        return changed == 1

    def commit(
        self, conversation_id: str, draft: SegmentDraft, expected: BlockExpectation, *, tokens: int, slot_text: str,
        compactor: str, input_tokens: int, output_tokens: int, duration_ms: float,
    ) -> CommitOutcome:
        segment_id = new_id()

        def commit(connection: Connection) -> CommitOutcome:
            reason = _cas_problem(connection, conversation_id, draft, expected)
            outcome = _outcome(reason, segment_id)
            _insert(connection, segment_id, conversation_id, draft, expected, outcome.state, tokens)
            if not reason:
                connection.execute(
                    "UPDATE conversations SET block_version = block_version + 1, slot_snapshot = ? WHERE id = ?",
                    (slot_text, conversation_id))
            recorded = LedgerOutcome.COMMIT_REJECTED if reason else (
                LedgerOutcome.DEGRADED if draft.degraded else LedgerOutcome.COMMITTED)
            record_in_transaction(
                connection, conversation_id, LedgerEvent.COMPACTION, recorded,
                f"{compactor}: uids {draft.uid_start}-{draft.uid_end}" + (f"; {reason}" if reason else ""),
                level=draft.depth, input_tokens=input_tokens, output_tokens=output_tokens, duration_ms=duration_ms)
            return outcome

        return self._db.write(commit)

    def replace(
        self, conversation_id: str, replaced: Sequence[SegmentDraft], merged: SegmentDraft,
        expected: BlockExpectation, *, tokens: int, kind: str, before_tokens: int,
    ) -> CommitOutcome:
        """Consolidation by CAS: the replaced segments give way to one covering the same range."""
        segment_id = new_id()

        def replace(connection: Connection) -> CommitOutcome:
            conversation = _read_conversation(connection, conversation_id)
            block = _active(connection, conversation_id)
            ranges = [(s.uid_start, s.uid_end) for s in block]
            reason = ""
            if _block_moved(conversation, expected):
                reason = "the block or the history changed since the plan"
            elif not all((s.uid_start, s.uid_end) in ranges for s in replaced):
                reason = "a replaced segment is no longer active"
            else:
                rows = connection.execute(
                    f"SELECT {MESSAGE_COLUMNS} FROM messages m WHERE conversation_id = ? AND uid BETWEEN ? AND ? "
                    f"AND {_VISIBLE} ORDER BY uid", (conversation_id, merged.uid_start, merged.uid_end)).fetchall()
                if source_digest([_message_from_row(row) for row in rows]) != merged.source_digest:
                    reason = "the range's messages changed (digest mismatch)"
            if not reason:
                for segment in replaced:
                    connection.execute(
                        "UPDATE segments SET state = 'superseded' WHERE conversation_id = ? AND state = 'active' "
                        "AND uid_start = ? AND uid_end = ?", (conversation_id, segment.uid_start, segment.uid_end))
                _insert(connection, segment_id, conversation_id, merged, expected, SegmentState.ACTIVE, tokens)
                connection.execute("UPDATE conversations SET block_version = block_version + 1 WHERE id = ?",
                                   (conversation_id,))
            record_in_transaction(
                connection, conversation_id,
                LedgerEvent.UPGRADE if kind == LedgerOutcome.UPGRADED else LedgerEvent.CONSOLIDATION,
                LedgerOutcome.COMMIT_REJECTED if reason else LedgerOutcome(kind),
                f"{len(replaced)} segments → uids {merged.uid_start}-{merged.uid_end}"
                + (f"; {reason}" if reason else ""),
                level=merged.depth, input_tokens=before_tokens, output_tokens=tokens)
            return _outcome(reason, segment_id)

        return self._db.write(replace)

    def upgrade_candidate(self, conversation_id: str) -> SegmentDraft | None:
        """The block's last segment, if it is a degraded L0 whose range has not had its one
        catch-up (a consolidation step may rewrite the row; the range keeps the memory)."""
        row = self._db.connection().execute(
            f"SELECT {_COLUMNS}, EXISTS (SELECT 1 FROM segments t WHERE t.conversation_id = s.conversation_id "
            "AND t.lineage_id = s.lineage_id AND t.uid_start = s.uid_start AND t.uid_end = s.uid_end "
            "AND t.upgrade_tried = 1) FROM segments s WHERE conversation_id = ? AND state = 'active' "
            "AND lineage_id = (SELECT lineage_id FROM conversations WHERE id = s.conversation_id) "
            "ORDER BY uid_start DESC LIMIT 1", (conversation_id,)).fetchone()
        if row is None or row[-1] or not row[3] or row[2] != 0:
            return None
        return _draft(row[:-1])

    def mark_upgrade_tried(self, conversation_id: str, segment: SegmentDraft, declined: str = "") -> None:
        """Once only; a declined upgrade is recorded here, a kept one by `replace`."""

        def change(connection: Connection) -> None:
            connection.execute(
                "UPDATE segments SET upgrade_tried = 1 WHERE conversation_id = ? AND state = 'active' "
                "AND uid_start = ? AND uid_end = ?", (conversation_id, segment.uid_start, segment.uid_end))
            if declined:
                record_in_transaction(connection, conversation_id, LedgerEvent.UPGRADE, LedgerOutcome.DECLINED,
                                      f"uids {segment.uid_start}-{segment.uid_end}: {declined}", level=0)

        self._db.write(change)

    def clear_tool_results(
        self, conversation_id: str, through_uid: int, expected: BlockExpectation, cleared: int
    ) -> bool:
        """S2 as an event: the send copy clears tool results up to `through_uid` from now on."""

        def clear(connection: Connection) -> bool:
            if _block_moved(_read_conversation(connection, conversation_id), expected):
                return False
            connection.execute(
                "UPDATE conversations SET tool_clear_uid = max(tool_clear_uid, ?), block_version = block_version + 1 "
                "WHERE id = ?", (through_uid, conversation_id))
            record_in_transaction(connection, conversation_id, LedgerEvent.TOOL_RESULTS_CLEARED, LedgerOutcome.CLEARED,
                                  f"{cleared} old tool results cleared in the send view through uid {through_uid}")
            return True

        return self._db.write(clear)


def _outcome(reason: str, segment_id: str) -> CommitOutcome:
    """A commit-by-CAS's result: active, or rejected with the check that failed."""
    return CommitOutcome(SegmentState.REJECTED if reason else SegmentState.ACTIVE, reason or "ok", segment_id)


def _insert(connection: Connection, segment_id: str, conversation_id: str, draft: SegmentDraft,
            expected: BlockExpectation, state: SegmentState, tokens: int) -> None:
    connection.execute(
        "INSERT INTO segments (id, conversation_id, epoch, lineage_id, uid_start, uid_end, depth, state, degraded, "
        "source_digest, guide, facts, tokens, block_version, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            segment_id,
            conversation_id,
            expected.epoch,
            expected.lineage_id,
            draft.uid_start,
            draft.uid_end,
            draft.depth,
            state,
            int(draft.degraded),
            draft.source_digest,
            json.dumps(
                {
                    "turns": [draft.turn_start, draft.turn_end],
                    "dropped_facts": draft.dropped_facts,
                    "days": [list(span) for span in draft.days],
                    "quotes": list(draft.quotes),
                    "dropped_quotes": draft.dropped_quotes,
                    "items": [item.as_dict() for item in draft.items],
                },
                ensure_ascii=False,
            ),
            json.dumps(list(draft.facts), ensure_ascii=False),
            tokens,
            expected.block_version,
            time.time(),
        ),
    )


def _active(connection: Connection, conversation_id: str) -> list[SegmentDraft]:
    rows = connection.execute(
        f"SELECT {_COLUMNS} FROM segments s WHERE conversation_id = ? AND state = 'active' "
        "AND lineage_id = (SELECT lineage_id FROM conversations WHERE id = s.conversation_id) ORDER BY uid_start",
        (conversation_id,))
    return [_draft(row) for row in rows]


def _block_moved(conversation: Conversation, expected: BlockExpectation) -> bool:
    """The compare half of every compare-and-swap on the block: epoch, lineage, block version."""
    return (conversation.epoch, conversation.lineage_id, conversation.block_version) != \
        (expected.epoch, expected.lineage_id, expected.block_version)


def _cas_problem(connection: Connection, conversation_id: str, draft: SegmentDraft, expected: BlockExpectation) -> str:
    conversation = _read_conversation(connection, conversation_id)
    if _block_moved(conversation, expected):
        return ("history was edited or deleted since the snapshot (epoch/lineage changed)"
                if (conversation.epoch, conversation.lineage_id) != (expected.epoch, expected.lineage_id)
                else "the block changed since the snapshot (another commit or event)")
    if conversation.memory_mode != "automatic":
        return "memory is not automatic any more"
    block = _active(connection, conversation_id)
    start_after = block[-1].uid_end if block else conversation.lineage_base_uid
    first = connection.execute(
        f"SELECT uid FROM messages m WHERE conversation_id = ? AND uid > ? AND {_VISIBLE} ORDER BY uid LIMIT 1",
        (conversation_id, start_after)).fetchone()
    if first is None or first[0] != draft.uid_start:
        return "the range does not start where the block ends (coverage would have a hole or an overlap)"
    rows = connection.execute(
        f"SELECT {MESSAGE_COLUMNS} FROM messages m WHERE conversation_id = ? AND uid BETWEEN ? AND ? AND {_VISIBLE} "
        "ORDER BY uid", (conversation_id, draft.uid_start, draft.uid_end)).fetchall()
    if source_digest([_message_from_row(row) for row in rows]) != draft.source_digest:
        return "the range's messages changed since the snapshot (digest mismatch)"
    newer_user = connection.execute(
        f"SELECT 1 FROM messages m WHERE conversation_id = ? AND uid > ? AND role = 'user' AND {_VISIBLE} LIMIT 1",
        (conversation_id, draft.uid_end)).fetchone()
    if newer_user is None:
        return "the range reaches the newest turn"
    return ""
