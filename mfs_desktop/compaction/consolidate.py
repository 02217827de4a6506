"""Keeping the segment block bounded (DESIGN section 7, seed 003 sections 4.2–4.3).

When the block reaches `consolidate_at` of its budget, the oldest group of same-depth
segments merges into one deeper segment — if the payback gate (tokens re-prefilled after the
block ÷ tokens freed ≤ `payback_turns`) and the shrink gate (freed ≥ `shrink` × before; in an
emergency any real shrink) both pass. The merge is the deterministic sink: the union of fact
lines (facts are never merged away), the most telling guide items cut to 120 characters.
Past depth 3, the deepest segment absorbs the next one on any real shrink. In an emergency
the terminal step evicts the oldest guide prose while its facts stay; only when facts alone
overflow does the last step thin the oldest segment's facts, bare numbers first, and count what
it dropped.
Merging late beats merging often: every block change re-prefills everything after it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from mfs_desktop.compaction.facts import PRIORITY, classify, fact_text
from mfs_desktop.compaction.quotes import StoredQuotes
from mfs_desktop.compaction.salience import pick_salient
from mfs_desktop.compaction.segments import bounded_days, held_sentences, merge_days
from mfs_desktop.profile import ContextProfile
from mfs_desktop.store.models import Message
from mfs_desktop.store.segment_records import GuideItem, SegmentDraft, source_digest

SINK_ITEM_CHARS = 120


@dataclass(frozen=True)
class Consolidation:
    replaced: tuple[SegmentDraft, ...]  # oldest first, contiguous
    merged: SegmentDraft
    before_tokens: int
    after_tokens: int
    kind: str  # "merge" or "evict_prose"


def _cut(text: str) -> str:
    return text if len(text) <= SINK_ITEM_CHARS else text[: SINK_ITEM_CHARS - 1] + "…"


def sink(group: Sequence[SegmentDraft], profile: ContextProfile, count: Callable[[str], int], *,
         quote_room: int | None = None) -> SegmentDraft:
    """Merge without a model: the union of the fact lines (the authoritative track is never
    merged away), the bounded days, then the most telling guide items of the group cut short
    and the group's quotes refitted (binding sentences first), both within what the facts and
    days leave of the size the shrink gate asks for. It reads nothing from the transcript, so
    trying a merge costs the size of the block, not of the history; the source digest is left
    for the caller to set from the range, once a merge is chosen."""
    kept: list[str] = []
    for segment in group:
        kept += [f for f in segment.facts if f not in kept]
    before = sum(count(s.render()) for s in group)
    skeleton = SegmentDraft(
        uid_start=group[0].uid_start, uid_end=group[-1].uid_end, turn_start=group[0].turn_start,
        turn_end=group[-1].turn_end, depth=min(profile.max_depth, max(s.depth for s in group) + 1),
        degraded=any(s.degraded for s in group), source_digest="", items=(), facts=tuple(kept),
        dropped_facts=sum(s.dropped_facts for s in group),
        days=bounded_days(merge_days([s.days for s in group]), profile.days_tokens, count))
    # What the facts and days leave of the size the shrink gate asks for (less the quote
    # section's heading and count) is shared by the quotes and the guide, so a merge shrinks
    # unless the authoritative lines alone cannot: the deepest segment, which absorbs the rest
    # of the talk, then stays bounded. Standing requirements and wishes are authoritative like
    # the facts: bounded only by what the rest of the block leaves of the whole quote track
    # (`quote_room`, seed 003 section 5.4: about 15% of the window), and placed before the
    # guide prose, which is what an emergency evicts first.
    headed = replace(skeleton, quotes=("",), dropped_quotes=10**6)
    room = max(0, int((1 - profile.shrink) * before) - count(headed.render()))
    stored = StoredQuotes.read([s.quotes for s in group], sum(s.dropped_quotes for s in group))
    binding = stored.binding_tokens(count)
    if quote_room is not None:
        binding = min(binding, quote_room)
    candidates: dict[str, GuideItem] = {}
    for segment in group:
        for item in segment.items:
            text = _cut(item.text)
            candidates.setdefault(text, GuideItem(text, item.source_turns))
    texts = list(candidates)
    costs = [count(candidates[text].line()) for text in texts]
    picked = pick_salient(
        texts, costs, min(profile.output_target(before), max(0, room - binding) // 2), at_least_one=True
    )
    items = [candidates[texts[i]] for i in picked]
    room = max(0, room - sum(costs[i] for i in picked))
    quotes = stored.refit(min(profile.segment_quote_tokens, room), count, shown=held_sentences(items, skeleton.facts),
                          binding_budget=binding, plain_tokens=profile.segment_plain_quote_tokens)
    return replace(skeleton, items=tuple(items), quotes=quotes.lines, dropped_quotes=quotes.dropped_sentences)


def evict_prose(segment: SegmentDraft) -> SegmentDraft:
    return replace(segment, items=(GuideItem("guide prose evicted to keep the window; the facts below stay",
                                             (segment.turn_start,)),))


def thin_facts(segment: SegmentDraft) -> SegmentDraft:
    """Half the facts stay: errors, commands and paths before URLs before bare numbers."""
    ranked = sorted(range(len(segment.facts)),
                    key=lambda i: (PRIORITY[classify(fact_text(segment.facts[i])) or "number"], i))
    keep = sorted(ranked[: len(segment.facts) // 2])
    return replace(segment, facts=tuple(segment.facts[i] for i in keep),
                   dropped_facts=segment.dropped_facts + len(segment.facts) - len(keep))


def plan_consolidation(
    block: Sequence[SegmentDraft], profile: ContextProfile, count: Callable[[str], int], *, tail_tokens: int,
    emergency: bool, range_of: Callable[[int, int], Sequence[Message]],
) -> tuple[Consolidation | None, str]:
    """The next consolidation step for this block, or (None, why not)."""
    sizes = [count(s.render()) for s in block]
    total = sum(sizes)
    if total < profile.consolidation_tokens and not emergency:
        return None, "block_below_threshold"
    quotes = [sum(count(quote) for quote in segment.quotes) for segment in block]
    for group_indexes in _candidate_groups(block, profile):
        group = [block[i] for i in group_indexes]
        room = profile.tokens(profile.quote_budget) - sum(quotes) + sum(quotes[i] for i in group_indexes)
        merged = sink(group, profile, count, quote_room=room)
        before = sum(sizes[i] for i in group_indexes)
        after = count(merged.render())
        freed = before - after
        if freed <= 0:
            continue
        miss = tail_tokens + sum(sizes[group_indexes[-1] + 1:])
        # The deepest segment keeps the union of the facts and the binding words it absorbs, so
        # it cannot shrink by the gate's share: held to it, the segments at the depth limit
        # piled up until the block took 0.63 of a 4,096 window on a 2,060-turn talk.
        shrink = 0.0 if group[0].depth >= profile.max_depth else profile.shrink
        if not emergency and (freed < shrink * before or miss / freed > profile.payback_turns):
            continue
        digest = source_digest(range_of(merged.uid_start, merged.uid_end))
        return Consolidation(tuple(group), replace(merged, source_digest=digest), before, after, "merge"), "ok"
    if not emergency:
        return None, "gates_not_met"
    # terminal chain, in an emergency only: evict the oldest guide prose that is still there
    for index, segment in enumerate(block):
        if len(segment.items) == 1 and segment.items[0].text.startswith("guide prose evicted"):
            continue
        trimmed = evict_prose(segment)
        if count(trimmed.render()) < sizes[index]:
            return Consolidation((segment,), trimmed, sizes[index], count(trimmed.render()), "evict_prose"), "ok"
    for index, segment in enumerate(block):
        if len(segment.facts) > 1:
            thinned = thin_facts(segment)
            return Consolidation((segment,), thinned, sizes[index], count(thinned.render()), "thin_facts"), "ok"
    return None, "nothing_left_to_consolidate"


def _candidate_groups(block: Sequence[SegmentDraft], profile: ContextProfile) -> list[list[int]]:
    """Merge candidates, shallowest first: each depth's oldest run of adjacent segments; past
    the depth limit, the deepest segment absorbs the segment after it (seed 003 section 4.3:
    the sink takes in the coldest L0 too), so the block stays bounded however long the
    conversation runs."""
    groups = []
    for depth in sorted({s.depth for s in block}):
        group = _oldest_group(block, depth)
        if len(group) >= 2 and depth < profile.max_depth:
            groups.append(group)
    deepest = next((i for i, s in enumerate(block) if s.depth >= profile.max_depth), None)
    if deepest is not None and deepest + 1 < len(block):
        groups.append([deepest, deepest + 1])
    return groups


def _oldest_group(block: Sequence[SegmentDraft], depth: int) -> list[int]:
    """The oldest run of adjacent segments of this depth."""
    group: list[int] = []
    for index, segment in enumerate(block):
        if segment.depth == depth:
            group.append(index)
        elif group:
            break
    return group
