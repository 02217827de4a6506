"""The Search tab with real widgets offscreen: hits across conversations, opened at their message."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from qt_windows import shown_window  # noqa: E402

from mfs_desktop.store.models import MessageDraft  # noqa: E402
from mfs_desktop.ui.window.main_window import MainWindow  # noqa: E402


def _window(qtbot, session) -> MainWindow:
    return shown_window(qtbot, session)


def test_a_hit_far_back_opens_its_conversation_at_the_message_marked(qtbot, session) -> None:
    long_one = session.transcript.create_conversation("Reiseplanung").id
    for turn in range(150):
        text = "Wir fahren über Zürich nach Mailand." if turn == 10 else f"Tag {turn}: nichts Besonderes."
        session.transcript.append(long_one, [MessageDraft("user", text), MessageDraft("assistant", f"ok {turn}")])
    other = session.transcript.create_conversation("其他").id
    session.transcript.append(other, [MessageDraft("user", "我们明天在苏黎世见面吧")])
    window = _window(qtbot, session)
    window.refresh_conversations(select=other)
    window.focus_search()
    assert window.tabs.currentWidget() is window.search_panel and window.search_panel.query.hasFocus()

    window.search_panel.query.setText("zurich")
    qtbot.waitUntil(lambda: window.search_panel.results.count() == 1, timeout=5_000)
    item = window.search_panel.results.item(0)
    assert "Reiseplanung · you" in item.text() and "[Zürich]" in item.text()
    window.search_panel.results.itemActivated.emit(item)
    assert window.current_id == long_one and window.view.highlighted == 21
    row = window.view.row_of(21)
    assert row is not None
    shown = window.view.visualRect(window.view.stream.index(row))
    assert window.view.viewport().rect().intersects(shown)  # scrolled into view

    window.search_panel.query.setText("苏黎")
    qtbot.waitUntil(lambda: window.search_panel.results.count() == 1 and "其他" in
                    window.search_panel.results.item(0).text(), timeout=5_000)
    window.search_panel.only_here.setChecked(True)  # only the open conversation: Reiseplanung
    qtbot.waitUntil(lambda: window.search_panel.results.count() == 0
                    and window.search_panel.status.text() == "Nothing found.", timeout=5_000)
    window.search_panel.query.setText("***")
    qtbot.waitUntil(lambda: "at least one word" in window.search_panel.status.text(), timeout=5_000)


def test_the_conversation_tab_sets_the_prompt_and_sampling_and_the_stream_says_so(qtbot, session) -> None:
    from mfs_desktop.store.conversation_settings import conversation_settings

    conversation = session.transcript.create_conversation("设置").id
    window = _window(qtbot, session)
    window.refresh_conversations(select=conversation)
    tab = window.conversation_tab
    assert tab.isEnabled() and tab.values()["temperature"] is None  # "default" shown
    tab.preset.setCurrentText("precise")
    tab._apply_preset()
    assert tab.values()["temperature"] == 0.2 and tab.values()["top_k"] == 20
    tab.fields["max_tokens"].setValue(128)
    tab.prompt.setPlainText("请用中文回答，并且简短。")
    tab.save()
    qtbot.waitUntil(lambda: tab.status.text() == "Saved; the next reply re-reads the context.", timeout=5_000)
    stored = conversation_settings(session.database, conversation)
    assert (stored.system_prompt, stored.temperature, stored.max_tokens, stored.preset) == (
        "请用中文回答，并且简短。", 0.2, 128, "precise")
    qtbot.waitUntil(lambda: "System prompt changed" in window.view.toPlainText(), timeout=5_000)
    tab.save_as_preset("kurz")
    qtbot.waitUntil(lambda: tab.status.text() == "Preset kurz saved.", timeout=5_000)
    assert tab.preset.currentText() == "kurz"
    tab.reset()
    qtbot.waitUntil(lambda: conversation_settings(session.database, conversation).system_prompt is None, timeout=5_000)
    assert tab.values()["temperature"] is None and tab.prompt.toPlainText() == ""


def test_importing_a_chatgpt_export_in_the_window_shows_the_preview_first(qtbot, session, tmp_path,
                                                                            monkeypatch) -> None:
    import json

    from PySide6.QtWidgets import QMessageBox

    from tests.services.transfer.test_foreign_import import CHATGPT

    export = tmp_path / "conversations.json"
    export.write_text(json.dumps(CHATGPT), "utf-8")
    window = _window(qtbot, session)
    asked: list[str] = []

    def answer(_parent, _title, text, *args):
        asked.append(text)
        return QMessageBox.StandardButton.No if len(asked) == 1 else QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", answer)
    window.import_from(export)
    qtbot.waitUntil(lambda: len(asked) == 1, timeout=5_000)
    assert asked[0].startswith("ChatGPT export: 1 conversations, 4 messages")
    assert session.transcript.list_conversations() == []  # declined: nothing written
    window.import_from(export)
    qtbot.waitUntil(lambda: len(window.listed_ids()) == 1, timeout=5_000)
    assert window.item_for(window.listed_ids()[0]).text().startswith("Umzug nach München")
    assert "Imported 1 conversations" in window.statusBar().currentMessage()


def test_each_answer_shows_its_speed_and_messages_their_number(qtbot, session) -> None:
    window = _window(qtbot, session)
    conversation = session.transcript.create_conversation("speed").id
    window.refresh_conversations(select=conversation)
    window.composer.setPlainText("hello there")
    window.send_or_stop()
    qtbot.waitUntil(lambda: not window.generating and "from the cache" in window.view.toPlainText(), timeout=10_000)
    text = window.view.toPlainText()
    assert "first token after" in text  # the scripted model measures no decoding time: no rate
    assert "#1" in text and "#2" in text and "uid" not in text


def test_the_speed_line_reads_as_a_person_would_say_it() -> None:
    from mfs_desktop.store.generations import AnswerSpeed
    from mfs_desktop.ui.window.rows import speed_line

    assert speed_line(AnswerSpeed(2372, 2360, 64, 412.0, 1675.0)) == (
        "38.2 tokens/s · first token after 0.4 s · 2,360 of 2,372 prompt tokens from the cache")
    assert speed_line(AnswerSpeed(2372, 2360, 640, 412.0, 16750.0, thinking_tokens=512)).endswith(
        " · 512 of 640 tokens thinking"), "a thinking model's tokens are counted apart (issue 48)"


def test_code_in_an_answer_is_coloured_and_each_block_copies_as_written(qtbot, session) -> None:
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QGuiApplication, QTextCursor, QTextDocument

    from mfs_desktop.ui.window.chat_view import MARKDOWN
    from mfs_desktop.ui.window.code_blocks import fenced_code, highlight_code_blocks

    answer = ("Two ways:\n\n```python\ndef area(r):\n    return 3.14159 * r ** 2\n```\n\nand in a shell:\n\n"
              "```sh\nfind . -name '*.db' -size +10M\n```\n")
    document = QTextDocument()
    document.setMarkdown(answer, MARKDOWN)
    assert highlight_code_blocks(document, 7) == 2
    cursor = QTextCursor(document)
    cursor.setPosition(document.toPlainText().index("def") + 1)
    keyword_colour = cursor.charFormat().foreground().color().name()
    cursor.setPosition(document.toPlainText().index("area") + 1)
    assert keyword_colour != cursor.charFormat().foreground().color().name()  # def and a name differ
    assert document.toHtml().count('href="copycode:7:') == 2
    assert fenced_code(answer) == ["def area(r):\n    return 3.14159 * r ** 2", "find . -name '*.db' -size +10M"]

    from mfs_desktop.store.models import MessageDraft

    window = _window(qtbot, session)
    conversation = session.transcript.create_conversation("code").id
    session.transcript.append(conversation, [MessageDraft("user", "how?"), MessageDraft("assistant", answer)])
    window.refresh_conversations(select=conversation)
    window._on_link(QUrl("copycode:2:1"))
    assert QGuiApplication.clipboard().text() == "find . -name '*.db' -size +10M"


def test_the_theme_and_text_size_follow_the_settings(qtbot, session) -> None:
    from dataclasses import replace

    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    from mfs_desktop.errors import InvalidInput
    from mfs_desktop.services.preferences import validate
    from mfs_desktop.ui.settings.dialog import SettingsChoice
    from mfs_desktop.ui.window import code_blocks

    window = _window(qtbot, session)
    app = QApplication.instance()
    before = app.font().pointSizeF()
    choice = SettingsChoice(replace(window.preferences, theme="dark", font_size=15), (), None)
    window.apply_settings(choice)
    qtbot.waitUntil(lambda: window.preferences.theme == "dark", timeout=5_000)
    assert app.palette().color(QPalette.ColorRole.Window).lightness() < 60
    assert app.font().pointSizeF() == 15 and code_blocks._STYLE[0] == "monokai"
    window.apply_settings(SettingsChoice(replace(window.preferences, theme="light", font_size=0), (), None))
    qtbot.waitUntil(lambda: window.preferences.theme == "light", timeout=5_000)
    assert app.palette().color(QPalette.ColorRole.Window).lightness() > 150
    assert app.font().pointSizeF() == before and code_blocks._STYLE[0] == "friendly"
    with pytest.raises(InvalidInput, match="theme is one of"):
        validate(replace(window.preferences, theme="neon"))
