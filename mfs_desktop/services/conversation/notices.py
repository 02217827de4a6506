"""One-time notices in the chat stream (seed 003 §9.3): what the context engine did, in plain
words, derived from the ledger so they survive restarts and never depend on a live signal."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from mfs_desktop.store.ledger import LedgerEntry, LedgerOutcome
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

_CLEARED = re.compile(r"^(\d+) old tool results")
_TOOLS = re.compile(r"^the tools offered changed: (\d+) tools now")
_RECALLED = re.compile(r"^recalled (\d+) earlier messages from (.+?)(?: to (.+?))? \(")


@dataclass(frozen=True)
class Notice:
    created_at: float
    template: str  # English with {named} fields; the window translates it before filling it in
    severity: str  # info | warn
    values: tuple[tuple[str, str], ...] = ()

    def worded(self, translate: Callable[[str], str] = str) -> str:
        return translate(self.template).format(**dict(self.values))

    @property
    def text(self) -> str:
        return self.worded()


def _k(tokens: int | None) -> str:
    return f"{(tokens or 0) / 1000:.1f}k"


_COMPACTED = {
    LedgerOutcome.COMMITTED: QT_TRANSLATE_NOOP("", "Context compacted: {before} → {after} tokens"),
    LedgerOutcome.DEGRADED: QT_TRANSLATE_NOOP("", "Context compacted: {before} → {after} tokens (the compactor "
                                                  "failed; facts and your words were kept verbatim)"),
}
_RECENT_ONLY = QT_TRANSLATE_NOOP("", "Answered from recent turns only: compaction could not make enough room")


def notice_for(entry: LedgerEntry) -> Notice | None:
    """None for bookkeeping the Ledger tab shows but the stream need not (skips, rejections)."""
    text, severity = None, "info"
    sizes = (("before", _k(entry.input_tokens)), ("after", _k(entry.output_tokens)))
    values: tuple[tuple[str, str], ...] = sizes
    if entry.event == "tool_results_cleared":
        found = _CLEARED.match(entry.detail)
        text = QT_TRANSLATE_NOOP("", "Cleared {count} old tool results from what the model sees (they stay in "
                                     "the transcript)")
        values = (("count", found.group(1) if found else "?"),)
    elif entry.event == "compaction" and entry.outcome in _COMPACTED:
        text = _COMPACTED[LedgerOutcome(entry.outcome)]
    elif entry.event == "consolidation" and entry.outcome != LedgerOutcome.COMMIT_REJECTED:
        text = QT_TRANSLATE_NOOP("", "Compressed history reorganised: {before} → {after} tokens")
    elif entry.event == "upgrade" and entry.outcome == LedgerOutcome.UPGRADED:
        text = QT_TRANSLATE_NOOP("", "A degraded part of the compressed history was rebuilt: {before} → {after} "
                                     "tokens")
    elif entry.event == "pin":
        text = QT_TRANSLATE_NOOP("", "Pinned a message as a standing instruction: the next reply re-reads the "
                                     "context")
    elif entry.event == "unpin":
        text = QT_TRANSLATE_NOOP("", "Unpinned a message: the next reply re-reads the context")
    elif entry.event == "system_prompt":
        text = QT_TRANSLATE_NOOP("", "System prompt changed: the next reply re-reads the context")
    elif entry.event == "tools" and (found := _TOOLS.match(entry.detail)):
        text = QT_TRANSLATE_NOOP("", "The tools offered changed ({count} now): this reply re-reads the context")
        values = (("count", found.group(1)),)
    elif entry.event == "recall" and (found := _RECALLED.match(entry.detail)):
        if found.group(3):
            text = QT_TRANSLATE_NOOP("", "Recalled {count} earlier messages from {first} to {last}")
        elif found.group(1) == "1":
            text = QT_TRANSLATE_NOOP("", "Recalled an earlier message from {first}")
        else:
            text = QT_TRANSLATE_NOOP("", "Recalled {count} earlier messages from {first}")
        values = (("count", found.group(1)), ("first", found.group(2)), ("last", found.group(3) or ""))
    elif entry.event in ("hard_line", "recent_exact"):
        text, severity = _RECENT_ONLY, "warn"
    elif entry.event == "coverage":
        text, severity = QT_TRANSLATE_NOOP("", "Answered from recent turns only: the compressed history had a gap, "
                                               "so memory is now recent-only (switch it back to automatic to start "
                                               "afresh)"), "warn"
    return Notice(entry.created_at, text, severity, values) if text else None
