"""The Conversation tab beside the chat: this conversation's system prompt, sampling and preset.

Each value's lowest step reads "default": the value is then not set here, and the app's
default (or an endpoint's own) applies. Saving runs on the operation pool.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from mfs_desktop.context.assembler import DEFAULT_SYSTEM_PROMPT
from mfs_desktop.services.conversation.settings import (
    INTEGER_FIELDS,
    RANGES,
    THINKING_TOKENS_RANGE,
    ThinkingChoice,
    configure,
    presets,
    save_preset,
)
from mfs_desktop.services.mcp.servers import servers as mcp_servers
from mfs_desktop.services.session import Session
from mfs_desktop.store.conversation_settings import SAMPLING_FIELDS, conversation_settings
from mfs_desktop.ui.i18n import QT_TRANSLATE_NOOP, error_text, tr
from mfs_desktop.ui.operations import run_operation

LABELS = {"temperature": QT_TRANSLATE_NOOP("", "Temperature"), "top_p": QT_TRANSLATE_NOOP("", "Top-p"),
          "top_k": QT_TRANSLATE_NOOP("", "Top-k"), "min_p": QT_TRANSLATE_NOOP("", "Min-p"),
          "repeat_penalty": QT_TRANSLATE_NOOP("", "Repeat penalty"), "max_tokens": QT_TRANSLATE_NOOP("", "Max tokens"),
          "seed": QT_TRANSLATE_NOOP("", "Seed")}
STEPS = {"temperature": 0.05, "top_p": 0.01, "min_p": 0.01, "repeat_penalty": 0.01}
OWN_VALUES = QT_TRANSLATE_NOOP("", "(own values)")  # the preset box's first entry: no preset
BUILT_IN_NAMES = frozenset((QT_TRANSLATE_NOOP("", "balanced"), QT_TRANSLATE_NOOP("", "precise"),
                            QT_TRANSLATE_NOOP("", "creative"), QT_TRANSLATE_NOOP("", "repeatable")))
THINKING_CHOICES = ((None, QT_TRANSLATE_NOOP("", "as the model was made")), ("on", QT_TRANSLATE_NOOP("", "on")),
                    ("off", QT_TRANSLATE_NOOP("", "off")))
EFFORT_CHOICES = ((None, QT_TRANSLATE_NOOP("", "the endpoint's default")), ("low", QT_TRANSLATE_NOOP("", "low")),
                  ("medium", QT_TRANSLATE_NOOP("", "medium")), ("high", QT_TRANSLATE_NOOP("", "high")))


class ConversationTab(QWidget):
    """`saved(prompt_changed)` after a save of the open conversation's settings."""

    saved = Signal(bool)

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.conversation_id: str | None = None
        self.prompt = QPlainTextEdit()
        self.prompt.setPlaceholderText(tr("Empty: the default — {prompt}").format(prompt=DEFAULT_SYSTEM_PROMPT))
        self.preset = QComboBox()
        self.preset.activated.connect(self._apply_preset)
        self.fields: dict[str, QSpinBox | QDoubleSpinBox] = {name: self._field(name) for name in SAMPLING_FIELDS}
        form = QFormLayout()
        form.addRow(tr("Preset"), self.preset)
        for name, field in self.fields.items():
            form.addRow(tr(LABELS[name]), field)
        self.recall = QCheckBox(tr("Before each answer, bring back earlier messages that your new message asks "
                                   "about"))
        self.recall.setToolTip(tr("Recall: originals the compressed history no longer shows word for word, found "
                                  "in this conversation's encrypted search index (Context layers shows them)."))
        form.addRow(tr("Recall"), self.recall)
        self.thinking, self.effort = QComboBox(), QComboBox()
        for box, choices in ((self.thinking, THINKING_CHOICES), (self.effort, EFFORT_CHOICES)):
            for value, label in choices:
                box.addItem(tr(label), value)
        self.thinking.setToolTip(tr("For models that think before they answer (Qwen3, DeepSeek-R1, …). Off closes "
                                    "the thinking before it starts where the model's template allows it."))
        self.thinking_cap = QSpinBox()
        self.thinking_cap.setRange(THINKING_TOKENS_RANGE[0] - 1, THINKING_TOKENS_RANGE[1])
        self.thinking_cap.setSingleStep(256)
        self.thinking_cap.setSpecialValueText(tr("no cap"))
        form.addRow(tr("Thinking"), self.thinking)
        form.addRow(tr("Thinking cap (tokens)"), self.thinking_cap)
        form.addRow(tr("Reasoning effort (endpoints)"), self.effort)
        self.servers = QListWidget()  # the MCP servers offered here; all checked: every enabled one
        self.servers.setMaximumHeight(72)
        self.servers.setToolTip(tr("The MCP servers (Settings › Tools) whose tools this conversation offers."))
        form.addRow(tr("Tool servers"), self.servers)
        self.save_button, reset = QPushButton(tr("Save")), QPushButton(tr("Defaults"))
        as_preset = QPushButton(tr("Save as preset…"))
        self.save_button.clicked.connect(self.save)
        reset.clicked.connect(self.reset)
        as_preset.clicked.connect(self._ask_preset_name)
        buttons = QHBoxLayout()
        for button in (self.save_button, reset, as_preset):
            buttons.addWidget(button)
        buttons.addStretch(1)
        self.status = QLabel()
        self.status.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(tr("System prompt for this conversation (sent first in every request):")))
        layout.addWidget(self.prompt, 1)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        self.load(None)

    @staticmethod
    def _field(name: str) -> QSpinBox | QDoubleSpinBox:
        low, high = RANGES[name]
        field: QSpinBox | QDoubleSpinBox
        if name in INTEGER_FIELDS:
            field = QSpinBox()
            field.setRange(int(low) - 1, int(high))
        else:
            field = QDoubleSpinBox()
            field.setDecimals(2)
            field.setSingleStep(STEPS[name])
            field.setRange(low - STEPS[name], high)
        field.setSpecialValueText(tr("default"))  # shown at the minimum, one step below the range
        return field

    def _fill_presets(self, chosen: str | None) -> None:
        self.preset.clear()
        self.preset.addItem(tr(OWN_VALUES))  # its data None: no preset
        for name in presets(self.session):  # the built-in ones shown translated, yours as you named them
            self.preset.addItem(tr(name) if name in BUILT_IN_NAMES else name, name)
        self.preset.setCurrentIndex(max(0, self.preset.findData(chosen)) if chosen else 0)

    def chosen_preset(self) -> str | None:
        """The preset picked (its name, not the text shown), None for own values."""
        return self.preset.currentData()

    def _set(self, name: str, value: float | int | None) -> None:
        field = self.fields[name]
        field.setValue(field.minimum() if value is None else value)  # type: ignore[arg-type]

    def values(self) -> dict[str, float | int | None]:
        return {name: None if field.value() == field.minimum() else field.value()
                for name, field in self.fields.items()}

    def load(self, conversation_id: str | None) -> None:
        self.conversation_id = conversation_id
        self.setEnabled(conversation_id is not None)
        settings = conversation_settings(self.session.database, conversation_id) if conversation_id else None
        self.prompt.setPlainText(settings.system_prompt or "" if settings else "")
        for name in SAMPLING_FIELDS:
            self._set(name, getattr(settings, name) if settings else None)
        self._fill_presets(settings.preset if settings else None)
        self.recall.setChecked(settings is None or settings.recall is not False)
        self.thinking.setCurrentIndex(max(0, self.thinking.findData(settings.thinking if settings else None)))
        self.effort.setCurrentIndex(max(0, self.effort.findData(settings.reasoning_effort if settings else None)))
        cap = settings.thinking_tokens if settings else None
        self.thinking_cap.setValue(cap if cap else self.thinking_cap.minimum())
        self._fill_servers(settings.offered_servers() if settings else None)
        self.status.clear()

    def _fill_servers(self, offered: frozenset[str] | None) -> None:
        self.servers.clear()
        for server in mcp_servers(self.session.database):
            if server.enabled:
                item = QListWidgetItem(server.name)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                on = offered is None or server.name in offered
                item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
                self.servers.addItem(item)
        self.servers.setVisible(self.servers.count() > 0)

    def chosen_servers(self) -> list[str]:
        items = [self.servers.item(i) for i in range(self.servers.count())]
        checked = [item.text() for item in items if item.checkState() == Qt.CheckState.Checked]
        return ["all"] if len(checked) == len(items) else (checked or ["none"])

    def _apply_preset(self) -> None:
        name = self.chosen_preset()
        if name is None:
            return
        chosen = presets(self.session).get(name, {})
        for field in SAMPLING_FIELDS:
            self._set(field, chosen.get(field))

    def save(self, *, reset: bool = False) -> None:
        if self.conversation_id is None:
            return
        conversation_id, session = self.conversation_id, self.session
        preset = None if reset else self.chosen_preset()
        prompt = "" if reset else self.prompt.toPlainText()
        values = {} if reset else {k: v for k, v in self.values().items() if v is not None}
        recall = reset or self.recall.isChecked()
        cap = self.thinking_cap.value()
        thinking = ThinkingChoice() if reset else ThinkingChoice(
            self.thinking.currentData() or "default", 0 if cap == self.thinking_cap.minimum() else cap,
            self.effort.currentData() or "default")
        servers = ["all"] if reset else self.chosen_servers()

        def work() -> bool:
            _, changed = configure(session, conversation_id, system_prompt=prompt, values=values, preset=preset,
                                   reset=True, recall=recall, thinking=thinking, mcp_servers=servers)
            return changed

        run_operation(work, self._saved, self._failed, owner=self)

    def reset(self) -> None:
        self.save(reset=True)

    def _saved(self, prompt_changed: bool) -> None:
        self.load(self.conversation_id)
        self.status.setText(tr("Saved; the next reply re-reads the context.") if prompt_changed else tr("Saved."))
        self.saved.emit(prompt_changed)

    def _ask_preset_name(self) -> None:
        name, ok = QInputDialog.getText(self, tr("Save as preset"), tr("Name for these values:"))
        if ok:
            self.save_as_preset(name)

    def save_as_preset(self, name: str) -> None:
        values = {k: v for k, v in self.values().items() if v is not None}
        session = self.session
        run_operation(lambda: save_preset(session, name, values), lambda _: self._preset_saved(name), self._failed,
                      owner=self)

    def _preset_saved(self, name: str) -> None:
        self._fill_presets(name.strip().lower())
        self.status.setText(tr("Preset {name} saved.").format(name=name))

    def _failed(self, error: BaseException) -> None:
        self.status.setText(error_text(error))
