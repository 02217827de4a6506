"""Export: a format, the whole conversation or a turn range, and a plain warning that the
file is not encrypted. The writing itself runs off the UI thread."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from mfs_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr

# Marked for translation, translated where shown.
FORMAT_LABELS = {"md": QT_TRANSLATE_NOOP("", "Markdown (.md)"),
                 "json": QT_TRANSLATE_NOOP("", "JSON (.json, can be imported again)"),
                 "html": QT_TRANSLATE_NOOP("", "HTML page (.html)")}
PLAINTEXT_WARNING = QT_TRANSLATE_NOOP("", "The exported file is plaintext: anyone who can read the file can read the "
                                      "conversation. The database itself stays encrypted.")


class ExportDialog(QDialog):
    def __init__(self, parent: QWidget, title: str, turns: int) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Export conversation"))
        self.format = QComboBox()
        for key, label in FORMAT_LABELS.items():
            self.format.addItem(tr(label), key)
        self.whole = QCheckBox(tr("Whole conversation"))
        self.whole.setChecked(True)
        self.first = QSpinBox()
        self.last = QSpinBox()
        for box in (self.first, self.last):
            box.setRange(1, max(1, turns))
        self.last.setValue(max(1, turns))
        span = QHBoxLayout()
        span.addWidget(QLabel(tr("turns", "export range: turns [first] to [last]")))
        span.addWidget(self.first)
        span.addWidget(QLabel(tr("to", "export range: turns [first] to [last]")))
        span.addWidget(self.last)
        self.path = QLineEdit(f"{_safe(title)}.md")
        browse = QPushButton(tr("Choose…"))
        browse.clicked.connect(self._browse)
        where = QHBoxLayout()
        where.addWidget(self.path, 1)
        where.addWidget(browse)
        warning = QLabel(tr(PLAINTEXT_WARNING))
        warning.setWordWrap(True)
        warning.setStyleSheet("color: #8a5a00")
        form = QFormLayout()
        form.addRow(tr("Format"), self.format)
        form.addRow("", self.whole)
        form.addRow(tr("Range"), span)
        form.addRow(tr("File"), where)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(warning)
        layout.addWidget(buttons)
        self.whole.toggled.connect(self._sync)
        self.format.currentIndexChanged.connect(self._sync)
        self._sync()

    def _sync(self) -> None:
        fmt = self.format.currentData()
        if fmt == "json":  # JSON is what `import` reads back: always whole
            self.whole.setChecked(True)
        self.whole.setEnabled(fmt != "json")
        for box in (self.first, self.last):
            box.setEnabled(not self.whole.isChecked())
        stem = self.path.text().rsplit(".", 1)[0] if "." in self.path.text() else self.path.text()
        self.path.setText(f"{stem}.{fmt}")

    def _browse(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, tr("Export to (plaintext)"), self.path.text())
        if path:
            self.path.setText(path)

    def choice(self) -> tuple[str, str, tuple[int, int] | None]:
        """(format, path, (first turn, last turn) or None for the whole conversation)"""
        span = None if self.whole.isChecked() else (min(self.first.value(), self.last.value()),
                                                     max(self.first.value(), self.last.value()))
        return self.format.currentData(), self.path.text(), span


def _safe(title: str) -> str:
    cleaned = "".join(c if c.isalnum() or c in " -_" else "_" for c in title).strip()
    return cleaned[:60] or tr("conversation", "file name of an export with no title")
