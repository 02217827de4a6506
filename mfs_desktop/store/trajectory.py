"""Tool calls and their results, recorded for the tool-trajectory tab."""

from __future__ import annotations

import time
from dataclasses import dataclass

from mfs_desktop.store.database import Connection, Database


@dataclass(frozen=True)
class TrajectoryEntry:
    id: int
    conversation_id: str
    generation_id: str | None
    call_uid: int | None
    result_uid: int | None
    tool_name: str
    arguments: str
    status: str
    duration_ms: float | None
    created_at: float
    server: str | None = None  # the MCP server it went to; None for the app's own tools
    approval: str | None = None  # "once", "always", "deny"; None where none was asked


def record_in_transaction(
    connection: Connection, conversation_id: str, generation_id: str, call_uid: int, result_uid: int, tool_name: str,
    arguments: str, status: str, duration_ms: float, server: str | None = None, approval: str | None = None,
) -> None:
    connection.execute(
        "INSERT INTO trajectory (conversation_id, generation_id, call_uid, result_uid, tool_name, arguments, status, "
        "duration_ms, created_at, server, approval) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (conversation_id, generation_id, call_uid, result_uid, tool_name, arguments, status, duration_ms, time.time(),
         server, approval),
    )


def trajectory(database: Database, conversation_id: str) -> list[TrajectoryEntry]:
    rows = database.connection().execute(
        "SELECT id, conversation_id, generation_id, call_uid, result_uid, tool_name, arguments, status, duration_ms, "
        "created_at, server, approval FROM trajectory WHERE conversation_id = ? ORDER BY id", (conversation_id,))
    return [TrajectoryEntry(*row) for row in rows]
