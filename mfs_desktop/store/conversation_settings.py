"""One conversation's own system prompt and sampling; None everywhere means the defaults.

A changed system prompt changes the first bytes of every later request, so it is an event: the
ledger row commits with the change, and the stream says the next reply re-reads the context."""

from __future__ import annotations

import json
import time
from dataclasses import astuple, dataclass, fields

from mfs_desktop.store.database import Connection, Database
from mfs_desktop.store.ledger import LedgerEvent, LedgerOutcome, record_in_transaction
from mfs_desktop.store.transcript import _require_live

SAMPLING_FIELDS = ("temperature", "top_p", "top_k", "min_p", "repeat_penalty", "max_tokens", "seed")
THINKING_FIELDS = ("thinking", "thinking_tokens", "reasoning_effort")  # issue 48: not part of presets


@dataclass(frozen=True)
class ConversationSettings:
    system_prompt: str | None = None
    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None
    min_p: float | None = None
    repeat_penalty: float | None = None
    max_tokens: int | None = None
    seed: int | None = None
    preset: str | None = None  # the preset these values came from, shown beside them
    recall: bool | None = None  # None: on (the default); False: answered without recall (issue 45)
    thinking: str | None = None  # "on" / "off"; None: the model's own default
    thinking_tokens: int | None = None  # a cap on the tokens an answer spends thinking
    reasoning_effort: str | None = None  # "low" / "medium" / "high", for endpoints that take it
    mcp_servers: str | None = None  # a JSON list of the MCP servers offered here; None: every enabled one

    def offered_servers(self) -> frozenset[str] | None:
        """The MCP servers this conversation offers; None for every enabled one."""
        if self.mcp_servers is None:
            return None
        try:
            names = json.loads(self.mcp_servers)
        except ValueError:
            return frozenset()
        return frozenset(str(name) for name in names) if isinstance(names, list) else frozenset()

    def sampling_overrides(self) -> dict[str, float | int]:
        return {name: getattr(self, name) for name in SAMPLING_FIELDS if getattr(self, name) is not None}

    def thinking_overrides(self) -> dict[str, str | int]:
        return {name: getattr(self, name) for name in THINKING_FIELDS if getattr(self, name) is not None}


_COLUMNS = ", ".join(field.name for field in fields(ConversationSettings))


def conversation_settings(database: Database, conversation_id: str) -> ConversationSettings:
    row = database.connection().execute(
        f"SELECT {_COLUMNS} FROM conversation_settings WHERE conversation_id = ?", (conversation_id,)).fetchone()
    if not row:
        return ConversationSettings()
    values = dict(zip((field.name for field in fields(ConversationSettings)), row, strict=True))
    return ConversationSettings(**{**values, "recall": None if values["recall"] is None else bool(values["recall"])})


def save_conversation_settings(database: Database, conversation_id: str, settings: ConversationSettings) -> bool:
    """Store `settings`; True when the system prompt changed (recorded in the ledger with it)."""

    def change(connection: Connection) -> bool:
        _require_live(connection, conversation_id)
        row = connection.execute("SELECT system_prompt FROM conversation_settings WHERE conversation_id = ?",
                                 (conversation_id,)).fetchone()
        prompt_changed = (row[0] if row else None) != settings.system_prompt
        placeholders = ", ".join("?" for _ in fields(ConversationSettings))
        connection.execute(
            f"INSERT OR REPLACE INTO conversation_settings (conversation_id, {_COLUMNS}, changed_at) "
            f"VALUES (?, {placeholders}, ?)", (conversation_id, *astuple(settings), time.time()))
        if prompt_changed:
            which = "its own" if settings.system_prompt is not None else "the default"
            record_in_transaction(connection, conversation_id, LedgerEvent.SYSTEM_PROMPT, LedgerOutcome.CHANGED,
                                  f"the conversation now uses {which} system prompt")
        return prompt_changed

    return database.write(change)
