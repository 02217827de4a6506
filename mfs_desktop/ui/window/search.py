"""Search across conversations and opening a hit at its message.

A mixin of `MainWindow` (ui/window/main_window.py), which owns the widgets it uses."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence, QShortcut

from mfs_desktop.ui.i18n import tr
from mfs_desktop.ui.window.rows import stream_rows
from mfs_desktop.ui.window.search_panel import SearchPanel

CONTEXT_BEFORE = 5  # messages shown above a hit, so it is read in its place


class SearchMixin:
    def _build_search(self) -> None:
        self.search_panel = SearchPanel(self.session)
        self.search_panel.chosen.connect(self.open_at)
        self.tabs.addTab(self.search_panel, tr("Search"))
        QShortcut(QKeySequence("Ctrl+Shift+F"), self, activated=self.focus_search)

    def focus_search(self) -> None:
        self.tabs.setCurrentWidget(self.search_panel)
        self.search_panel.query.setFocus()
        self.search_panel.query.selectAll()

    def open_at(self, conversation_id: str, uid: int) -> None:
        """Open the conversation with the page holding message `uid`, scrolled to it and marked."""
        if self.current_id != conversation_id:
            self.reveal(conversation_id)  # neither a title filter nor the archive may hide it
            self.refresh_conversations(select=conversation_id)
        if self.current_id != conversation_id:
            return  # gone meanwhile (trashed in another window)
        if not self.view.row_of(uid):
            start = max(1, uid - CONTEXT_BEFORE)
            messages = self.session.transcript.messages(conversation_id, uid_from=start)
            self._oldest_uid = messages[0].uid if messages else None
            self._oldest_time = messages[0].created_at if messages else 0.0
            self.view.show_rows(stream_rows(messages, self._notices(self._oldest_time, float("inf")), self._marks()))
        self.view.highlight(uid)
