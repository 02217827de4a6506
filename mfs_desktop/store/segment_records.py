"""A segment as the store keeps it and the segment block shows it (DESIGN section 5, zone 3).

The record and its rendering live here, below the compaction that writes segments and the
context that sends them, so that the store can read and write them without depending on
either; the block text is made in one place.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from mfs_desktop.store.models import Message


@dataclass(frozen=True)
class GuideItem:
    text: str
    source_turns: tuple[int, ...]

    def as_dict(self) -> dict:
        """The item as the compactor writes it and the store keeps it."""
        return {"text": self.text, "source_turns": list(self.source_turns)}

    def line(self) -> str:
        """The item as the segment block shows it."""
        return f"- {self.text} ({cited_turns(self.source_turns)})"


def cited_turns(turns: Sequence[int]) -> str:
    """"turn 7" or "turns 7, 9": how an item cites its sources, in the block and in the panel."""
    return f"turn {turns[0]}" if len(turns) == 1 else f"turns {', '.join(map(str, turns))}"


@dataclass(frozen=True)
class SegmentDraft:
    uid_start: int
    uid_end: int
    turn_start: int
    turn_end: int
    depth: int
    degraded: bool
    source_digest: str
    items: tuple[GuideItem, ...]
    facts: tuple[str, ...]
    dropped_facts: int
    days: tuple[tuple[str, int, int], ...] = ()  # (UTC day, first turn, last turn): "when did …" stays answerable
    # The user-quote track of this segment's range. It travels with its segment rather than
    # in a zone after the block: a new segment is then a pure append, and an event no longer
    # re-prefills the whole track.
    quotes: tuple[str, ...] = ()
    dropped_quotes: int = 0

    def render(self) -> str:
        head = (f"[segment uids {self.uid_start}–{self.uid_end} · turns {self.turn_start}–{self.turn_end}"
                f"{' · degraded' if self.degraded else ''}]")
        lines = [head]
        if self.days:
            lines.append(days_line(self.days))
        lines += [item.line() for item in self.items]
        if self.facts:
            lines.append("facts, verbatim:")
            lines += [f"  {fact}" for fact in self.facts]
        if self.dropped_facts:
            lines.append(f"  ({self.dropped_facts} more fact lines in the originals)")
        if self.quotes:
            lines.append("the user's own words, verbatim:")
            lines += [f"  {quote}" for quote in self.quotes]
        if self.dropped_quotes:
            lines.append(
                f"  ({self.dropped_quotes} less binding sentences of the user's not shown; recall_history has them)"
            )
        return "\n".join(lines)


def source_digest(messages: Sequence[Message]) -> str:
    """The digest of a transcript range: uids and per-message text hashes, in order."""
    body = "\n".join(f"{m.uid}:{m.text_sha256}" for m in messages)
    return hashlib.sha256(body.encode("ascii")).hexdigest()


def day_label(stamp: float) -> str:
    """The UTC day a stored time falls on, as "2023-05-08": the key of days lines and date lines."""
    return datetime.fromtimestamp(stamp, tz=UTC).strftime("%Y-%m-%d")


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def spoken_date(label: str) -> str:
    """A stored day label as people write dates: "2023-05-08" is "Monday 8 May 2023", "2023-05"
    is "May 2023", a year or a span of years stays. People write the day first ("7 May
    2023", "June 2023"), and the ISO form cost 4 tokens more per day with the
    bundled tokenizer. Stored labels stay ISO, so that coarsening is a prefix. The names are our
    own rather than strftime's: Qt applies the desktop's locale to C's, and the rendered block,
    which the KV cache reuses as a prefix, must not change with it."""
    if len(label) == 7:
        return f"{_MONTHS[int(label[5:7]) - 1]} {label[:4]}"
    if len(label) == 10:
        day = datetime.strptime(label, "%Y-%m-%d")
        return f"{_WEEKDAYS[day.weekday()]} {day.day} {_MONTHS[day.month - 1]} {day.year}"
    return label


def days_line(days: Sequence[Sequence]) -> str:
    return "days: " + "; ".join(
        spoken_date(day) + (f" turns {a}–{b}" if a != b else f" turn {a}") for day, a, b in days
    )
