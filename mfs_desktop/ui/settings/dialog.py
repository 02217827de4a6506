"""Settings: the model and how to send, the models on this machine, the remote endpoints, the user's profile, the open
conversation's memory and recorded values, and the trash. Values are read here; every write
goes to the operation pool (the UI thread never writes the database)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from mfs_desktop.errors import EnvironmentFault, InvalidInput
from mfs_desktop.runtime.model_files import check_gguf, default_model_path
from mfs_desktop.runtime.model_info import read_model_info
from mfs_desktop.services.models.actions import fit_to_machine
from mfs_desktop.services.models.endpoints import ROLES, check_endpoint, key_home, load_endpoint
from mfs_desktop.services.models.templates import check_model_template, template_family
from mfs_desktop.services.preferences import PROFILE_MAX_CHARS, SEND_KEYS, WINDOW_RANGE, Preferences, validate
from mfs_desktop.services.session import Session
from mfs_desktop.services.ui_language import load_language, save_language
from mfs_desktop.services.units import byte_size
from mfs_desktop.store.conversation_models import ConversationModel
from mfs_desktop.ui.i18n import LANGUAGES, QT_TRANSLATE_NOOP, error_text, tr
from mfs_desktop.ui.settings.memory import MemoryPageMixin
from mfs_desktop.ui.settings.models_page import ModelsPage, fit_text
from mfs_desktop.ui.settings.tools_page import ToolsPage
from mfs_desktop.ui.settings.trash_page import TrashPage

PROVIDER_LABELS = {"embedded": QT_TRANSLATE_NOOP("", "This computer (llama.cpp, GGUF file)"),
                   "openai": QT_TRANSLATE_NOOP("", "OpenAI-compatible endpoint"),
                   "fake": QT_TRANSLATE_NOOP("", "Scripted test model (no model work)")}
SEND_KEY_LABELS = {"enter": QT_TRANSLATE_NOOP("", "Enter sends, Shift+Enter is a new line"),
                   "ctrl+enter": QT_TRANSLATE_NOOP("", "Ctrl+Enter sends, Enter is a new line")}
THEME_LABELS = {"system": QT_TRANSLATE_NOOP("", "Follow the system"), "light": QT_TRANSLATE_NOOP("", "Light"),
                "dark": QT_TRANSLATE_NOOP("", "Dark")}
UNCHANGED_KEY = QT_TRANSLATE_NOOP("", "(unchanged)")


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
        return False, error_text(fault), None
    info = read_model_info(path)
    if info.problem:
        return False, tr("{file} cannot be used: {problem}").format(file=path.name, problem=info.problem), None
    fit = fit_to_machine(info)
    label = tr("the bundled default model") if not path_text.strip() else path.name
    return True, tr("✓ {model}: {architecture} {quantization}, {size}, context {context:,} · {fit}").format(
        model=label, architecture=info.architecture, quantization=info.quantization, size=byte_size(info.size),
        context=info.context_length, fit=fit_text(fit)), fit.window


def _note(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setStyleSheet("color: #7b8595")
    return label


class SettingsDialog(MemoryPageMixin, QDialog):
    def __init__(self, parent: QWidget | None, session: Session, preferences: Preferences,
                 conversation_id: str | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Settings"))
        self.resize(720, 520)
        self.session = session
        self.conversation_id = conversation_id
        self.tabs = QTabWidget()
        self.tabs.addTab(self._model_page(preferences), tr("Model"))
        self.tabs.addTab(self._endpoint_page(), tr("Endpoints"))
        self.tabs.addTab(self._profile_page(preferences), tr("Profile"))
        self.tabs.addTab(self._memory_page(), tr("Memory"))
        self.conversation_model: ConversationModelEdit | None = None
        self.models_page = ModelsPage(session, self._use_model, conversation_id)
        self.tabs.insertTab(1, self.models_page, tr("Models"))
        self.tools_page = ToolsPage(session, self._show_error)
        self.tabs.addTab(self.tools_page, tr("Tools"))
        self.trash_page = TrashPage(session, self._notify_restored, self._show_error)
        self.tabs.addTab(self.trash_page, tr("Trash"))
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
                self.provider.addItem(tr(label), key)
        self.provider.setCurrentIndex(max(0, self.provider.findData(preferences.provider)))
        self.model_path = QLineEdit(preferences.model_path)
        self.model_path.setPlaceholderText(tr("empty: the bundled SmolLM2-135M-Instruct"))
        self.model_path.textChanged.connect(self._check_model_file)
        browse = QPushButton(tr("Choose…"))
        browse.clicked.connect(self._browse_model)
        bundled = QPushButton(tr("Bundled"))
        bundled.setToolTip(tr("Use the model that ships with the app"))
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
        self.window_tokens.setSuffix(tr(" tokens"))
        self.window_tokens.setValue(preferences.window)
        self.threads = QSpinBox()
        self.threads.setRange(0, (os.cpu_count() or 1) * 2)
        self.threads.setSpecialValueText(tr("automatic"))
        self.threads.setValue(preferences.threads)
        self.cache_mb = QSpinBox()
        self.cache_mb.setRange(0, 1 << 20)
        self.cache_mb.setSingleStep(256)
        self.cache_mb.setSuffix(tr(" MB"))
        self.cache_mb.setSpecialValueText(tr("none"))
        self.cache_mb.setValue(preferences.cache_mb)
        self.cache_mb.setToolTip(tr("Encrypted llama.cpp caches of your conversations, so a reopened one answers at "
                                 "once; the least recently used go first"))
        self.theme = QComboBox()
        for key, label in THEME_LABELS.items():
            self.theme.addItem(tr(label), key)
        self.theme.setCurrentIndex(max(0, self.theme.findData(preferences.theme)))
        self.font_size = QSpinBox()
        self.font_size.setRange(6, 32)
        self.font_size.setSpecialValueText(tr("system"))  # 6: below the range, stored as 0
        self.font_size.setSuffix(tr(" pt"))
        self.font_size.setValue(preferences.font_size or 6)
        self.language = QComboBox()
        for key, label in LANGUAGES.items():
            self.language.addItem(tr(label), key)
        self.language.setCurrentIndex(max(0, self.language.findData(load_language(self.session.data_dir.root))))
        self.send_key = QComboBox()
        for key in SEND_KEYS:
            self.send_key.addItem(tr(SEND_KEY_LABELS[key]), key)
        self.send_key.setCurrentIndex(max(0, self.send_key.findData(preferences.send_key)))
        note = _note(tr("Every budget of the context engine is a share of the window: changing the window changes "
                        "one number. A new model or window is loaded when you save, a new language when the app "
                        "starts again."))
        page = QWidget()
        form = QFormLayout(page)
        form.addRow(tr("Model runs on"), self.provider)
        form.addRow(tr("Model file"), file_row)
        form.addRow("", self.model_status)
        form.addRow(tr("Window"), self.window_tokens)
        form.addRow(tr("Threads"), self.threads)
        form.addRow(tr("Saved context cache"), self.cache_mb)
        form.addRow(tr("Sending"), self.send_key)
        form.addRow(tr("Theme"), self.theme)
        form.addRow(tr("Text size"), self.font_size)
        form.addRow(tr("Language"), self.language)
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
            key.setPlaceholderText(tr(UNCHANGED_KEY) if stored and stored.api_key else tr("no key"))
            form = QFormLayout()
            heading = tr("Primary endpoint") if role == "primary" else tr("Fallback endpoint")
            form.addRow(QLabel(f"<b>{heading}</b>"))
            form.addRow(tr("URL"), url)
            form.addRow(tr("Model name"), model)
            form.addRow(tr("API key"), key)
            layout.addLayout(form)
            self.endpoint_fields[role] = (url, model, key)
        where = (tr("the system keychain") if key_home(self.session, "primary")
                 else tr("the encrypted database (no system keychain is in use here)"))
        note = _note(tr("Keys are kept in {where}. The fallback is used when the primary fails, and only with a "
                        "URL, a model and a key; every switch is shown.").format(where=where))
        layout.addWidget(note)
        layout.addStretch(1)
        return page

    def _profile_page(self, preferences: Preferences) -> QWidget:
        self.profile = QPlainTextEdit(preferences.profile_text)
        self.profile.setPlaceholderText(tr("What the assistant should know about you, in your words: name, "
                                           "work, preferences…"))
        self.profile_count = QLabel()
        self.profile.textChanged.connect(self._count_profile)
        note = _note(tr("The profile travels in the knowledge slot of every conversation. A new conversation gets "
                        "it at once; an ongoing one with its next compaction, so the cached prefix is never broken."))
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addWidget(self.profile, 1)
        layout.addWidget(self.profile_count)
        layout.addWidget(note)
        self._count_profile()
        return page

    # model file and profile ------------------------------------------------------------

    def _browse_model(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, tr("Choose a GGUF model file"), "", tr("GGUF models (*.gguf);;All files (*)")
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
        self.profile_count.setText(tr("{count:,} / {limit:,} characters").format(count=count, limit=PROFILE_MAX_CHARS))
        self.profile_count.setStyleSheet("color: #c62828" if count > PROFILE_MAX_CHARS else "color: #7b8595")

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
        self.error.setText(error_text(error))
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
            if choice.preferences.provider == "embedded" and choice.preferences.model_path:
                path = choice.preferences.model_path
                check_model_template(path, template_family(self.session.database, path))
            for edit in choice.endpoints:
                if edit.url:
                    check_endpoint(edit.role, edit.url, edit.model)
            if choice.preferences.provider == "openai" and not choice.endpoints[0].url:
                raise InvalidInput(tr("The OpenAI-compatible provider needs a primary endpoint URL."))
            save_language(self.session.data_dir.root, self.language.currentData())
        except (EnvironmentFault, OSError) as fault:
            self._show_error(fault if isinstance(fault, EnvironmentFault) else InvalidInput(str(fault)))
            return
        self.accept()
