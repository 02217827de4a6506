"""The tabs beside the chat: context layers, tool trajectory, ledger. They show what the
services report; they compute nothing of their own."""

from __future__ import annotations

import html
from datetime import datetime

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mfs_desktop.services.conversation.tools import readable_arguments
from mfs_desktop.services.display import shown
from mfs_desktop.store.ledger import PREFIX_CHANGING, LedgerEntry
from mfs_desktop.store.trajectory import TrajectoryEntry
from mfs_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr

ZONES = (("system_and_tools", QT_TRANSLATE_NOOP("", "System prompt + tools")),
         ("data_block", QT_TRANSLATE_NOOP("", "Data block (slot, segments, your words)")),
         ("recent_turns", QT_TRANSLATE_NOOP("", "Recent turns, verbatim")),
         ("current_input", QT_TRANSLATE_NOOP("", "Current input")))
ROLE_NAMES = {"user": QT_TRANSLATE_NOOP("", "user"), "assistant": QT_TRANSLATE_NOOP("", "assistant"),
              "tool": QT_TRANSLATE_NOOP("", "tool")}  # a message's role as the detail names it
# Keys the summary names (memory mode, how the tokens were counted), in English as they are.
REPORT_WORDS = frozenset((QT_TRANSLATE_NOOP("", "automatic"), QT_TRANSLATE_NOOP("", "recent_only"),
                          QT_TRANSLATE_NOOP("", "off"), QT_TRANSLATE_NOOP("", "exact"),
                          QT_TRANSLATE_NOOP("", "anchored"), QT_TRANSLATE_NOOP("", "estimated")))
RESULT_PREVIEW_CHARS = 160
GAP_COLOUR = QColor("#c62828")


def depth_label(depth: int) -> str:
    return f"L{depth}"


def _word(key: str) -> str:
    return tr(key) if key in REPORT_WORDS else key


def _when(stamp: float, fmt: str = "%Y-%m-%d %H:%M:%S") -> str:
    return datetime.fromtimestamp(stamp).strftime(fmt)


def _readonly_table(headers: list[str]) -> QTableWidget:
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(headers)
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
    table.verticalHeader().setVisible(False)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.horizontalHeader().setStretchLastSection(True)
    return table


class ContextLayersTab(QWidget):
    """The send view as it will be sent next: zones with token bars, segments, coverage."""

    segment_clicked = Signal(int)  # uid_start
    unpin_clicked = Signal(int)  # uid
    recalled_clicked = Signal(int)  # uid of a recalled original, to open in the chat

    def __init__(self) -> None:
        super().__init__()
        self.summary = QLabel(tr("Open a conversation to see its context."))
        self.summary.setWordWrap(True)
        self.bars: dict[str, QProgressBar] = {}
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        for key, label in ZONES:
            bar = QProgressBar()
            bar.setFormat(tr("{zone}: %v tokens").format(zone=tr(label)))  # %v: Qt puts the value there
            bar.setTextVisible(True)
            self.bars[key] = bar
            layout.addWidget(bar)
        self.coverage = QLabel()
        layout.addWidget(self.coverage)
        self.pinned_label = QLabel(tr("Pinned standing instructions"))
        self.pinned = QTreeWidget()
        self.pinned.setHeaderLabels([tr("Message"), tr("Your words, sent verbatim"), tr("tokens"), ""])
        self.pinned.setRootIsDecorated(False)
        header = self.pinned.header()
        header.setStretchLastSection(False)
        for column in range(4):  # the words take the room; the uid, count and button only theirs
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch if column == 1
                                        else QHeaderView.ResizeMode.ResizeToContents)
        self.pinned.setMaximumHeight(120)
        layout.addWidget(self.pinned_label)
        layout.addWidget(self.pinned)
        self.recalled_label = QLabel()
        self.recalled = QTreeWidget()
        self.recalled.setHeaderLabels([tr("Message"), tr("Date"), tr("Speaker"), tr("Matched words")])
        self.recalled.setRootIsDecorated(False)
        self.recalled.setMaximumHeight(110)
        self.recalled.setToolTip(tr("Double-click to open the original message in the chat."))
        self.recalled.itemDoubleClicked.connect(
            lambda item: self.recalled_clicked.emit(item.data(0, Qt.ItemDataRole.UserRole)))
        layout.addWidget(self.recalled_label)
        layout.addWidget(self.recalled)
        splitter = QSplitter(Qt.Orientation.Vertical)
        self.segments = QTreeWidget()
        self.segments.setHeaderLabels([tr("Layer"), tr("uids"), tr("turns"), tr("tokens"), tr("items"), tr("facts"),
                                       tr("your words"), ""])
        self.segments.setRootIsDecorated(False)
        self.segments.itemClicked.connect(
            lambda item: self.segment_clicked.emit(item.data(0, Qt.ItemDataRole.UserRole))
        )
        self.detail = QTextBrowser()
        self.detail.setOpenLinks(False)
        self.detail.setPlaceholderText(tr("Click a segment to see its items, facts, your words it keeps verbatim "
                                          "and the original messages it covers."))
        splitter.addWidget(self.segments)
        splitter.addWidget(self.detail)
        layout.addWidget(splitter, 1)
        self.report: dict = {}

    def show_report(self, report: dict) -> None:
        self.report = report
        if "error" in report:
            self.summary.setText(report["error"])
            self.segments.clear()
            return
        window = report["window_tokens"]
        summary = tr("Next request: {payload:,} of {window:,} tokens ({pressure:.0%}; warn {warn:.0%}, hard "
                     "{hard:.0%}) · memory {memory_mode} · {recent} recent messages verbatim · count {counted_by}")
        left_out = tr("{count} oldest messages left out").format(count=report["messages_left_out"])
        self.summary.setText(summary.format(
            payload=report["payload_tokens"], window=window, pressure=report["pressure"], warn=report["warn"],
            hard=report["hard"], memory_mode=_word(report["memory_mode"]), recent=report["raw_messages"],
            counted_by=_word(report["token_count"])) + (f" · {left_out}" if report["messages_left_out"] else ""))
        for key, bar in self.bars.items():
            bar.setRange(0, window)
            bar.setValue(report["zones"][key])
        coverage = report["coverage"]
        if coverage["ok"]:
            self.coverage.setText(tr("Coverage check: ok ({ms:.2f} ms)").format(ms=coverage["ms"]))
            self.coverage.setStyleSheet("")
        else:
            holes = ", ".join(tr("uids {first}–{last}").format(first=a, last=b)
                              for a, b in coverage["gaps"] + coverage["overlaps"])
            self.coverage.setText(tr("Coverage check failed: {holes}").format(holes=holes))
            self.coverage.setStyleSheet(f"color: {GAP_COLOUR.name()}; font-weight: 600")
        self._show_pinned(report.get("pinned", []), report.get("pinned_budget", 0))
        self._show_recalled(report.get("recall", {}))
        self.segments.clear()
        for segment in report["segments"]:
            item = QTreeWidgetItem([
                depth_label(segment["depth"]), f"{segment['uid_start']}–{segment['uid_end']}",
                f"{segment['turn_start']}–{segment['turn_end']}", str(segment["tokens"]), str(segment["items"]),
                str(segment["facts"]), str(segment["quotes"]), tr("degraded") if segment["degraded"] else ""])
            item.setData(0, Qt.ItemDataRole.UserRole, segment["uid_start"])
            if segment["degraded"]:
                item.setForeground(7, QColor("#8a5a00"))
            self.segments.addTopLevelItem(item)
        for column in range(self.segments.columnCount()):
            self.segments.resizeColumnToContents(column)
        for gap in coverage["gaps"]:
            item = QTreeWidgetItem([tr("gap"), f"{gap[0]}–{gap[1]}", "", "", "", "", "", tr("not covered")])
            for column in range(8):
                item.setForeground(column, GAP_COLOUR)
            self.segments.addTopLevelItem(item)

    def _show_pinned(self, pinned: list[dict], budget: int) -> None:
        self.pinned.clear()
        used = sum(pin["tokens"] for pin in pinned)
        self.pinned_label.setText(
            tr("Pinned standing instructions: {count} · {used:,} of {budget:,} tokens").format(
                count=len(pinned), used=used, budget=budget)
            if pinned else tr("Pinned standing instructions: none (pin one of your messages in the chat)"))
        self.pinned.setVisible(bool(pinned))
        for pin in pinned:
            item = QTreeWidgetItem([f"#{pin['uid']}", " ".join(pin["text"].split()), str(pin["tokens"]), ""])
            item.setToolTip(1, pin["text"])
            self.pinned.addTopLevelItem(item)
            button = QPushButton(tr("Unpin"))
            button.clicked.connect(lambda _=False, uid=pin["uid"]: self.unpin_clicked.emit(uid))
            self.pinned.setItemWidget(item, 3, button)

    def _show_recalled(self, recall: dict) -> None:
        """What recall brought back for the newest message, and why (the words that matched)."""
        self.recalled.clear()
        hits = recall.get("hits", [])
        worded = tr("Recalled for the last request: an earlier message · {tokens:,} tokens") if len(hits) == 1 \
            else tr("Recalled for the last request: {count} earlier messages · {tokens:,} tokens")
        self.recalled_label.setText(
            worded.format(count=len(hits), tokens=recall.get("tokens", 0))
            if hits else tr("Recalled for the last request: nothing (no earlier message out of view matched "
                            "what it asks)"))
        self.recalled.setVisible(bool(hits))
        for hit in hits:
            item = QTreeWidgetItem([f"#{hit['uid']}", hit["date"], tr(ROLE_NAMES.get(hit["role"], hit["role"])),
                                    ", ".join(hit["terms"]) or tr("(the other half of a question and its answer)")])
            item.setData(0, Qt.ItemDataRole.UserRole, hit["uid"])
            self.recalled.addTopLevelItem(item)
        for column in range(self.recalled.columnCount()):
            self.recalled.resizeColumnToContents(column)

    def show_segment(self, detail: dict) -> None:
        heading = tr("{layer} · uids {first_uid}–{last_uid} · turns {first_turn}–{last_turn}").format(
            layer=depth_label(detail["depth"]), first_uid=detail["uid_start"], last_uid=detail["uid_end"],
            first_turn=detail["turn_start"], last_turn=detail["turn_end"])
        if detail["degraded"]:
            heading += " · " + tr("degraded")
        parts = [f"<h3>{heading}</h3>", f"<p>{html.escape(detail['days'])}</p>" if detail["days"] else "",
                 "<h4>" + tr("Items") + "</h4><ul>"]
        parts += [f"<li>{html.escape(i['text'])} <i>({i['cited']})</i></li>"
                  for i in detail["items"]]
        parts.append("</ul><h4>" + tr("Facts, verbatim") + "</h4><ul>")
        parts += [f"<li><code>{html.escape(fact)}</code></li>" for fact in detail["facts"]]
        if detail["dropped_facts"]:
            dropped = tr("{count} more not kept here (recall_history has them)").format(count=detail["dropped_facts"])
            parts.append(f"<li><i>{dropped}</i></li>")
        parts.append("</ul><h4>" + tr("Your words, verbatim") + "</h4><ul>")
        parts += [f"<li>{html.escape(quote)}</li>" for quote in detail["quotes"]]
        if detail["dropped_quotes"]:
            dropped = tr("{count} less binding sentences not kept here (recall_history has them)").format(
                count=detail["dropped_quotes"])
            parts.append(f"<li><i>{dropped}</i></li>")
        parts.append("</ul><h4>" + tr("Original messages") + "</h4>")
        parts += ["<p><b>{}</b><br>{}</p>".format(
            tr("uid {uid} · turn {turn} · {role}").format(uid=m["uid"], turn=m["turn"],
                                                         role=tr(ROLE_NAMES.get(m["role"], m["role"]))),
            html.escape(m["text"]).replace("\n", "<br>")) for m in detail["originals"]]
        self.detail.setHtml("".join(parts))


APPROVAL_LABEL = {"once": QT_TRANSLATE_NOOP("", "once"), "always": QT_TRANSLATE_NOOP("", "always"),
                  "deny": QT_TRANSLATE_NOOP("", "denied")}


class TrajectoryTab(QWidget):
    """Every tool call of the conversation from the store, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.table = _readonly_table(["#", tr("time"), tr("server"), tr("tool"), tr("arguments"), tr("approved"),
                                      tr("status"), "ms", tr("result")])
        self.table.cellDoubleClicked.connect(self._expand)
        self.result = QTextBrowser()
        self.result.setPlaceholderText(tr("Double-click a call to read its whole result."))
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(tr("Tool calls, oldest first (results truncated; double-click to expand)")))
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        splitter.addWidget(self.result)
        layout.addWidget(splitter, 1)
        self._entries: list[tuple[TrajectoryEntry, str]] = []

    def show_entries(self, entries: list[tuple[TrajectoryEntry, str]]) -> None:
        """(entry, its full result text)"""
        kept = {entry.id for entry, _ in entries}
        if not self._entries or self._entries[0][0].id not in kept:  # another conversation: its result goes
            self.result.clear()
        self.table.setRowCount(len(entries))
        self._entries = entries
        for row, (entry, result) in enumerate(entries):
            preview = result if len(result) <= RESULT_PREVIEW_CHARS else result[:RESULT_PREVIEW_CHARS] + "…"
            values = [str(row + 1), _when(entry.created_at, "%H:%M:%S"), entry.server or tr("(this app)"),
                      entry.tool_name, shown(readable_arguments(entry.arguments)),
                      tr(APPROVAL_LABEL[entry.approval]) if entry.approval in APPROVAL_LABEL else "—",
                      entry.status, f"{entry.duration_ms or 0:.1f}", preview]
            for column, value in enumerate(values):
                item = QTableWidgetItem(value)
                if column == 1:
                    item.setToolTip(_when(entry.created_at))
                self.table.setItem(row, column, item)

    def _expand(self, row: int, _column: int) -> None:
        entry, result = self._entries[row]
        where = f"{entry.server} · " if entry.server else ""
        self.result.setPlainText("\n\n".join((
            f"{where}{entry.tool_name} · {entry.status} · {entry.duration_ms or 0:.1f} ms",
            tr("Arguments") + "\n" + readable_arguments(entry.arguments), tr("Result") + "\n" + result)))


class PayloadChart(QWidget):
    """Payload tokens per answered turn, with the window's warn and hard lines."""

    def __init__(self) -> None:
        super().__init__()
        self.setMinimumHeight(140)
        self.series: list[tuple[int, int, int, float]] = []
        self.window = 1
        self.lines: tuple[float, float] = (0.85, 0.95)

    def set_series(self, series: list[tuple[int, int, int, float]], window: int, warn: float, hard: float) -> None:
        self.series, self.window, self.lines = series, max(1, window), (warn, hard)
        self.update()

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's naming)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        area = self.rect().adjusted(36, 8, -8, -18)
        text = self.palette().windowText().color()
        painter.setPen(text)
        painter.drawText(2, area.top() + 10, f"{self.window // 1000}k")
        painter.drawText(area.left(), self.height() - 4,
                         tr("payload tokens per turn (blue), tokens evaluated (grey)"))
        for ratio, colour in zip(self.lines, ("#e08a00", "#c62828"), strict=False):
            y = area.bottom() - ratio * area.height()
            painter.setPen(QPen(QColor(colour), 1, Qt.PenStyle.DashLine))
            painter.drawLine(QPointF(area.left(), y), QPointF(area.right(), y))
        if not self.series:
            painter.setPen(text)
            painter.drawText(area, Qt.AlignmentFlag.AlignCenter, tr("No answered turns yet in this conversation"))
            return
        step = area.width() / max(1, len(self.series) - 1)

        def polyline(values: list[int]) -> QPolygonF:
            return QPolygonF([QPointF(area.left() + i * step, area.bottom() - min(v, self.window) / self.window
                                      * area.height()) for i, v in enumerate(values)])

        painter.setPen(QPen(QColor("#9e9e9e"), 1))
        painter.drawPolyline(polyline([evaluated for _, _, evaluated, _ in self.series]))
        painter.setPen(QPen(QColor("#1565c0"), 2))
        painter.drawPolyline(polyline([prompt for _, prompt, _, _ in self.series]))


class LedgerTab(QWidget):
    """Compaction accounting, newest last, with the payload chart."""

    def __init__(self) -> None:
        super().__init__()
        self.chart = PayloadChart()
        self.table = _readonly_table([tr("time"), tr("event"), tr("depth"), tr("tokens in"), tr("tokens out"),
                                      tr("cache miss"), "ms", tr("outcome"), tr("detail")])
        layout = QVBoxLayout(self)
        layout.addWidget(self.chart)
        layout.addWidget(self.table, 1)

    def show_ledger(self, entries: list[LedgerEntry], series: list[tuple[int, int, int, float]], window: int,
                    warn: float, hard: float) -> None:
        self.chart.set_series(series, window, warn, hard)
        self.table.setRowCount(len(entries))
        for row, entry in enumerate(entries):
            # The cache miss an event caused: what the first answer after it had to evaluate.
            changed = entry.outcome in PREFIX_CHANGING
            after = next((evaluated for _, _, evaluated, when in series if when > entry.created_at), None) \
                if changed else None
            values = [
                _when(entry.created_at, "%m-%d %H:%M:%S"),
                entry.event,
                "" if entry.level is None else depth_label(entry.level),
                "" if entry.input_tokens is None else f"{entry.input_tokens:,}",
                "" if entry.output_tokens is None else f"{entry.output_tokens:,}",
                "" if after is None else f"{after:,}",
                "" if entry.duration_ms is None else f"{entry.duration_ms:.0f}",
                entry.outcome,
                entry.detail,
            ]
            for column, value in enumerate(values):
                item = QTableWidgetItem(value)
                if not changed:  # a skipped or refused attempt: kept visible, but quieter
                    item.setForeground(QColor("#7b8595"))
                if column == 0:
                    item.setToolTip(_when(entry.created_at))
                self.table.setItem(row, column, item)
        self.table.scrollToBottom()
