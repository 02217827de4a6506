"""Start the window: unlock (keychain, MFS_PASSPHRASE or the unlock dialog), then show it."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

from mfs_desktop.errors import EnvironmentFault, PassphraseRequired, WrongPassphrase
from mfs_desktop.services.preferences import load_preferences
from mfs_desktop.services.session import Session, open_session
from mfs_desktop.services.ui_language import load_language
from mfs_desktop.services.unlock import DataDir
from mfs_desktop.ui.dialogs.unlock import UnlockDialog
from mfs_desktop.ui.i18n import error_text, install_language
from mfs_desktop.ui.look import apply_look
from mfs_desktop.ui.window.main_window import MainWindow

# The installed desktop entry's name: Wayland compositors match the window to it (icon, name).
DESKTOP_FILE_ID = "io.github.mfsdesktop.MFSDesktop"


def ask_with_dialog(data_dir: DataDir, creating: bool, error: str) -> str | None:
    dialog = UnlockDialog(creating=creating, error=error, location=str(data_dir.root))
    return dialog.passphrase.text() if dialog.exec() == QDialog.DialogCode.Accepted else None


def unlock_interactively(
    data_dir: DataDir, ask: Callable[[DataDir, bool, str], str | None] = ask_with_dialog,
) -> Session | None:
    """Open the session, asking for the passphrase as often as needed; None if the user cancels.
    A wrong passphrase writes nothing: the next try starts from the same files."""
    typed: str | None = os.environ.get("MFS_PASSPHRASE")
    error = ""
    while True:
        try:
            return open_session(data_dir, lambda new, given=typed: given)
        except (PassphraseRequired, WrongPassphrase) as fault:
            if typed is not None:
                error = error_text(fault)
            typed = ask(data_dir, not data_dir.vault.exists(), error)
            if typed is None:
                return None


def run_app(data_dir: DataDir, quit_after_shown_ms: int | None = None) -> int:
    """`quit_after_shown_ms` is for the packaging smoke test: once the event loop runs with the
    window shown, a line on stderr says so, and the window closes itself after that many ms."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("MFS Desktop")
    app.setDesktopFileName(DESKTOP_FILE_ID)
    # X11 taskbars read the window's own icon; the .deb installs it in the hicolor theme.
    app.setWindowIcon(QIcon.fromTheme(DESKTOP_FILE_ID))
    install_language(app, load_language(data_dir.root))
    try:
        session = unlock_interactively(data_dir)
    except EnvironmentFault as fault:
        QMessageBox.critical(None, "MFS Desktop", error_text(fault))
        raise
    if session is None:
        return 0
    preferences = load_preferences(session.database)
    apply_look(app, preferences.theme, preferences.font_size)
    window = MainWindow(session)
    window.show()
    if quit_after_shown_ms is not None:
        QTimer.singleShot(0, lambda: print("mfs-desktop: window shown", file=sys.stderr, flush=True))
        QTimer.singleShot(quit_after_shown_ms, window.close)
    try:
        return app.exec()
    finally:
        session.close()
