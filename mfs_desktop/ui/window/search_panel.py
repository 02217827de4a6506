"""The Search tab: every conversation's messages as you type, newest match first."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import QCheckBox, QLabel, QLineEdit, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from mfs_desktop.services.display import shown_line
from mfs_desktop.services.session import Session
from mfs_desktop.store.search import SearchHit, search_messages
from mfs_desktop.ui.i18n import error_text, tr
from mfs_desktop.ui.operations import run_operation

TYPING_PAUSE_MS = 250


class SearchPanel(QWidget):
    """`chosen(conversation_id, uid)` when a hit is picked."""

    chosen = Signal(str, int)

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.conversation_id: str | None = None  # the open one, for "only this conversation"
        self.query = QLineEdit()
        self.query.setPlaceholderText(tr('Search every conversation (Ctrl+Shift+F): words, "a phrase", 中文'))
        self.query.setClearButtonEnabled(True)
        self.only_here = QCheckBox(tr("Only this conversation"))
        self.results = QListWidget()
        self.results.setWordWrap(True)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self._pause = QTimer(self, singleShot=True, interval=TYPING_PAUSE_MS, timeout=self.search)
        self._asked = 0  # results of an older query arriving late are dropped
        self.query.textChanged.connect(self._pause.start)
        self.query.returnPressed.connect(self.search)
        self.only_here.toggled.connect(self.search)
        self.results.itemActivated.connect(self._open)
        self.results.itemClicked.connect(self._open)
        layout = QVBoxLayout(self)
        layout.addWidget(self.query)
        layout.addWidget(self.only_here)
        layout.addWidget(self.results, 1)
        layout.addWidget(self.status)

    def search(self) -> None:
        self._pause.stop()
        text = self.query.text().strip()
        self._asked += 1
        asked = self._asked
        if not text:
            self.results.clear()
            self.status.clear()
            return
        scope = self.conversation_id if self.only_here.isChecked() else None
        database = self.session.database
        run_operation(lambda: search_messages(database, text, scope),
                      lambda hits: self._show(asked, hits), lambda error: self._failed(asked, error), owner=self)

    def _show(self, asked: int, hits: list[SearchHit]) -> None:
        if asked != self._asked:
            return
        self.results.clear()
        for hit in hits:
            when = datetime.fromtimestamp(hit.created_at).strftime("%Y-%m-%d %H:%M")
            who = tr("you") if hit.role == "user" else tr("assistant")
            title = shown_line(hit.title or tr("New conversation"))
            item = QListWidgetItem(f"{title} · {who} · {when}\n{shown_line(hit.snippet)}")
            item.setData(Qt.ItemDataRole.UserRole, (hit.conversation_id, hit.uid))
            item.setSizeHint(QSize(0, int(self.results.fontMetrics().lineSpacing() * 3.2)))
            self.results.addItem(item)
        found = tr("{count} found (the newest shown)") if len(hits) >= 50 else tr("{count} found")
        self.status.setText(found.format(count=len(hits)) if hits else tr("Nothing found."))

    def _failed(self, asked: int, error: BaseException) -> None:
        if asked == self._asked:
            self.results.clear()
            self.status.setText(error_text(error))

    def _open(self, item: QListWidgetItem) -> None:
        conversation_id, uid = item.data(Qt.ItemDataRole.UserRole)
        self.chosen.emit(conversation_id, uid)
