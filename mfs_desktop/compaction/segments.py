"""L0 segments: choosing the cooled range, the compactor's input, verifying its output, and
the deterministic degraded segment (DESIGN section 7; seed 003 sections 4.4, 4.7–4.9).

Everything here is a pure function of transcript messages: the pre-compactor calls it on a
snapshot taken before its thread starts and never reads live state.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from mfs_desktop.compaction.facts import Fact, clip, extract_facts, fact_text, within_budget
from mfs_desktop.compaction.quotes import build_quote_track
from mfs_desktop.compaction.salience import pick_salient
from mfs_desktop.compaction.text_units import sentences
from mfs_desktop.profile import ContextProfile
from mfs_desktop.store.models import Message
from mfs_desktop.store.segment_records import GuideItem, SegmentDraft, day_label, days_line, source_digest

Counter = Callable[[str], int]

MAX_ITEMS = 256
MAX_ITEM_BYTES = 4096
MAX_SOURCE_TURNS = 32
TOOL_HEAD, TOOL_TAIL, TOOL_FACTS = 400, 200, 12


class CompactorOutputRejected(Exception):
    """The compactor's output failed verification; the caller builds a degraded segment."""


def turn_starts(messages: Sequence[Message]) -> list[int]:
    """Indexes where a turn starts: a user message (tool results always follow their call)."""
    return [
        i
        for i, m in enumerate(messages)
        if m.role == "user" and (i == 0 or m.turn_ordinal != messages[i - 1].turn_ordinal)
    ]


def choose_range(
    uncovered: Sequence[Message], profile: ContextProfile, count: Counter, *, fixed_tokens: int,
) -> tuple[list[Message], str]:
    """The cooled range to fold next, whole turns from the oldest uncovered one, or ([], reason).

    It stops at the compactor's input budget, and before the raw tail that the
    post-compaction target can keep; the newest turn is never cut (invariant 4).
    """
    starts = turn_starts(uncovered)
    if len(starts) < 2:
        return [], "range_too_small"
    turns = [list(uncovered[a:b]) for a, b in zip(starts, [*starts[1:], len(uncovered)], strict=False)]
    costs = [sum(count(m.text) + 4 for m in turn) for turn in turns]
    tail_room = profile.tokens(profile.post_compaction_target) - fixed_tokens
    input_budget = profile.tokens(profile.compactor_input)
    chosen, used = 0, 0
    remaining = sum(costs)
    while chosen < len(turns) - 1:
        if used + costs[chosen] > input_budget and chosen > 0:
            break
        if remaining <= tail_room:
            break
        used += costs[chosen]
        remaining -= costs[chosen]
        chosen += 1
    if chosen == 0 or used < profile.minimum_range:
        return [], "range_too_small"
    return [m for turn in turns[:chosen] for m in turn], "ok"


def _tool_digest(text: str) -> str:
    facts = [fact.text for fact in extract_facts([(0, text, "tool")])[:TOOL_FACTS]]
    if len(text) <= TOOL_HEAD + TOOL_TAIL:
        return text
    return "\n".join([text[:TOOL_HEAD], "…", text[-TOOL_TAIL:], *(f"fact: {line}" for line in facts)])


def compactor_input(messages: Sequence[Message]) -> str:
    """What the compactor reads: every message of the range, tool bodies as digests."""
    lines = []
    for message in messages:
        body = _tool_digest(message.text) if message.role == "tool" else message.text
        call = (
            f" called {message.tool_name}({message.tool_arguments})"
            if message.tool_name and message.role == "assistant"
            else ""
        )
        lines.append(f"[turn {message.turn_ordinal} · uid {message.uid} · {message.role}{call}]\n{body}")
    return "\n\n".join(lines)


def verify_items(raw: str, turns: Sequence[int], target_tokens: int, count: Counter) -> tuple[GuideItem, ...]:
    """DESIGN section 7's verifier; any breach raises CompactorOutputRejected."""
    try:
        document = json.loads(raw)
    except ValueError:
        raise CompactorOutputRejected("not JSON") from None
    items = document.get("items") if isinstance(document, dict) else None
    if not isinstance(items, list) or not items:
        raise CompactorOutputRejected("no items list")
    if len(items) > MAX_ITEMS:
        raise CompactorOutputRejected("too many items")
    allowed = set(turns)
    seen: set[str] = set()
    verified = []
    for item in items:
        if not isinstance(item, dict):
            raise CompactorOutputRejected("an item is not an object")
        text, sources = item.get("text"), item.get("source_turns")
        if not isinstance(text, str) or not text.strip() or len(text.encode("utf-8")) > MAX_ITEM_BYTES:
            raise CompactorOutputRejected("item text empty or too long")
        if not isinstance(sources, list) or not 1 <= len(sources) <= MAX_SOURCE_TURNS \
                or len(set(sources)) != len(sources) or not all(isinstance(s, int) and s in allowed for s in sources):
            raise CompactorOutputRejected("source turns missing, repeated or outside the range")
        if text.strip() in seen:
            raise CompactorOutputRejected("duplicate item")
        seen.add(text.strip())
        verified.append(GuideItem(text.strip(), tuple(sources)))
    if count(raw) > max(target_tokens, 8) * 1.25:
        raise CompactorOutputRejected("output over target")
    return tuple(verified)


# A message the extractive guide keeps whole may take this share of the guide's target (about
# 120 tokens at 8,192, 60 at 4,096): a message's sentences lean on each other (docs/defaults.md)
WHOLE_MESSAGE_SHARE = 0.25


def extract_items(messages: Sequence[Message], target_tokens: int, count: Counter) -> tuple[GuideItem, ...]:
    """The guide without a model: the range's most telling sentences, a short message whole
    (`guide_units`, `pick_salient`), both speakers, each citing its turn, in transcript order,
    within the target. It is the deterministic compactor, and the degraded guide when a
    compactor fails (invariant 9). Messages compete for the target rather than each keeping
    something: seed 003 section 4.7's head and tail of every message kept every short
    message whole, so a degraded segment hardly compressed at all."""
    limit = int(target_tokens * WHOLE_MESSAGE_SHARE)
    first_turn: dict[str, int] = {}  # each unit once, citing where it was first said
    for message in messages:
        if message.role in ("user", "assistant"):
            for unit in guide_units(message.text, limit, count):
                first_turn.setdefault(f"{message.role}: {unit}", message.turn_ordinal)
    texts = list(first_turn)
    costs = [count(text) + 12 for text in texts]  # the item's JSON around it
    picked = pick_salient(texts, costs, target_tokens - 2, at_least_one=True)
    return tuple(GuideItem(texts[i], (first_turn[texts[i]],)) for i in picked)


def guide_units(text: str, limit_tokens: int, count: Counter) -> list[str]:
    """What the extractive guide picks from: a one-line message within `limit_tokens` whole,
    a longer one its sentences, each clipped. A message's sentences lean on each other ("I did.
    It was great for my mental health."), and one of them alone reads as something else."""
    whole = text.strip()
    if "\n" not in whole and count(whole) <= limit_tokens:
        return [whole]
    return [clip(sentence) for sentence in sentences(text)]


def held_sentences(items: Sequence[GuideItem], facts: Sequence[str]) -> frozenset[str]:
    """The sentences a segment already holds word for word, the user's in an extractive guide
    and every fact line's: the quote track need not spend its budget on them again (a user's
    sentence with a number would stand twice in a segment, as a fact and as a quote)."""
    held = [item.text.removeprefix("user: ") for item in items if item.text.startswith("user: ")]
    return frozenset([*(sentence for text in held for sentence in (text, *map(clip, sentences(text)))),
                      *map(fact_text, facts)])


def fact_source(message: Message) -> str:
    """A message's words for the fact track. A tool call has none of its own: its name and
    arguments stand in (the path it read, the command it ran), so the facts of its result keep
    what they were facts of when the result itself has left the window."""
    if message.role == "assistant" and message.tool_name and not message.text.strip():
        return f"{message.tool_name} {message.tool_arguments or ''}"
    return message.text


def fact_lines(messages: Sequence[Message], profile: ContextProfile, count: Counter) -> tuple[tuple[str, ...], int]:
    facts: list[Fact] = extract_facts((m.uid, fact_source(m), m.role) for m in messages)
    kept, dropped = within_budget(facts, profile.fact_lines, profile.fact_tokens, count)
    return tuple(fact.render() for fact in kept), dropped


def day_spans(messages: Sequence[Message]) -> tuple[tuple[str, int, int], ...]:
    spans: list[list] = []
    for message in messages:
        day = day_label(message.created_at)
        if spans and spans[-1][0] == day:
            spans[-1][2] = message.turn_ordinal
        else:
            spans.append([day, message.turn_ordinal, message.turn_ordinal])
    return tuple((day, first, last) for day, first, last in spans)


def bounded_days(spans: Sequence[tuple[str, int, int]], budget_tokens: int,
                 count: Counter) -> tuple[tuple[str, int, int], ...]:
    """The days line within `budget_tokens`, coarsened oldest first: the days of one month
    become the month, the months of one year the year, and past that the oldest spans join into
    one range (2023…2024), so the newest days keep their dates. Without a bound the deepest
    segment, which absorbs the rest, carried a span per day of the whole talk: a talk of 99
    days gave a 1,197-token days line, 0.15 of an 8,192 window."""
    days: list[list[Any]] = [list(span) for span in spans]  # [label, first turn, last turn]

    def over() -> bool:
        return len(days) > 1 and count(days_line(days)) > budget_tokens

    for width in (7, 4):  # "2023-05-08"[:7] is the month, [:4] the year
        index = 0
        while over() and index < len(days) - 1:
            older, newer = days[index], days[index + 1]
            if "…" not in older[0] + newer[0] and older[0][:width] == newer[0][:width]:
                days[index:index + 2] = [[older[0][:width], older[1], newer[2]]]
            else:
                index += 1
    while over():
        older, newer = days[0], days[1]
        first, last = older[0].split("…")[0][:4], newer[0].split("…")[-1][:4]
        days[0:2] = [[first if first == last else f"{first}…{last}", older[1], newer[2]]]
    return tuple((label, first, last) for label, first, last in days)


def merge_days(groups: Sequence[tuple[tuple[str, int, int], ...]]) -> tuple[tuple[str, int, int], ...]:
    merged: list[list] = []
    for spans in groups:
        for day, first, last in spans:
            if merged and merged[-1][0] == day:
                merged[-1][2] = last
            else:
                merged.append([day, first, last])
    return tuple((day, first, last) for day, first, last in merged)


def draft_segment(
    messages: Sequence[Message], items: tuple[GuideItem, ...], *, degraded: bool, profile: ContextProfile,
    count: Counter, depth: int = 0,
) -> SegmentDraft:
    facts, dropped = fact_lines(messages, profile, count)
    quotes = build_quote_track(messages, profile.segment_quote_tokens, count, shown=held_sentences(items, facts),
                               plain_tokens=profile.segment_plain_quote_tokens)
    return SegmentDraft(
        uid_start=messages[0].uid, uid_end=messages[-1].uid,
        turn_start=messages[0].turn_ordinal, turn_end=messages[-1].turn_ordinal,
        depth=depth, degraded=degraded, source_digest=source_digest(messages),
        items=items, facts=facts, dropped_facts=dropped,
        days=bounded_days(day_spans(messages), profile.days_tokens, count),
        quotes=quotes.lines, dropped_quotes=quotes.dropped_sentences,
    )
