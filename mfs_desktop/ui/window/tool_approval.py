"""Asking before an MCP tool runs: the worker thread waits while the window asks.

The chat worker calls `ApprovalBridge.approve` on its own thread and waits; a queued signal
shows the question on the window's thread (the only one that may show a dialog), and the
button clicked hands the answer back. The dialog shows the server, the tool and the arguments with escapes and direction
overrides shown as markers, never obeyed; Escape or closing it denies."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import QMessageBox, QWidget

from mfs_desktop.services.display import shown
from mfs_desktop.services.mcp.toolbox import ALWAYS, DENY, ONCE, ApprovalRequest
from mfs_desktop.ui.i18n import tr


@dataclass
class _Question:
    request: ApprovalRequest
    answer: str = DENY
    answered: threading.Event = field(default_factory=threading.Event)


def approval_box(parent: QWidget | None, request: ApprovalRequest) -> tuple[QMessageBox, dict]:
    """The question, not yet shown, and its buttons by answer."""
    box = QMessageBox(QMessageBox.Icon.Question, tr("Allow this tool call?"),
                      tr("The model asks to run {tool} on the MCP server {server}.").format(
                          tool=shown(request.tool), server=shown(request.server)), QMessageBox.StandardButton.NoButton,
                      parent)
    box.setInformativeText(tr("Arguments:") + "\n" + shown(request.arguments))
    box.setTextFormat(Qt.TextFormat.PlainText)
    buttons = {ONCE: box.addButton(tr("Allow once"), QMessageBox.ButtonRole.AcceptRole),
               ALWAYS: box.addButton(tr("Always allow this tool"), QMessageBox.ButtonRole.AcceptRole),
               DENY: box.addButton(tr("Deny"), QMessageBox.ButtonRole.RejectRole)}
    box.setDefaultButton(buttons[DENY])
    box.setEscapeButton(buttons[DENY])
    return box, buttons


class ApprovalBridge(QObject):
    """Made on the window's thread; `approve` is called on the worker's and waits there while the
    window shows the question (opened, not exec'd: the window keeps running meanwhile)."""

    _asked = Signal(object)

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self._window = parent
        self._open: list[_Question] = []
        self._closed = False
        self._asked.connect(self._ask, Qt.ConnectionType.QueuedConnection)

    def approve(self, request: ApprovalRequest) -> str:
        question = _Question(request)
        if self._closed:
            return DENY
        self._asked.emit(question)
        question.answered.wait()
        return question.answer

    def close(self) -> None:
        """The window is closing: every open question is denied, no worker waits for ever."""
        self._closed = True
        for question in self._open:
            question.answered.set()

    @Slot(object)
    def _ask(self, question: _Question) -> None:
        if self._closed:
            question.answered.set()
            return
        box, buttons = approval_box(self._window, question.request)
        self._open.append(question)

        def answered(clicked) -> None:
            if question.answered.is_set():
                return
            question.answer = next((answer for answer, button in buttons.items() if button is clicked), DENY)
            self._open.remove(question)
            question.answered.set()
            box.deleteLater()

        box.buttonClicked.connect(answered)
        box.rejected.connect(lambda: answered(None))  # Escape or the close button: denied
        box.open()
