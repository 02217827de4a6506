"""One conversation's own history against a question, on the search index (issue 45).

The same FTS5 index that `search` uses (contentless, inside the encrypted database): an OR of
the question's phrases ranked by BM25, and how many of the conversation's messages hold each
phrase (its document frequency), which the recall step turns into how much a match tells.
The recalls made for user messages are kept here too, so a later request repeats them byte for
byte and the window can show them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass

from mfs_desktop.store.database import Database

CANDIDATES = 64  # ranked rows read per question; the recall step keeps a few of them


@dataclass(frozen=True)
class RecallRecord:
    user_uid: int
    block: str  # the zone-6 text as sent; "" when nothing scored
    hits: tuple[dict, ...]  # {"uid", "role", "created_at", "terms", "score"} per recalled message
    tokens: int
    created_at: float


def ranked_history(database: Database, conversation_id: str, phrases: Sequence[str], uid_max: int,
                   limit: int = CANDIDATES) -> list[tuple[int, float]]:
    """(uid, BM25 score, higher is better) of this conversation's messages up to `uid_max`
    holding any of `phrases` (FTS5 phrase expressions), best first."""
    if not phrases or uid_max < 1:
        return []
    # CROSS JOIN keeps the index as the outer loop: the planner otherwise walks the
    # conversation's messages and probes the index once per message (0.4 s at 3,000 turns).
    rows = database.connection().execute(
        "SELECT m.uid, bm25(message_search) FROM message_search CROSS JOIN messages m ON m.id = message_search.rowid "
        "WHERE message_search MATCH ? AND m.conversation_id = ? AND m.uid <= ? ORDER BY bm25(message_search) "
        "LIMIT ?", (" OR ".join(phrases), conversation_id, uid_max, limit))
    return [(uid, -score) for uid, score in rows]


def phrase_frequencies(database: Database, conversation_id: str, phrases: Sequence[str]) -> dict[str, int]:
    """How many messages of the conversation (any epoch) hold each phrase."""
    connection = database.connection()
    return {phrase: connection.execute(
        "SELECT count(*) FROM message_search CROSS JOIN messages m ON m.id = message_search.rowid "
        "WHERE message_search MATCH ? AND m.conversation_id = ?", (phrase, conversation_id)).fetchone()[0]
        for phrase in phrases}


def save_recall(database: Database, conversation_id: str, record: RecallRecord) -> None:
    """Kept once per user message: a regenerated answer or a resumed turn sees the same recall."""
    database.write(lambda connection: connection.execute(
        "INSERT OR IGNORE INTO recalls (conversation_id, user_uid, block, hits, tokens, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?)", (conversation_id, record.user_uid, record.block,
                                      json.dumps(list(record.hits), ensure_ascii=False), record.tokens,
                                      record.created_at or time.time())))


def recalls(database: Database, conversation_id: str, uid_from: int = 1) -> dict[int, RecallRecord]:
    """The recalls kept for user messages from `uid_from` on, by user uid."""
    rows = database.connection().execute(
        "SELECT user_uid, block, hits, tokens, created_at FROM recalls WHERE conversation_id = ? AND user_uid >= ?",
        (conversation_id, uid_from))
    return {uid: RecallRecord(uid, block, tuple(json.loads(hits)), tokens, created_at)
            for uid, block, hits, tokens, created_at in rows}
