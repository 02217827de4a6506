"""The main window: conversations, the chat with its composer channels, and the tabs that
show the context engine (layers, tool trajectory, ledger). Model work, compaction and writes
run in the worker thread or the operation pool; this thread renders and dispatches."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from mfs_desktop.errors import EnvironmentFault
from mfs_desktop.services.conversation.composer import Outgoing
from mfs_desktop.services.models.choice import ModelChoice
from mfs_desktop.services.preferences import load_preferences
from mfs_desktop.services.session import Session
from mfs_desktop.ui.i18n import error_text, tr
from mfs_desktop.ui.operations import run_operation
from mfs_desktop.ui.settings.memory import MEMORY_LABELS
from mfs_desktop.ui.window.chat_view import ChatView
from mfs_desktop.ui.window.chat_worker import ChatWorker, start_worker, stop_worker
from mfs_desktop.ui.window.composer import ComposerEdit
from mfs_desktop.ui.window.composing import ComposingMixin
from mfs_desktop.ui.window.conversations import ConversationListMixin
from mfs_desktop.ui.window.generation import GenerationMixin
from mfs_desktop.ui.window.organize import OrganizeMixin
from mfs_desktop.ui.window.panels import ContextLayersTab, LedgerTab, TrajectoryTab
from mfs_desktop.ui.window.search import SearchMixin
from mfs_desktop.ui.window.side_panels import PanelsMixin
from mfs_desktop.ui.window.status_overlay import StatusOverlay
from mfs_desktop.ui.window.stream import PAGE, StreamMixin  # noqa: F401 (PAGE: tests page by it)
from mfs_desktop.ui.window.tool_approval import ApprovalBridge

LIVE_FLUSH_MS = 50  # a streamed answer is redrawn at most 20 times a second
class MainWindow(ConversationListMixin, OrganizeMixin, ComposingMixin, GenerationMixin, PanelsMixin, SearchMixin,
                 StreamMixin, QMainWindow):
    """The window's widgets and wiring; what it does lives in the mixins, one concern each."""

    send_requested = Signal(str, object)
    regenerate_requested = Signal(str)
    edit_requested = Signal(str, int, str)
    inspect_requested = Signal(str)
    open_requested = Signal(str)
    tools_changed = Signal()  # Settings › Tools saved a change: the worker offers the servers anew

    def __init__(self, session: Session, model_choice: ModelChoice | None = None) -> None:
        """`model_choice` overrides the saved preferences' model (the CLI and tests use it)."""
        super().__init__()
        self.session = session
        self.preferences = load_preferences(session.database)
        self.model_choice = model_choice or self.preferences.model_choice()
        self.base_choice = self.model_choice  # what a conversation without a model of its own runs on
        self.current_id: str | None = None
        self.generating = False
        self.model_ready, self.model_name = False, ""
        self.organizing = False
        self._live_answer, self._live_thinking = "", ""
        self.approvals = ApprovalBridge(self)  # the worker asks here before an MCP tool runs
        self._thought_began = self._thought_ended = 0.0  # monotonic seconds of the live thought
        self._next_model: ModelChoice | None = None
        self._restarting = False
        self._oldest_uid: int | None = None
        self._oldest_time = 0.0
        self._shown_epoch = 0
        self.pending: Outgoing | None = None  # a quote or a document waiting for the send
        self.last_report: dict = {}
        self.setWindowTitle("MFS Desktop")
        self.resize(1400, 820)
        self._build_list()
        self._build_chat(self.preferences.send_key)
        self._build_tabs()
        splitter = QSplitter()
        for widget in (self.left, self.chat, self.tabs):
            splitter.addWidget(widget)
        splitter.setSizes([260, 700, 440])
        splitter.setStretchFactor(1, 1)
        self.setCentralWidget(splitter)
        self._build_menu()
        self.statusBar().showMessage(tr("Encrypted database · {folder}").format(folder=self.session.data_dir.root))
        self._start_model(self.model_choice)
        self.refresh_conversations()

    def _start_model(self, choice: ModelChoice) -> None:
        self.model_choice = choice
        self._thread, self.worker = start_worker(self.session, choice, self, self._wire_worker,
                                                 self.approvals.approve)
        self._restarting = False

    def _wire_worker(self, worker: ChatWorker) -> None:
        for signal, slot in ((worker.ready, self._model_ready), (worker.piece, self._on_piece),
                             (worker.thought, self._on_thought),
                             (worker.finished, self._on_answer), (worker.failed, self._failed),
                             (worker.inspected, self._on_inspected), (worker.organizing, self._on_organizing),
                             (worker.organized, self._on_organized), (self.send_requested, worker.send),
                             (worker.warming, self._warming), (worker.warmed, self._warmed),
                             (self.regenerate_requested, worker.regenerate),
                             (self.edit_requested, worker.edit_and_resend), (self.inspect_requested, worker.inspect),
                             (self.open_requested, worker.open_conversation),
                             (self.tools_changed, worker.reload_tools)):
            signal.connect(slot)

    def _maybe_restart_model(self) -> None:
        """A new model waits for the answer being written; then the old worker stops off the UI
        thread (its compactor may be mid-segment) and the new one loads."""
        choice, self._next_model = self._next_model, None
        if choice is None:
            return
        if self.generating or self._restarting:  # taken up when the answer ends or the model is ready
            self._next_model = choice
            return
        self._restarting, self.model_choice = True, choice
        old_thread, old_worker = self._thread, self.worker
        for signal in (self.send_requested, self.regenerate_requested, self.edit_requested, self.inspect_requested,
                       self.open_requested, self.tools_changed):
            signal.disconnect()
        old_worker.blockSignals(True)
        self.model_ready = False
        self.send_button.setEnabled(False)
        self.usage_label.setText(tr("Loading the model…"))
        run_operation(lambda: stop_worker(old_thread, old_worker), lambda _: self._start_model(choice), self._failed)

    # building ----------------------------------------------------------------------

    def _build_list(self) -> None:
        self.filter = QLineEdit()
        self.filter.setPlaceholderText(tr("Filter by title (Ctrl+F)"))
        self.filter.textChanged.connect(lambda _: self.refresh_conversations())
        self.conversations = QListWidget()
        self.conversations.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.conversations.setWordWrap(True)
        self.conversations.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.conversations.setSpacing(2)
        self.conversations.currentItemChanged.connect(self._on_selected)
        self.conversations.itemDoubleClicked.connect(lambda _: self.rename_current())
        new_button = QPushButton(tr("New conversation"))
        new_button.clicked.connect(self.new_conversation)
        rename_button = QPushButton(tr("Rename"))
        rename_button.clicked.connect(self.rename_current)
        self.trash_button = QPushButton(tr("Move to trash"))
        self.trash_button.clicked.connect(self._ask_trash)
        row = QHBoxLayout()
        row.addWidget(rename_button)
        row.addWidget(self.trash_button)
        self.left = QWidget()
        layout = QVBoxLayout(self.left)
        layout.addWidget(new_button)
        layout.addWidget(self._build_view_picker())
        layout.addWidget(self.filter)
        layout.addWidget(self.conversations, 1)
        layout.addLayout(row)

    def _build_chat(self, send_key: str) -> None:
        self.heading = QLabel()
        self.heading.setStyleSheet("font-size: 15px; font-weight: 600")
        self.view = ChatView()
        self.view.anchorClicked.connect(self._on_link)
        self.view.reached_top.connect(self.load_older)
        self._live_flush = QTimer(self)
        self._live_flush.setSingleShot(True)
        self._live_flush.setInterval(LIVE_FLUSH_MS)
        self._live_flush.timeout.connect(self.show_live)
        self.overlay = StatusOverlay(self.view)
        self.meter = QProgressBar()
        self.meter.setTextVisible(True)
        self.meter.setFormat(tr("Context: –"))
        self.pending_label = QLabel()
        self.pending_label.setWordWrap(True)
        self.pending_label.hide()
        self.pending_clear = QPushButton("×")
        self.pending_clear.setFixedWidth(28)
        self.pending_clear.clicked.connect(self.clear_pending)
        self.pending_clear.hide()
        pending_row = QHBoxLayout()
        pending_row.addWidget(self.pending_label, 1)
        pending_row.addWidget(self.pending_clear)
        self.composer = ComposerEdit(send_key)
        self.composer.setMaximumHeight(110)
        self.composer.submit.connect(self.send_or_stop)
        self.composer.file_dropped.connect(self.attach_file)
        self.composer.long_paste.connect(self._on_long_paste)
        quote_button = QPushButton(tr("Quote…"))
        quote_button.setToolTip(tr("Quote one of the assistant's messages, with your note"))
        quote_button.clicked.connect(self.pick_quote)
        attach_button = QPushButton(tr("Attach…"))
        attach_button.setToolTip(tr("Attach a document: text, PDF or Word (kept encrypted as a snapshot)"))
        attach_button.clicked.connect(self.pick_document)
        self.send_button = QPushButton(tr("Send"))
        self.send_button.clicked.connect(self.send_or_stop)
        self.send_button.setEnabled(False)
        channels = QVBoxLayout()
        channels.addWidget(quote_button)
        channels.addWidget(attach_button)
        composer_row = QHBoxLayout()
        composer_row.addLayout(channels)
        composer_row.addWidget(self.composer, 1)
        composer_row.addWidget(self.send_button, 0, Qt.AlignmentFlag.AlignBottom)
        self.usage_label = QLabel(tr("Loading the model…"))
        self.usage_label.setStyleSheet("color: #7b8595")
        self.usage_label.setWordWrap(True)
        self.chat = QWidget()
        layout = QVBoxLayout(self.chat)
        layout.addWidget(self.heading)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.meter)
        layout.addLayout(pending_row)
        layout.addLayout(composer_row)
        layout.addWidget(self.usage_label)

    def _build_tabs(self) -> None:
        self.layers = ContextLayersTab()
        self.layers.segment_clicked.connect(self.show_segment)
        self.layers.unpin_clicked.connect(lambda uid: self.set_pinned(uid, False))
        self.layers.recalled_clicked.connect(lambda uid: self.current_id and self.open_at(self.current_id, uid))
        self.trajectory_tab = TrajectoryTab()
        self.ledger_tab = LedgerTab()
        self.tabs = QTabWidget()
        self.tabs.addTab(self.layers, tr("Context layers"))
        self.tabs.addTab(self.trajectory_tab, tr("Tool trajectory"))
        self.tabs.addTab(self.ledger_tab, tr("Ledger"))
        self._build_conversation_tab()
        self._build_search()

    def _build_menu(self) -> None:
        file_menu = self.menuBar().addMenu(tr("&File"))
        file_menu.addAction(tr("New conversation"), QKeySequence.StandardKey.New, self.new_conversation)
        file_menu.addAction(tr("Export conversation…"), self.export_current)
        file_menu.addAction(tr("Import conversations…"), self.import_export)
        file_menu.addSeparator()
        file_menu.addAction(tr("Settings…"), QKeySequence("Ctrl+,"), self.open_settings)
        file_menu.addAction(tr("Trash…"), lambda: self.open_settings(page="Trash"))
        file_menu.addSeparator()
        file_menu.addAction(tr("Quit"), QKeySequence.StandardKey.Quit, self.close)
        chat_menu = self.menuBar().addMenu(tr("&Conversation"))
        chat_menu.addAction(tr("Regenerate last answer"), self.regenerate)
        chat_menu.addAction(tr("Other answers to the last turn…"), self.pick_alternative)
        chat_menu.addAction(tr("Stop answering"), QKeySequence(Qt.Key.Key_Escape), self.worker_stop)
        memory = chat_menu.addMenu(tr("Memory"))
        self.memory_actions = QActionGroup(self)
        for mode, label in MEMORY_LABELS.items():
            action = QAction(tr(label), self, checkable=True)
            action.setData(mode)
            action.triggered.connect(lambda _=False, m=mode: self.set_memory_mode(m))
            self.memory_actions.addAction(action)
            memory.addAction(action)
        QShortcut(QKeySequence.StandardKey.Find, self, activated=self.filter.setFocus)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's naming)
        super().resizeEvent(event)
        if self.overlay.isVisible():
            self.overlay.move(self.view.width() - self.overlay.width() - 16, 12)

    # conversations -----------------------------------------------------------------

    def _on_selected(self, item: QListWidgetItem | None, _previous=None, *, reopen: bool = True) -> None:
        self.current_id = item.data(Qt.ItemDataRole.UserRole) if item else None
        self._selection_changed()
        self.trash_button.setEnabled(self.current_id is not None)
        if reopen:
            self.clear_pending()
            self.show_transcript()
        else:
            self.refresh_stream()
        if self.current_id is not None and reopen:
            self._sync_memory_menu()
            self.refresh_side_tabs()
            if not self.follow_conversation_model() and self.model_ready:
                self.open_requested.emit(self.current_id)

    def _model_ready(self, name: str) -> None:
        self.model_name = name
        if self._next_model is not None:
            self._maybe_restart_model()
            return
        self.model_ready = True
        self.send_button.setEnabled(True)
        self.usage_label.setText(tr("Model: {name}").format(name=name))
        if self.current_id is not None:
            self.open_requested.emit(self.current_id)

    def _failed(self, error: BaseException) -> None:
        if self.generating:
            self._end_generation()
            unsent = getattr(self, "_unsent", None)
            if unsent and not self.composer.toPlainText():  # refused before storing: give the words back
                self.composer.setPlainText(unsent[0])
                if unsent[1] is not None:
                    self.pending = unsent[1]
                    self.pending_label.show()
                    self.pending_clear.show()
            self._unsent = None
        self.send_button.setEnabled(self.model_ready)
        self.show_transcript()
        show = QMessageBox.warning if isinstance(error, EnvironmentFault) else QMessageBox.critical
        show(self, "MFS Desktop", error_text(error))

    # the context engine, shown -----------------------------------------------------

    def _on_inspected(self, conversation_id: str, report: dict) -> None:
        if conversation_id != self.current_id:
            return
        self.last_report = report
        self.layers.show_report(report)
        if "error" in report:
            self.meter.setRange(0, 1)
            self.meter.setValue(0)
            self.meter.setFormat(tr("Context: empty"))
            return
        window, tokens = report["window_tokens"], report["payload_tokens"]
        self.meter.setRange(0, window)
        self.meter.setValue(min(tokens, window))
        self.meter.setFormat(tr("Context {tokens:,} / {window:,} tokens ({share:.0%}) · next request").format(
            tokens=tokens, window=window, share=tokens / window))
        colour = "#c62828" if report["pressure"] >= report["hard"] else (
            "#e08a00" if report["pressure"] >= report["warn"] else "#2e7d32")
        self.meter.setStyleSheet(f"QProgressBar::chunk {{ background: {colour}; }}")

    def _on_organizing(self, conversation_id: str) -> None:
        if conversation_id == self.current_id:
            self.organizing = True
            self.overlay.organizing()

    def _on_organized(self, conversation_id: str, state: str) -> None:
        if conversation_id != self.current_id:
            return
        self.organizing = False
        self.overlay.organized(state == "active")
        self.refresh_stream()
        self.refresh_side_tabs()
        self.inspect_requested.emit(conversation_id)

    def shutdown(self) -> None:
        """Stop any answer and the worker thread before the session closes."""
        self.approvals.close()
        stop_worker(self._thread, self.worker)

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt's naming)
        self.shutdown()
        super().closeEvent(event)
