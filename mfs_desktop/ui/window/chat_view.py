"""The chat stream as a Qt model over the store's pages and a list view that paints each row
from its own small text document: a 10,000-turn conversation opens with one page, older
pages are inserted above without laying the rest out again, and a streamed answer only
re-lays its own row. Assistant text is Markdown; no row ever loads a resource, remote or local."""

from __future__ import annotations

import html
from collections import OrderedDict

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

from mfs_desktop.ui.window.code_blocks import highlight_code_blocks
from mfs_desktop.ui.window.rows import Row, live_row

ROW_ROLE = Qt.ItemDataRole.UserRole + 1
PADDING = 10
STYLE = """
.meta { color: #7b8595; font-size: 11px; }
.speed { color: #9aa3af; font-size: 10px; }
.partial { color: #b07800; }
.notice { color: #3d6fb0; font-style: italic; }
.warn { color: #c62828; font-style: italic; }
a { color: #3d6fb0; text-decoration: none; }
.thought { color: #8a93a3; font-size: 11px; }
"""
MARKDOWN = QTextDocument.MarkdownFeature(QTextDocument.MarkdownFeature.MarkdownDialectGitHub.value
                                         | QTextDocument.MarkdownFeature.MarkdownNoHTML.value)


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

    def set_live(self, text: str | None, thinking: str = "", thinking_seconds: float = 0.0) -> None:
        """Show, update or (None) remove the answer being written, always the last row."""
        has_live = bool(self.rows) and self.rows[-1].kind == "live"
        if text is None:
            if has_live:
                self.beginRemoveRows(QModelIndex(), len(self.rows) - 1, len(self.rows) - 1)
                self.rows.pop()
                self.endRemoveRows()
            return
        if has_live:
            self.rows[-1] = live_row(text, thinking, thinking_seconds)
            index = self.index(len(self.rows) - 1)
            self.dataChanged.emit(index, index)
            return
        self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows))
        self.rows.append(live_row(text, thinking, thinking_seconds))
        self.endInsertRows()


class RowDelegate(QStyledItemDelegate):
    """Lays each row out once per width in its own document (kept in a bounded cache)."""

    link_clicked = Signal(QUrl)
    CACHE = 600

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._documents: OrderedDict[tuple, QTextDocument] = OrderedDict()
        self.opened_thoughts: set[str] = set()  # keys of the rows whose thinking is shown in full

    def document(self, row: Row, width: int) -> QTextDocument:
        opened = row.key in self.opened_thoughts
        key = (row.key, width, len(row.body), row.meta_html, row.thought, opened and len(row.thinking))
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
        above = [row.meta_html] if row.meta_html else []
        if row.thought:  # the thought before the answer: one line, its text only when opened
            mark = "▾" if opened else "▸"
            line = f'<span class="thought">{mark} {html.escape(row.thought)}</span>'
            above.append(f'<a href="think:{row.key}">{line}</a>')
            if opened:
                above.append('<span class="thought">' + html.escape(row.thinking).replace("\n", "<br>") + "</span>")
        for piece in reversed(above):  # each on its own line above the body, which keeps its formats
            cursor = QTextCursor(document)
            cursor.movePosition(QTextCursor.MoveOperation.Start)
            cursor.insertBlock()
            cursor.movePosition(QTextCursor.MoveOperation.Start)
            cursor.insertHtml(piece)
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

    def toggle_thought(self, key: str) -> None:
        """Open or close the thinking shown above an answer."""
        self.rows_delegate.opened_thoughts ^= {key}
        index = next((i for i, row in enumerate(self.stream.rows) if row.key == key), None)
        if index is not None:
            self.stream.dataChanged.emit(self.stream.index(index), self.stream.index(index))

    def set_live(self, text: str | None, thinking: str = "", thinking_seconds: float = 0.0) -> None:
        follow = self.at_bottom()
        if text is None:
            self.rows_delegate.opened_thoughts.discard("live")
        self.stream.set_live(text, thinking, thinking_seconds)
        if follow:
            self.scrollToBottom()

    def mouseMoveEvent(self, event) -> None:  # noqa: N802 (Qt's naming)
        index = self.indexAt(event.position().toPoint())
        over_link = index.isValid() and bool(
            self.rows_delegate.anchor_at(index.data(ROW_ROLE), self.visualRect(index), event.position()))
        self.viewport().setCursor(Qt.CursorShape.PointingHandCursor if over_link else Qt.CursorShape.ArrowCursor)
        super().mouseMoveEvent(event)
