"""The main window: conversations, the chat with its composer channels, and the tabs that
show the context engine (layers, tool trajectory, ledger). Model work, compaction and writes
run in the worker thread or the operation pool; this thread renders and dispatches."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
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
from mfs_desktop.services import composer
from mfs_desktop.services.chat import TurnResult
from mfs_desktop.services.composer import Outgoing
from mfs_desktop.services.display import shown_line
from mfs_desktop.services.endpoints import clear_endpoint, load_endpoint, save_endpoint
from mfs_desktop.services.inspect import payload_series, segment_detail
from mfs_desktop.services.models import ModelChoice
from mfs_desktop.services.notices import Notice, notice_for
from mfs_desktop.services.pins import PinChange, change_pin
from mfs_desktop.services.preferences import load_preferences, save_preferences
from mfs_desktop.services.session import Session
from mfs_desktop.services.transfer import export_text, import_json, read_import_file, turn_span, write_export
from mfs_desktop.store import ledger
from mfs_desktop.store.generations import GenerationStore, answer_alternatives
from mfs_desktop.store.pins import pinned_uids
from mfs_desktop.store.retention import TRASH_DAYS
from mfs_desktop.store.trajectory import trajectory
from mfs_desktop.ui.chat_view import ChatView, stream_rows
from mfs_desktop.ui.chat_worker import ChatWorker, start_worker, stop_worker
from mfs_desktop.ui.composer import ComposerEdit
from mfs_desktop.ui.export_dialog import ExportDialog
from mfs_desktop.ui.operations import run_operation
from mfs_desktop.ui.panels import ContextLayersTab, LedgerTab, TrajectoryTab
from mfs_desktop.ui.settings_dialog import SettingsChoice, SettingsDialog
from mfs_desktop.ui.status_overlay import StatusOverlay

PAGE = 50
LIVE_FLUSH_MS = 50  # a streamed answer is redrawn at most 20 times a second
MEMORY_MODES = (("automatic", "Automatic (compact old history)"), ("recent_only", "Recent turns only"),
                ("off", "Off (no compressed history, no knowledge slot)"))
class MainWindow(QMainWindow):
    send_requested = Signal(str, object)
    regenerate_requested = Signal(str)
    edit_requested = Signal(str, int, str)
    inspect_requested = Signal(str)
    open_requested = Signal(str)

    def __init__(self, session: Session, model_choice: ModelChoice | None = None) -> None:
        """`model_choice` overrides the saved preferences' model (the CLI and tests use it)."""
        super().__init__()
        self.session = session
        self.preferences = load_preferences(session.database)
        self.model_choice = model_choice or self.preferences.model_choice()
        self.current_id: str | None = None
        self.generating = False
        self.model_ready = False
        self.organizing = False
        self._live_answer = ""
        self._next_model: ModelChoice | None = None
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
        self.statusBar().showMessage(f"Encrypted database · {self.session.data_dir.root}")
        self._start_model(self.model_choice)
        self.refresh_conversations()

    def _start_model(self, choice: ModelChoice) -> None:
        self.model_choice = choice
        self._thread, self.worker = start_worker(self.session, choice, self, self._wire_worker)

    def _wire_worker(self, worker: ChatWorker) -> None:
        for signal, slot in ((worker.ready, self._model_ready), (worker.piece, self._on_piece),
                             (worker.finished, self._on_answer), (worker.failed, self._failed),
                             (worker.inspected, self._on_inspected), (worker.organizing, self._on_organizing),
                             (worker.organized, self._on_organized), (self.send_requested, worker.send),
                             (self.regenerate_requested, worker.regenerate),
                             (self.edit_requested, worker.edit_and_resend), (self.inspect_requested, worker.inspect),
                             (self.open_requested, worker.open_conversation)):
            signal.connect(slot)

    def _maybe_restart_model(self) -> None:
        """A new model waits for the answer being written; then the old worker stops off the UI
        thread (its compactor may be mid-segment) and the new one loads."""
        choice, self._next_model = self._next_model, None
        if choice is None:
            return
        if self.generating:
            self._next_model = choice
            return
        old_thread, old_worker = self._thread, self.worker
        for signal in (self.send_requested, self.regenerate_requested, self.edit_requested, self.inspect_requested,
                       self.open_requested):
            signal.disconnect()
        old_worker.blockSignals(True)
        self.model_ready = False
        self.send_button.setEnabled(False)
        self.usage_label.setText("Loading the model…")
        run_operation(lambda: stop_worker(old_thread, old_worker), lambda _: self._start_model(choice), self._failed)

    # building ----------------------------------------------------------------------

    def _build_list(self) -> None:
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter by title (Ctrl+F)")
        self.filter.textChanged.connect(lambda _: self.refresh_conversations())
        self.conversations = QListWidget()
        self.conversations.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.conversations.setWordWrap(True)
        self.conversations.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.conversations.setSpacing(2)
        self.conversations.currentItemChanged.connect(self._on_selected)
        self.conversations.itemDoubleClicked.connect(lambda _: self.rename_current())
        new_button = QPushButton("New conversation")
        new_button.clicked.connect(self.new_conversation)
        rename_button = QPushButton("Rename")
        rename_button.clicked.connect(self.rename_current)
        self.trash_button = QPushButton("Move to trash")
        self.trash_button.clicked.connect(self._ask_trash)
        row = QHBoxLayout()
        row.addWidget(rename_button)
        row.addWidget(self.trash_button)
        self.left = QWidget()
        layout = QVBoxLayout(self.left)
        layout.addWidget(new_button)
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
        self._live_flush.timeout.connect(lambda: self.generating and self.view.set_live(self._live_answer))
        self.overlay = StatusOverlay(self.view)
        self.meter = QProgressBar()
        self.meter.setTextVisible(True)
        self.meter.setFormat("Context: –")
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
        quote_button = QPushButton("Quote…")
        quote_button.setToolTip("Quote one of the assistant's messages, with your note")
        quote_button.clicked.connect(self.pick_quote)
        attach_button = QPushButton("Attach…")
        attach_button.setToolTip("Attach a text document (kept encrypted as a snapshot)")
        attach_button.clicked.connect(self.pick_document)
        self.send_button = QPushButton("Send")
        self.send_button.clicked.connect(self.send_or_stop)
        self.send_button.setEnabled(False)
        channels = QVBoxLayout()
        channels.addWidget(quote_button)
        channels.addWidget(attach_button)
        composer_row = QHBoxLayout()
        composer_row.addLayout(channels)
        composer_row.addWidget(self.composer, 1)
        composer_row.addWidget(self.send_button, 0, Qt.AlignmentFlag.AlignBottom)
        self.usage_label = QLabel("Loading the model…")
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
        self.trajectory_tab = TrajectoryTab()
        self.ledger_tab = LedgerTab()
        self.tabs = QTabWidget()
        self.tabs.addTab(self.layers, "Context layers")
        self.tabs.addTab(self.trajectory_tab, "Tool trajectory")
        self.tabs.addTab(self.ledger_tab, "Ledger")

    def _build_menu(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        file_menu.addAction("New conversation", QKeySequence.StandardKey.New, self.new_conversation)
        file_menu.addAction("Export conversation…", self.export_current)
        file_menu.addAction("Import JSON export…", self.import_export)
        file_menu.addSeparator()
        file_menu.addAction("Settings…", QKeySequence("Ctrl+,"), self.open_settings)
        file_menu.addAction("Trash…", lambda: self.open_settings(page="Trash"))
        file_menu.addSeparator()
        file_menu.addAction("Quit", QKeySequence.StandardKey.Quit, self.close)
        chat_menu = self.menuBar().addMenu("&Conversation")
        chat_menu.addAction("Regenerate last answer", self.regenerate)
        chat_menu.addAction("Other answers to the last turn…", self.pick_alternative)
        chat_menu.addAction("Stop answering", QKeySequence(Qt.Key.Key_Escape), self.worker_stop)
        memory = chat_menu.addMenu("Memory")
        self.memory_actions = QActionGroup(self)
        for mode, label in MEMORY_MODES:
            action = QAction(label, self, checkable=True)
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

    def refresh_conversations(self, select: str | None = None) -> None:
        wanted = select or self.current_id
        needle = self.filter.text().strip().lower()
        self.conversations.blockSignals(True)
        self.conversations.clear()
        for summary in self.session.transcript.list_conversations():
            title = shown_line(summary.title or "New conversation")
            if needle and needle not in title.lower():
                continue
            item = QListWidgetItem(f"{title}\n{summary.turns} turns")
            # Room for two lines in any script: a CJK title falls back to a taller font.
            item.setSizeHint(QSize(0, int(self.conversations.fontMetrics().lineSpacing() * 2.8)))
            item.setData(Qt.ItemDataRole.UserRole, summary.id)
            self.conversations.addItem(item)
            if summary.id == wanted:
                self.conversations.setCurrentItem(item)
        self.conversations.blockSignals(False)
        if self.conversations.currentItem() is None and self.conversations.count():
            self.conversations.setCurrentRow(0)
        previous = self.current_id
        self._on_selected(self.conversations.currentItem(), reopen=previous != self._selected_id())

    def _selected_id(self) -> str | None:
        item = self.conversations.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else None

    def _on_selected(self, item: QListWidgetItem | None, _previous=None, *, reopen: bool = True) -> None:
        self.current_id = item.data(Qt.ItemDataRole.UserRole) if item else None
        self.trash_button.setEnabled(self.current_id is not None)
        if reopen:
            self.clear_pending()
            self.show_transcript()
        else:
            self.refresh_stream()
        if self.current_id is not None and reopen:
            self._sync_memory_menu()
            self.refresh_side_tabs()
            if self.model_ready:
                self.open_requested.emit(self.current_id)

    def show_transcript(self) -> None:
        """The newest page (and the answer being written); older pages come with `load_older`."""
        if self.current_id is None:
            self.heading.setText("No conversation yet — start one with Ctrl+N or just write below")
            self.view.show_rows([])
            return
        conversation = self.session.transcript.conversation(self.current_id)
        self.heading.setText(f"{shown_line(conversation.title or 'New conversation')}   ·   epoch {conversation.epoch}")
        self._shown_epoch = conversation.epoch
        messages = self.session.transcript.newest_page(self.current_id, limit=PAGE)
        self._oldest_uid = messages[0].uid if messages else None
        self._oldest_time = messages[0].created_at if messages else 0.0
        self.view.show_rows(stream_rows(messages, self._notices(self._oldest_time, float("inf")), self._pinned()))
        if self.generating:
            self.view.set_live(self._live_answer)

    def refresh_stream(self) -> None:
        """After an answer or a compaction: only what is new goes below the rows on screen. If
        the shown rows are no longer the start of the current view (an edit, a regenerated or
        re-selected answer), the page is read again."""
        last_uid = self.view.stream.last_uid()
        if self.current_id is None or last_uid is None:
            self.show_transcript()
            return
        conversation = self.session.transcript.conversation(self.current_id)
        newest_shown = self.session.transcript.newest_page(self.current_id, limit=1, before_uid=last_uid + 1)
        if conversation.epoch != self._shown_epoch or not newest_shown or newest_shown[0].uid != last_uid:
            self.show_transcript()
            return
        shown = {row.key for row in self.view.stream.rows}
        rows = stream_rows(self.session.transcript.messages(self.current_id, uid_from=last_uid + 1),
                           self._notices(self._oldest_time, float("inf")), self._pinned())
        self.view.append_rows([row for row in rows if row.key not in shown])
        self.heading.setText(f"{shown_line(conversation.title or 'New conversation')}   ·   epoch {conversation.epoch}")

    def _pinned(self) -> set[int]:
        return set(pinned_uids(self.session.database, self.current_id)) if self.current_id else set()

    def _notices(self, since: float, before: float) -> list[Notice]:
        return [n for n in (notice_for(e) for e in ledger.entries(self.session.database, self.current_id))
                if n is not None and since <= n.created_at < before]

    def load_older(self) -> None:
        """Lazily, when the reader reaches the top: the previous page goes above, nothing else moves."""
        if self.current_id is None or self._oldest_uid is None:
            return
        page = self.session.transcript.newest_page(self.current_id, limit=PAGE, before_uid=self._oldest_uid)
        if not page:
            return
        rows = stream_rows(page, self._notices(page[0].created_at, self._oldest_time), self._pinned())
        self._oldest_uid, self._oldest_time = page[0].uid, page[0].created_at
        self.view.prepend_rows(rows)

    def new_conversation(self, then=None) -> None:
        """Created on the pool, then selected (and `then()` called, as a first send does)."""
        def created(conversation) -> None:
            self.filter.clear()
            self.refresh_conversations(select=conversation.id)
            self.composer.setFocus()
            if then is not None:
                then()

        run_operation(self.session.transcript.create_conversation, created, self._failed)

    def rename_current(self) -> None:
        if self.current_id is None:
            return
        current = self.session.transcript.conversation(self.current_id).title
        title, ok = QInputDialog.getText(self, "Rename conversation", "Title:", text=current)
        if ok and title.strip():
            conversation_id = self.current_id
            run_operation(lambda: self.session.transcript.rename(conversation_id, title.strip()),
                          lambda _: self.refresh_conversations(select=conversation_id), self._failed)

    def _ask_trash(self) -> None:
        if self.current_id is None:
            return
        answer = QMessageBox.question(self, "Move to trash", f"Move this conversation to the trash? It is kept "
                                      f"{TRASH_DAYS} days and can be restored until then.")
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
            self.statusBar().showMessage(f"Moved to the trash; it is kept {TRASH_DAYS} days (File → Trash… restores "
                                         "it).", 6000)

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

    def _set_pending(self, outgoing: Outgoing, label: str) -> None:
        self.pending = outgoing
        self.pending_label.setText(label)
        self.pending_label.show()
        self.pending_clear.show()

    def clear_pending(self) -> None:
        self.pending = None
        self.pending_label.hide()
        self.pending_clear.hide()

    def quote_message(self, uid: int) -> None:
        if self.current_id is None:
            return
        try:
            outgoing = composer.quoting(self.session.transcript, self.current_id, uid)
        except EnvironmentFault as error:
            QMessageBox.warning(self, "MFS Desktop", error.message)
            return
        first = outgoing.text.splitlines()[0][2:82]
        self._set_pending(
            outgoing, f"Quoting the assistant (uid {uid}): “{first}…” — add your note below, or send as is."
        )
        self.composer.setFocus()

    def pick_quote(self) -> None:
        if self.current_id is None:
            return
        answers = [m for m in self.session.transcript.newest_page(self.current_id, limit=200) if m.role == "assistant"]
        if not answers:
            self.statusBar().showMessage("There is no assistant message to quote yet.", 4000)
            return
        labels = [f"uid {m.uid}: {m.text[:90].replace(chr(10), ' ')}" for m in reversed(answers)]
        chosen, ok = QInputDialog.getItem(self, "Quote a message", "Which answer?", labels, 0, False)
        if ok:
            self.quote_message(int(chosen.split(":")[0].removeprefix("uid ")))

    def pick_document(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Attach a text document")
        if path:
            self.attach_file(path)

    def attach_file(self, path: str) -> None:
        def read_and_snapshot() -> Outgoing:
            with open(path, "rb") as handle:
                data = handle.read(composer.READ_LIMIT_BYTES + 1)
            return composer.attach_document(self.session.database, data, Path(path).name)

        run_operation(read_and_snapshot, lambda outgoing: self._set_pending(
            outgoing, f"Document: {Path(path).name} ({len(outgoing.text):,} characters) — it is sent with your "
                      "message."), self._failed)

    def _on_long_paste(self, text: str) -> None:
        if self.ask_paste_as_document(len(text)):
            run_operation(lambda: composer.paste_as_document(self.session.database, text),
                          lambda outgoing: self._set_pending(
                              outgoing, f"Pasted text as a document ({len(text):,} characters)."), self._failed)
        else:
            self.composer.insertPlainText(text)

    def ask_paste_as_document(self, characters: int) -> bool:
        answer = QMessageBox.question(
            self, "Long paste", f"Paste these {characters:,} characters as a document? A document is kept as a "
            "snapshot and stays out of the quotes of your own words when history is compacted.")
        return answer == QMessageBox.StandardButton.Yes

    def _outgoing(self, text: str) -> Outgoing:
        pending = self.pending
        if pending is None:
            return composer.own_words(text)
        if pending.origin == "document":
            return Outgoing(f"{text.strip()}\n\n{pending.text}" if text.strip() else pending.text, "document",
                            attachment_sha256=pending.attachment_sha256)
        return composer.quoting(self.session.transcript, self.current_id, pending.quoted_uid, text)

    # links in the stream ------------------------------------------------------------

    def _on_link(self, url: QUrl) -> None:
        action, _, uid_text = url.toString().partition(":")
        if not uid_text.isdigit() or self.current_id is None:
            return
        uid = int(uid_text)
        message = self.session.transcript.messages(self.current_id, uid_from=uid, uid_to=uid)
        if not message:
            return
        if action == "copy":
            QGuiApplication.clipboard().setText(message[0].text)
            self.statusBar().showMessage("Copied.", 2000)
        elif action == "quote":
            self.quote_message(uid)
        elif action == "edit":
            self.edit_message(uid, message[0].text)
        elif action in ("pin", "unpin"):
            self.set_pinned(uid, action == "pin")

    def set_pinned(self, uid: int, pinned: bool) -> None:
        """Pin or unpin one of the user's messages: an event, noted in the stream and the ledger."""
        if self.current_id is None:
            return
        conversation_id, window = self.current_id, self.model_choice.window

        def changed(change: PinChange) -> None:
            self.statusBar().showMessage(f"Message #{change.uid} {change.note}.", 5000)
            if conversation_id == self.current_id:
                self.show_transcript()
                self.refresh_side_tabs()
                self.inspect_requested.emit(conversation_id)

        run_operation(lambda: change_pin(self.session, conversation_id, uid, pinned, window), changed, self._failed)

    def edit_message(self, uid: int, text: str) -> None:
        if self.generating or not self.model_ready:
            return
        new_text, ok = QInputDialog.getMultiLineText(
            self, "Edit and send again", "The conversation goes back to this message; the later turns stay stored "
            "(and exportable) but leave the view.", text)
        if ok and new_text.strip() and new_text != text:
            self._begin_generation()
            self.edit_requested.emit(self.current_id, uid, new_text)

    # messages ----------------------------------------------------------------------

    def _model_ready(self, name: str) -> None:
        self.model_ready = True
        self.send_button.setEnabled(True)
        self.usage_label.setText(f"Model: {name}")
        if self.current_id is not None:
            self.open_requested.emit(self.current_id)

    def send_or_stop(self) -> None:
        if self.generating:
            self.worker_stop()
            return
        text = self.composer.toPlainText()
        if (not text.strip() and self.pending is None) or not self.model_ready:
            return
        if self.current_id is None:  # writing before any conversation exists starts one
            self.new_conversation(then=self.send_or_stop)
            return
        try:
            outgoing = self._outgoing(text)
        except EnvironmentFault as error:
            QMessageBox.warning(self, "MFS Desktop", error.message)
            return
        self._unsent = (text, self.pending)
        self.composer.clear()
        self.clear_pending()
        self._begin_generation()
        self.send_requested.emit(self.current_id, outgoing)

    def regenerate(self) -> None:
        if self.current_id is None or self.generating or not self.model_ready:
            return
        self._begin_generation()
        self.regenerate_requested.emit(self.current_id)

    def pick_alternative(self) -> None:
        if self.current_id is None or self.generating:
            return
        answers = answer_alternatives(self.session.database, self.current_id)
        if len(answers) < 2:
            self.statusBar().showMessage("The last turn has one answer; Regenerate makes another.", 4000)
            return
        labels = [f"{index + 1}{' (shown)' if shown else ''}: {text[:100].replace(chr(10), ' ')}"
                  for index, (_, text, shown) in enumerate(answers)]
        current = next(index for index, (_, _, shown) in enumerate(answers) if shown) if any(
            shown for _, _, shown in answers) else 0
        chosen, ok = QInputDialog.getItem(
            self, "Answers to the last turn", "Show which answer?", labels, current, False
        )
        if ok:
            self.select_alternative(answers[labels.index(chosen)][0])

    def select_alternative(self, generation_id: str) -> None:
        conversation_id = self.current_id
        run_operation(lambda: GenerationStore(self.session.database).select_answer(conversation_id, generation_id),
                      lambda _: (self.show_transcript(), self.inspect_requested.emit(conversation_id)), self._failed)

    def worker_stop(self) -> None:
        self.worker.stop()

    def _begin_generation(self) -> None:
        self.generating = True
        self._live_answer = ""
        self.send_button.setText("Stop")
        self.statusBar().showMessage("Answering…")
        QTimer.singleShot(50, self, self._show_sent)  # the stored user message appears at once

    def _show_sent(self) -> None:
        self.refresh_stream()
        if self.generating:
            self.view.set_live(self._live_answer)

    def _on_piece(self, piece: str) -> None:
        """Pieces are gathered and shown a few times a second: only the live row is laid out again."""
        self._live_answer += piece
        if not self._live_flush.isActive():
            self._live_flush.start()

    def _end_generation(self) -> None:
        self.generating = False
        self._live_answer = ""
        self._live_flush.stop()
        self.view.set_live(None)
        self.send_button.setText("Send")
        QTimer.singleShot(0, self, self._maybe_restart_model)

    def _on_answer(self, result: TurnResult) -> None:
        self._end_generation()
        self._unsent = None
        self.refresh_conversations(select=result.conversation_id)
        usage = result.usage
        self.usage_label.setText(
            f"Last request {usage.prompt_tokens:,} tokens · reused {usage.prompt_tokens_reused:,} from the cache · "
            f"prefill {usage.prefill_ms:.0f} ms · {usage.completion_tokens} tokens in {usage.decode_ms:.0f} ms")
        if result.messages_left_out:
            self.usage_label.setText(self.usage_label.text() +
                                     f" · {result.messages_left_out} oldest messages not sent (window full)")
        note = "Stopped: the partial answer is kept." if result.status == "partial" else "Answer stored."
        self.statusBar().showMessage(note, 5000)
        self.refresh_side_tabs()

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
        if isinstance(error, EnvironmentFault):
            QMessageBox.warning(self, "MFS Desktop", error.message)
        else:
            QMessageBox.critical(self, "MFS Desktop", f"Internal error ({type(error).__name__}); this is a bug.")

    # the context engine, shown -----------------------------------------------------

    def _on_inspected(self, conversation_id: str, report: dict) -> None:
        if conversation_id != self.current_id:
            return
        self.last_report = report
        self.layers.show_report(report)
        if "error" in report:
            self.meter.setRange(0, 1)
            self.meter.setValue(0)
            self.meter.setFormat("Context: empty")
            return
        window, tokens = report["window_tokens"], report["payload_tokens"]
        self.meter.setRange(0, window)
        self.meter.setValue(min(tokens, window))
        self.meter.setFormat(f"Context {tokens:,} / {window:,} tokens ({tokens / window:.0%}) · next request")
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

    def refresh_side_tabs(self) -> None:
        """Trajectory and ledger come straight from the store, read on the pool."""
        if self.current_id is None:
            return
        conversation_id = self.current_id
        database = self.session.database

        def read() -> tuple:
            calls = trajectory(database, conversation_id)
            results = {m.uid: m.text for m in self.session.transcript.messages(conversation_id, include_retracted=True)
                       if m.role == "tool"}
            return ([(call, results.get(call.result_uid, "")) for call in calls],
                    ledger.entries(database, conversation_id), payload_series(self.session, conversation_id))

        def show(data: tuple) -> None:
            if conversation_id != self.current_id:
                return
            calls, entries, series = data
            self.trajectory_tab.show_entries(calls)
            profile_warn = self.last_report.get("warn", 0.85)
            profile_hard = self.last_report.get("hard", 0.95)
            self.ledger_tab.show_ledger(entries, series, self.model_choice.window, profile_warn, profile_hard)

        run_operation(read, show, self._failed)

    def show_segment(self, uid_start: int) -> None:
        if self.current_id is None or uid_start is None:
            return
        conversation_id = self.current_id
        run_operation(lambda: segment_detail(self.session, conversation_id, uid_start), self.layers.show_segment,
                      self._failed)

    # settings ----------------------------------------------------------------------

    def open_settings(self, page: str = "") -> None:
        dialog = SettingsDialog(self, self.session, self.preferences, self.current_id)
        for index in range(dialog.tabs.count()):
            if dialog.tabs.tabText(index) == page:
                dialog.tabs.setCurrentIndex(index)
        if dialog.exec() == SettingsDialog.DialogCode.Accepted:
            self.apply_settings(dialog.choice())

    def apply_settings(self, choice: SettingsChoice) -> None:
        """Saved on the pool; a changed model or window reloads the worker once nothing is running."""
        conversation_id = self.current_id

        def save():
            saved = save_preferences(self.session.database, choice.preferences)
            for edit in choice.endpoints:
                if edit.url:
                    stored = load_endpoint(self.session.database, edit.role)
                    key = edit.api_key if edit.api_key is not None else (stored.api_key if stored else "")
                    save_endpoint(self.session, edit.role, edit.url, edit.model, key)
                elif load_endpoint(self.session.database, edit.role) is not None:
                    clear_endpoint(self.session, edit.role)
            if conversation_id is not None and choice.memory_mode is not None:
                self.session.transcript.set_memory_mode(conversation_id, choice.memory_mode)
            return saved

        def saved(preferences) -> None:
            changed_model = preferences.model_choice() != self.preferences.model_choice()
            self.preferences = preferences
            self.composer.set_send_key(preferences.send_key)
            self.statusBar().showMessage("Settings saved.", 4000)
            if changed_model:
                self._next_model = preferences.model_choice()
                self._maybe_restart_model()
            elif conversation_id is not None:
                self._sync_memory_menu()
                self.inspect_requested.emit(conversation_id)

        run_operation(save, saved, self._failed)

    # export / import ---------------------------------------------------------------

    def export_current(self) -> None:
        if self.current_id is None:
            return
        conversation = self.session.transcript.conversation(self.current_id)
        turns = max((m.turn_ordinal for m in self.session.transcript.newest_page(self.current_id, limit=1)), default=1)
        dialog = ExportDialog(self, conversation.title or "conversation", turns)
        if dialog.exec() != ExportDialog.DialogCode.Accepted:
            return
        self.export_to(*dialog.choice())

    def export_to(self, fmt: str, path: str, span: tuple[int, int] | None) -> None:
        conversation_id = self.current_id
        database = self.session.database

        def write() -> str:
            uids = turn_span(database, conversation_id, *span) if span else None
            text = (
                export_text(database, conversation_id, fmt, uids)
                if uids
                else export_text(database, conversation_id, fmt)
            )
            write_export(Path(path), text)
            return path

        run_operation(write, lambda written: self.statusBar().showMessage(
            f"Exported to {written} (plaintext).", 6000), self._failed)

    def import_export(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Import a JSON export", "", "JSON (*.json)")
        if not path:
            return
        run_operation(
            lambda: import_json(self.session.database, read_import_file(Path(path))),
            lambda conversation_id: self.refresh_conversations(select=conversation_id),
            self._failed,
        )

    def shutdown(self) -> None:
        """Stop any answer and the worker thread before the session closes."""
        stop_worker(self._thread, self.worker)

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt's naming)
        self.shutdown()
        super().closeEvent(event)
