"""What the ChatGPT and Claude readers share: the counts a preview shows, text made safe to
store, times in any of the shapes exports use, and one conversation's messages as they are
read (tool calls paired with their results, thinking held apart for the answer it led to).

Counts are keyed by a kind from `NOTES` (or `part:<name>` / `role:<name>` for shapes an
export names itself); the preview words them. Nothing an export holds is dropped without a
count, except what is empty (an empty hidden system message loses nothing).
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import time
from datetime import UTC, datetime

from mfs_desktop.store.attachments import AttachmentBlob
from mfs_desktop.store.transcript_import import ImportedMessage
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

Counts = dict[str, int]

# kind -> (one, many); kept apart first, then what was left out, in the order a person reads them
NOTES: dict[str, tuple[str, str]] = {
    "tool_calls": (QT_TRANSLATE_NOOP("", "{count:,} tool call kept as a tool message"),
                   QT_TRANSLATE_NOOP("", "{count:,} tool calls kept as tool messages")),
    "tool_results": (QT_TRANSLATE_NOOP("", "{count:,} tool result kept as a tool message"),
                     QT_TRANSLATE_NOOP("", "{count:,} tool results kept as tool messages")),
    "thinking": (QT_TRANSLATE_NOOP("", "{count:,} thinking passage kept apart"),
                 QT_TRANSLATE_NOOP("", "{count:,} thinking passages kept apart")),
    "artifacts": (QT_TRANSLATE_NOOP("", "{count:,} artifact kept as code"),
                  QT_TRANSLATE_NOOP("", "{count:,} artifacts kept as code")),
    "documents": (QT_TRANSLATE_NOOP("", "{count:,} attached text kept as a document"),
                  QT_TRANSLATE_NOOP("", "{count:,} attached texts kept as documents")),
    "voice": (QT_TRANSLATE_NOOP("", "{count:,} voice message kept as its transcript"),
              QT_TRANSLATE_NOOP("", "{count:,} voice messages kept as their transcripts")),
    "images": (QT_TRANSLATE_NOOP("", "{count:,} image as a marker"),
               QT_TRANSLATE_NOOP("", "{count:,} images as markers")),
    "files": (QT_TRANSLATE_NOOP("", "{count:,} file as a marker"),
              QT_TRANSLATE_NOOP("", "{count:,} files as markers")),
    "audio": (QT_TRANSLATE_NOOP("", "{count:,} recording without a transcript as a marker"),
              QT_TRANSLATE_NOOP("", "{count:,} recordings without a transcript as markers")),
    "citations": (QT_TRANSLATE_NOOP("", "{count:,} citation marker removed"),
                  QT_TRANSLATE_NOOP("", "{count:,} citation markers removed")),
    "private_use": (QT_TRANSLATE_NOOP("", "{count:,} stray private-use character removed"),
                    QT_TRANSLATE_NOOP("", "{count:,} stray private-use characters removed")),
    "surrogates": (QT_TRANSLATE_NOOP("", "{count:,} lone surrogate replaced"),
                   QT_TRANSLATE_NOOP("", "{count:,} lone surrogates replaced")),
    "nul": (QT_TRANSLATE_NOOP("", "{count:,} NUL character replaced"),
            QT_TRANSLATE_NOOP("", "{count:,} NUL characters replaced")),
    "system": (QT_TRANSLATE_NOOP("", "{count:,} hidden system message skipped"),
               QT_TRANSLATE_NOOP("", "{count:,} hidden system messages skipped")),
    "hidden": (QT_TRANSLATE_NOOP("", "{count:,} hidden message skipped"),
               QT_TRANSLATE_NOOP("", "{count:,} hidden messages skipped")),
    "placeholders": (QT_TRANSLATE_NOOP("", "{count:,} “not supported on your device” placeholder dropped"),
                     QT_TRANSLATE_NOOP("", "{count:,} “not supported on your device” placeholders dropped")),
    "artifact_results": (QT_TRANSLATE_NOOP("", "{count:,} artifact confirmation skipped"),
                         QT_TRANSLATE_NOOP("", "{count:,} artifact confirmations skipped")),
    "before_first": (QT_TRANSLATE_NOOP("", "{count:,} message before the first question skipped"),
                     QT_TRANSLATE_NOOP("", "{count:,} messages before the first question skipped")),
    "empty_conversations": (QT_TRANSLATE_NOOP("", "{count:,} empty conversation skipped"),
                            QT_TRANSLATE_NOOP("", "{count:,} empty conversations skipped")),
}
# shapes an export names itself, shown with that name
PART_NOTE = (QT_TRANSLATE_NOOP("", "{count:,} “{name}” part skipped"),
             QT_TRANSLATE_NOOP("", "{count:,} “{name}” parts skipped"))
ROLE_NOTE = (QT_TRANSLATE_NOOP("", "{count:,} message from “{name}” skipped"),
             QT_TRANSLATE_NOOP("", "{count:,} messages from “{name}” skipped"))

LATEST_TIME = 253402300799.0  # 9999-12-31: a later number is not a time a clock showed
_SURROGATE = re.compile("[\ud800-\udfff]")
# ChatGPT's inline references: \ue200kind\ue202payload\ue201 ("cite", "filecite", "navlist", "entity" …)
_REFERENCE = re.compile("([ \t]*)\ue200([^\ue200-\ue202]*)(?:\ue202([^\ue200\ue201]*))?\ue201")
_MARKER_CHARS = re.compile("[\ue200-\ue2ff]")  # only ChatGPT's block: other private-use glyphs are icon fonts


def note(counts: Counts, kind: str, amount: int = 1) -> None:
    if amount:
        counts[kind] = counts.get(kind, 0) + amount


def clean(text: str, counts: Counts) -> str:
    """Text the transcript can store and a person can read: no lone surrogate (SQLite cannot
    encode one), no NUL (the transcript refuses it), no citation marker (a private-use character
    shows as a box)."""
    if _SURROGATE.search(text):
        text, replaced = _SURROGATE.subn("\ufffd", text)
        note(counts, "surrogates", replaced)
    if "\x00" in text:
        note(counts, "nul", text.count("\x00"))
        text = text.replace("\x00", "\ufffd")
    if "\ue200" in text:
        text = _REFERENCE.sub(lambda match: _reference(match, counts), text)
    if _MARKER_CHARS.search(text):
        text, removed = _MARKER_CHARS.subn("", text)
        note(counts, "private_use", removed)
    return text


def _reference(match: re.Match[str], counts: Counts) -> str:
    """An entity reference is a name shown in the text (kept); every other kind points at a
    source the export does not carry (removed, counted)."""
    lead, kind, payload = match.groups()
    if kind == "entity":
        try:
            entity = json.loads(payload or "")
        except (ValueError, RecursionError):
            entity = None
        if isinstance(entity, list) and len(entity) > 1 and isinstance(entity[1], str):
            return lead + entity[1]
    note(counts, "citations")
    return ""  # with the space before it: "Paris \ue200cite…\ue201." reads "Paris."


def when(value: object) -> float | None:
    """Seconds since 1970 from epoch seconds, milliseconds or microseconds (a number or a
    numeric string) or an ISO 8601 time (Z, an offset, or none: UTC); None when there is none.
    A garbled time string is a ValueError: the export is malformed, not merely undated."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, str):
        written = value.strip()
        if not written:
            return None
        try:
            seconds = float(written)
        except ValueError:
            parsed = datetime.fromisoformat(written.replace("Z", "+00:00").replace("z", "+00:00"))
            seconds = (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).timestamp()
    elif isinstance(value, int | float):
        try:
            seconds = float(value)
        except OverflowError:  # an integer past any float is no time either
            return None
    else:
        return None
    for _ in range(2):  # milliseconds, then microseconds: a seconds count that large is after the year 5000
        if seconds > 1e11:
            seconds /= 1000
    return seconds if math.isfinite(seconds) and 0 < seconds <= LATEST_TIME else None


class Transcript:
    """One conversation's messages in the order shown. A chat API refuses a tool call without
    its result and a result without its call, so each gets an empty partner when the export
    shows one alone. Thinking waits for the next assistant message (the answer it led to)."""

    def __init__(self, counts: Counts, fallback_time: float) -> None:
        self.counts = counts
        self.fallback_time = fallback_time
        self.messages: list[ImportedMessage] = []
        self._open_call: tuple[str, str] | None = None  # (id, tool name)
        self._thinking: list[str] = []
        self._calls = 0

    def time(self, value: object) -> float:
        """The message's own time, else the one before it (an export leaves some out)."""
        stamp = when(value)
        if stamp is not None:
            self.fallback_time = stamp
        return self.fallback_time

    def think(self, text: str) -> None:
        if text.strip():
            self._thinking.append(clean(text.strip(), self.counts))
            note(self.counts, "thinking")

    def user(self, text: str, stamp: float, *, origin: str = "", document: AttachmentBlob | None = None) -> None:
        self._close_call()
        self._flush_thinking()
        self.messages.append(ImportedMessage("user", clean(text, self.counts), stamp, origin=origin,
                                             document=document))

    def assistant(self, text: str, stamp: float) -> None:
        self._close_call()
        self.messages.append(ImportedMessage("assistant", clean(text, self.counts), stamp,
                                             thinking=self._take_thinking()))

    def call(self, name: str, arguments: str, stamp: float, call_id: str = "", *, counted: bool = True) -> None:
        self._close_call()
        self._calls += 1
        call_id = clean(call_id, self.counts) or f"import-call-{self._calls}"
        name = clean(name, self.counts) or "tool"
        self.messages.append(ImportedMessage("assistant", "", stamp, thinking=self._take_thinking(), tool_name=name,
                                             tool_arguments=clean(arguments, self.counts), tool_call_id=call_id))
        self._open_call = (call_id, name)
        note(self.counts, "tool_calls", int(counted))  # a call made up to carry a lone result is not counted

    def result(self, name: str, text: str, stamp: float, call_id: str = "") -> None:
        if self._open_call is None or (call_id and clean(call_id, self.counts) != self._open_call[0]):
            self.call(name, "{}", stamp, call_id, counted=False)
        assert self._open_call is not None
        opened, self._open_call = self._open_call, None
        self.messages.append(ImportedMessage("tool", clean(text, self.counts), stamp, tool_name=opened[1],
                                             tool_call_id=opened[0]))
        note(self.counts, "tool_results")

    def finish(self) -> list[ImportedMessage]:
        self._close_call()
        self._flush_thinking()
        return self.messages

    def created_at(self, stated: float | None) -> float:
        """The conversation's time as the export states it; an undated conversation is as old as
        its first dated message (after `finish`)."""
        if stated is not None:
            return stated
        return min((m.created_at for m in self.messages), default=self.fallback_time)

    def _close_call(self) -> None:
        if self._open_call is not None:
            opened, self._open_call = self._open_call, None
            self.messages.append(ImportedMessage("tool", "", self.fallback_time, tool_name=opened[1],
                                                 tool_call_id=opened[0]))

    def _take_thinking(self) -> str | None:
        taken = "\n\n".join(self._thinking) or None
        self._thinking.clear()
        return taken

    def _flush_thinking(self) -> None:
        """Thinking with no answer after it (a stopped turn) goes with the assistant message
        before it, or stands as an assistant message of its own."""
        if not self._thinking:
            return
        last = self.messages[-1] if self.messages else None
        if last is not None and last.role == "assistant":
            joined = "\n\n".join(part for part in (last.thinking, self._take_thinking()) if part)
            self.messages[-1] = dataclasses.replace(last, thinking=joined)
        else:
            self.messages.append(ImportedMessage("assistant", "", self.fallback_time, thinking=self._take_thinking()))


def fenced(code: str, language: str = "", title: str = "") -> str:
    """Code as a Markdown block that no line inside it can close."""
    fence = "```"
    while fence in code:
        fence += "`"
    block = f"{fence}{language}\n{code}\n{fence}"
    return f"**{title}**\n{block}" if title else block


def now() -> float:
    return time.time()
