"""The conversation list as the window and `list` show it: pinned first, then by last activity;
archived ones apart; tags; a preview of the newest message."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from mfs_desktop.errors import InvalidInput
from mfs_desktop.store.database import Connection, Database
from mfs_desktop.store.transcript import _VISIBLE, NEWEST_TURN, _require_live

PREVIEW_CHARS = 120
MAX_TAG_CHARS = 40


@dataclass(frozen=True)
class ListedConversation:
    id: str
    title: str
    turns: int
    updated_at: float
    pinned: bool
    archived: bool
    tags: tuple[str, ...]
    preview: str  # the newest visible message's opening, on one line


def list_for_window(database: Database, *, archived: bool = False, tag: str | None = None) -> list[ListedConversation]:
    """Conversations not in the trash: the archived ones when `archived`, else the others;
    with `tag`, only those carrying it."""
    where = "c.trashed_at IS NULL AND (c.archived_at IS NOT NULL) = ?"
    arguments: list[object] = [int(archived)]
    if tag is not None:
        where += " AND EXISTS (SELECT 1 FROM conversation_tags t WHERE t.conversation_id = c.id AND t.tag = ?)"
        arguments.append(tag)
    rows = database.connection().execute(
        f"""SELECT c.id, c.title, {NEWEST_TURN}, c.updated_at, c.pinned_at IS NOT NULL, c.archived_at IS NOT NULL,
                   (SELECT group_concat(tag, char(31)) FROM (SELECT tag FROM conversation_tags t
                     WHERE t.conversation_id = c.id ORDER BY tag)),
                   (SELECT substr(m.text, 1, {PREVIEW_CHARS * 2}) FROM messages m
                     WHERE m.conversation_id = c.id AND m.role IN ('user', 'assistant') AND {_VISIBLE}
                     ORDER BY m.uid DESC LIMIT 1)
              FROM conversations c WHERE {where}
             ORDER BY c.pinned_at IS NULL, c.pinned_at DESC, c.updated_at DESC, c.id""", arguments)
    return [ListedConversation(row[0], row[1], row[2], row[3], bool(row[4]), bool(row[5]),
                               tuple(row[6].split("\x1f")) if row[6] else (), _one_line(row[7] or ""))
            for row in rows]


def _one_line(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= PREVIEW_CHARS else flat[:PREVIEW_CHARS - 1] + "…"


def is_archived(database: Database, conversation_id: str) -> bool:
    row = database.connection().execute("SELECT archived_at IS NOT NULL FROM conversations WHERE id = ?",
                                        (conversation_id,)).fetchone()
    return bool(row and row[0])


def all_tags(database: Database) -> list[str]:
    rows = database.connection().execute(
        "SELECT DISTINCT t.tag FROM conversation_tags t JOIN conversations c ON c.id = t.conversation_id "
        "WHERE c.trashed_at IS NULL ORDER BY t.tag")
    return [row[0] for row in rows]


def _stamp_column(database: Database, conversation_id: str, column: str, on: bool) -> None:
    def change(connection: Connection) -> None:
        _require_live(connection, conversation_id)
        connection.execute(f"UPDATE conversations SET {column} = ? WHERE id = ?",
                           (time.time() if on else None, conversation_id))

    database.write(change)


def set_conversation_pinned(database: Database, conversation_id: str, pinned: bool) -> None:
    _stamp_column(database, conversation_id, "pinned_at", pinned)


def set_archived(database: Database, conversation_id: str, archived: bool) -> None:
    _stamp_column(database, conversation_id, "archived_at", archived)


def checked_tags(tags: Iterable[str]) -> list[str]:
    cleaned = []
    for tag in tags:
        tag = " ".join(tag.split()).strip().lstrip("#")
        if not tag:
            continue
        if len(tag) > MAX_TAG_CHARS:
            raise InvalidInput(f"A tag is at most {MAX_TAG_CHARS} characters ({tag[:20]}… has {len(tag)}).")
        if tag not in cleaned:
            cleaned.append(tag)
    return cleaned


def set_tags(database: Database, conversation_id: str, tags: Iterable[str]) -> list[str]:
    """Replace the conversation's tags; returns them as stored (trimmed, without duplicates)."""
    chosen = checked_tags(tags)

    def change(connection: Connection) -> None:
        _require_live(connection, conversation_id)
        connection.execute("DELETE FROM conversation_tags WHERE conversation_id = ?", (conversation_id,))
        connection.executemany("INSERT INTO conversation_tags (conversation_id, tag) VALUES (?, ?)",
                               [(conversation_id, tag) for tag in chosen])

    database.write(change)
    return chosen
