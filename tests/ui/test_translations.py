"""The Chinese interface (issue 32 item 1): Qt's lupdate/lrelease catalogue is complete and
current, translations keep their placeholders, the language follows the system or the
setting, and a real window in Chinese shows no English a person would have to read."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QLocale  # noqa: E402
from PySide6.QtGui import QFont, QFontDatabase, QFontInfo, QFontMetrics, QTextDocument  # noqa: E402
from PySide6.QtWidgets import (  # noqa: E402
    QAbstractButton,
    QApplication,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QProgressBar,
    QSpinBox,
    QTableWidget,
    QTabWidget,
    QTextEdit,
    QTreeWidget,
    QWidget,
)

from mfs_desktop.context.assembler import DEFAULT_SYSTEM_PROMPT  # noqa: E402
from mfs_desktop.services.models.choice import ModelChoice  # noqa: E402
from mfs_desktop.services.session import Session  # noqa: E402
from mfs_desktop.services.ui_language import load_language, save_language  # noqa: E402
from mfs_desktop.store import ledger  # noqa: E402
from mfs_desktop.store.models import MessageDraft  # noqa: E402
from mfs_desktop.ui.i18n import install_language, resolve_language, tr  # noqa: E402
from tests.conftest import REPO

ROOT = REPO
CATALOGUE = ROOT / "translations" / "mfs_zh_CN.ts"
BUILT = ROOT / "mfs_desktop" / "ui" / "translations" / "mfs_zh_CN.qm"
TOOLS = Path(sys.executable).parent
FIELD = re.compile(r"\{[^{}]*\}")
# Words that stay Latin in a Chinese interface: names of things and keys on the keyboard.
KEPT_LATIN = {"MFS", "Desktop", "GGUF", "llama", "cpp", "SmolLM2", "Instruct", "OpenAI", "API", "URL", "Ctrl",
              "Shift", "Enter", "Esc", "JSON", "Markdown", "PDF", "Word", "Hugging", "Face", "Hub", "Pygments",
              "http", "https", "localhost", "record_value", "recall_history", "tokens", "token", "SHA", "MiB", "GiB",
              "KiB", "Top", "Min", "LM", "Studio", "GPT4All", "Jan", "Ollama", "ChatGPT", "Claude", "zip", "gguf",
              "json", "English", "MFS_PASSPHRASE", "HTML", "html",
              "txt", "pdf", "docx", "csv", "log", "SmolLM", "UTF", "Unicode", "SQLite", "Base", "HTTP", "wal", "shm",
              "mapping", "chat_messages", "NUL", "Qwen", "DeepSeek", "MCP", "Model", "Context", "Protocol",
              "mcpServers", "streamable", "NAME", "VALUE", "mcp",
              # a command to type, and the chat template families it names
              "mfs", "desktop", "models", "use", "template", "chatml", "gemma", "mistral", "phi"}
ENGLISH_WORD = re.compile(r"[A-Za-z][A-Za-z_']{2,}")


def _messages() -> list[ET.Element]:
    return list(ET.parse(CATALOGUE).getroot().iter("message"))


def _sources_now(tmp_path: Path) -> set[str]:
    copy = tmp_path / "fresh.ts"
    shutil.copy(CATALOGUE, copy)
    sources = sorted(str(p) for p in (ROOT / "mfs_desktop").rglob("*.py"))
    subprocess.run([str(TOOLS / "pyside6-lupdate"), "-no-obsolete", *sources, "-ts", str(copy)], check=True,
                   capture_output=True)
    return {m.findtext("source") or "" for m in ET.parse(copy).getroot().iter("message")}


def test_catalogue_holds_every_marked_string_of_the_sources(tmp_path: Path) -> None:
    committed = {m.findtext("source") or "" for m in _messages()}
    now = _sources_now(tmp_path)
    assert now - committed == set(), "new text not in the catalogue: run scripts/translations"
    assert committed - now == set(), "the catalogue holds text no source uses: run scripts/translations"
    assert len(now) > 300


def test_every_string_has_a_chinese_translation_with_its_fields() -> None:
    unfinished, broken = [], []
    for message in _messages():
        source = message.findtext("source") or ""
        translation = message.find("translation")
        text = (translation.text or "") if translation is not None else ""
        if not text.strip() or (translation is not None and translation.get("type") == "unfinished"):
            unfinished.append(source)
        elif sorted(FIELD.findall(source)) != sorted(FIELD.findall(text)):
            broken.append((source, text))
        elif set(ENGLISH_WORD.findall(FIELD.sub("", text))) - KEPT_LATIN:
            broken.append((source, text))  # English left in the Chinese
    assert unfinished == []
    assert broken == []


def test_shipped_catalogue_is_built_from_the_ts_file(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.qm"
    subprocess.run([str(TOOLS / "pyside6-lrelease"), "-silent", str(CATALOGUE), "-qm", str(fresh)], check=True)
    assert fresh.read_bytes() == BUILT.read_bytes(), "run scripts/translations --build"


def test_language_follows_the_system_locale_and_the_setting(tmp_path: Path, monkeypatch) -> None:
    assert resolve_language("system", QLocale("zh_CN")) == "zh_CN"
    assert resolve_language("system", QLocale("zh_TW")) == "zh_CN"  # Simplified beats English for them
    assert resolve_language("system", QLocale("de_DE")) == "en"
    assert resolve_language("en", QLocale("zh_CN")) == "en"
    monkeypatch.delenv("MFS_LANGUAGE", raising=False)
    assert load_language(tmp_path) == "system"
    save_language(tmp_path, "zh_CN")
    assert load_language(tmp_path) == "zh_CN"
    (tmp_path / "language").write_bytes(b"\xff\xfe garbage")
    assert load_language(tmp_path) == "system"  # a damaged choice falls back, never fails the start
    monkeypatch.setenv("MFS_LANGUAGE", "en")
    assert load_language(tmp_path) == "en"


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    assert install_language(qapp, "zh_CN") == "zh_CN"
    yield
    install_language(qapp, "en")


def test_installing_chinese_translates_and_english_restores(chinese, qapp: QApplication) -> None:
    assert tr("New conversation") == "新对话"
    install_language(qapp, "en")
    assert tr("New conversation") == "New conversation"
    install_language(qapp, "zh_CN")


def test_a_cjk_font_draws_chinese(qapp: QApplication) -> None:
    """Invariant of the setup scripts: a font covering Chinese is installed, so text is not boxes."""
    assert QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese)
    metrics = QFontMetrics(QFont(QFontInfo(qapp.font()).family()))
    assert metrics.horizontalAdvance("中文界面") > 0


def _plain(text: str) -> str:
    if "<" in text and ">" in text:
        document = QTextDocument()
        document.setHtml(text)
        return document.toPlainText()
    return text


def _menu_texts(menu: QMenu) -> Iterator[str]:
    yield menu.title()
    for action in menu.actions():
        yield action.text()
        if action.menu() is not None:
            yield from _menu_texts(action.menu())


def visible_texts(root: QWidget) -> Iterator[tuple[str, str]]:
    """(where, text) for every string a person can read in `root` and its children."""
    for widget in [root, *root.findChildren(QWidget)]:
        name = type(widget).__name__
        yield name, widget.toolTip()
        if widget.isWindow():
            yield name, widget.windowTitle()
        if isinstance(widget, (QLabel, QAbstractButton)):
            yield name, _plain(widget.text())
        if isinstance(widget, (QLineEdit, QPlainTextEdit, QTextEdit)):
            yield name, widget.placeholderText()
        if isinstance(widget, QTabWidget):
            yield from ((name, widget.tabText(i)) for i in range(widget.count()))
        if isinstance(widget, QComboBox):
            yield from ((name, widget.itemText(i)) for i in range(widget.count()))
        if isinstance(widget, QGroupBox):
            yield name, widget.title()
        if isinstance(widget, QSpinBox):
            yield name, widget.specialValueText() + " " + widget.suffix() + " " + widget.prefix()
        if isinstance(widget, QProgressBar):
            yield name, widget.text()
        if isinstance(widget, QTableWidget):
            for column in range(widget.columnCount()):
                item = widget.horizontalHeaderItem(column)
                yield name, item.text() if item else ""
        if isinstance(widget, QTreeWidget):
            header = widget.headerItem()
            yield from ((name, header.text(i)) for i in range(header.columnCount()))
        if isinstance(widget, QMenu):
            yield from ((name, text) for text in _menu_texts(widget))


def english_left(root: QWidget, user_words: set[str]) -> list[tuple[str, str]]:
    left = []
    for where, text in visible_texts(root):
        words = {w for w in ENGLISH_WORD.findall(text) if w not in KEPT_LATIN and w not in user_words}
        if words:
            left.append((where, text))
    return left


def _chinese_conversation(session: Session) -> str:
    conversation = session.transcript.create_conversation("周末去杭州的计划")
    session.transcript.append(conversation.id, [
        MessageDraft("user", "我想周六早上八点出发，预算三千元。"),
        MessageDraft("assistant", "好的，我记下了：周六八点出发，预算三千元。"),
    ])
    ledger.record(session.database, conversation.id, "pin", outcome="ok")
    return conversation.id


def test_the_chinese_window_shows_no_untranslated_text(chinese, qtbot, session: Session) -> None:
    from mfs_desktop.ui.dialogs.unlock import UnlockDialog
    from mfs_desktop.ui.settings.dialog import SettingsDialog
    from mfs_desktop.ui.window.main_window import MainWindow

    conversation_id = _chinese_conversation(session)
    window = MainWindow(session, ModelChoice("fake"))
    qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: window.model_ready, timeout=10_000)
    qtbot.waitUntil(lambda: window.current_id == conversation_id, timeout=5_000)
    qtbot.waitUntil(lambda: "杭州" in window.heading.text(), timeout=5_000)
    # The scripted test model's name in the status line, and the default system prompt shown as
    # the placeholder: it is what the model reads, so it is shown as sent.
    user_words = {"fake", *ENGLISH_WORD.findall(DEFAULT_SYSTEM_PROMPT)}
    assert english_left(window, user_words) == []
    assert english_left(window.menuBar(), user_words) == []
    shown = window.view.toPlainText()
    assert "预算三千元" in shown
    assert not (set(ENGLISH_WORD.findall(shown)) - KEPT_LATIN), shown
    dialog = SettingsDialog(window, session, window.preferences, conversation_id)
    qtbot.addWidget(dialog)
    assert english_left(dialog, user_words) == []
    for creating in (True, False):
        unlock = UnlockDialog(creating=creating, error="", location="/home/李雷/.local/share/mfs-desktop")
        qtbot.addWidget(unlock)
        assert english_left(unlock, {"home", "local", "share", "mfs", "desktop"}) == []


def test_settings_saves_the_language_for_the_next_start(qtbot, session: Session, monkeypatch) -> None:
    from mfs_desktop.ui.settings.dialog import SettingsDialog
    from mfs_desktop.ui.window.main_window import MainWindow

    monkeypatch.delenv("MFS_LANGUAGE", raising=False)
    window = MainWindow(session, ModelChoice("fake"))
    qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
    dialog = SettingsDialog(window, session, window.preferences, None)
    qtbot.addWidget(dialog)
    assert dialog.language.currentData() == "system"
    dialog.language.setCurrentIndex(dialog.language.findData("zh_CN"))
    dialog._accept_if_valid()
    assert dialog.result() == dialog.DialogCode.Accepted
    assert load_language(session.data_dir.root) == "zh_CN"
    reopened = SettingsDialog(window, session, window.preferences, None)
    qtbot.addWidget(reopened)
    assert reopened.language.currentText() == "简体中文"


def test_a_refused_document_is_explained_in_chinese_with_its_name(chinese) -> None:
    import io

    from pypdf import PdfWriter

    from mfs_desktop.errors import InvalidInput
    from mfs_desktop.services.conversation.documents import document_text
    from mfs_desktop.ui.i18n import error_text

    blank = io.BytesIO()
    writer = PdfWriter()
    writer.add_blank_page(width=595, height=842)  # a page without a text layer, as a scan has
    writer.write(blank)
    with pytest.raises(InvalidInput) as scanned:
        document_text(blank.getvalue(), "扫描件.pdf")
    assert scanned.value.message.startswith("扫描件.pdf has no text layer")  # the CLI's English
    assert error_text(scanned.value).startswith("扫描件.pdf 没有文字层")
    with pytest.raises(InvalidInput) as empty:
        document_text(b"   \n", "notes.txt")
    assert error_text(empty.value) == "notes.txt 是空的。"


def test_the_import_preview_is_worded_in_chinese_and_stays_english_for_the_terminal(chinese) -> None:
    from mfs_desktop.services.transfer.foreign import ForeignExport

    export = ForeignExport("chatgpt", (), {"system": 2, "images": 1, "part:dalle": 1, "thinking": 3})
    assert export.preview() == ("ChatGPT export: 0 conversations, 0 messages (3 thinking passages kept apart, "
                                "1 image as a marker, 2 hidden system messages skipped, 1 “dalle” part skipped)")
    shown = export.preview(tr)
    assert shown.startswith("ChatGPT 导出文件：0 个对话，0 条消息") and "隐藏的系统消息 2 条" in shown
    assert "思考过程 3 段" in shown and "“dalle”" in shown  # a kind the export names itself is shown as written
