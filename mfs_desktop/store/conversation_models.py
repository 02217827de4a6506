"""The model one conversation runs on, when it is not the default."""

from __future__ import annotations

import time
from dataclasses import dataclass

from mfs_desktop.store.database import Connection, Database
from mfs_desktop.store.transcript import _require_live


@dataclass(frozen=True)
class ConversationModel:
    model_path: str  # "" is the bundled model
    window: int


def conversation_model(database: Database, conversation_id: str) -> ConversationModel | None:
    row = database.connection().execute(
        "SELECT model_path, window FROM conversation_models WHERE conversation_id = ?", (conversation_id,)).fetchone()
    return ConversationModel(row[0], row[1]) if row else None


def set_conversation_model(database: Database, conversation_id: str, chosen: ConversationModel | None) -> None:
    """`chosen` None: the conversation follows the default model again."""

    def change(connection: Connection) -> None:
        _require_live(connection, conversation_id)
        if chosen is None:
            connection.execute("DELETE FROM conversation_models WHERE conversation_id = ?", (conversation_id,))
            return
        connection.execute(
            "INSERT OR REPLACE INTO conversation_models (conversation_id, model_path, window, chosen_at) "
            "VALUES (?, ?, ?, ?)", (conversation_id, chosen.model_path, chosen.window, time.time()))

    database.write(change)
