"""Every context threshold and budget, as a ratio of the model window (invariant 12).

Changing the model changes one number: `window`. The defaults are the seeds' numbers:
seed 003 section 3 (warn 0.85, hard 0.95, the 16% raw fallback, fact budget 2,400 tokens /
40 lines at a 128k window, the minimum range max(2,000 tokens, 2 × target)), section 4.2
(consolidate at 80% of the block budget, payback ≤ 40 turns, shrink ≥ 0.35, depth ≤ 3) and
section 5.4 (user-quote track ≈ 15% of the window). Where the seeds give no number, the
choice is ours and marked so.
"""

from __future__ import annotations

from dataclasses import dataclass

SEED_WINDOW = 128_000  # the window the seed's absolute numbers were measured at


@dataclass(frozen=True)
class ContextProfile:
    window: int = 8192
    warn: float = 0.85
    hard: float = 0.95
    fallback_raw_share: float = 0.16
    # ours: where an event brings the payload back to; every event re-prefills what follows the
    # block, so lower means rarer, cheaper events (measurements: docs/defaults.md)
    post_compaction_target: float = 0.20
    answer_reserve: float = 0.0625  # ours: room kept for the answer (512 of 8,192)
    # ours: the compactor's own window holds input + output (0.55 + at most a quarter of it);
    # larger ranges mean fewer events (docs/defaults.md)
    compactor_input: float = 0.55
    output_ratio: float = 0.25  # the guide is about a quarter of its input
    output_floor: float = 0.004
    output_ceiling: float = 0.06
    # ours: while the block is far below the point where it consolidates, a segment may take this
    # share of the room left there instead of the ceiling, so a talk a few windows long keeps more
    # of what it said; as the block fills, the ceiling binds again (docs/defaults.md)
    segment_room_share: float = 0.35
    min_range: float = 2_000 / SEED_WINDOW
    fact_budget: float = 2_400 / SEED_WINDOW
    # ours: at small windows the seed's ratio leaves room for two or three lines per segment
    fact_budget_floor: float = 0.05
    fact_lines_per_seed_window: int = 40
    # ours, for the same reason: enough lines that at 8,192 the token budget binds rather than
    # the line count (docs/defaults.md)
    fact_lines_floor: int = 16
    quote_budget: float = 0.15  # the whole user-quote track, spread over the segments
    # ours: each segment carries its own range's quotes, a quarter of the track whatever its
    # depth, so a merge shrinks the quotes with the prose and consolidation can bound the block
    # (with a merged segment allowed more, merges failed the shrink gate and the block grew
    # to 0.7 of a 4,096 window)
    segment_quotes: float = 0.25
    # ours: of that share, what the user's other sentences may take once the standing
    # requirements and wishes are in; the guide already holds the most telling sentences
    # (docs/defaults.md)
    segment_plain_quotes: float = 0.05
    # ours: the segment block's ceiling; a merge re-prefills the block and blurs what it merges
    # (docs/defaults.md)
    block_budget: float = 0.50
    # ours: a segment's days line (about 15 spans at 8,192, 3 at 2,048); older days coarsen to months,
    # then years, so the deepest segment stays bounded however many days the talk spans
    days_budget: float = 0.02
    consolidate_at: float = 0.80
    payback_turns: int = 40
    shrink: float = 0.35
    max_depth: int = 3
    keep_recent_tool_turns: int = 2  # ours: S2 never clears the newest turns' tool results
    # ours (issue 49): one tool result in the request (LM Studio #1806: a big result overflowing the
    # window gives garbage); the whole result is kept as a snapshot read_document pages through
    tool_result_share: float = 0.15
    message_max: float = 0.50  # ours: one message or document, so the view keeps room around it
    # ours: the pinned standing instructions together; they ride in every view, so a tenth of
    # the window leaves the rest of the view its room at every window size
    pinned_share: float = 0.10
    # ours (issue 45 asks 10–15%): the originals recalled for one question; never past `warn`
    # (docs/defaults.md)
    recall_share: float = 0.12
    # ours: a recall stays with the turn that asked in later requests (their prefix holds; it takes
    # room until that turn is folded) rather than leaving them (re-prefilling that turn once)
    recall_stays: bool = True

    def tokens(self, ratio: float) -> int:
        return int(self.window * ratio)

    @property
    def send_budget(self) -> int:
        """What the send view may use: the window minus the answer's room."""
        return self.window - self.tokens(self.answer_reserve)

    @property
    def consolidation_tokens(self) -> float:
        """The block's size at which consolidation starts merging segments."""
        return self.tokens(self.block_budget) * self.consolidate_at

    @property
    def segment_quote_tokens(self) -> int:
        return self.tokens(self.quote_budget * self.segment_quotes)

    @property
    def segment_plain_quote_tokens(self) -> int:
        return self.tokens(self.quote_budget * self.segment_plain_quotes)

    @property
    def days_tokens(self) -> int:
        return self.tokens(self.days_budget)

    @property
    def fact_lines(self) -> int:
        return max(self.fact_lines_floor, round(self.fact_lines_per_seed_window * self.window / SEED_WINDOW))

    @property
    def fact_tokens(self) -> int:
        return self.tokens(max(self.fact_budget, self.fact_budget_floor))

    def output_target(self, input_tokens: int, block_tokens: int | None = None) -> int:
        """The guide's size for `input_tokens` of history; given the block's current size, the
        ceiling yields to `segment_room_share` of the room left before consolidation."""
        ceiling = self.tokens(self.output_ceiling)
        if block_tokens is not None:
            room = self.consolidation_tokens - block_tokens
            ceiling = max(ceiling, int(room * self.segment_room_share))
        target = input_tokens * self.output_ratio
        return int(min(max(target, self.tokens(self.output_floor)), ceiling))

    @property
    def segment_target(self) -> int:
        """The output target of a full compactor input: the size a segment is meant to have."""
        return self.output_target(self.tokens(self.compactor_input))

    @property
    def minimum_range(self) -> int:
        """Smaller cooled ranges are skipped (`range_too_small`): better not to compress than
        to make a poor small segment (seed 003 section 4.6: max(2,000, 2 × segment target))."""
        return max(self.tokens(self.min_range), 2 * self.segment_target)
