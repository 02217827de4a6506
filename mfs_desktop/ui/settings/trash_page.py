"""Settings › Trash: deleted conversations, restored or purged on the operation pool."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from mfs_desktop.services.session import Session
from mfs_desktop.store.retention import TRASH_DAYS
from mfs_desktop.ui.i18n import tr
from mfs_desktop.ui.operations import run_operation


class TrashPage(QWidget):
    def __init__(self, session: Session, on_restored: Callable[[str], None],
                 on_error: Callable[[BaseException], None]) -> None:
        super().__init__()
        self.session = session
        self.on_restored = on_restored
        self.on_error = on_error
        self.trash = QListWidget()
        restore, empty = QPushButton(tr("Restore")), QPushButton(tr("Empty trash now…"))
        restore.clicked.connect(self.restore_selected)
        empty.clicked.connect(self._empty_trash)
        buttons = QHBoxLayout()
        buttons.addWidget(restore)
        buttons.addWidget(empty)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(tr("Deleted conversations are kept {days} days, then purged for good.").format(
            days=TRASH_DAYS)))
        layout.addWidget(self.trash, 1)
        layout.addLayout(buttons)
        self.reload()

    def reload(self) -> None:
        self.trash.clear()
        for conversation in self.session.transcript.list_conversations(trashed=True):
            when = datetime.fromtimestamp(conversation.trashed_at).strftime("%Y-%m-%d %H:%M")
            item = QListWidgetItem(tr("{title}   ·   deleted {when}").format(
                title=conversation.title or tr("New conversation"), when=when))
            item.setData(Qt.ItemDataRole.UserRole, conversation.id)
            self.trash.addItem(item)

    def restore(self, conversation_id: str) -> None:
        run_operation(lambda: self.session.transcript.restore(conversation_id),
                      lambda _: (self.reload(), self.on_restored(conversation_id)), self.on_error)

    def restore_selected(self) -> None:
        item = self.trash.currentItem()
        if item is not None:
            self.restore(item.data(Qt.ItemDataRole.UserRole))

    def _empty_trash(self) -> None:
        from mfs_desktop.store.retention import empty_trash

        answer = QMessageBox.question(self, tr("Empty trash"), tr("Delete every conversation in the trash for good? "
                                                                  "This cannot be undone."))
        if answer == QMessageBox.StandardButton.Yes:
            run_operation(lambda: empty_trash(self.session.database), lambda _: self.reload(), self.on_error)
