"""One-time notices in the chat stream (seed 003 §9.3): what the context engine did, in plain
words, derived from the ledger so they survive restarts and never depend on a live signal."""

from __future__ import annotations

import re
from dataclasses import dataclass

from mfs_desktop.store.ledger import LedgerEntry, LedgerOutcome

_CLEARED = re.compile(r"^(\d+) old tool results")


@dataclass(frozen=True)
class Notice:
    created_at: float
    text: str
    severity: str  # info | warn


def _k(tokens: int | None) -> str:
    return f"{(tokens or 0) / 1000:.1f}k"


def notice_for(entry: LedgerEntry) -> Notice | None:
    """None for bookkeeping the Ledger tab shows but the stream need not (skips, rejections)."""
    text, severity = None, "info"
    if entry.event == "tool_results_cleared":
        found = _CLEARED.match(entry.detail)
        text = f"Cleared {found.group(1) if found else 'some'} old tool results from what the model sees " \
               "(they stay in the transcript)"
    elif entry.event == "compaction" and entry.outcome in (LedgerOutcome.COMMITTED, LedgerOutcome.DEGRADED):
        text = f"Context compacted: {_k(entry.input_tokens)} → {_k(entry.output_tokens)} tokens"
        if entry.outcome == LedgerOutcome.DEGRADED:
            text += " (the compactor failed; facts and your words were kept verbatim)"
    elif entry.event == "consolidation" and entry.outcome != LedgerOutcome.COMMIT_REJECTED:
        text = f"Compressed history reorganised ({entry.outcome}): {_k(entry.input_tokens)} → " \
               f"{_k(entry.output_tokens)} tokens"
    elif entry.event == "upgrade" and entry.outcome == LedgerOutcome.UPGRADED:
        text = f"A degraded part of the compressed history was rebuilt: {_k(entry.input_tokens)} → " \
               f"{_k(entry.output_tokens)} tokens"
    elif entry.event in ("pin", "unpin"):
        what = "Pinned a message as a standing instruction" if entry.event == "pin" else "Unpinned a message"
        text = f"{what}: the next reply re-reads the context"
    elif entry.event == "system_prompt":
        text = "System prompt changed: the next reply re-reads the context"
    elif entry.event in ("hard_line", "recent_exact"):
        text, severity = "Answered from recent turns only: compaction could not make enough room", "warn"
    elif entry.event == "coverage":
        text, severity = ("Answered from recent turns only: the compressed history had a gap, so memory is now "
                          "recent-only (switch it back to automatic to start afresh)"), "warn"
    return Notice(entry.created_at, text, severity) if text else None
