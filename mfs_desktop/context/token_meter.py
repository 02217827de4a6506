"""Token accounting (S0, DESIGN section 6) for models whose exact count arrives only with an answer.

A model that renders its own template and tokenizer (embedded llama.cpp, the fake) is asked
directly. For a remote endpoint the prompt count it reports with each answer becomes the
conversation's anchor: the digest of the messages it counted, and the count. A later request
that starts with exactly those messages costs `anchor + k · estimate(messages after them)`;
any change before them (a compaction event, an edit, a new slot) changes the digest and the
whole request is estimated, until the next answer anchors again. `k` is calibrated by an EMA of
real ÷ estimated increments. Anchors are stored, so a restarted app counts as well as before.
"""

from __future__ import annotations

import hashlib
import logging
import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeGuard

from mfs_desktop.runtime.estimate import MESSAGE_OVERHEAD_TOKENS, estimate_text_tokens, estimate_tokens
from mfs_desktop.runtime.protocol import ChatMessage, ChatModel, ToolSpec
from mfs_desktop.store.anchors import Anchor, AnchorStore

log = logging.getLogger(__name__)

EMA_ALPHA = 0.3  # seed 003 §3.2 ④: k ← (1−α)·k + α·(real ÷ estimated increment)
DEVIATION_WARNING = 0.15  # a calibrated estimate off by more than this is logged, once per conversation
K_BOUNDS = (0.25, 4.0)  # one odd answer must not teach the meter nonsense


def prefix_digest(messages: Sequence[ChatMessage]) -> str:
    """The structural fingerprint: every message's role, text and tool call, in order."""
    digest = hashlib.sha256()
    for message in messages:
        call = message.tool_call
        for part in (message.role, message.content, message.tool_call_id,
                     f"{call.name}\0{call.arguments}" if call else ""):
            digest.update(part.encode("utf-8", "surrogatepass"))
            digest.update(b"\0")
        digest.update(b"\1")
    return digest.hexdigest()


def _increment_estimate(messages: Sequence[ChatMessage]) -> int:
    """Messages appended after an anchor; the anchor already holds the fixed costs."""
    return sum(MESSAGE_OVERHEAD_TOKENS + estimate_text_tokens(m.content)
               + (estimate_text_tokens(m.tool_call.arguments) if m.tool_call else 0) for m in messages)


class TokenMeter:
    """Counts requests of one model, per conversation; thread-safe (the compactor thread reads it)."""

    def __init__(self, model: ChatModel, anchors: AnchorStore) -> None:
        self.model = model
        self.exact = getattr(model, "counts_exactly", True)
        self.anchors = anchors
        self._cache: dict[str, Anchor | None] = {}
        self._warned: set[str] = set()
        self._lock = threading.Lock()

    def for_conversation(self, conversation_id: str) -> ConversationCounter:
        return ConversationCounter(self, conversation_id)

    def preheat(self, conversation_id: str) -> Anchor | None:
        """Load the stored anchor when a conversation is opened."""
        with self._lock:
            if conversation_id not in self._cache:
                self._cache[conversation_id] = None if self.exact else self.anchors.load(conversation_id)
            return self._cache[conversation_id]

    def count(self, conversation_id: str, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> int:
        if self.exact:
            return self.model.count_tokens(messages, tools)
        anchor = self.preheat(conversation_id)
        if self._extends(anchor, messages):
            return anchor.exact_tokens + math.ceil(anchor.k * _increment_estimate(messages[anchor.message_count:]))
        k = anchor.k if anchor else 1.0
        return math.ceil(k * estimate_tokens(messages, tools))

    def basis(self, conversation_id: str, messages: Sequence[ChatMessage]) -> str:
        """How `count` arrives at its figure: "exact", "anchored" or "estimated"."""
        if self.exact:
            return "exact"
        return "anchored" if self._extends(self.preheat(conversation_id), messages) else "estimated"

    @staticmethod
    def _extends(anchor: Anchor | None, messages: Sequence[ChatMessage]) -> TypeGuard[Anchor]:
        return anchor is not None and anchor.message_count <= len(messages) \
            and prefix_digest(messages[:anchor.message_count]) == anchor.prefix_digest

    def observe(self, conversation_id: str, messages: Sequence[ChatMessage], prompt_tokens: int) -> None:
        """An answer's reported prompt count for exactly these messages becomes the anchor."""
        if self.exact or prompt_tokens <= 0:
            return
        previous = self.preheat(conversation_id)
        k = previous.k if previous else 1.0
        if self._extends(previous, messages) and previous.message_count < len(messages):
            estimated = _increment_estimate(messages[previous.message_count:])
            real = prompt_tokens - previous.exact_tokens
            if estimated > 0 and real > 0:
                deviation = abs(real / (k * estimated) - 1)
                if deviation > DEVIATION_WARNING and conversation_id not in self._warned:
                    self._warned.add(conversation_id)
                    log.warning("conversation %s: token estimate off by %.0f%% (k %.2f); calibrating",
                                conversation_id, deviation * 100, k)
                k = min(max((1 - EMA_ALPHA) * k + EMA_ALPHA * real / estimated, K_BOUNDS[0]), K_BOUNDS[1])
        anchor = Anchor(len(messages), prefix_digest(messages), prompt_tokens, round(k, 4))
        self.anchors.save(conversation_id, anchor)
        with self._lock:
            self._cache[conversation_id] = anchor

    def forget(self, conversation_id: str) -> None:
        with self._lock:
            self._cache.pop(conversation_id, None)


@dataclass(frozen=True)
class ConversationCounter:
    """The `count_tokens` the send view needs, bound to one conversation's anchor."""

    meter: TokenMeter
    conversation_id: str

    def count_tokens(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> int:
        return self.meter.count(self.conversation_id, messages, tools)

