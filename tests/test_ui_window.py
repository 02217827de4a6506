"""The window, offscreen with real widgets (pytest-qt)."""

from __future__ import annotations

import json
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt  # noqa: E402

from mfs_desktop.services.models import ModelChoice  # noqa: E402
from mfs_desktop.services.session import Session  # noqa: E402
from mfs_desktop.store.models import MessageDraft  # noqa: E402
from mfs_desktop.ui.main_window import MainWindow  # noqa: E402
from mfs_desktop.ui.unlock_dialog import UnlockDialog  # noqa: E402


FAKE = ModelChoice("fake")


def _window(qtbot, session: Session) -> MainWindow:
    window = MainWindow(session, FAKE)
    qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
    qtbot.waitUntil(lambda: window.model_ready, timeout=10_000)
    return window


def test_window_lists_and_shows_escaped_transcript(qtbot, session: Session) -> None:
    conversation = session.transcript.create_conversation()
    session.transcript.append(conversation.id, [MessageDraft("user", "<script>alert(1)</script> hi"),
                                                 MessageDraft("assistant", "plain answer", status="partial")])
    window = _window(qtbot, session)
    assert window.conversations.count() == 1
    assert "1 turns" in window.conversations.item(0).text()
    shown = window.view.toPlainText()
    assert "<script>alert(1)</script> hi" in shown
    assert "partial answer" in shown
    assert "epoch 1" in window.heading.text()


def test_send_streams_answer_from_worker_thread(qtbot, session: Session) -> None:
    window = _window(qtbot, session)
    window.new_conversation()
    qtbot.keyClicks(window.composer, "remember the path /etc/hosts")
    qtbot.mouseClick(window.send_button, Qt.MouseButton.LeftButton)
    assert window.generating
    # Waiting on the window's state, not on the worker's signal: a wait bound to an object of
    # another thread would stop its timer from that thread.
    qtbot.waitUntil(lambda: not window.generating, timeout=10_000)
    stored = session.transcript.messages(window.current_id)
    assert [m.text for m in stored] == ["remember the path /etc/hosts",
                                        "(fake model) You said 4 words: remember the path /etc/hosts"]
    assert "You said 4 words" in window.view.toPlainText()
    assert window.conversations.currentItem().text().startswith("remember the path")
    assert "Context" in window.usage_label.text() and "/ 8,192 tokens" in window.usage_label.text()
    assert window.send_button.text() == "Send" and not window.generating


def test_stop_keeps_partial_answer(qtbot, session: Session, monkeypatch) -> None:
    monkeypatch.setenv("MFS_FAKE_SCRIPT", json.dumps([{"kind": "text", "text": "word " * 400, "delay": 0.01}]))
    window = _window(qtbot, session)
    window.new_conversation()
    window.composer.setPlainText("talk a lot")
    window.send_or_stop()
    qtbot.waitUntil(lambda: len(window._live_answer) > 20, timeout=10_000)
    assert window.send_button.text() == "Stop" and "answering" in window.view.toPlainText()
    qtbot.mouseClick(window.send_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.generating, timeout=10_000)
    answer = session.transcript.messages(window.current_id)[-1]
    assert answer.status == "partial" and 20 < len(answer.text) < len("word " * 400)
    assert "partial answer" in window.view.toPlainText()


def test_trash_from_window(qtbot, session: Session) -> None:
    window = _window(qtbot, session)
    window.new_conversation()
    window.trash_current()
    assert window.conversations.count() == 0
    assert len(session.transcript.list_conversations(trashed=True)) == 1


def test_unlock_dialog_checks_confirmation(qtbot) -> None:
    dialog = UnlockDialog(creating=True)
    qtbot.addWidget(dialog)
    dialog.passphrase.setText("one")
    dialog.confirmation.setText("two")
    dialog._accept_if_valid()
    assert dialog.result() != dialog.DialogCode.Accepted and "differ" in dialog.error.text()
    dialog.confirmation.setText("one")
    dialog._accept_if_valid()
    assert dialog.result() == dialog.DialogCode.Accepted
