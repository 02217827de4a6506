"""Stored S0 anchors: what a remote endpoint last counted for a conversation (DESIGN section 6)."""

from __future__ import annotations

from dataclasses import dataclass

from mfs_desktop.store.database import Connection, Database


@dataclass(frozen=True)
class Anchor:
    message_count: int
    prefix_digest: str
    exact_tokens: int
    k: float = 1.0


class AnchorStore:
    def __init__(self, database: Database) -> None:
        self.database = database

    def load(self, conversation_id: str) -> Anchor | None:
        row = self.database.connection().execute(
            "SELECT message_count, prefix_digest, exact_tokens, k FROM token_anchors WHERE conversation_id = ?",
            (conversation_id,)).fetchone()
        return Anchor(*row) if row else None

    def save(self, conversation_id: str, anchor: Anchor) -> None:
        def change(connection: Connection) -> None:
            connection.execute(
                "INSERT INTO token_anchors (conversation_id, message_count, prefix_digest, exact_tokens, k) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT(conversation_id) DO UPDATE SET "
                "message_count = excluded.message_count, prefix_digest = excluded.prefix_digest, "
                "exact_tokens = excluded.exact_tokens, k = excluded.k",
                (conversation_id, anchor.message_count, anchor.prefix_digest, anchor.exact_tokens, anchor.k))

        self.database.write(change)
