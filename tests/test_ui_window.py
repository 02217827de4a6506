"""The window, offscreen with real widgets (pytest-qt)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt  # noqa: E402

from mfs_desktop.services.session import Session  # noqa: E402
from mfs_desktop.store.models import MessageDraft  # noqa: E402
from mfs_desktop.ui.main_window import MainWindow  # noqa: E402
from mfs_desktop.ui.unlock_dialog import UnlockDialog  # noqa: E402


def test_window_lists_and_shows_escaped_transcript(qtbot, session: Session) -> None:
    conversation = session.transcript.create_conversation()
    session.transcript.append(conversation.id, [MessageDraft("user", "<script>alert(1)</script> hi"),
                                                 MessageDraft("assistant", "plain answer", status="partial")])
    window = MainWindow(session)
    qtbot.addWidget(window)
    assert window.conversations.count() == 1
    assert "1 turns" in window.conversations.item(0).text()
    shown = window.view.toPlainText()
    assert "<script>alert(1)</script> hi" in shown
    assert "partial answer" in shown
    assert "epoch 1" in window.heading.text()


def test_send_stores_message_off_the_main_thread(qtbot, session: Session) -> None:
    window = MainWindow(session)
    qtbot.addWidget(window)
    window.new_conversation()
    qtbot.keyClicks(window.composer, "remember the path /etc/hosts")
    qtbot.mouseClick(window.send_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.composer.toPlainText() == "", timeout=5000)
    stored = session.transcript.messages(window.current_id)
    assert [m.text for m in stored] == ["remember the path /etc/hosts"]
    assert "remember the path /etc/hosts" in window.view.toPlainText()
    assert window.conversations.currentItem().text().startswith("remember the path")


def test_trash_from_window(qtbot, session: Session) -> None:
    window = MainWindow(session)
    qtbot.addWidget(window)
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
