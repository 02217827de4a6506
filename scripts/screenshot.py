#!/usr/bin/env python3
"""Grab what a person sees: the window offscreen, filled from a LoCoMo conversation, to PNG.

Usage: QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshot.py [OUT_DIR]
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from PySide6.QtWidgets import QApplication  # noqa: E402

from mfs_desktop.services.session import open_session  # noqa: E402
from mfs_desktop.services.unlock import DataDir  # noqa: E402
from mfs_desktop.store.models import MessageDraft  # noqa: E402
from mfs_desktop.ui.main_window import MainWindow  # noqa: E402
from mfs_desktop.ui.unlock_dialog import UnlockDialog  # noqa: E402

LOCOMO = REPO.parent / "shared" / "data" / "locomo10"


def fill(session, path: Path, sessions: int) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    conversation = session.transcript.create_conversation()
    first = document["speaker_a"]
    for number in range(1, sessions + 1):
        for turn in document.get(f"session_{number}", []):
            role = "user" if turn["speaker"] == first else "assistant"
            session.transcript.append(conversation.id, [MessageDraft(role, turn["text"])]
                                      if role == "user" or session.transcript.messages(conversation.id) else [])


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "resources" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as scratch:
        session = open_session(DataDir(Path(scratch)), lambda new: "screenshot", use_keychain=False)
        for name, sessions in (("30.json", 1), ("41.json", 2), ("26.json", 3)):
            fill(session, LOCOMO / name, sessions)
        window = MainWindow(session)  # the bundled model, as a person gets it
        window.resize(1100, 720)
        window.show()
        wait_for(app, lambda: window.model_ready)
        window.new_conversation()
        for question in ("Hello! What can you help me with?", "Give me three tips for a long train journey."):
            window.composer.setPlainText(question)
            window.send_or_stop()
            wait_for(app, lambda: not window.generating)
        for _ in range(3):
            app.processEvents()
        window.grab().save(str(out / "main-window.png"))
        dialog = UnlockDialog(creating=True)
        dialog.show()
        app.processEvents()
        dialog.grab().save(str(out / "unlock-dialog.png"))
        window.shutdown()
        session.close()
    print(f"saved to {out}")


def wait_for(app: QApplication, condition, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the window did not get there in time")
        app.processEvents()
        time.sleep(0.02)


if __name__ == "__main__":
    main()
