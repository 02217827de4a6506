"""The conversation list: refresh, select, create, rename, trash, memory mode.

A mixin of `MainWindow` (ui/window/main_window.py), which owns the widgets it uses."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QInputDialog,
    QMessageBox,
)

from mfs_desktop.store.retention import TRASH_DAYS
from mfs_desktop.ui.i18n import tr
from mfs_desktop.ui.operations import run_operation


class ConversationListMixin:
    def refresh_conversations(self, select: str | None = None) -> None:
        wanted = select or self.current_id
        self.conversations.blockSignals(True)
        self.conversations.clear()
        self.fill_list(wanted)
        self.conversations.blockSignals(False)
        previous = self.current_id
        self._on_selected(self.conversations.currentItem(), reopen=previous != self._selected_id())

    def _selected_id(self) -> str | None:
        item = self.conversations.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else None

    def new_conversation(self, then=None) -> None:
        """Created on the pool, then selected (and `then()` called, as a first send does)."""
        def created(conversation) -> None:
            self.filter.clear()
            self.list_view.setCurrentIndex(0)  # a new conversation shows in "All"
            self.refresh_conversations(select=conversation.id)
            self.composer.setFocus()
            if then is not None:
                then()

        run_operation(self.session.transcript.create_conversation, created, self._failed)

    def rename_current(self) -> None:
        if self.current_id is None:
            return
        current = self.session.transcript.conversation(self.current_id).title
        title, ok = QInputDialog.getText(self, tr("Rename conversation"), tr("Title:"), text=current)
        if ok and title.strip():
            conversation_id = self.current_id
            run_operation(lambda: self.session.transcript.rename(conversation_id, title.strip()),
                          lambda _: self.refresh_conversations(select=conversation_id), self._failed)

    def _ask_trash(self) -> None:
        if self.current_id is None:
            return
        answer = QMessageBox.question(self, tr("Move to trash"), tr(
            "Move this conversation to the trash? It is kept {days} days and can be restored until then.").format(
            days=TRASH_DAYS))
        if answer == QMessageBox.StandardButton.Yes:
            self.trash_current()

    def trash_current(self) -> None:
        """After the confirmation (`_ask_trash`)."""
        if self.current_id is None:
            return
        conversation_id = self.current_id

        def moved(_: None) -> None:
            if self.current_id == conversation_id:
                self.current_id = None
            self.refresh_conversations()
            self.statusBar().showMessage(tr("Moved to the trash; it is kept {days} days (File → Trash… restores "
                                            "it).").format(days=TRASH_DAYS), 6000)

        run_operation(lambda: self.session.transcript.trash(conversation_id), moved, self._failed)

    def set_memory_mode(self, mode: str) -> None:
        if self.current_id is None:
            return
        conversation_id = self.current_id
        run_operation(lambda: self.session.transcript.set_memory_mode(conversation_id, mode),
                      lambda _: self.inspect_requested.emit(conversation_id), self._failed)

    def _sync_memory_menu(self) -> None:
        mode = self.session.transcript.conversation(self.current_id).memory_mode
        for action in self.memory_actions.actions():
            action.setChecked(action.data() == mode)

    # composer channels -------------------------------------------------------------
