"""The ledger: every compaction, clearing and fallback, with counts and timings (invariant 11)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum

from mfs_desktop.store.database import Connection, Database


@dataclass(frozen=True)
class LedgerEntry:
    id: int
    conversation_id: str
    created_at: float
    event: str
    level: int | None
    input_tokens: int | None
    output_tokens: int | None
    cache_miss_tokens: int | None
    duration_ms: float | None
    outcome: str
    detail: str


class LedgerEvent(StrEnum):
    """What a ledger row records. Stored as its value; a StrEnum compares equal to it."""

    COMPACTION = "compaction"
    CONSOLIDATION = "consolidation"
    UPGRADE = "upgrade"
    TOOL_RESULTS_CLEARED = "tool_results_cleared"
    PIN = "pin"
    UNPIN = "unpin"
    COVERAGE = "coverage"  # a block with a gap or overlap: the lineage went recent-only
    RECENT_EXACT = "recent_exact"  # oldest messages left out of a request
    HARD_LINE = "hard_line"  # compaction could not bring the request under the hard line
    SYSTEM_PROMPT = "system_prompt"  # the conversation's system prompt was changed
    RECALL = "recall"  # earlier messages brought back into a request (issue 45)
    TOOLS = "tools"  # the tools a request offers changed: an MCP server added, removed or switched (issue 49)


class LedgerOutcome(StrEnum):
    """How a ledger row's event ended. Stored as its value; a StrEnum compares equal to it."""

    OK = "ok"  # a pin or an unpin
    COMMITTED = "committed"
    DEGRADED = "degraded"  # committed from the extractive fallback
    COMMIT_REJECTED = "commit_rejected"
    RANGE_TOO_SMALL = "range_too_small"  # nothing cooled enough to fold
    MERGE = "merge"
    EVICT_PROSE = "evict_prose"
    THIN_FACTS = "thin_facts"
    UPGRADED = "upgraded"
    DECLINED = "declined"
    CLEARED = "cleared"
    FALLBACK = "fallback"
    RECENT_ONLY = "recent_only"
    CHANGED = "changed"  # a setting that is part of every request's prefix
    RECALLED = "recalled"


# Outcomes after which the next request re-prefills what follows the change (the ledger tab
# shows that cache miss beside the row).
PREFIX_CHANGING = frozenset({
    LedgerOutcome.COMMITTED, LedgerOutcome.DEGRADED, LedgerOutcome.CLEARED, LedgerOutcome.UPGRADED,
    LedgerOutcome.MERGE, LedgerOutcome.EVICT_PROSE, LedgerOutcome.THIN_FACTS, LedgerOutcome.FALLBACK,
    LedgerOutcome.RECENT_ONLY, LedgerOutcome.CHANGED,
})


def record(database: Database, conversation_id: str, event: LedgerEvent, outcome: LedgerOutcome, detail: str = "", *,
           input_tokens: int | None = None) -> None:
    database.write(lambda connection: record_in_transaction(connection, conversation_id, event, outcome, detail,
                                                            input_tokens=input_tokens))


def record_in_transaction(
    connection: Connection, conversation_id: str, event: LedgerEvent, outcome: LedgerOutcome, detail: str = "", *,
    level: int | None = None, input_tokens: int | None = None, output_tokens: int | None = None,
    duration_ms: float | None = None,
) -> None:
    """One ledger row inside the caller's transaction, so it commits with what it records."""
    connection.execute(
        "INSERT INTO ledger (conversation_id, created_at, event, level, input_tokens, output_tokens, duration_ms, "
        "outcome, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (conversation_id, time.time(), str(event), level, input_tokens, output_tokens, duration_ms, str(outcome),
         detail))


def entries(database: Database, conversation_id: str) -> list[LedgerEntry]:
    rows = database.connection().execute(
        "SELECT id, conversation_id, created_at, event, level, input_tokens, output_tokens, cache_miss_tokens, "
        "duration_ms, outcome, detail FROM ledger WHERE conversation_id = ? ORDER BY id", (conversation_id,))
    return [LedgerEntry(*row) for row in rows]
