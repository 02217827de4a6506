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

from mfs_desktop.compaction.binding import binding_class
from mfs_desktop.compaction.facts import clip
from mfs_desktop.compaction.salience import pick_salient
from mfs_desktop.compaction.text_units import sentences
from mfs_desktop.store.models import Message

DOCUMENT_TOKENS = 1_500  # a user message this long is a document, not words (seed 003 section 7.3)


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
                      shown: Collection[str] = frozenset(), plain_tokens: int | None = None) -> QuoteTrack:
    """The covered range's user messages, fitted to `budget_tokens`: markers and standing
    requirements first, then wishes and constraints, newest first within each; the rest of
    the budget, at most `plain_tokens` of it, to the most telling of the other sentences
    (`pick_salient`), leaving out those in `shown`, which the guide holds verbatim."""
    candidates: list[_Candidate] = []
    for message in messages:
        if message.role != "user":
            continue
        marker = _origin_line(message, count)
        if marker is not None:
            candidates.append(_Candidate(0, message.uid, marker, ""))
            continue
        for sentence in sentences(message.text):
            clipped = clip(sentence)
            kind = 0 if message.origin == "quoted_ai_annotated" else binding_class(sentence)
            candidates.append(_Candidate(kind, message.uid, f"(uid {message.uid}) {clipped}", clipped))
    return _fit(candidates, budget_tokens, count, shown, dropped_before=0, plain_tokens=plain_tokens)


_QUOTE_LINE = re.compile(r"\(uid (\d+)\) (.*)", re.S)


@dataclass(frozen=True)
class _Candidate:
    kind: int | None  # binding_class, or 0 for a marker
    uid: int
    line: str
    sentence: str  # as the guide would cite it; empty for a marker


@dataclass(frozen=True)
class StoredQuotes:
    """The quote tracks of adjacent segments (oldest first), read once for a merge. Only the
    lines the segments hold compete: a sentence a segment left out lost within its own range
    and would lose again in the smaller merged track, and reading the range again cost
    O(history) once the deepest segment absorbs (0.75 s on 11,752 messages). A marker or a kept
    annotation stays first; other lines are classed again by their words."""

    candidates: tuple[_Candidate, ...]
    dropped_before: int

    @classmethod
    def read(cls, tracks: Sequence[Sequence[str]], dropped_before: int) -> StoredQuotes:
        candidates = []
        for line in (line for track in tracks for line in track):
            match = _QUOTE_LINE.match(line)
            if match is None:  # not a line this module wrote: nothing to rank it by
                continue
            uid, text = match.groups()
            marker = text.startswith("[")
            candidates.append(_Candidate(0 if marker else binding_class(text), int(uid), line, "" if marker else text))
        return cls(tuple(candidates), dropped_before)

    def binding_tokens(self, count: Callable[[str], int]) -> int:
        """What the markers and binding sentences take, all kept."""
        return sum(count(c.line) for c in self.candidates if c.kind is not None)

    def refit(self, budget_tokens: int, count: Callable[[str], int], *, shown: Collection[str] = frozenset(),
              binding_budget: int = 0, plain_tokens: int | None = None) -> QuoteTrack:
        """One smaller track by the rule of `build_quote_track`; markers and binding sentences
        may fill up to `binding_budget` where that is more."""
        return _fit(self.candidates, budget_tokens, count, shown, self.dropped_before, binding_budget, plain_tokens)


def _is_held(sentence: str, shown: Collection[str]) -> bool:
    """The segment holds the sentence, or a clause of it, word for word already: the fact track
    keeps the clause with a number, so the sentence around it would say it twice."""
    return sentence in shown or any(part and part in sentence for part in shown)


def _fit(candidates: Sequence[_Candidate], budget_tokens: int, count: Callable[[str], int],
         shown: Collection[str], dropped_before: int, binding_budget: int = 0,
         plain_tokens: int | None = None) -> QuoteTrack:
    binding = sorted((c.kind, -c.uid, order) for order, c in enumerate(candidates) if c.kind is not None)
    other = [order for order, c in enumerate(candidates) if c.kind is None and not _is_held(c.sentence, shown)]
    # a sentence only partly held (a fact kept its clause) is counted as left out
    in_guide = sum(1 for c in candidates if c.kind is None and c.sentence in shown)
    chosen: list[int] = []
    used = 0
    for _, _, order in binding:
        cost = count(candidates[order].line)
        if used + cost <= max(budget_tokens, binding_budget):
            chosen.append(order)
            used += cost
    picked = pick_salient([candidates[order].sentence for order in other],
                          [count(candidates[order].line) for order in other],
                          max(0, min(budget_tokens - used, budget_tokens if plain_tokens is None else plain_tokens)))
    chosen = sorted(chosen + [other[i] for i in picked])
    return QuoteTrack(tuple(candidates[order].line for order in chosen),
                      dropped_before + len(candidates) - in_guide - len(chosen))
