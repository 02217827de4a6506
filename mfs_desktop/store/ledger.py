"""The ledger: every compaction, clearing and fallback, with counts and timings (invariant 11)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from mfs_desktop.store.database import Database


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


def record(database: Database, conversation_id: str, event: str, outcome: str, detail: str = "", *,
           input_tokens: int | None = None) -> None:
    with database.transaction() as connection:
        connection.execute(
            "INSERT INTO ledger (conversation_id, created_at, event, input_tokens, outcome, detail) "
            "VALUES (?, ?, ?, ?, ?, ?)", (conversation_id, time.time(), event, input_tokens, outcome, detail))


def entries(database: Database, conversation_id: str) -> list[LedgerEntry]:
    rows = database.connection().execute(
        "SELECT id, conversation_id, created_at, event, level, input_tokens, output_tokens, cache_miss_tokens, "
        "duration_ms, outcome, detail FROM ledger WHERE conversation_id = ? ORDER BY id", (conversation_id,))
    return [LedgerEntry(*row) for row in rows]
