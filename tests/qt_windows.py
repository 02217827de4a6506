"""The main window as the UI tests open it: on the scripted model, shown, its model ready."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from mfs_desktop.services.models.choice import ModelChoice  # noqa: E402
from mfs_desktop.ui.window.main_window import MainWindow  # noqa: E402


def shown_window(qtbot, session, choice: ModelChoice | None = None) -> MainWindow:
    window = MainWindow(session, choice or ModelChoice("fake"))
    qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: window.model_ready, timeout=10_000)
    return window
