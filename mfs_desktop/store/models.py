"""Values that leave the store: frozen dataclasses, no connection attached."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

ROLES = ("user", "assistant", "tool")
USER_ORIGINS = ("own", "quoted_ai", "quoted_ai_annotated", "document", "edited")
DEFAULT_ORIGIN = {"user": "own", "assistant": "model", "tool": "tool"}


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Conversation:
    id: str
    title: str
    created_at: float
    updated_at: float
    epoch: int
    lineage_id: str
    lineage_base_uid: int
    memory_mode: str
    preference_revision: int
    transcript_revision: int
    block_version: int
    trashed_at: float | None


@dataclass(frozen=True)
class ConversationSummary:
    id: str
    title: str
    turns: int
    updated_at: float
    trashed_at: float | None


@dataclass(frozen=True)
class MessageDraft:
    """A message about to be appended; the store assigns uid, turn ordinal, hash and time."""

    role: str
    text: str
    origin: str = ""
    status: str = "complete"
    generation_id: str | None = None
    tool_name: str | None = None
    tool_arguments: str | None = None
    tool_call_id: str | None = None
    quoted_uid: int | None = None
    attachment_sha256: str | None = None
    thinking: str | None = None  # a thinking model's reasoning, apart from the text (migration 0018)


@dataclass(frozen=True)
class Message:
    conversation_id: str
    uid: int
    turn_ordinal: int
    role: str
    origin: str
    text: str
    text_sha256: str
    created_at: float
    epoch: int
    status: str
    generation_id: str | None
    tool_name: str | None
    tool_arguments: str | None
    tool_call_id: str | None
    quoted_uid: int | None
    edit_of_uid: int | None
    attachment_sha256: str | None
    thinking: str | None = None  # never in `text`: not sent again, searched, quoted or folded into facts


@dataclass(frozen=True)
class Retraction:
    conversation_id: str
    uid: int
    epoch: int
    reason: str
    retracted_at: float


@dataclass(frozen=True)
class Attachment:
    sha256: str
    name: str
    media_type: str
    size: int
    first_line: str
    created_at: float
    unreferenced_since: float | None
