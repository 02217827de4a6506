"""The window, offscreen with real widgets (pytest-qt)."""

from __future__ import annotations

import json
import os
import re

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt  # noqa: E402

from mfs_desktop.services.models.choice import ModelChoice  # noqa: E402
from mfs_desktop.services.session import Session  # noqa: E402
from mfs_desktop.store.models import MessageDraft  # noqa: E402
from mfs_desktop.ui.dialogs.unlock import UnlockDialog  # noqa: E402
from mfs_desktop.ui.window.main_window import MainWindow  # noqa: E402

FAKE = ModelChoice("fake")


def _window(qtbot, session: Session) -> MainWindow:
    return _shown(qtbot, MainWindow(session, FAKE))


def _new(qtbot, window: MainWindow) -> str:
    """A new conversation, created off the UI thread and selected."""
    before = set(window.listed_ids())
    window.new_conversation()
    qtbot.waitUntil(lambda: window.current_id is not None and window.current_id not in before, timeout=5_000)
    return window.current_id


def _shown(qtbot, window: MainWindow) -> MainWindow:
    # Shown, as a person sees it: an unshown window's children never report themselves visible.
    qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: window.model_ready, timeout=10_000)
    return window


def test_window_lists_and_shows_escaped_transcript(qtbot, session: Session) -> None:
    conversation = session.transcript.create_conversation()
    session.transcript.append(conversation.id, [MessageDraft("user", "<script>alert(1)</script> hi"),
                                                 MessageDraft("assistant", "plain answer", status="partial")])
    window = _window(qtbot, session)
    assert len(window.listed_ids()) == 1
    assert "1 turns" in window.item_for(window.listed_ids()[0]).text()
    shown = window.view.toPlainText()
    assert "<script>alert(1)</script> hi" in shown
    assert "partial answer" in shown
    assert "epoch 1" in window.heading.text()


def test_bidi_overrides_and_escapes_are_visible_in_the_window(qtbot, session: Session) -> None:
    conversation = session.transcript.create_conversation("report\u202efdp.exe")
    session.transcript.append(conversation.id, [MessageDraft("user", "open invoice\u202etxt.exe now \x1b[31m"),
                                                 MessageDraft("assistant", "ok")])
    window = _window(qtbot, session)
    shown = window.view.toPlainText()
    assert "open invoice⟨U+202E⟩txt.exe now ␛[31m" in shown and "\u202e" not in shown
    assert "report⟨U+202E⟩fdp.exe" in window.item_for(window.listed_ids()[0]).text()
    assert "\u202e" not in window.heading.text()


def test_send_streams_answer_from_worker_thread(qtbot, session: Session) -> None:
    window = _window(qtbot, session)
    _new(qtbot, window)
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
    assert "Last request" in window.usage_label.text()
    qtbot.waitUntil(lambda: "/ 8,192 tokens" in window.meter.format(), timeout=10_000)
    assert window.send_button.text() == "Send" and not window.generating


def test_stop_keeps_partial_answer(qtbot, session: Session, monkeypatch) -> None:
    monkeypatch.setenv("MFS_FAKE_SCRIPT", json.dumps([{"kind": "text", "text": "word " * 400, "delay": 0.01}]))
    window = _window(qtbot, session)
    _new(qtbot, window)
    window.composer.setPlainText("talk a lot")
    window.send_or_stop()
    # the live row is redrawn on a 50 ms timer, so the text may run ahead of the view for a moment
    qtbot.waitUntil(lambda: len(window._live_answer) > 20 and "answering" in window.view.toPlainText(),
                    timeout=10_000)
    assert window.send_button.text() == "Stop"
    qtbot.mouseClick(window.send_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.generating, timeout=10_000)
    answer = session.transcript.messages(window.current_id)[-1]
    assert answer.status == "partial" and 20 < len(answer.text) < len("word " * 400)
    assert "partial answer" in window.view.toPlainText()


def test_trash_from_window(qtbot, session: Session) -> None:
    window = _window(qtbot, session)
    _new(qtbot, window)
    window.trash_current()  # what the confirmation's Yes does
    qtbot.waitUntil(lambda: len(window.listed_ids()) == 0, timeout=5_000)
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


def _send(qtbot, window: MainWindow, text: str) -> None:
    window.composer.setPlainText(text)
    window.send_or_stop()
    qtbot.waitUntil(lambda: not window.generating, timeout=15_000)


def _script(monkeypatch, steps: list[dict]) -> None:
    monkeypatch.setenv("MFS_FAKE_SCRIPT", json.dumps(steps))


def test_regenerate_keeps_the_earlier_answer_selectable(qtbot, session: Session, monkeypatch) -> None:
    from mfs_desktop.store.generations import answer_alternatives

    _script(monkeypatch, [{"kind": "text", "text": "first answer"}, {"kind": "text", "text": "second answer"}])
    window = _window(qtbot, session)
    _new(qtbot, window)
    _send(qtbot, window, "a question")
    window.regenerate()
    qtbot.waitUntil(lambda: not window.generating, timeout=10_000)
    assert "second answer" in window.view.toPlainText() and "first answer" not in window.view.toPlainText()
    answers = answer_alternatives(session.database, window.current_id)
    assert [(text, shown) for _, text, shown in answers] == [("first answer", False), ("second answer", True)]
    window.select_alternative(answers[0][0])
    qtbot.waitUntil(lambda: "first answer" in window.view.toPlainText(), timeout=5_000)
    assert "second answer" not in window.view.toPlainText()


def test_quote_channel_sets_the_origin(qtbot, session: Session) -> None:
    window = _window(qtbot, session)
    _new(qtbot, window)
    _send(qtbot, window, "explain the cache")
    answer = session.transcript.messages(window.current_id)[-1]
    window.quote_message(answer.uid)
    assert window.pending is not None and "Quoting the assistant" in window.pending_label.text()
    _send(qtbot, window, "shorter, please")
    quoted = [m for m in session.transcript.messages(window.current_id) if m.role == "user"][-1]
    assert quoted.origin == "quoted_ai_annotated" and quoted.quoted_uid == answer.uid
    assert quoted.text.startswith("> (fake model)") and quoted.text.endswith("shorter, please")
    window.quote_message(answer.uid)
    _send(qtbot, window, "")
    assert [m for m in session.transcript.messages(window.current_id) if m.role == "user"][-1].origin == "quoted_ai"


def test_a_long_paste_becomes_a_document_snapshot(qtbot, session: Session, monkeypatch) -> None:
    from PySide6.QtCore import QMimeData

    from mfs_desktop.store.attachments import AttachmentStore

    window = _window(qtbot, session)
    _new(qtbot, window)
    monkeypatch.setattr(window, "ask_paste_as_document", lambda characters: characters > 1500)
    pasted = "\n".join(f"line {i}: the log says ERROR 42 at /var/log/app.log" for i in range(60))
    mime = QMimeData()
    mime.setText(pasted)
    window.composer.insertFromMimeData(mime)
    qtbot.waitUntil(lambda: window.pending is not None, timeout=5_000)
    assert window.composer.toPlainText() == "" and "document" in window.pending_label.text()
    _send(qtbot, window, "what went wrong?")
    document = [m for m in session.transcript.messages(window.current_id) if m.role == "user"][-1]
    assert document.origin == "document" and document.attachment_sha256
    assert document.text.startswith("what went wrong?") and pasted in document.text
    assert AttachmentStore(session.database).data(document.attachment_sha256) == pasted.encode()
    short = QMimeData()
    short.setText("a short paste")
    window.composer.insertFromMimeData(short)
    assert window.composer.toPlainText() == "a short paste" and window.pending is None


def test_binary_and_oversized_attachments_are_refused_plainly(qtbot, session: Session, monkeypatch, tmp_path) -> None:
    import mfs_desktop.ui.window.main_window as main_window

    warnings: list[str] = []
    monkeypatch.setattr(main_window.QMessageBox, "warning", lambda parent, title, text: warnings.append(text))
    window = _window(qtbot, session)
    _new(qtbot, window)
    binary = tmp_path / "picture.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    window.attach_file(str(binary))
    qtbot.waitUntil(lambda: len(warnings) == 1, timeout=5_000)
    assert "binary file" in warnings[0] and window.pending is None
    huge = tmp_path / "huge.txt"
    huge.write_text("x" * (5 * 1024 * 1024))
    window.attach_file(str(huge))
    qtbot.waitUntil(lambda: len(warnings) == 2, timeout=5_000)
    assert "MB" in warnings[1] and window.pending is None
    window.composer.setPlainText("word " * 5000)  # a message too long for the window: refused, kept
    window.send_or_stop()
    qtbot.waitUntil(lambda: len(warnings) == 3, timeout=5_000)
    assert "too long" in warnings[2] and window.composer.toPlainText() == "word " * 5000
    assert session.transcript.messages(window.current_id) == []


def test_compaction_shows_status_notice_layers_and_ledger(qtbot, session: Session, data_root) -> None:
    from conftest import run_cli

    from mfs_desktop.ui.window.status_overlay import ORGANIZED

    window = _shown(qtbot, MainWindow(session, ModelChoice("fake", window=2048)))
    _new(qtbot, window)
    seen: list[str] = []
    window.worker.organized.connect(lambda cid, state: seen.append(state))
    turn = 0
    while not seen and turn < 60:
        turn += 1
        _send(qtbot, window, f"Turn {turn}: the service on port {8000 + turn} logs to /var/log/s{turn}.log; "
                             + "tell me more about it " * 12 + f". Please always keep port {8000 + turn} open.")
    qtbot.waitUntil(lambda: window.overlay.isVisible() and window.overlay.text() == ORGANIZED, timeout=10_000)
    qtbot.waitUntil(lambda: "Context compacted" in window.view.toPlainText(), timeout=10_000)
    qtbot.waitUntil(lambda: window.layers.segments.topLevelItemCount() > 0, timeout=10_000)
    qtbot.waitUntil(lambda: window.ledger_tab.table.rowCount() > 0, timeout=10_000)
    events = [window.ledger_tab.table.item(row, 1).text() for row in range(window.ledger_tab.table.rowCount())]
    assert "compaction" in events
    qtbot.waitUntil(lambda: window.overlay.isHidden(), timeout=6_000)  # it fades after three seconds

    inspected = run_cli("inspect", "--conversation", window.current_id, "--json", "--provider", "fake",
                        "--window", "2048", data_dir=data_root)
    assert inspected.returncode == 0, inspected.stderr
    segments = json.loads(inspected.stdout)["segments"]
    shown = [window.layers.segments.topLevelItem(i).text(1) for i in range(window.layers.segments.topLevelItemCount())]
    assert shown == [f"{s['uid_start']}–{s['uid_end']}" for s in segments]
    window.show_segment(segments[0]["uid_start"])
    qtbot.waitUntil(lambda: "Original messages" in window.layers.detail.toPlainText(), timeout=5_000)
    detail = window.layers.detail.toPlainText()
    assert "/var/log/s1.log" in detail
    assert re.search(r"^days: \w+day \d{1,2} [A-Z][a-z]+ \d{4} turns? \d", detail, re.M), "the dates the model sees"
    kept = detail.split("Your words, verbatim")[1].split("Original messages")[0]
    # the standing requirements first (the other sentences' share at 2,048 fits none of them)
    assert "Please always keep port 80" in kept and ": the service on port" not in kept, kept
    assert window.layers.segments.topLevelItem(0).text(6) == str(segments[0]["quotes"]) != "0"


def test_trajectory_tab_shows_a_scripted_tool_call(qtbot, session: Session, monkeypatch) -> None:
    _script(monkeypatch, [{"kind": "tool_call", "tool_name": "record_value",
                           "arguments": json.dumps({"key": "editor", "value": "vim"})},
                          {"kind": "text", "text": "Noted: vim."}])
    window = _window(qtbot, session)
    _new(qtbot, window)
    _send(qtbot, window, "remember that I use vim")
    window.tabs.setCurrentWidget(window.trajectory_tab)
    qtbot.waitUntil(lambda: window.trajectory_tab.table.rowCount() == 1, timeout=5_000)
    table = window.trajectory_tab.table
    assert table.item(0, 2).text() == "(this app)" and table.item(0, 3).text() == "record_value"
    assert "vim" in table.item(0, 4).text() and table.item(0, 5).text() == "—", "the app's own tools ask no one"
    assert table.item(0, 6).text() == "ok"
    window.trajectory_tab._expand(0, 8)
    assert window.trajectory_tab.result.toPlainText()
    _new(qtbot, window)  # another conversation, without calls: the opened result goes with it
    qtbot.waitUntil(lambda: window.trajectory_tab.table.rowCount() == 0, timeout=5_000)
    assert window.trajectory_tab.result.toPlainText() == ""


def test_export_writes_the_chosen_format_and_range(qtbot, session: Session, tmp_path) -> None:
    window = _window(qtbot, session)
    _new(qtbot, window)
    _send(qtbot, window, "first turn")
    _send(qtbot, window, "second turn")
    whole = tmp_path / "whole.md"
    window.export_to("md", str(whole), None)
    qtbot.waitUntil(whole.exists, timeout=5_000)
    assert "first turn" in whole.read_text() and "second turn" in whole.read_text()
    part = tmp_path / "part.html"
    window.export_to("html", str(part), (2, 2))
    qtbot.waitUntil(part.exists, timeout=5_000)
    exported = part.read_text()
    assert "You said 2 words: second turn" in exported and "You said 2 words: first turn" not in exported


def test_export_dialog_says_the_file_is_plaintext(qtbot, session: Session) -> None:
    from mfs_desktop.ui.dialogs.export import PLAINTEXT_WARNING, ExportDialog

    dialog = ExportDialog(None, "My chat", turns=5)
    qtbot.addWidget(dialog)
    assert any(PLAINTEXT_WARNING == label.text() for label in dialog.findChildren(type(dialog.findChild(
        __import__("PySide6.QtWidgets", fromlist=["QLabel"]).QLabel))))
    dialog.format.setCurrentIndex(dialog.format.findData("json"))
    assert dialog.whole.isChecked() and not dialog.whole.isEnabled()
    assert dialog.choice() == ("json", "My chat.json", None)
    dialog.format.setCurrentIndex(dialog.format.findData("html"))
    dialog.whole.setChecked(False)
    dialog.first.setValue(2)
    dialog.last.setValue(4)
    assert dialog.choice() == ("html", "My chat.html", (2, 4))


def test_wrong_passphrase_asks_again_and_writes_nothing(qtbot, data_root, monkeypatch) -> None:
    from conftest import directory_digest, open_test_session

    from mfs_desktop.services.unlock import DataDir
    from mfs_desktop.ui.app import unlock_interactively

    monkeypatch.delenv("MFS_PASSPHRASE", raising=False)
    monkeypatch.setenv("MFS_KEY_STORE", "passphrase")
    open_test_session(data_root, "the right one").close()
    before = directory_digest(data_root)
    asked: list[tuple[bool, str, dict]] = []
    answers = iter(["a wrong one", "the right one"])

    def ask(data_dir, creating, error):
        asked.append((creating, error, directory_digest(data_root)))
        return next(answers)

    session = unlock_interactively(DataDir(data_root), ask)
    assert session is not None
    session.close()
    assert [creating for creating, _, _ in asked] == [False, False]
    assert asked[0][1] == "" and "passphrase" in asked[1][1].lower()
    assert asked[1][2] == before, "a wrong passphrase changed a file"
    dialog = UnlockDialog(creating=False, error=asked[1][1])
    qtbot.addWidget(dialog)
    assert dialog.error.text() == asked[1][1] and not dialog.error.isHidden()


def test_closing_mid_generation_keeps_the_partial_answer(qtbot, session: Session, monkeypatch) -> None:
    _script(monkeypatch, [{"kind": "text", "text": "word " * 2000, "delay": 0.01}])
    window = _window(qtbot, session)
    _new(qtbot, window)
    conversation = window.current_id
    window.composer.setPlainText("talk for a long time")
    window.send_or_stop()
    qtbot.waitUntil(lambda: len(window._live_answer) > 30, timeout=10_000)
    window.close()
    answer = session.transcript.messages(conversation)[-1]
    assert answer.role == "assistant" and answer.status == "partial" and answer.text.startswith("word word")
    statuses = [row[0] for row in session.database.connection().execute("SELECT status FROM generations")]
    assert statuses == ["partial"]
    reopened = _window(qtbot, session)
    assert "partial answer" in reopened.view.toPlainText()


def test_settings_refuse_a_bad_model_file_and_keep_the_dialog_open(qtbot, session: Session, tmp_path) -> None:
    from mfs_desktop.services.preferences import Preferences
    from mfs_desktop.ui.settings.dialog import SettingsDialog

    dialog = SettingsDialog(None, session, Preferences(), None)
    qtbot.addWidget(dialog)
    assert dialog.model_status.text().startswith("✓ the bundled default model: llama Q4_1")
    not_a_model = tmp_path / "photo.gguf"
    not_a_model.write_bytes(b"\x89PNG\r\n")
    dialog.model_path.setText(str(not_a_model))
    assert "not a GGUF model file" in dialog.model_status.text()
    dialog._accept_if_valid()
    assert dialog.result() == 0 and "not a GGUF" in dialog.error.text() and not dialog.error.isHidden()


def test_settings_save_send_key_profile_and_reload_the_model_with_a_new_window(qtbot, session: Session) -> None:
    from dataclasses import replace

    from mfs_desktop.services.preferences import load_preferences
    from mfs_desktop.ui.settings.dialog import SettingsDialog

    window = _window(qtbot, session)
    _new(qtbot, window)
    dialog = SettingsDialog(window, session, replace(window.preferences, provider="fake"), window.current_id)
    qtbot.addWidget(dialog)
    dialog.send_key.setCurrentIndex(dialog.send_key.findData("ctrl+enter"))
    dialog.window_tokens.setValue(4096)
    dialog.profile.setPlainText("I am Ada.")
    dialog.memory_mode.setCurrentIndex(dialog.memory_mode.findData("recent_only"))
    window.apply_settings(dialog.choice())
    qtbot.waitUntil(lambda: window.model_choice.window == 4096 and window.model_ready, timeout=15_000)
    saved = load_preferences(session.database)
    assert (saved.send_key, saved.window, saved.profile_text) == ("ctrl+enter", 4096, "I am Ada.")
    assert window.composer.send_key == "ctrl+enter"
    assert session.transcript.conversation(window.current_id).memory_mode == "recent_only"
    qtbot.keyClicks(window.composer, "hello")
    qtbot.keyClick(window.composer, Qt.Key.Key_Return)  # a new line now, not a send
    assert not window.generating
    qtbot.keyClick(window.composer, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.generating and "You said" in window.view.toPlainText(), timeout=10_000)
    qtbot.waitUntil(lambda: "/ 4,096 tokens" in window.meter.format(), timeout=10_000)


def test_settings_edit_recorded_values_and_restore_from_trash(qtbot, session: Session) -> None:
    from mfs_desktop.ui.settings.dialog import SettingsDialog

    window = _window(qtbot, session)
    _new(qtbot, window)
    kept = window.current_id
    dialog = SettingsDialog(window, session, window.preferences, kept)
    qtbot.addWidget(dialog)
    dialog.edit_value("editor", "helix")
    qtbot.waitUntil(lambda: dialog.knowledge.rowCount() == 1, timeout=5_000)
    assert dialog.knowledge.item(0, 1).text() == "helix" and dialog.knowledge.item(0, 2).text() == "you"
    dialog.knowledge.selectRow(0)
    dialog._delete_selected()
    qtbot.waitUntil(lambda: dialog.knowledge.rowCount() == 0, timeout=5_000)
    assert session.transcript.knowledge(kept) == []

    window.trash_current()
    qtbot.waitUntil(lambda: len(window.listed_ids()) == 0, timeout=5_000)
    dialog.trash_page.reload()
    assert dialog.trash_page.trash.count() == 1
    dialog.trash_page.trash.setCurrentRow(0)
    dialog.trash_page.restore_selected()
    qtbot.waitUntil(lambda: len(window.listed_ids()) == 1 and window.current_id == kept, timeout=5_000)
    assert dialog.trash_page.trash.count() == 0


def test_signal_emits_keep_reference_counts(qtbot) -> None:
    """The worker emits a signal per streamed piece; a binding that leaks or loses a reference
    per emit (PySide6 6.12.0 on Python 3.11 loses one to True) aborts the app mid-answer."""
    import sys
    import threading

    from PySide6.QtCore import QObject, Signal

    class Emitter(QObject):
        piece = Signal(str)

    emitter = Emitter()
    received: list[str] = []
    emitter.piece.connect(received.append, Qt.ConnectionType.QueuedConnection)
    before = sys.getrefcount(True), sys.getrefcount(False)
    worker = threading.Thread(target=lambda: [emitter.piece.emit("w") for _ in range(5_000)])
    worker.start()
    worker.join()
    for _ in range(5_000):
        emitter.piece.emit("m")
    qtbot.waitUntil(lambda: len(received) == 10_000, timeout=10_000)
    after = sys.getrefcount(True), sys.getrefcount(False)
    assert abs(after[0] - before[0]) < 100 and abs(after[1] - before[1]) < 100, (before, after)


def _find_link(view, row_index: int, prefix: str, depth: int = 30):
    """A point over the link that starts with `prefix` in one row (scanning its first `depth` pixels)."""
    from PySide6.QtCore import QPoint, QPointF

    from mfs_desktop.ui.window.chat_view import ROW_ROLE

    index = view.stream.index(row_index)
    rect = view.visualRect(index)
    for y in range(rect.top() + 8, rect.top() + depth, 2):
        for x in range(rect.left(), rect.right(), 3):
            if view.rows_delegate.anchor_at(index.data(ROW_ROLE), rect, QPointF(x, y)).startswith(prefix):
                return QPoint(x, y)
    raise AssertionError(f"no {prefix} link in row {row_index}")


def test_long_conversation_opens_one_page_and_loads_older_pages_above(qtbot, session: Session) -> None:
    from mfs_desktop.ui.window.main_window import PAGE

    conversation = session.transcript.create_conversation("long")
    for turn in range(300):
        session.transcript.append(conversation.id, [MessageDraft("user", f"question {turn}"),
                                                    MessageDraft("assistant", f"answer {turn}")])
    window = _window(qtbot, session)
    assert window.view.stream.rowCount() == PAGE
    assert window.view.stream.rows[-1].body == "answer 299" and window.view.at_bottom()
    window.view.verticalScrollBar().setValue(0)  # the reader scrolls to the top
    qtbot.waitUntil(lambda: window.view.stream.rowCount() == 2 * PAGE, timeout=5_000)
    assert window.view.stream.rows[0].body == "question 250"
    top = window.view.indexAt(window.view.viewport().rect().topLeft())
    assert window.view.stream.rows[top.row()].body == "question 275"  # the reader's place is kept


def test_answers_render_markdown_and_never_load_a_resource(qtbot, session: Session, tmp_path) -> None:
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QImage, QTextDocument

    image = tmp_path / "tracker.png"
    QImage(4, 4, QImage.Format.Format_RGB32).save(str(image))
    conversation = session.transcript.create_conversation()
    session.transcript.append(conversation.id, [
        MessageDraft("user", "show **markdown**"),
        MessageDraft("assistant", f"**bold** and `code`\n\n![x]({QUrl.fromLocalFile(str(image)).toString()})"
                                  "\n\n![y](https://example.invalid/pixel.png) <img src='https://example.invalid/a.png'>")])
    window = _window(qtbot, session)
    row = window.view.stream.rows[-1]
    document = window.view.rows_delegate.document(row, 600)
    assert "bold and code" in document.toPlainText()  # rendered, not shown as ** and backticks
    assert "**" in window.view.stream.rows[0].body  # the user's own text is shown as written
    window.view.viewport().repaint()
    for url in (QUrl.fromLocalFile(str(image)), QUrl("https://example.invalid/pixel.png")):
        assert document.resource(QTextDocument.ResourceType.ImageResource, url) is None


def test_copy_and_quote_links_in_the_stream(qtbot, session: Session) -> None:
    from PySide6.QtGui import QGuiApplication

    conversation = session.transcript.create_conversation()
    session.transcript.append(conversation.id, [MessageDraft("user", "what is 6×7?"),
                                                MessageDraft("assistant", "It is 42.")])
    window = _window(qtbot, session)
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=_find_link(window.view, 1, "copy:"))
    assert QGuiApplication.clipboard().text() == "It is 42."
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=_find_link(window.view, 1, "quote:"))
    assert window.pending is not None and window.pending.quoted_uid == 2 and not window.pending_label.isHidden()


def test_an_answers_thinking_is_collapsed_above_it_and_opens_in_place(qtbot, session: Session) -> None:
    """Issue 48: the stream shows the answer with one collapsed "Thought for …" line above it; a click
    opens the thought in place and another closes it; the thought never enters the answer."""
    conversation = session.transcript.create_conversation()
    session.transcript.append(conversation.id, [MessageDraft("user", "what is 6×7?"),
                                                MessageDraft("assistant", "It is 42.", thinking="Six sevens: 42.")])
    window = _window(qtbot, session)
    row = window.view.stream.rows[1]
    assert "Six sevens" not in window.view.toPlainText() and "Thought (15 characters)" in window.view.toPlainText()

    def laid_out() -> str:
        return window.view.rows_delegate.document(window.view.stream.rows[1], window.view.rows_delegate.width()) \
            .toPlainText()

    assert "Six sevens" not in laid_out() and "▸ Thought" in laid_out()
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton,
                     pos=_find_link(window.view, 1, "think:", depth=60))
    assert "▾ Thought" in laid_out() and "Six sevens: 42." in laid_out()
    assert laid_out().index("Six sevens") < laid_out().index("It is 42."), "the thought stands above the answer"
    window.view.toggle_thought(row.key)
    assert "Six sevens" not in laid_out()


def test_a_thinking_models_thought_streams_live_collapsed_then_is_stored_with_its_time(
        qtbot, session, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("MFS_FAKE_SCRIPT", json.dumps([
        {"kind": "text", "text": "<think>" + "pondering " * 30 + "</think> It is 42.", "delay": 0.02}]))
    window = _window(qtbot, session)
    window.composer.setPlainText("what is 6×7?")
    window.send_or_stop()
    qtbot.waitUntil(lambda: window.generating and "Thinking…" in window.view.toPlainText(), timeout=10_000)
    assert "pondering" not in window.view.toPlainText(), "collapsed while it thinks"
    window.view.toggle_thought("live")
    live = window.view.stream.rows[-1]
    assert "pondering" in window.view.rows_delegate.document(live, 600).toPlainText()
    qtbot.waitUntil(lambda: not window.generating, timeout=15_000)
    shown = window.view.toPlainText()
    assert "It is 42." in shown and "Thought for" in shown and "pondering" not in shown
    assert re.search(r"3[01] of 34 tokens thinking", shown), "the speed line counts the thinking apart"
    window.view.toggle_thought(next(row.key for row in window.view.stream.rows if row.thought))
    window.grab().save(str(tmp_path / "thinking.png"))  # scripts/screenshots.py makes the committed one


def test_writing_before_any_conversation_exists_starts_one(qtbot, session: Session) -> None:
    window = _window(qtbot, session)
    assert window.current_id is None and len(window.listed_ids()) == 0
    window.composer.setPlainText("hello from an empty app")
    window.send_or_stop()
    qtbot.waitUntil(lambda: window.current_id is not None and not window.generating
                    and "You said 5 words" in window.view.toPlainText(), timeout=10_000)
    assert [m.text for m in session.transcript.messages(window.current_id)][0] == "hello from an empty app"
    assert len(window.listed_ids()) == 1


def test_pin_from_the_stream_and_unpin_from_the_context_layers_tab(qtbot, session: Session) -> None:
    from mfs_desktop.store.pins import pinned_uids

    conversation = session.transcript.create_conversation()
    session.transcript.append(conversation.id, [MessageDraft("user", "以后所有脚本一律用 LF 换行。"),
                                                MessageDraft("assistant", "好的。")])
    window = _window(qtbot, session)
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=_find_link(window.view, 0, "pin:"))
    qtbot.waitUntil(lambda: pinned_uids(session.database, conversation.id) == [1], timeout=5_000)
    qtbot.waitUntil(lambda: "the next reply re-reads the context" in window.view.toPlainText(), timeout=5_000)
    assert "pinned" in window.view.toPlainText() and "unpin" in window.view.toPlainText()
    qtbot.waitUntil(lambda: window.layers.pinned.topLevelItemCount() == 1, timeout=5_000)
    assert window.layers.pinned.topLevelItem(0).text(1) == "以后所有脚本一律用 LF 换行。"
    window.layers.pinned.itemWidget(window.layers.pinned.topLevelItem(0), 3).click()
    qtbot.waitUntil(lambda: pinned_uids(session.database, conversation.id) == [], timeout=5_000)
    qtbot.waitUntil(lambda: window.layers.pinned.topLevelItemCount() == 0, timeout=5_000)
    assert "none" in window.layers.pinned_label.text()


def test_worker_ready_reaches_a_listener_wired_slowly(qtbot, session: Session) -> None:
    """The fake model loads at once; a busy UI thread must still hear `ready` (it was lost
    when the signals were connected after the thread had started)."""
    import time

    from PySide6.QtCore import QObject

    from mfs_desktop.ui.window.chat_worker import start_worker, stop_worker

    heard: list[str] = []

    def wire(worker) -> None:
        time.sleep(0.5)  # the UI thread busy with something else
        worker.ready.connect(heard.append)

    owner = QObject()
    thread, worker = start_worker(session, FAKE, owner, wire)
    try:
        qtbot.waitUntil(lambda: heard == ["fake"], timeout=10_000)
    finally:
        stop_worker(thread, worker)


def test_recall_is_listed_in_context_layers_and_switched_off_in_the_conversation_tab(qtbot, session: Session) -> None:
    """Issue 45 item 3: what recall brought for the last request, with the words that matched;
    a double-click opens the original; the Conversation tab turns recall off."""
    from test_recall import ASKED, recalled_question, talk

    from mfs_desktop.store.conversation_settings import conversation_settings

    service, conversation_id, uids = talk(session, [detail for detail, _ in ASKED])
    detail, question = recalled_question(service, conversation_id, uids)
    service.close()
    window = _shown(qtbot, MainWindow(session, ModelChoice("fake", window=4096)))
    qtbot.waitUntil(lambda: window.current_id == conversation_id, timeout=5_000)
    _send(qtbot, window, question)
    qtbot.waitUntil(lambda: window.layers.recalled.topLevelItemCount() > 0, timeout=10_000)
    rows = [window.layers.recalled.topLevelItem(i) for i in range(window.layers.recalled.topLevelItemCount())]
    assert f"#{uids[detail]}" in [row.text(0) for row in rows]
    assert "Recalled for the last request" in window.layers.recalled_label.text()
    qtbot.waitUntil(lambda: "Recalled " in window.view.toPlainText(), timeout=5_000)
    row = next(r for r in rows if r.text(0) == f"#{uids[detail]}")
    assert row.text(3), "the words that matched"
    window.layers.recalled.itemDoubleClicked.emit(row, 0)
    qtbot.waitUntil(lambda: window.view.highlighted == uids[detail], timeout=5_000)

    assert window.conversation_tab.recall.isChecked()
    window.conversation_tab.recall.setChecked(False)
    window.conversation_tab.save()
    qtbot.waitUntil(lambda: conversation_settings(session.database, conversation_id).recall is False, timeout=5_000)
