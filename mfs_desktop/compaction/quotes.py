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
# A standing requirement: it holds for every later answer, so it goes first. It opens the
# sentence ("Never suggest …", "Please avoid …") or asks outright ("please", "from now on"); the
# same words inside a story are chat: on LoCoMo, "I'm always here for you!", "I don't know" and
# "I couldn't stop laughing" filled the binding share of a merged segment, and so did the
# speaker's own promise ("I'll make sure to keep you updated").
_REQUIREMENT = re.compile(
    r"(?i)\b(please|from now on|every time you|remember to)\b|(?<!i'll )(?<!i will )\bmake sure (you|to|that)\b"
    # (not a question: "Remember I had a tattoo of my four dogs?")
    r"|^(?=\W*\w+(\W+\w+){3})(?![^?]*\?\W*$)\W*((and|so|but|also|oh|ok|okay)\W+)?(always|never|don't|do not|"
    r"avoid|stop|make sure|remember)\b"
    # what follows shows a remark rather than an order: "Always good to hear!", "Never saw
    # this coming.", "Never heard of it", "Don't feel like I'm making an impact."
    r"(?!\W+(up|good|great|nice|fun|happy|glad|here|there|so|too|been|was|were|had|saw|knew|thought|"
    r"felt|went|heard|tried|feel like|know|worry)\b)"
    # a request in the imperative, four words or more: "Keep your answers short.", "Ask me
    # before …"; "Keep it up!", "Never give up!" and "Check out my painting!" are chat, and so are
    # encouragement ("Keep on being positive", "Keep doing what makes you happy") and one-off
    # asks ("Tell me more about it", "Let me know if you like it", "Let's keep going")
    r"|^\s*(keep|ask|remind|tell|use|write|give|call|answer|explain|list|add|include|mention|spell|"
    r"put|start|try|send|reply)\b(?=(\W+\w+){3})(?!\W+(on|up|it up|you|those|these|\w+ing|me (more|all|about))\b)")
# A wish, a constraint or a correction: binding too, after the requirements. "Must" and "should"
# that guess ("It must be awesome!", "That should help") or cheer ("You should!") are chat, and
# so is "only" that is not a rule of the speaker's ("It only took two hours", "not only … but").
# So are the speaker's own goals and plans ("I want to help people …", "I want my kids to …",
# "We should plan a trip", "I should try it") and a need told in passing ("if I need anything"):
# on a long LoCoMo talk they took most of the deepest segment's binding share, and every absorb
# re-prefilled them. "I want you to …", "I need answers in …" and "You should …" still bind.
_PREFERENCE = re.compile(
    r"(?i)\b(must(?!-|\s*(have|'ve|be|feel|really)\b)|mustn't|(?<!\bi )(?<!\bwe )should(?!\s*(\W*$|(help|be|have)\b))|"
    r"shouldn't|prefer|instead|rather than|"
    r"(?<!\bif )(?<!\bwhen )i( want| need|'d like| would like)"
    r"(?!\s+((it|them|him|her|us|(my|our|his|her|their) \w+)\s+)?to\b|\s*([,.!?]|$))|"
    r"not (?!only).{1,40} but)\b|^\W*only\b|\b(i|we|you)( \w+)? only\b")


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
        for sentence in pieces(message.text):
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
            uid, text = _QUOTE_LINE.match(line).groups()
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


def _fit(candidates: Sequence[_Candidate], budget_tokens: int, count: Callable[[str], int],
         shown: Collection[str], dropped_before: int, binding_budget: int = 0,
         plain_tokens: int | None = None) -> QuoteTrack:
    binding = sorted((c.kind, -c.uid, order) for order, c in enumerate(candidates) if c.kind is not None)
    other = [order for order, c in enumerate(candidates) if c.kind is None and c.sentence not in shown]
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
