"""The main window: conversations, the transcript of the selected one, a composer."""

from __future__ import annotations

import html
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from mfs_desktop.errors import EnvironmentFault
from mfs_desktop.services.chat import TurnResult
from mfs_desktop.services.models import ModelChoice
from mfs_desktop.services.session import Session
from mfs_desktop.services.transfer import FORMATS, export_text, import_json
from mfs_desktop.store.models import Message
from mfs_desktop.store.retention import empty_trash
from mfs_desktop.ui.chat_worker import start_worker, stop_worker
from mfs_desktop.ui.operations import run_operation

PAGE = 50
ROLE_LABEL = {"user": "You", "assistant": "Assistant", "tool": "Tool"}
STYLE = """
.msg { margin: 6px 0 10px 0; }
.meta { color: #5b6575; font-size: 11px; }
.user { background: #eaf2ff; }
.tool { background: #f1f1f1; font-family: monospace; }
.partial { color: #8a5a00; }
"""


def render_messages(messages: list[Message]) -> str:
    """Escaped HTML for the chat view: stored text is never interpreted as markup."""
    blocks = [f"<style>{STYLE}</style>"]
    for message in messages:
        when = datetime.fromtimestamp(message.created_at).strftime("%Y-%m-%d %H:%M")
        meta = f"{ROLE_LABEL[message.role]} · {when} · uid {message.uid}"
        if message.tool_name:
            meta += f" · {html.escape(message.tool_name)}"
        if message.origin == "edited":
            meta += " · edited"
        note = ' <span class="partial">(stopped: partial answer)</span>' if message.status == "partial" else ""
        body = html.escape(message.text).replace("\n", "<br>")
        blocks.append(
            f'<table width="100%" cellpadding="8" class="msg {message.role}"><tr><td>'
            f'<div class="meta">{meta}{note}</div><div>{body}</div></td></tr></table>'
        )
    return "".join(blocks)


class MainWindow(QMainWindow):
    send_requested = Signal(str, str)
    regenerate_requested = Signal(str)

    def __init__(self, session: Session, model_choice: ModelChoice = ModelChoice()) -> None:
        super().__init__()
        self.session = session
        self.model_choice = model_choice
        self.current_id: str | None = None
        self.generating = False
        self.model_ready = False
        self._live_answer = ""
        self.setWindowTitle("MFS Desktop")
        self.resize(1100, 720)

        self.conversations = QListWidget()
        self.conversations.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.conversations.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.conversations.setSpacing(2)
        self.conversations.currentItemChanged.connect(self._on_selected)
        new_button = QPushButton("New conversation")
        new_button.clicked.connect(self.new_conversation)
        self.trash_button = QPushButton("Move to trash")
        self.trash_button.clicked.connect(self.trash_current)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.addWidget(new_button)
        left_layout.addWidget(self.conversations, 1)
        left_layout.addWidget(self.trash_button)

        self.heading = QLabel()
        self.heading.setStyleSheet("font-size: 15px; font-weight: 600")
        self.view = QTextBrowser()
        self.view.setOpenLinks(False)
        self.composer = QPlainTextEdit()
        self.composer.setPlaceholderText("Write a message…")
        self.composer.setMaximumHeight(110)
        self.send_button = QPushButton("Send")
        self.send_button.clicked.connect(self.send_or_stop)
        self.send_button.setEnabled(False)
        self.usage_label = QLabel("Loading the model…")
        self.usage_label.setStyleSheet("color: #5b6575")
        composer_row = QHBoxLayout()
        composer_row.addWidget(self.composer, 1)
        composer_row.addWidget(self.send_button, 0, Qt.AlignmentFlag.AlignBottom)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.addWidget(self.heading)
        right_layout.addWidget(self.view, 1)
        right_layout.addLayout(composer_row)
        right_layout.addWidget(self.usage_label)

        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setSizes([300, 800])
        self.setCentralWidget(splitter)
        self._build_menu()
        self.statusBar().showMessage(f"Encrypted database · {self.session.data_dir.root}")
        self.refresh_conversations()
        self._thread, self.worker = start_worker(session, model_choice, self)
        self.worker.ready.connect(self._model_ready)
        self.worker.piece.connect(self._on_piece)
        self.worker.finished.connect(self._on_answer)
        self.worker.failed.connect(self._failed)
        self.send_requested.connect(self.worker.send)
        self.regenerate_requested.connect(self.worker.regenerate)

    def _build_menu(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        file_menu.addAction("New conversation", self.new_conversation)
        file_menu.addAction("Export conversation…", self.export_current)
        file_menu.addAction("Import JSON export…", self.import_export)
        file_menu.addSeparator()
        file_menu.addAction("Empty trash", self.empty_trash)
        file_menu.addSeparator()
        file_menu.addAction("Quit", self.close)
        chat_menu = self.menuBar().addMenu("&Conversation")
        chat_menu.addAction("Regenerate last answer", self.regenerate)
        chat_menu.addAction("Stop answering", self.worker_stop)

    # conversations -----------------------------------------------------------------

    def refresh_conversations(self, select: str | None = None) -> None:
        wanted = select or self.current_id
        self.conversations.blockSignals(True)
        self.conversations.clear()
        for summary in self.session.transcript.list_conversations():
            item = QListWidgetItem(f"{summary.title or 'New conversation'}\n{summary.turns} turns")
            item.setData(Qt.ItemDataRole.UserRole, summary.id)
            self.conversations.addItem(item)
            if summary.id == wanted:
                self.conversations.setCurrentItem(item)
        self.conversations.blockSignals(False)
        if self.conversations.currentItem() is None and self.conversations.count():
            self.conversations.setCurrentRow(0)
        self._on_selected(self.conversations.currentItem())

    def _on_selected(self, item: QListWidgetItem | None) -> None:
        self.current_id = item.data(Qt.ItemDataRole.UserRole) if item else None
        self.trash_button.setEnabled(self.current_id is not None)
        self.show_transcript()

    def show_transcript(self) -> None:
        if self.current_id is None:
            self.heading.setText("No conversation yet")
            self.view.setHtml("<p>Start a new conversation.</p>")
            return
        conversation = self.session.transcript.conversation(self.current_id)
        self.heading.setText(f"{conversation.title or 'New conversation'}   ·   epoch {conversation.epoch}")
        html_text = render_messages(self.session.transcript.newest_page(self.current_id, limit=PAGE))
        if self.generating:
            live = html.escape(self._live_answer).replace("\n", "<br>") or "…"
            html_text += (f'<table width="100%" cellpadding="8" class="msg assistant"><tr><td>'
                          f'<div class="meta">Assistant · answering</div><div>{live}</div></td></tr></table>')
        self.view.setHtml(html_text)
        # The document is laid out on the next event-loop pass; scroll to the newest after it.
        QTimer.singleShot(0, self._scroll_to_newest)

    def _scroll_to_newest(self) -> None:
        scrollbar = self.view.verticalScrollBar()
        scrollbar.setValue(scrollbar.maximum())

    def new_conversation(self) -> None:
        conversation = self.session.transcript.create_conversation()
        self.refresh_conversations(select=conversation.id)
        self.composer.setFocus()

    def trash_current(self) -> None:
        if self.current_id is None:
            return
        self.session.transcript.trash(self.current_id)
        self.current_id = None
        self.refresh_conversations()
        self.statusBar().showMessage("Moved to the trash; it is kept 7 days (`mfs-desktop restore ID`).", 6000)

    def empty_trash(self) -> None:
        purged = empty_trash(self.session.database)
        self.statusBar().showMessage(f"Purged {purged} conversations for good.", 6000)

    # messages ----------------------------------------------------------------------

    def _model_ready(self, name: str) -> None:
        self.model_ready = True
        self.send_button.setEnabled(True)
        self.usage_label.setText(f"Model: {name}")

    def send_or_stop(self) -> None:
        if self.generating:
            self.worker_stop()
            return
        text = self.composer.toPlainText()
        if not text.strip() or not self.model_ready:
            return
        if self.current_id is None:
            self.current_id = self.session.transcript.create_conversation().id
        self.composer.clear()
        self._begin_generation()
        self.send_requested.emit(self.current_id, text)

    def regenerate(self) -> None:
        if self.current_id is None or self.generating or not self.model_ready:
            return
        self._begin_generation()
        self.regenerate_requested.emit(self.current_id)

    def worker_stop(self) -> None:
        self.worker.stop()

    def _begin_generation(self) -> None:
        self.generating = True
        self._live_answer = ""
        self.send_button.setText("Stop")
        self.statusBar().showMessage("Answering…")
        QTimer.singleShot(50, self.show_transcript)  # the stored user message appears at once

    def _on_piece(self, piece: str) -> None:
        self._live_answer += piece
        self.show_transcript()

    def _end_generation(self) -> None:
        self.generating = False
        self._live_answer = ""
        self.send_button.setText("Send")

    def _on_answer(self, result: TurnResult) -> None:
        self._end_generation()
        self.refresh_conversations(select=result.conversation_id)
        usage = result.usage
        window = self.model_choice.window
        self.usage_label.setText(
            f"Context {usage.prompt_tokens:,} / {window:,} tokens ({usage.prompt_tokens / window:.0%}) · "
            f"reused {usage.prompt_tokens_reused:,} from cache · prefill {usage.prefill_ms:.0f} ms · "
            f"{usage.completion_tokens} tokens in {usage.decode_ms:.0f} ms")
        if result.messages_left_out:
            self.usage_label.setText(self.usage_label.text() +
                                     f" · {result.messages_left_out} oldest messages not sent (window full)")
        note = "Stopped: the partial answer is kept." if result.status == "partial" else "Answer stored."
        self.statusBar().showMessage(note, 5000)

    def _failed(self, error: BaseException) -> None:
        self._end_generation()
        self.send_button.setEnabled(self.model_ready)
        self.show_transcript()
        if isinstance(error, EnvironmentFault):
            QMessageBox.warning(self, "MFS Desktop", error.message)
        else:
            QMessageBox.critical(self, "MFS Desktop", f"Internal error ({type(error).__name__}); this is a bug.")

    # export / import ---------------------------------------------------------------

    def export_current(self) -> None:
        if self.current_id is None:
            return
        filters = {"md": "Markdown (*.md)", "json": "JSON (*.json)", "html": "HTML page (*.html)"}
        path, chosen = QFileDialog.getSaveFileName(
            self, "Export (plaintext: the file will not be encrypted)", "conversation.md",
            ";;".join(filters[f] for f in FORMATS))
        if not path:
            return
        fmt = next(f for f in FORMATS if filters[f] == chosen)
        conversation_id = self.current_id
        run_operation(
            lambda: Path(path).write_text(export_text(self.session.database, conversation_id, fmt), encoding="utf-8"),
            lambda _: self.statusBar().showMessage(f"Exported to {path} (plaintext).", 6000),
            self._failed,
        )

    def import_export(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Import a JSON export", "", "JSON (*.json)")
        if not path:
            return
        run_operation(
            lambda: import_json(self.session.database, Path(path).read_text(encoding="utf-8")),
            lambda conversation_id: self.refresh_conversations(select=conversation_id),
            self._failed,
        )

    def shutdown(self) -> None:
        """Stop any answer and the worker thread before the session closes."""
        stop_worker(self._thread, self.worker)

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt's naming)
        self.shutdown()
        super().closeEvent(event)
