"""The user-quote track: the user's own words, verbatim, by origin (seed 003 section 5.4),
built per segment for the range it covers.

Origins: own words (kept), quoted AI (a short marker pointing at the quoted uid), quoted AI
with annotation (kept whole), document (a pointer to its snapshot). When the words do not
all fit, sentences that bind the assistant — requests, constraints, preferences,
corrections — go first, newest first within a class, and the drop is counted.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mfs_desktop.compaction.facts import clip, pieces
from mfs_desktop.store.models import Message

DOCUMENT_TOKENS = 1_500  # a user message this long is a document, not words (seed 003 section 7.3)
_BINDING = re.compile(
    r"(?i)\b(always|never|from now on|don't|do not|must|mustn't|should|shouldn't|please|make sure|remember|"
    r"prefer|i want|i need|i'd like|i would like|instead|rather than|not .{1,40} but|only|every time|avoid|stop)\b"
    # a request in the imperative: "Keep your answers short.", "Ask me before …"
    r"|^\s*(keep|ask|remind|tell|use|write|give|let|call|answer|explain|show|check|list|add|include|mention|spell|"
    r"put|start|try|send|reply)\b")


@dataclass(frozen=True)
class QuoteTrack:
    lines: tuple[str, ...]
    dropped_sentences: int


def _origin_line(message: Message, count: Callable[[str], int]) -> str | None:
    if message.origin == "quoted_ai":
        return f"(uid {message.uid}) [quoted the assistant's message uid {message.quoted_uid}]"
    if message.origin == "document" or count(message.text) >= DOCUMENT_TOKENS:
        first = next((line.strip() for line in message.text.splitlines() if line.strip()), "")[:120]
        snapshot = f" snapshot {message.attachment_sha256[:12]}" if message.attachment_sha256 else ""
        return f"(uid {message.uid}) [document{snapshot}, {len(message.text)} characters: {first}]"
    return None


def build_quote_track(messages: Sequence[Message], budget_tokens: int, count: Callable[[str], int]) -> QuoteTrack:
    """The covered range's user messages, fitted to `budget_tokens`."""
    units: list[tuple[int, int, int, str]] = []  # (class, -uid, order, text): binding first, newest first
    order = 0
    for message in messages:
        if message.role != "user":
            continue
        marker = _origin_line(message, count)
        if marker is not None:
            units.append((0, -message.uid, order, marker))
            order += 1
            continue
        for sentence in pieces(message.text):
            binding = 0 if _BINDING.search(sentence) or message.origin == "quoted_ai_annotated" else 1
            units.append((binding, -message.uid, order, f"(uid {message.uid}) {clip(sentence)}"))
            order += 1
    chosen: list[tuple[int, str]] = []
    used = 0
    for unit in sorted(units):
        cost = count(unit[3])
        if used + cost > budget_tokens:
            continue
        chosen.append((unit[2], unit[3]))
        used += cost
    chosen.sort()
    return QuoteTrack(tuple(text for _, text in chosen), len(units) - len(chosen))
