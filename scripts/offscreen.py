"""Driving the real window offscreen from a script: wait for a state, or let events run."""

from __future__ import annotations

import time

from PySide6.QtWidgets import QApplication


def wait_for(app: QApplication, condition, seconds: float = 300.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the window did not get there in time")
        app.processEvents()
        time.sleep(0.002)


def settle(app: QApplication, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.002)
