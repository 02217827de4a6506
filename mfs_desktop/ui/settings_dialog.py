"""Settings: the model and how to send, the models on this machine, the remote endpoints, the user's profile, the open
conversation's memory and recorded values, and the trash. Values are read here; every write
goes to the operation pool (the UI thread never writes the database)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from mfs_desktop.errors import EnvironmentFault, InvalidInput
from mfs_desktop.runtime.model_files import check_gguf, default_model_path
from mfs_desktop.runtime.model_info import read_model_info
from mfs_desktop.services.endpoints import ROLES, check_endpoint, key_home, load_endpoint
from mfs_desktop.services.model_actions import fit_to_machine
from mfs_desktop.services.preferences import PROFILE_MAX_CHARS, SEND_KEYS, WINDOW_RANGE, Preferences, validate
from mfs_desktop.services.session import Session
from mfs_desktop.services.units import byte_size
from mfs_desktop.store.conversation_models import ConversationModel
from mfs_desktop.ui.models_page import ModelsPage, fit_text
from mfs_desktop.ui.operations import run_operation
from mfs_desktop.ui.trash_page import TrashPage

PROVIDER_LABELS = {"embedded": "This computer (llama.cpp, GGUF file)", "openai": "OpenAI-compatible endpoint",
                   "fake": "Scripted test model (no model work)"}
SEND_KEY_LABELS = {
    "enter": "Enter sends, Shift+Enter is a new line",
    "ctrl+enter": "Ctrl+Enter sends, Enter is a new line",
}
MEMORY_LABELS = {"automatic": "Automatic: compact old history", "recent_only": "Recent turns only",
                 "off": "Off: no compressed history, no knowledge slot"}
UNCHANGED_KEY = "(unchanged)"


@dataclass(frozen=True)
class EndpointEdit:
    role: str
    url: str
    model: str
    api_key: str | None  # None: keep the stored key


@dataclass(frozen=True)
class ConversationModelEdit:
    model: ConversationModel | None  # None: the conversation follows the default model again


@dataclass(frozen=True)
class SettingsChoice:
    preferences: Preferences
    endpoints: tuple[EndpointEdit, ...]
    memory_mode: str | None  # for the open conversation
    conversation_model: ConversationModelEdit | None = None  # None: unchanged


def describe_model_file(path_text: str) -> tuple[bool, str, int | None]:
    """(usable, a line for the person, the window that fits here): the file's header is read
    and checked before llama.cpp ever sees it."""
    try:
        path = Path(path_text).expanduser() if path_text.strip() else default_model_path()
        check_gguf(path)
    except EnvironmentFault as fault:
        return False, fault.message, None
    info = read_model_info(path)
    if info.problem:
        return False, f"{path.name} cannot be used: {info.problem}", None
    fit = fit_to_machine(info)
    label = "the bundled default model" if not path_text.strip() else path.name
    return True, (f"✓ {label}: {info.architecture} {info.quantization}, {byte_size(info.size)}, context "
                  f"{info.context_length:,} · {fit_text(fit)}"), fit.window


def _note(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setStyleSheet("color: #7b8595")
    return label


class SettingsDialog(QDialog):
    def __init__(self, parent: QWidget | None, session: Session, preferences: Preferences,
                 conversation_id: str | None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.resize(720, 520)
        self.session = session
        self.conversation_id = conversation_id
        self.tabs = QTabWidget()
        self.tabs.addTab(self._model_page(preferences), "Model")
        self.tabs.addTab(self._endpoint_page(), "Endpoints")
        self.tabs.addTab(self._profile_page(preferences), "Profile")
        self.tabs.addTab(self._memory_page(), "Memory")
        self.conversation_model: ConversationModelEdit | None = None
        self.models_page = ModelsPage(session, self._use_model, conversation_id)
        self.tabs.insertTab(1, self.models_page, "Models")
        self.trash_page = TrashPage(session, self._notify_restored, self._show_error)
        self.tabs.addTab(self.trash_page, "Trash")
        self.error = QLabel()
        self.error.setStyleSheet("color: #c62828")
        self.error.setWordWrap(True)
        self.error.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._accept_if_valid)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.reload_knowledge()

    # pages ----------------------------------------------------------------------------

    def _model_page(self, preferences: Preferences) -> QWidget:
        self.provider = QComboBox()
        for key, label in PROVIDER_LABELS.items():
            if key != "fake" or preferences.provider == "fake":
                self.provider.addItem(label, key)
        self.provider.setCurrentIndex(max(0, self.provider.findData(preferences.provider)))
        self.model_path = QLineEdit(preferences.model_path)
        self.model_path.setPlaceholderText("empty: the bundled SmolLM2-135M-Instruct")
        self.model_path.textChanged.connect(self._check_model_file)
        browse = QPushButton("Choose…")
        browse.clicked.connect(self._browse_model)
        bundled = QPushButton("Bundled")
        bundled.setToolTip("Use the model that ships with the app")
        bundled.clicked.connect(self.model_path.clear)
        file_row = QHBoxLayout()
        file_row.addWidget(self.model_path, 1)
        file_row.addWidget(browse)
        file_row.addWidget(bundled)
        self.model_status = QLabel()
        self.model_status.setWordWrap(True)
        self.window_tokens = QSpinBox()
        self.window_tokens.setRange(*WINDOW_RANGE)
        self.window_tokens.setSingleStep(512)
        self.window_tokens.setSuffix(" tokens")
        self.window_tokens.setValue(preferences.window)
        self.threads = QSpinBox()
        self.threads.setRange(0, (os.cpu_count() or 1) * 2)
        self.threads.setSpecialValueText("automatic")
        self.threads.setValue(preferences.threads)
        self.cache_mb = QSpinBox()
        self.cache_mb.setRange(0, 1 << 20)
        self.cache_mb.setSingleStep(256)
        self.cache_mb.setSuffix(" MB")
        self.cache_mb.setSpecialValueText("none")
        self.cache_mb.setValue(preferences.cache_mb)
        self.cache_mb.setToolTip("Encrypted llama.cpp caches of your conversations, so a reopened one answers at "
                                 "once; the least recently used go first")
        self.theme = QComboBox()
        for key, label in (("system", "Follow the system"), ("light", "Light"), ("dark", "Dark")):
            self.theme.addItem(label, key)
        self.theme.setCurrentIndex(max(0, self.theme.findData(preferences.theme)))
        self.font_size = QSpinBox()
        self.font_size.setRange(6, 32)
        self.font_size.setSpecialValueText("system")  # 6: below the range, stored as 0
        self.font_size.setSuffix(" pt")
        self.font_size.setValue(preferences.font_size or 6)
        self.send_key = QComboBox()
        for key in SEND_KEYS:
            self.send_key.addItem(SEND_KEY_LABELS[key], key)
        self.send_key.setCurrentIndex(max(0, self.send_key.findData(preferences.send_key)))
        note = _note("Every budget of the context engine is a share of the window: changing the window changes "
                     "one number. A new model or window is loaded when you save.")
        page = QWidget()
        form = QFormLayout(page)
        form.addRow("Model runs on", self.provider)
        form.addRow("Model file", file_row)
        form.addRow("", self.model_status)
        form.addRow("Window", self.window_tokens)
        form.addRow("Threads", self.threads)
        form.addRow("Saved context cache", self.cache_mb)
        form.addRow("Sending", self.send_key)
        form.addRow("Theme", self.theme)
        form.addRow("Text size", self.font_size)
        form.addRow(note)
        self._check_model_file()
        return page

    def _endpoint_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        self.endpoint_fields: dict[str, tuple[QLineEdit, QLineEdit, QLineEdit]] = {}
        for role in ROLES:
            stored = load_endpoint(self.session.database, role)
            url, model, key = (
                QLineEdit(stored.url if stored else ""),
                QLineEdit(stored.model if stored else ""),
                QLineEdit(),
            )
            url.setPlaceholderText("http://127.0.0.1:8080/v1")
            key.setEchoMode(QLineEdit.EchoMode.Password)
            key.setPlaceholderText(UNCHANGED_KEY if stored and stored.api_key else "no key")
            form = QFormLayout()
            form.addRow(QLabel(f"<b>{role.capitalize()} endpoint</b>"))
            form.addRow("URL", url)
            form.addRow("Model name", model)
            form.addRow("API key", key)
            layout.addLayout(form)
            self.endpoint_fields[role] = (url, model, key)
        where = ("the system keychain" if key_home(self.session, "primary")
                 else "the encrypted database (no system keychain is in use here)")
        note = _note(f"Keys are kept in {where}. The fallback is used when the primary fails, and only with a "
                     "URL, a model and a key; every switch is shown.")
        layout.addWidget(note)
        layout.addStretch(1)
        return page

    def _profile_page(self, preferences: Preferences) -> QWidget:
        self.profile = QPlainTextEdit(preferences.profile_text)
        self.profile.setPlaceholderText("What the assistant should know about you, in your words: name, work, "
                                        "preferences…")
        self.profile_count = QLabel()
        self.profile.textChanged.connect(self._count_profile)
        note = _note("The profile travels in the knowledge slot of every conversation. A new conversation gets it at "
                     "once; an ongoing one with its next compaction, so the cached prefix is never broken.")
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addWidget(self.profile, 1)
        layout.addWidget(self.profile_count)
        layout.addWidget(note)
        self._count_profile()
        return page

    def _memory_page(self) -> QWidget:
        self.memory_mode = QComboBox()
        for key, label in MEMORY_LABELS.items():
            self.memory_mode.addItem(label, key)
        self.knowledge = QTableWidget(0, 4)
        self.knowledge.setHorizontalHeaderLabels(["Name", "Value", "Recorded by", "Updated"])
        self.knowledge.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.knowledge.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.knowledge.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.knowledge.verticalHeader().hide()
        add, edit, delete = QPushButton("Add…"), QPushButton("Edit…"), QPushButton("Delete")
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
            layout.addWidget(QLabel("Open a conversation to see its memory."))
        else:
            conversation = self.session.transcript.conversation(self.conversation_id)
            self.memory_mode.setCurrentIndex(self.memory_mode.findData(conversation.memory_mode))
            layout.addWidget(QLabel(f"For “{conversation.title or 'New conversation'}”"))
        form = QFormLayout()
        form.addRow("Memory", self.memory_mode)
        layout.addLayout(form)
        layout.addWidget(QLabel("Values the assistant recorded (record_value) — they reach the knowledge slot with "
                                "the next compaction:"))
        layout.addWidget(self.knowledge, 1)
        layout.addLayout(buttons)
        return page

    # model file and profile ------------------------------------------------------------

    def _browse_model(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Choose a GGUF model file", "", "GGUF models (*.gguf);;All files (*)"
        )
        if path:
            self.model_path.setText(path)
            window = describe_model_file(path)[2]
            if window is not None:  # a newly chosen file starts at the window that fits it here
                self.window_tokens.setValue(window)

    def _check_model_file(self) -> None:
        usable, line, _window = describe_model_file(self.model_path.text())
        self.model_status.setText(line)
        self.model_status.setStyleSheet("color: #2e7d32" if usable else "color: #c62828")

    def _count_profile(self) -> None:
        count = len(self.profile.toPlainText())
        self.profile_count.setText(f"{count:,} / {PROFILE_MAX_CHARS:,} characters")
        self.profile_count.setStyleSheet("color: #c62828" if count > PROFILE_MAX_CHARS else "color: #7b8595")

    # recorded values ------------------------------------------------------------------

    def reload_knowledge(self) -> None:
        rows = self.session.transcript.knowledge(self.conversation_id) if self.conversation_id else []
        self.knowledge.setRowCount(len(rows))
        for row, (key, value, source_uid, updated_at) in enumerate(rows):
            by = f"assistant (uid {source_uid})" if source_uid is not None else "you"
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
            key, ok = QInputDialog.getText(self, "Add a value", "Name:")
            if not ok or not key.strip():
                return
        if value is None:
            current = next(
                (v for k, v, _, _ in self.session.transcript.knowledge(self.conversation_id) if k == key), ""
            )
            value, ok = QInputDialog.getMultiLineText(self, "Recorded value", f"{key}:", current)
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

    def _notify_restored(self, conversation_id: str) -> None:
        parent = self.parent()
        if parent is not None and hasattr(parent, "refresh_conversations"):
            parent.refresh_conversations(select=conversation_id)

    def _use_model(self, path: str | None, window: int, here: bool) -> None:
        if here:
            self.conversation_model = ConversationModelEdit(None if path is None else ConversationModel(path, window))
            return
        self.provider.setCurrentIndex(max(0, self.provider.findData("embedded")))
        self.model_path.setText(path or "")
        self.window_tokens.setValue(window)

    def done(self, result: int) -> None:
        """A download still running stops here (its .part stays for a resume), before the page goes."""
        self.models_page.stop_download()
        super().done(result)

    # result ---------------------------------------------------------------------------

    def _show_error(self, error: BaseException) -> None:
        self.error.setText(error.message if isinstance(error, EnvironmentFault) else
                           f"Internal error ({type(error).__name__}); this is a bug.")
        self.error.show()

    def choice(self) -> SettingsChoice:
        preferences = Preferences(provider=self.provider.currentData(), model_path=self.model_path.text().strip(),
                                  window=self.window_tokens.value(), threads=self.threads.value(),
                                  cache_mb=self.cache_mb.value(), theme=self.theme.currentData(),
                                  font_size=0 if self.font_size.value() == 6 else self.font_size.value(),
                                  send_key=self.send_key.currentData(), profile_text=self.profile.toPlainText())
        endpoints = tuple(EndpointEdit(role, url.text().strip(), model.text().strip(), key.text() or None)
                          for role, (url, model, key) in self.endpoint_fields.items())
        memory = self.memory_mode.currentData() if self.conversation_id is not None else None
        return SettingsChoice(preferences, endpoints, memory, self.conversation_model)

    def _accept_if_valid(self) -> None:
        """Checked here so a bad field keeps the dialog open with a plain message."""
        choice = self.choice()
        try:
            validate(choice.preferences)
            for edit in choice.endpoints:
                if edit.url:
                    check_endpoint(edit.role, edit.url, edit.model)
            if choice.preferences.provider == "openai" and not choice.endpoints[0].url:
                raise InvalidInput("The OpenAI-compatible provider needs a primary endpoint URL.")
        except EnvironmentFault as fault:
            self._show_error(fault)
            return
        self.accept()
