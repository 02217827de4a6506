"""Settings › Memory: how the open conversation remembers, and the values the assistant
recorded for it (`record_value`), which the person can add, edit and delete.

A mixin of `SettingsDialog` (ui/settings/dialog.py); every write goes to the operation pool."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mfs_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr
from mfs_desktop.ui.operations import run_operation

MEMORY_LABELS = {"automatic": QT_TRANSLATE_NOOP("", "Automatic: compact old history"),
                 "recent_only": QT_TRANSLATE_NOOP("", "Recent turns only"),
                 "off": QT_TRANSLATE_NOOP("", "Off: no compressed history, no knowledge slot")}


class MemoryPageMixin:
    def _memory_page(self) -> QWidget:
        self.memory_mode = QComboBox()
        for key, label in MEMORY_LABELS.items():
            self.memory_mode.addItem(tr(label), key)
        self.knowledge = QTableWidget(0, 4)
        self.knowledge.setHorizontalHeaderLabels([tr("Name"), tr("Value"), tr("Recorded by"), tr("Updated")])
        self.knowledge.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.knowledge.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.knowledge.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.knowledge.verticalHeader().hide()
        add, edit, delete = QPushButton(tr("Add…")), QPushButton(tr("Edit…")), QPushButton(tr("Delete"))
        add.clicked.connect(lambda: self.edit_value(None))
        edit.clicked.connect(lambda: self.edit_value(self._selected_key()))
        delete.clicked.connect(self._delete_selected)
        buttons = QHBoxLayout()
        for button in (add, edit, delete):
            button.setEnabled(self.conversation_id is not None)
            buttons.addWidget(button)
        buttons.addStretch(1)
        page = QWidget()
        layout = QVBoxLayout(page)
        if self.conversation_id is None:
            self.memory_mode.setEnabled(False)
            layout.addWidget(QLabel(tr("Open a conversation to see its memory.")))
        else:
            conversation = self.session.transcript.conversation(self.conversation_id)
            self.memory_mode.setCurrentIndex(self.memory_mode.findData(conversation.memory_mode))
            layout.addWidget(QLabel(tr("For “{title}”").format(title=conversation.title or tr("New conversation"))))
        form = QFormLayout()
        form.addRow(tr("Memory"), self.memory_mode)
        layout.addLayout(form)
        layout.addWidget(QLabel(tr("Values the assistant recorded (record_value) — they reach the knowledge slot with "
                                "the next compaction:")))
        layout.addWidget(self.knowledge, 1)
        layout.addLayout(buttons)
        return page

    # recorded values ------------------------------------------------------------------

    def reload_knowledge(self) -> None:
        rows = self.session.transcript.knowledge(self.conversation_id) if self.conversation_id else []
        self.knowledge.setRowCount(len(rows))
        for row, (key, value, source_uid, updated_at) in enumerate(rows):
            by = tr("assistant (#{number})").format(number=source_uid) if source_uid is not None else tr("you")
            when = datetime.fromtimestamp(updated_at).strftime("%Y-%m-%d %H:%M")
            for column, text in enumerate((key, value, by, when)):
                self.knowledge.setItem(row, column, QTableWidgetItem(text))
        self.knowledge.resizeColumnToContents(0)

    def _selected_key(self) -> str | None:
        rows = self.knowledge.selectionModel().selectedRows()
        return self.knowledge.item(rows[0].row(), 0).text() if rows else None

    def edit_value(self, key: str | None, value: str | None = None) -> None:
        """Ask (unless `value` is given) and save; `key` None adds a new value."""
        if self.conversation_id is None:
            return
        if key is None:
            key, ok = QInputDialog.getText(self, tr("Add a value"), tr("Name:"))
            if not ok or not key.strip():
                return
        if value is None:
            current = next(
                (v for k, v, _, _ in self.session.transcript.knowledge(self.conversation_id) if k == key), ""
            )
            value, ok = QInputDialog.getMultiLineText(self, tr("Recorded value"), f"{key}:", current)
            if not ok:
                return
        conversation_id = self.conversation_id
        run_operation(lambda: self.session.transcript.set_knowledge(conversation_id, key, value),
                      lambda _: self.reload_knowledge(), self._show_error)

    def _delete_selected(self) -> None:
        key = self._selected_key()
        if key is None or self.conversation_id is None:
            return
        conversation_id = self.conversation_id
        run_operation(lambda: self.session.transcript.delete_knowledge(conversation_id, key),
                      lambda _: self.reload_knowledge(), self._show_error)
