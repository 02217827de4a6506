"""The coverage check of invariant 2: the block covers a contiguous run of the current view
from its start, with no hole and no overlap."""

from __future__ import annotations

import bisect
import time
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class CoverageReport:
    ok: bool
    gaps: tuple[tuple[int, int], ...]  # uid ranges of the view that no segment covers, before the block's end
    overlaps: tuple[tuple[int, int], ...]  # uid ranges covered twice
    ms: float


def check_coverage(
    ranges: Sequence[tuple[int, int]], visible_uids: Sequence[int], start_after: int = 0
) -> CoverageReport:
    """`ranges` are the active segments' (uid_start, uid_end) in block order; `visible_uids` the
    sorted uids of the current view. O(segments × log messages)."""
    started = time.perf_counter()
    gaps, overlaps = [], []
    position = bisect.bisect_right(visible_uids, start_after)  # index of the next uid to cover
    previous_end = start_after
    for uid_start, uid_end in ranges:
        if uid_start <= previous_end:
            overlaps.append((uid_start, min(uid_end, previous_end)))
        else:
            expected = visible_uids[position] if position < len(visible_uids) else None
            if expected is None or expected != uid_start:
                gap_end = uid_start - 1
                gaps.append((expected if expected is not None else uid_start, gap_end))
        previous_end = max(previous_end, uid_end)
        position = bisect.bisect_right(visible_uids, previous_end)
    return CoverageReport(not gaps and not overlaps, tuple(gaps), tuple(overlaps),
                          round((time.perf_counter() - started) * 1000, 3))
