"""Running the assistant's tool calls against the store. Bad arguments give a tool error
message the model can read, never an exception."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from mfs_desktop.errors import NotFound
from mfs_desktop.runtime.estimate import estimate_text_tokens
from mfs_desktop.runtime.protocol import ToolCall, ToolSpec
from mfs_desktop.services.session import Session
from mfs_desktop.store import ledger
from mfs_desktop.store.database import Database
from mfs_desktop.store.settings import SettingsStore

RECALL_MAX_MESSAGES = 200
RECALL_MAX_CHARS = 12_000


@dataclass(frozen=True)
class ToolOutcome:
    text: str
    status: str  # "ok" or "error" (a denied call is an error the model reads; `approval` says "deny")
    duration_ms: float
    server: str = ""  # the MCP server that ran it; "" for the app's own tools
    approval: str = ""  # how the person approved it ("once", "always", "deny"); "" where none was asked

    @classmethod
    def since(cls, started: float, text: str, status: str, server: str = "", approval: str = "") -> ToolOutcome:
        """An outcome timed from `started` (time.perf_counter) to now."""
        return cls(text, status, round((time.perf_counter() - started) * 1000, 3), server, approval)


class ExternalTools(Protocol):
    """Tools from outside the app (services/mcp/toolbox.py): offered per conversation, run approved."""

    def specs(self, offered: frozenset[str] | None = None) -> tuple[ToolSpec, ...]: ...

    def owns(self, name: str) -> bool: ...

    def run(self, call: ToolCall, cancel: threading.Event | None = None) -> ToolOutcome: ...

    def close(self) -> None: ...


class ToolError(Exception):
    pass


def readable_arguments(raw: str | None) -> str:
    """Arguments as a person reads them: JSON with its own characters, not \\u escapes."""
    try:
        return json.dumps(json.loads(raw or "{}"), ensure_ascii=False)
    except ValueError:
        return raw or ""


def call_arguments(call: ToolCall) -> dict:
    """A call's arguments as the JSON object they must be, or ToolError saying what they are not."""
    try:
        arguments = json.loads(call.arguments or "{}")
    except ValueError:
        raise ToolError("arguments are not valid JSON") from None
    if not isinstance(arguments, dict):
        raise ToolError("arguments must be a JSON object")
    return arguments


def _integer(arguments: dict, name: str, minimum: int) -> int:
    value = arguments.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise ToolError(f"{name} must be an integer ≥ {minimum}")
    return value


def _text(arguments: dict, name: str, limit: int) -> str:
    value = arguments.get(name)
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise ToolError(f"{name} must be a non-empty string of at most {limit} characters")
    return value


def kept_within(session: Session, text: str, tokens: int) -> tuple[str, str | None]:
    """A tool result as the request will carry it: whole when it fits in `tokens`, else its
    start with a marker naming the snapshot that keeps the whole of it (read_document pages
    through it). Returns the text and the snapshot's sha256 (None when nothing was cut)."""
    if estimate_text_tokens(text) <= tokens:
        return text, None
    snapshot = session.attachments.put(text.encode("utf-8"), name="tool result", media_type="text/plain").sha256
    room = max(tokens - 80, tokens // 2)  # the marker's own words
    low, high = 0, len(text)
    while low < high:  # the longest start that fits; estimates are monotone in length
        middle = (low + high + 1) // 2
        if estimate_text_tokens(text[:middle]) <= room:
            low = middle
        else:
            high = middle - 1
    marker = (f"\n[… cut at {low:,} of {len(text):,} characters. The whole result is document snapshot "
              f"{snapshot[:12]}: call read_document with that snapshot, an offset and a length to read on.]")
    return text[:low] + marker, snapshot


def note_offered_tools(database: Database, conversation_id: str, specs: Sequence[ToolSpec]) -> bool:
    """The tools a request offers ride in its prefix: a change since this conversation's last
    request (a server added, removed, switched off, or offering other tools) is an event,
    recorded in the ledger and shown once in the stream. True when it was one."""
    digest = hashlib.sha256(json.dumps([spec.as_openai() for spec in specs], sort_keys=True).encode()).hexdigest()
    settings, key = SettingsStore(database), f"offered_tools.{conversation_id}"
    previous = settings.get(key)
    if previous == digest:
        return False
    settings.set(key, digest)
    if previous is None:  # the conversation's first request: nothing was cached to lose
        return False
    ledger.record(database, conversation_id, ledger.LedgerEvent.TOOLS, ledger.LedgerOutcome.CHANGED,
                  f"the tools offered changed: {len(specs)} tools now")
    return True


class ToolRunner:
    def __init__(self, session: Session, external: ExternalTools | None = None) -> None:
        self.session = session
        self.external = external

    def run(self, conversation_id: str, call: ToolCall, call_uid: int,
            cancel: threading.Event | None = None) -> ToolOutcome:
        if self.external is not None and self.external.owns(call.name):
            return self.external.run(call, cancel)
        started = time.perf_counter()
        try:
            arguments = call_arguments(call)
            handler = {"recall_history": self._recall_history, "record_value": self._record_value,
                       "read_document": self._read_document}.get(call.name)
            if handler is None:
                raise ToolError(f"there is no tool named {call.name!r}")
            text, status = handler(conversation_id, arguments, call_uid), "ok"
        except ToolError as problem:
            text, status = f"error: {problem}", "error"
        return ToolOutcome.since(started, text, status)

    def _recall_history(self, conversation_id: str, arguments: dict, call_uid: int) -> str:
        start, end = _integer(arguments, "uid_start", 1), _integer(arguments, "uid_end", 1)
        if end < start:
            raise ToolError("uid_end must not be before uid_start")
        if end - start >= RECALL_MAX_MESSAGES:
            raise ToolError(f"ask for at most {RECALL_MAX_MESSAGES} messages at a time")
        messages = self.session.transcript.messages(conversation_id, uid_from=start, uid_to=min(end, call_uid - 1))
        if not messages:
            return f"no messages between uid {start} and {end}"
        lines, used = [], 0
        for message in messages:
            line = f"[uid {message.uid} · {message.role}] {message.text}"
            if used + len(line) > RECALL_MAX_CHARS:
                lines.append(f"… cut at {RECALL_MAX_CHARS} characters; continue from uid {message.uid}")
                break
            lines.append(line)
            used += len(line)
        return "\n".join(lines)

    def _record_value(self, conversation_id: str, arguments: dict, call_uid: int) -> str:
        key, value = _text(arguments, "key", 200), _text(arguments, "value", 4000)
        self.session.transcript.set_knowledge(conversation_id, key, value, source_uid=call_uid)
        return f"recorded {key.strip()}"

    def _read_document(self, conversation_id: str, arguments: dict, call_uid: int) -> str:
        snapshot = _text(arguments, "snapshot", 64).lower()
        offset, length = _integer(arguments, "offset", 0), _integer(arguments, "length", 1)
        length = min(length, 20_000)
        referenced = {m.attachment_sha256 for m in self.session.transcript.messages(conversation_id)
                      if m.attachment_sha256}
        matches = [sha for sha in referenced if sha.startswith(snapshot)]
        if len(snapshot) < 12 or len(matches) != 1:
            raise ToolError("no document in this conversation has that snapshot id")
        try:
            data = self.session.attachments.data(matches[0])
        except NotFound:
            raise ToolError("the document's snapshot has been cleaned up") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ToolError("the document is binary; it cannot be read as text") from None
        part = text[offset:offset + length]
        return f"[characters {offset}–{offset + len(part)} of {len(text)}]\n{part}"
