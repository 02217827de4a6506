"""Frozen snapshots: a send view as canonical bytes plus a sha256 fingerprint (invariant 6).

Canonical means one byte string per request: JSON with sorted keys, no insignificant
whitespace, UTF-8. Resuming a generation decodes these bytes; it never re-assembles.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass

from mfs_desktop.errors import InvalidInput
from mfs_desktop.runtime.protocol import ChatMessage, SamplingSettings, ToolCall

SNAPSHOT_FORMAT = "mfs-desktop-snapshot"
SNAPSHOT_VERSION = 1


@dataclass(frozen=True)
class SendView:
    conversation_id: str
    epoch: int
    lineage_id: str
    user_uid: int
    first_uid: int  # first transcript uid in the view (earlier ones were left out to fit)
    last_uid: int
    messages: tuple[ChatMessage, ...]


@dataclass(frozen=True)
class FrozenRequest:
    view: SendView
    sampling: SamplingSettings
    model: str


def freeze(request: FrozenRequest) -> tuple[bytes, str]:
    body = {
        "format": SNAPSHOT_FORMAT,
        "version": SNAPSHOT_VERSION,
        "model": request.model,
        "sampling": asdict(request.sampling),
        "view": {**asdict(request.view), "messages": [asdict(m) for m in request.view.messages]},
    }
    encoded = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return encoded, hashlib.sha256(encoded).hexdigest()


def _message(body: dict) -> ChatMessage:
    call = body.pop("tool_call", None)
    return ChatMessage(**body, tool_call=ToolCall(**call) if call else None)


def thaw(encoded: bytes, fingerprint: str) -> FrozenRequest:
    if hashlib.sha256(encoded).hexdigest() != fingerprint:
        raise InvalidInput("A frozen snapshot does not match its fingerprint; the generation cannot be resumed.")
    body = json.loads(encoded.decode("utf-8"))
    if body.get("format") != SNAPSHOT_FORMAT or body.get("version") != SNAPSHOT_VERSION:
        raise InvalidInput("A frozen snapshot has an unknown format.")
    view = body["view"]
    messages = tuple(_message(m) for m in view.pop("messages"))
    return FrozenRequest(SendView(**view, messages=messages), SamplingSettings(**body["sampling"]), body["model"])
