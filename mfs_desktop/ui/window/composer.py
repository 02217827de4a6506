"""The composer: plain text, with Enter or Ctrl+Enter to send (configurable), files dropped
in as documents, and long pastes offered as documents (seed 003 §7.5)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QPlainTextEdit

from mfs_desktop.services.conversation.composer import PASTE_AS_DOCUMENT_CHARS
from mfs_desktop.ui.i18n import tr


class ComposerEdit(QPlainTextEdit):
    submit = Signal()
    file_dropped = Signal(str)  # a local path
    long_paste = Signal(str)  # the pasted text, not inserted yet

    def __init__(self, send_key: str = "enter") -> None:
        super().__init__()
        self.setAcceptDrops(True)
        self.set_send_key(send_key)

    def set_send_key(self, send_key: str) -> None:
        self.send_key = send_key
        self.setPlaceholderText(
            tr("Write a message… (Enter sends, Shift+Enter for a new line; drop a text file to attach it)")
            if send_key == "enter" else
            tr("Write a message… (Ctrl+Enter sends, Enter for a new line; drop a text file to attach it)"))

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt's naming)
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            ctrl = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
            shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            if not shift and ctrl == (self.send_key == "ctrl+enter"):
                self.submit.emit()
                return
        super().keyPressEvent(event)

    def insertFromMimeData(self, source) -> None:  # noqa: N802 (Qt's naming)
        if source.hasUrls() and all(url.isLocalFile() for url in source.urls()):
            for url in source.urls():
                self.file_dropped.emit(url.toLocalFile())
            return
        text = source.text() if source.hasText() else ""
        if len(text) > PASTE_AS_DOCUMENT_CHARS:
            self.long_paste.emit(text)
            return
        super().insertFromMimeData(source)

    def canInsertFromMimeData(self, source) -> bool:  # noqa: N802 (Qt's naming)
        return source.hasUrls() or super().canInsertFromMimeData(source)

    def dragEnterEvent(self, event) -> None:  # noqa: N802 (Qt's naming)
        if event.mimeData().hasUrls():
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dropEvent(self, event) -> None:  # noqa: N802 (Qt's naming)
        if event.mimeData().hasUrls():
            for url in event.mimeData().urls():
                if url.isLocalFile():
                    self.file_dropped.emit(str(Path(url.toLocalFile())))
            event.acceptProposedAction()
            return
        super().dropEvent(event)
