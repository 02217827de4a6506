"""What one row of the chat stream says: a message with its details and links, a notice, the
answer being written; and the thinking before an answer, collapsed to one line until opened.
Plain values, laid out by chat_view.py."""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from mfs_desktop.services.conversation.notices import Notice
from mfs_desktop.services.conversation.tools import readable_arguments
from mfs_desktop.services.display import shown
from mfs_desktop.store.database import Database
from mfs_desktop.store.generations import AnswerSpeed, answer_speeds
from mfs_desktop.store.models import Message
from mfs_desktop.store.pins import pinned_uids
from mfs_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr

ROLE_LABEL = {"user": QT_TRANSLATE_NOOP("", "You"), "assistant": QT_TRANSLATE_NOOP("", "Assistant"),
              "tool": QT_TRANSLATE_NOOP("", "Tool")}
ORIGIN_LABEL = {"edited": QT_TRANSLATE_NOOP("", "edited"), "document": QT_TRANSLATE_NOOP("", "document"),
                "quoted_ai": QT_TRANSLATE_NOOP("", "quoted ai"),
                "quoted_ai_annotated": QT_TRANSLATE_NOOP("", "quoted ai annotated")}
LINK_LABEL = {"copy": QT_TRANSLATE_NOOP("", "copy"), "quote": QT_TRANSLATE_NOOP("", "quote"),
              "edit": QT_TRANSLATE_NOOP("", "edit"), "pin": QT_TRANSLATE_NOOP("", "pin"),
              "unpin": QT_TRANSLATE_NOOP("", "unpin")}  # the link's action (its href) stays English

@dataclass(frozen=True)
class Row:
    key: str  # "m<uid>", "n<time>" or "live": what the layout cache is keyed by
    kind: str  # "message" | "notice" | "live"
    role: str  # user / assistant / tool for messages; info / warn for notices
    meta_html: str
    meta_plain: str
    body: str  # plain text; Markdown for the assistant
    markdown: bool
    uid: int | None = None
    created_at: float = 0.0
    thinking: str = ""  # the thought before an answer, shown under `thought` when opened
    thought: str = ""  # the one line it is collapsed to: "Thought for 12.3 s"

    @property
    def plain(self) -> str:
        thought = f"{self.thought}\n" if self.thought else ""
        return f"{self.meta_plain}\n{thought}{self.body}" if self.meta_plain else thought + self.body


@dataclass(frozen=True)
class RowMarks:
    """What the stream shows beside messages besides their text."""

    pinned: frozenset[int] = frozenset()
    speeds: Mapping[str, AnswerSpeed] = field(default_factory=dict)  # by generation id


def row_marks(database: Database, conversation_id: str | None) -> RowMarks:
    if conversation_id is None:
        return RowMarks()
    return RowMarks(frozenset(pinned_uids(database, conversation_id)), answer_speeds(database, conversation_id))


def speed_line(speed: AnswerSpeed) -> str:
    """"38.2 tokens/s · first token after 0.4 s · 2,360 of 2,372 prompt tokens from the cache",
    with how many of the tokens were thinking for a thinking model."""
    completion, decode_ms = speed.completion_tokens, speed.decode_ms
    rate = (tr("{rate:.1f} tokens/s").format(rate=completion / (decode_ms / 1000)) if decode_ms > 0 and completion
            else "—")
    line = tr("{rate} · first token after {seconds:.1f} s · {reused:,} of {prompt:,} prompt tokens from the cache")
    line = line.format(rate=rate, seconds=speed.prefill_ms / 1000, reused=speed.reused, prompt=speed.prompt_tokens)
    if speed.thinking_tokens:
        line += " · " + tr("{thinking:,} of {completion:,} tokens thinking").format(
            thinking=speed.thinking_tokens, completion=completion)
    return line


def thought_line(thinking: str, seconds: float, capped: bool = False, *, live: bool = False) -> str:
    """The line a thought is collapsed to. Imported answers have no time: their length stands in."""
    if live:
        line = tr("Thinking… {seconds:.0f} s").format(seconds=seconds)
    elif seconds:
        line = tr("Thought for {seconds:.1f} s").format(seconds=seconds)
    else:
        line = tr("Thought ({count:,} characters)").format(count=len(thinking))
    return line + (" · " + tr("cut at the thinking cap") if capped else "")


def message_row(message: Message, pinned: bool = False, speed: AnswerSpeed | None = None) -> Row:
    when = datetime.fromtimestamp(message.created_at).strftime("%Y-%m-%d %H:%M")
    facts = [tr(ROLE_LABEL[message.role]), when, f"#{message.uid}"]  # the message's number in the conversation
    if message.tool_name:
        facts.append(message.tool_name)
    if message.origin in ORIGIN_LABEL:
        facts.append(tr(ORIGIN_LABEL[message.origin]))
    if pinned:
        facts.append(tr("pinned"))
    meta = " · ".join(html.escape(fact) for fact in facts)
    plain = " · ".join(facts)
    if message.status == "partial":
        stopped = tr("(stopped: partial answer)")
        meta += f' <span class="partial">{html.escape(stopped)}</span>'
        plain += f" {stopped}"
    if speed is not None and message.role == "assistant" and not message.tool_name:
        line = speed_line(speed)
        meta += f'<br><span class="speed">{html.escape(line)}</span>'
        plain += f"\n{line}"
    links = ["copy"] + (["quote"] if message.role == "assistant" else []) \
        + (["edit", "unpin" if pinned else "pin"] if message.role == "user" else [])
    labels = [(link, tr(LINK_LABEL[link])) for link in links]
    meta += "".join(f' · <a href="{link}:{message.uid}">{html.escape(label)}</a>' for link, label in labels)
    plain += "".join(f" · {label}" for _, label in labels)
    body = shown(message.text)  # an override or escape is shown, never obeyed; copy takes the stored text
    if message.role == "assistant" and message.tool_name and not body.strip():
        body = f"→ `{message.tool_name}` {readable_arguments(message.tool_arguments)}"
    thinking = message.thinking or ""  # kept apart from the answer: one line, opened on a click
    thought = thought_line(thinking, speed.thinking_ms / 1000 if speed else 0.0,
                           bool(speed and speed.thinking_capped)) if thinking else ""
    return Row(f"m{message.uid}", "message", message.role, f'<span class="meta">{meta}</span>', plain, body,
               message.role == "assistant", message.uid, message.created_at, thinking, thought)


def notice_row(notice: Notice) -> Row:
    style = "warn" if notice.severity == "warn" else "notice"
    return Row(f"n{notice.created_at}", "notice", style, "", "", f"— {notice.worded(tr)} —", False, None,
               notice.created_at)


def live_row(text: str, thinking: str = "", thinking_seconds: float = 0.0) -> Row:
    """The answer being written; while the model still thinks, its thought streams under a
    collapsed "Thinking… N s" line."""
    meta = tr("Assistant · answering")
    thought = thought_line(thinking, thinking_seconds, live=not text) if thinking else ""
    return Row("live", "live", "assistant", f'<span class="meta">{html.escape(meta)}</span>', meta,
               shown(text) or ("" if thinking else "…"), True, thinking=thinking, thought=thought)


def stream_rows(messages: list[Message], notices: list[Notice], marks: RowMarks = RowMarks()) -> list[Row]:
    """Messages and notices in time order (a notice before a message of the same second)."""
    rows = [message_row(m, m.uid in marks.pinned, marks.speeds.get(m.generation_id or ""))
            for m in messages] + [notice_row(n) for n in notices]
    return sorted(rows, key=lambda row: (row.created_at, row.kind == "message"))


