"""Full-text search over every conversation not in the trash, newest match first."""

from __future__ import annotations

from dataclasses import dataclass

from mfs_desktop.store.database import Database
from mfs_desktop.store.search_text import match_expression, query_terms, snippet

DEFAULT_LIMIT = 50


@dataclass(frozen=True)
class SearchHit:
    conversation_id: str
    title: str
    uid: int
    role: str
    created_at: float
    snippet: str  # the match marked [like this]


def search_messages(database: Database, query: str, conversation_id: str | None = None,
                    limit: int = DEFAULT_LIMIT) -> list[SearchHit]:
    """Messages holding every term of `query` (words, "quoted phrases", or characters of
    Chinese or Japanese text, any length); InvalidInput for a query with nothing to find."""
    terms = query_terms(query)
    where = "message_search MATCH ? AND c.trashed_at IS NULL"
    arguments: list[object] = [match_expression(terms)]
    if conversation_id is not None:
        where += " AND m.conversation_id = ?"
        arguments.append(conversation_id)
    # ORDER BY the index's rowid lets FTS5 walk its lists backwards and stop at the limit,
    # instead of ranking every match of a common word first.
    rows = database.connection().execute(
        "SELECT m.conversation_id, c.title, m.uid, m.role, m.created_at, m.text "
        "FROM message_search JOIN messages m ON m.id = message_search.rowid "
        f"JOIN conversations c ON c.id = m.conversation_id WHERE {where} "
        "ORDER BY message_search.rowid DESC LIMIT ?", (*arguments, limit))
    return [SearchHit(row[0], row[1], row[2], row[3], row[4], snippet(row[5], terms)) for row in rows]
