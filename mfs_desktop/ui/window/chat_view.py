"""The chat stream as a Qt model over the store's pages and a list view that paints each row
from its own small text document: a 10,000-turn conversation opens with one page, older
pages are inserted above without laying the rest out again, and a streamed answer only
re-lays its own row. Assistant text is Markdown; no row ever loads a resource, remote or local."""

from __future__ import annotations

import html
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from PySide6.QtCore import (
    QAbstractListModel,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QPointF,
    QRect,
    QSize,
    Qt,
    QUrl,
    Signal,
)
from PySide6.QtGui import QAbstractTextDocumentLayout, QPalette, QTextCursor, QTextDocument
from PySide6.QtWidgets import QAbstractItemView, QListView, QStyledItemDelegate, QStyleOptionViewItem

from mfs_desktop.services.conversation.notices import Notice
from mfs_desktop.services.conversation.tools import readable_arguments
from mfs_desktop.services.display import shown
from mfs_desktop.store.database import Database
from mfs_desktop.store.generations import answer_speeds
from mfs_desktop.store.models import Message
from mfs_desktop.store.pins import pinned_uids
from mfs_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr
from mfs_desktop.ui.window.code_blocks import highlight_code_blocks

ROLE_LABEL = {"user": QT_TRANSLATE_NOOP("", "You"), "assistant": QT_TRANSLATE_NOOP("", "Assistant"),
              "tool": QT_TRANSLATE_NOOP("", "Tool")}
ORIGIN_LABEL = {"edited": QT_TRANSLATE_NOOP("", "edited"), "document": QT_TRANSLATE_NOOP("", "document"),
                "quoted_ai": QT_TRANSLATE_NOOP("", "quoted ai"),
                "quoted_ai_annotated": QT_TRANSLATE_NOOP("", "quoted ai annotated")}
LINK_LABEL = {"copy": QT_TRANSLATE_NOOP("", "copy"), "quote": QT_TRANSLATE_NOOP("", "quote"),
              "edit": QT_TRANSLATE_NOOP("", "edit"), "pin": QT_TRANSLATE_NOOP("", "pin"),
              "unpin": QT_TRANSLATE_NOOP("", "unpin")}  # the link's action (its href) stays English
ROW_ROLE = Qt.ItemDataRole.UserRole + 1
PADDING = 10
STYLE = """
.meta { color: #7b8595; font-size: 11px; }
.speed { color: #9aa3af; font-size: 10px; }
.partial { color: #b07800; }
.notice { color: #3d6fb0; font-style: italic; }
.warn { color: #c62828; font-style: italic; }
a { color: #3d6fb0; text-decoration: none; }
"""
MARKDOWN = QTextDocument.MarkdownFeature(QTextDocument.MarkdownFeature.MarkdownDialectGitHub.value
                                         | QTextDocument.MarkdownFeature.MarkdownNoHTML.value)


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

    @property
    def plain(self) -> str:
        return f"{self.meta_plain}\n{self.body}" if self.meta_plain else self.body


@dataclass(frozen=True)
class RowMarks:
    """What the stream shows beside messages besides their text."""

    pinned: frozenset[int] = frozenset()
    speeds: Mapping[str, tuple[int, int, int, float, float]] = field(default_factory=dict)  # by generation id


def row_marks(database: Database, conversation_id: str | None) -> RowMarks:
    if conversation_id is None:
        return RowMarks()
    return RowMarks(frozenset(pinned_uids(database, conversation_id)), answer_speeds(database, conversation_id))


def speed_line(prompt: int, reused: int, completion: int, prefill_ms: float, decode_ms: float) -> str:
    """"38.2 tokens/s · first token after 0.4 s · 2,360 of 2,372 prompt tokens from the cache"."""
    rate = (tr("{rate:.1f} tokens/s").format(rate=completion / (decode_ms / 1000)) if decode_ms > 0 and completion
            else "—")
    line = tr("{rate} · first token after {seconds:.1f} s · {reused:,} of {prompt:,} prompt tokens from the cache")
    return line.format(rate=rate, seconds=prefill_ms / 1000, reused=reused, prompt=prompt)


def message_row(message: Message, pinned: bool = False, speed: str = "") -> Row:
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
    if speed:
        meta += f'<br><span class="speed">{html.escape(speed)}</span>'
        plain += f"\n{speed}"
    links = ["copy"] + (["quote"] if message.role == "assistant" else []) \
        + (["edit", "unpin" if pinned else "pin"] if message.role == "user" else [])
    labels = [(link, tr(LINK_LABEL[link])) for link in links]
    if message.thinking:  # kept apart from the answer: one link away, collapsed until asked for
        labels.append(("thinking", tr("thought first ({count:,} characters)").format(count=len(message.thinking))))
    meta += "".join(f' · <a href="{link}:{message.uid}">{html.escape(label)}</a>' for link, label in labels)
    plain += "".join(f" · {label}" for _, label in labels)
    body = shown(message.text)  # an override or escape is shown, never obeyed; copy takes the stored text
    if message.role == "assistant" and message.tool_name and not body.strip():
        body = f"→ `{message.tool_name}` {readable_arguments(message.tool_arguments)}"
    return Row(f"m{message.uid}", "message", message.role, f'<span class="meta">{meta}</span>', plain, body,
               message.role == "assistant", message.uid, message.created_at)


def notice_row(notice: Notice) -> Row:
    style = "warn" if notice.severity == "warn" else "notice"
    return Row(f"n{notice.created_at}", "notice", style, "", "", f"— {notice.worded(tr)} —", False, None,
               notice.created_at)


def live_row(text: str) -> Row:
    meta = tr("Assistant · answering")
    return Row("live", "live", "assistant", f'<span class="meta">{html.escape(meta)}</span>', meta,
               shown(text) or "…", True)


def stream_rows(messages: list[Message], notices: list[Notice], marks: RowMarks = RowMarks()) -> list[Row]:
    """Messages and notices in time order (a notice before a message of the same second)."""
    rows = [message_row(m, m.uid in marks.pinned,
                        speed_line(*marks.speeds[m.generation_id]) if m.generation_id in marks.speeds
                        and m.role == "assistant" and not m.tool_name else "")
            for m in messages] + [notice_row(n) for n in notices]
    return sorted(rows, key=lambda row: (row.created_at, row.kind == "message"))


class QuietDocument(QTextDocument):
    """A document that never fetches anything an image or a link in Markdown names."""

    def loadResource(self, kind: int, name: QUrl):  # noqa: N802 (Qt's naming)
        return None


class StreamModel(QAbstractListModel):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[Row] = []

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.rows)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        if role == ROW_ROLE:
            return row
        if role == Qt.ItemDataRole.DisplayRole:
            return row.plain
        return None

    def reset(self, rows: list[Row]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def append(self, rows: list[Row]) -> None:
        """New rows at the end, above the answer being written if there is one."""
        if not rows:
            return
        at = len(self.rows) - 1 if self.rows and self.rows[-1].kind == "live" else len(self.rows)
        self.beginInsertRows(QModelIndex(), at, at + len(rows) - 1)
        self.rows[at:at] = rows
        self.endInsertRows()

    def last_uid(self) -> int | None:
        return next((row.uid for row in reversed(self.rows) if row.uid is not None), None)

    def prepend(self, rows: list[Row]) -> None:
        if not rows:
            return
        self.beginInsertRows(QModelIndex(), 0, len(rows) - 1)
        self.rows[:0] = rows
        self.endInsertRows()

    def set_live(self, text: str | None) -> None:
        """Show, update or (None) remove the answer being written, always the last row."""
        has_live = bool(self.rows) and self.rows[-1].kind == "live"
        if text is None:
            if has_live:
                self.beginRemoveRows(QModelIndex(), len(self.rows) - 1, len(self.rows) - 1)
                self.rows.pop()
                self.endRemoveRows()
            return
        if has_live:
            self.rows[-1] = live_row(text)
            index = self.index(len(self.rows) - 1)
            self.dataChanged.emit(index, index)
            return
        self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows))
        self.rows.append(live_row(text))
        self.endInsertRows()


class RowDelegate(QStyledItemDelegate):
    """Lays each row out once per width in its own document (kept in a bounded cache)."""

    link_clicked = Signal(QUrl)
    CACHE = 600

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._documents: OrderedDict[tuple, QTextDocument] = OrderedDict()

    def document(self, row: Row, width: int) -> QTextDocument:
        key = (row.key, width, len(row.body), row.meta_html)
        cached = self._documents.get(key)
        if cached is not None:
            self._documents.move_to_end(key)
            return cached
        document = QuietDocument()
        document.setDefaultStyleSheet(STYLE)
        document.setDocumentMargin(0)
        if row.markdown:
            document.setMarkdown(row.body, MARKDOWN)
            if row.uid is not None:  # a stored answer; colouring the live one at every piece costs up to
                highlight_code_blocks(document, row.uid)  # 90 ms a repaint on 5 KB of code (26 ms plain)
        elif row.kind == "notice":
            document.setHtml(f'<span class="{row.role}">{html.escape(row.body)}</span>')
        else:
            document.setPlainText(row.body)
        if row.meta_html:
            cursor = QTextCursor(document)
            cursor.movePosition(QTextCursor.MoveOperation.Start)
            cursor.insertBlock()
            cursor.movePosition(QTextCursor.MoveOperation.Start)
            cursor.insertHtml(row.meta_html)
        document.setTextWidth(max(80, width - 2 * PADDING))
        self._documents[key] = document
        if row.key == "live":  # earlier lengths of the live answer are never shown again
            for stale in [k for k in self._documents if k[0] == "live" and k != key]:
                del self._documents[stale]
        while len(self._documents) > self.CACHE:
            self._documents.popitem(last=False)
        return document

    def forget_layouts(self) -> None:
        """After a change of theme or text size every row is laid out again."""
        self._documents.clear()
        self.sizeHintChanged.emit(QModelIndex())

    def width(self) -> int:
        """Rows are as wide as the view's viewport: sizes and painting lay out at one width."""
        return self.parent().viewport().width()

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:  # noqa: N802
        document = self.document(index.data(ROW_ROLE), self.width())
        return QSize(self.width(), int(document.size().height()) + 2 * PADDING)

    def paint(self, painter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        row: Row = index.data(ROW_ROLE)
        painter.save()
        if row.uid is not None and row.uid == getattr(self.parent(), "highlighted", None):
            marked = option.palette.color(QPalette.ColorRole.Highlight)
            marked.setAlpha(60)
            painter.fillRect(option.rect.adjusted(0, 2, 0, -2), marked)
        elif row.kind == "message" and row.role == "user":
            painter.fillRect(option.rect.adjusted(0, 2, 0, -2), option.palette.color(QPalette.ColorRole.AlternateBase))
        document = self.document(row, self.width())
        painter.translate(option.rect.left() + PADDING, option.rect.top() + PADDING)
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette = option.palette
        document.documentLayout().draw(painter, context)
        painter.restore()

    def anchor_at(self, row: Row, rect: QRect, position: QPointF) -> str:
        """The link under a point of the view, or ""."""
        document = self.document(row, self.width())
        return document.documentLayout().anchorAt(position - QPointF(rect.left() + PADDING, rect.top() + PADDING))

    def editorEvent(self, event, model, option: QStyleOptionViewItem, index: QModelIndex) -> bool:  # noqa: N802
        if event.type() != QEvent.Type.MouseButtonRelease or event.button() != Qt.MouseButton.LeftButton:
            return False
        anchor = self.anchor_at(index.data(ROW_ROLE), option.rect, event.position())
        if anchor:
            self.link_clicked.emit(QUrl(anchor))
            return True
        return False


class ChatView(QListView):
    """The stream: rows from `StreamModel`, painted by `RowDelegate`; `reached_top` asks for
    the previous page."""

    anchorClicked = Signal(QUrl)  # noqa: N815 (the QTextBrowser name the window already uses)
    reached_top = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.stream = StreamModel()
        self.setModel(self.stream)
        self.rows_delegate = RowDelegate(self)
        self.setItemDelegate(self.rows_delegate)
        self.rows_delegate.link_clicked.connect(self.anchorClicked)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # rows wrap to the width
        self.verticalScrollBar().setSingleStep(24)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setMouseTracking(True)
        self.setFrameShape(QListView.Shape.NoFrame)
        self.verticalScrollBar().valueChanged.connect(self._scrolled)
        self.highlighted: int | None = None  # a message uid the reader was sent to

    def _scrolled(self, value: int) -> None:
        if value == 0 and self.stream.rows and self.verticalScrollBar().maximum() > 0:
            self.reached_top.emit()

    def toPlainText(self) -> str:  # noqa: N802 (mirrors QTextEdit for readers of the view)
        return "\n".join(row.plain for row in self.stream.rows)

    def at_bottom(self) -> bool:
        bar = self.verticalScrollBar()
        return bar.value() >= bar.maximum() - 4

    def show_rows(self, rows: list[Row]) -> None:
        self.highlighted = None
        self.stream.reset(rows)
        self.scrollToBottom()

    def row_of(self, uid: int) -> int | None:
        return next((index for index, row in enumerate(self.stream.rows) if row.uid == uid), None)

    def highlight(self, uid: int) -> None:
        """Mark message `uid` (a search hit) and bring it to the middle of the view."""
        index = self.row_of(uid)
        if index is None:
            return
        self.highlighted = uid
        self.scrollTo(self.stream.index(index), QAbstractItemView.ScrollHint.PositionAtCenter)
        self.viewport().update()

    def append_rows(self, rows: list[Row]) -> None:
        follow = self.at_bottom()
        self.stream.append(rows)
        if follow:
            self.scrollToBottom()

    def prepend_rows(self, rows: list[Row]) -> None:
        """Older rows above, the reader's place kept: the first row they saw stays at the top."""
        if not rows:
            return
        anchor = self.indexAt(self.viewport().rect().topLeft())
        offset = self.visualRect(anchor).top() if anchor.isValid() else 0
        self.stream.prepend(rows)
        if anchor.isValid():
            self.scrollTo(self.stream.index(anchor.row() + len(rows)), QAbstractItemView.ScrollHint.PositionAtTop)
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - offset)

    def set_live(self, text: str | None) -> None:
        follow = self.at_bottom()
        self.stream.set_live(text)
        if follow:
            self.scrollToBottom()

    def mouseMoveEvent(self, event) -> None:  # noqa: N802 (Qt's naming)
        index = self.indexAt(event.position().toPoint())
        over_link = index.isValid() and bool(
            self.rows_delegate.anchor_at(index.data(ROW_ROLE), self.visualRect(index), event.position()))
        self.viewport().setCursor(Qt.CursorShape.PointingHandCursor if over_link else Qt.CursorShape.ArrowCursor)
        super().mouseMoveEvent(event)
