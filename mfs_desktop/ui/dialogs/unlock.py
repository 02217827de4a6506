"""Asks for the passphrase when there is no keychain (or chooses one on the first start)."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget

from mfs_desktop.ui.i18n import tr


class UnlockDialog(QDialog):
    def __init__(self, *, creating: bool, error: str = "", location: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Create encrypted database") if creating else tr("Unlock MFS Desktop"))
        self.setMinimumWidth(420)
        layout = QVBoxLayout(self)
        explanation = (
            tr("Welcome. Your conversations are kept in an encrypted database in {folder}. No system keychain is "
               "available here, so choose a passphrase: it protects the database key. It cannot be recovered if "
               "you forget it.").format(folder=location or "~")
            if creating else tr("Your conversations are encrypted. Enter the passphrase to open them.")
        )
        text = QLabel(explanation)
        text.setWordWrap(True)
        layout.addWidget(text)
        self.passphrase = QLineEdit()
        self.passphrase.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase.setPlaceholderText(tr("Passphrase"))
        layout.addWidget(self.passphrase)
        self.confirmation = QLineEdit()
        self.confirmation.setEchoMode(QLineEdit.EchoMode.Password)
        self.confirmation.setPlaceholderText(tr("Passphrase again"))
        self.confirmation.setVisible(creating)
        layout.addWidget(self.confirmation)
        self.error = QLabel(error)  # already in the interface's language
        self.error.setStyleSheet("color: #b3261e")
        self.error.setVisible(bool(error))
        self.error.setWordWrap(True)
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._accept_if_valid)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self._creating = creating

    def _accept_if_valid(self) -> None:
        if not self.passphrase.text():
            self._show_error(tr("Type a passphrase."))
        elif self._creating and self.passphrase.text() != self.confirmation.text():
            self._show_error(tr("The two passphrases differ."))
        else:
            self.accept()

    def _show_error(self, message: str) -> None:
        self.error.setText(message)
        self.error.setVisible(True)
