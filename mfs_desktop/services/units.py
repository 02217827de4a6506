"""Sizes and durations as a person reads them in a list or a progress line."""

from __future__ import annotations


def byte_size(count: int | None) -> str:
    """Decimal units, as file managers and the Hub show sizes: 98.4 MB, 4.68 GB."""
    if count is None:
        return "?"
    units = ("B", "kB", "MB", "GB", "TB")
    value, step = float(count), 0
    while value >= 1000 and step < len(units) - 1:
        value, step = value / 1000, step + 1
    if step == 0:
        return f"{count} B"
    return f"{value:.1f} {units[step]}" if value < 100 else f"{value:.0f} {units[step]}"


def duration(seconds: float | None) -> str:
    """0:07, 12:40, 1:02:03."""
    if seconds is None:
        return "?"
    whole = int(round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
