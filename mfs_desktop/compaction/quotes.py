"""The user-quote track: the user's own words, verbatim, by origin (seed 003 section 5.4),
built per segment for the range it covers.

Origins: own words (kept), quoted AI (a short marker pointing at the quoted uid), quoted AI
with annotation (kept whole), document (a pointer to its snapshot). When the words do not
all fit, sentences that bind the assistant — requests, constraints, preferences,
corrections — go first, newest first, then the most telling of the rest; the drop is counted.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from mfs_desktop.compaction.facts import clip, pieces
from mfs_desktop.compaction.salience import pick_salient
from mfs_desktop.store.models import Message

DOCUMENT_TOKENS = 1_500  # a user message this long is a document, not words (seed 003 section 7.3)
# A standing requirement: it holds for every later answer, so it goes first.
_REQUIREMENT = re.compile(
    r"(?i)\b(always|never|from now on|don't|do not|please|make sure|remember|every time|avoid|stop)\b"
    # a request in the imperative, four words or more: "Keep your answers short.", "Ask me
    # before …"; "Keep it up!" and "Check out my painting!" are chat, not requirements
    r"|^\s*(keep|ask|remind|tell|use|write|give|let|call|answer|explain|list|add|include|mention|spell|"
    r"put|start|try|send|reply)\b(?=(\W+\w+){3})")
# A wish, a constraint or a correction: binding too, after the requirements (on LoCoMo, "I want
# to help people …" pushed the oldest "Please always …" out of a merged segment).
_PREFERENCE = re.compile(
    r"(?i)\b(must(?!\s*(have|'ve)\s+been)|mustn't|should|shouldn't|prefer|i want|i need|i'd like|i would like|"
    r"instead|rather than|not .{1,40} but|only)\b")


def binding_class(sentence: str) -> int | None:
    """0 for a standing requirement, 1 for a wish or constraint, None for neither."""
    if _REQUIREMENT.search(sentence):
        return 0
    return 1 if _PREFERENCE.search(sentence) else None


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


def build_quote_track(messages: Sequence[Message], budget_tokens: int, count: Callable[[str], int], *,
                      shown: Collection[str] = frozenset()) -> QuoteTrack:
    """The covered range's user messages, fitted to `budget_tokens`: markers and standing
    requirements first, then wishes and constraints, newest first within each; the rest of
    the budget to the most telling of the other sentences (`pick_salient`), leaving out those
    in `shown`, which the guide holds verbatim."""
    binding: list[tuple[int, int, int, str]] = []  # (class, -uid, order, line)
    other: list[tuple[int, str, str]] = []  # (order, line, sentence)
    total = in_guide = 0
    for message in messages:
        if message.role != "user":
            continue
        marker = _origin_line(message, count)
        if marker is not None:
            binding.append((0, -message.uid, total, marker))
            total += 1
            continue
        for sentence in pieces(message.text):
            clipped = clip(sentence)
            line = f"(uid {message.uid}) {clipped}"
            kind = 0 if message.origin == "quoted_ai_annotated" else binding_class(sentence)
            if kind is not None:
                binding.append((kind, -message.uid, total, line))
            elif clipped in shown:
                in_guide += 1
            else:
                other.append((total, line, clipped))
            total += 1
    chosen: list[tuple[int, str]] = []
    used = 0
    for _, _, order, line in sorted(binding):
        cost = count(line)
        if used + cost <= budget_tokens:
            chosen.append((order, line))
            used += cost
    picked = pick_salient([sentence for _, _, sentence in other], [count(line) for _, line, _ in other],
                          budget_tokens - used)
    chosen += [other[i][:2] for i in picked]
    chosen.sort()
    return QuoteTrack(tuple(line for _, line in chosen), total - in_guide - len(chosen))
