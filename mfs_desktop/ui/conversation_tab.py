"""The Conversation tab beside the chat: this conversation's system prompt, sampling and preset.

Each value's lowest step reads "default": the value is then not set here, and the app's
default (or an endpoint's own) applies. Saving runs on the operation pool.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from mfs_desktop.context.assembler import DEFAULT_SYSTEM_PROMPT
from mfs_desktop.errors import EnvironmentFault
from mfs_desktop.services.conversation_settings import INTEGER_FIELDS, RANGES, configure, presets, save_preset
from mfs_desktop.services.session import Session
from mfs_desktop.store.conversation_settings import SAMPLING_FIELDS, conversation_settings
from mfs_desktop.ui.operations import run_operation

LABELS = {"temperature": "Temperature", "top_p": "Top-p", "top_k": "Top-k", "min_p": "Min-p",
          "repeat_penalty": "Repeat penalty", "max_tokens": "Max tokens", "seed": "Seed"}
STEPS = {"temperature": 0.05, "top_p": 0.01, "min_p": 0.01, "repeat_penalty": 0.01}
OWN_VALUES = "(own values)"


class ConversationTab(QWidget):
    """`saved(prompt_changed)` after a save of the open conversation's settings."""

    saved = Signal(bool)

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.conversation_id: str | None = None
        self.prompt = QPlainTextEdit()
        self.prompt.setPlaceholderText(f"Empty: the default — {DEFAULT_SYSTEM_PROMPT}")
        self.preset = QComboBox()
        self.preset.activated.connect(self._apply_preset)
        self.fields: dict[str, QSpinBox | QDoubleSpinBox] = {name: self._field(name) for name in SAMPLING_FIELDS}
        form = QFormLayout()
        form.addRow("Preset", self.preset)
        for name, field in self.fields.items():
            form.addRow(LABELS[name], field)
        self.save_button, reset = QPushButton("Save"), QPushButton("Defaults")
        as_preset = QPushButton("Save as preset…")
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
        layout.addWidget(QLabel("System prompt for this conversation (sent first in every request):"))
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
        field.setSpecialValueText("default")  # shown at the minimum, one step below the range
        return field

    def _fill_presets(self, chosen: str | None) -> None:
        self.preset.clear()
        self.preset.addItem(OWN_VALUES)
        for name in presets(self.session):
            self.preset.addItem(name)
        self.preset.setCurrentText(chosen or OWN_VALUES)

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
        self.status.clear()

    def _apply_preset(self) -> None:
        name = self.preset.currentText()
        if name == OWN_VALUES:
            return
        chosen = presets(self.session).get(name, {})
        for field in SAMPLING_FIELDS:
            self._set(field, chosen.get(field))

    def save(self, *, reset: bool = False) -> None:
        if self.conversation_id is None:
            return
        conversation_id, session = self.conversation_id, self.session
        preset = None if reset or self.preset.currentText() == OWN_VALUES else self.preset.currentText()
        prompt = "" if reset else self.prompt.toPlainText()
        values = {} if reset else {k: v for k, v in self.values().items() if v is not None}

        def work() -> bool:
            _, changed = configure(session, conversation_id, system_prompt=prompt, values=values, preset=preset,
                                   reset=True)
            return changed

        run_operation(work, self._saved, self._failed, owner=self)

    def reset(self) -> None:
        self.save(reset=True)

    def _saved(self, prompt_changed: bool) -> None:
        self.load(self.conversation_id)
        self.status.setText("Saved; the next reply re-reads the context." if prompt_changed else "Saved.")
        self.saved.emit(prompt_changed)

    def _ask_preset_name(self) -> None:
        name, ok = QInputDialog.getText(self, "Save as preset", "Name for these values:")
        if ok:
            self.save_as_preset(name)

    def save_as_preset(self, name: str) -> None:
        values = {k: v for k, v in self.values().items() if v is not None}
        session = self.session
        run_operation(lambda: save_preset(session, name, values), lambda _: self._preset_saved(name), self._failed,
                      owner=self)

    def _preset_saved(self, name: str) -> None:
        self._fill_presets(name.strip().lower())
        self.status.setText(f"Preset {name} saved.")

    def _failed(self, error: BaseException) -> None:
        self.status.setText(error.message if isinstance(error, EnvironmentFault) else
                            f"Internal error ({type(error).__name__}); this is a bug.")
