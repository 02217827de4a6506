"""Answers are readable (issue 32 item 3): an assistant's Markdown tables and lists are laid out
as tables and lists in the real stream's documents, while HTML inside it stays text and no
resource is ever fetched."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtGui import QTextDocument, QTextTable  # noqa: E402

from mfs_desktop.services.models.choice import ModelChoice  # noqa: E402
from mfs_desktop.services.session import Session  # noqa: E402
from mfs_desktop.store.models import MessageDraft  # noqa: E402
from mfs_desktop.ui.window.main_window import MainWindow  # noqa: E402

ANSWER = """预算如下：

| 项目 | 金额 |
| --- | ---: |
| 车票 | 420 元 |
| 酒店 | 1,280 元 |

1. Book the train
2. Pack light
   - charger
   - 雨伞

<img src="https://example.com/track.png"> <b>not bold</b>
"""


def _answer_document(qtbot, session: Session) -> tuple[MainWindow, QTextDocument]:
    conversation = session.transcript.create_conversation("旅行预算")
    session.transcript.append(conversation.id, [MessageDraft("user", "列个预算表"),
                                                 MessageDraft("assistant", ANSWER)])
    window = MainWindow(session, ModelChoice("fake"))
    qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: window.current_id == conversation.id, timeout=5_000)
    row = next(r for r in window.view.stream.rows if r.role == "assistant" and r.kind == "message")
    return window, window.view.rows_delegate.document(row, 700)


def _tables(document: QTextDocument) -> list[QTextTable]:
    return [frame for frame in document.rootFrame().childFrames() if isinstance(frame, QTextTable)]


def test_a_markdown_table_is_a_table_and_lists_are_lists(qtbot, session: Session) -> None:
    _window, document = _answer_document(qtbot, session)
    tables = _tables(document)
    assert len(tables) == 1 and (tables[0].rows(), tables[0].columns()) == (3, 2)
    assert tables[0].cellAt(2, 1).firstCursorPosition().block().text() == "1,280 元"
    items, block = [], document.begin()
    while block.isValid():
        if block.textList() is not None:
            items.append((block.textList().format().indent(), block.text()))
        block = block.next()
    assert [text for _, text in items] == ["Book the train", "Pack light", "charger", "雨伞"]
    assert items[2][0] > items[0][0]  # the nested list is indented under its item


def test_html_in_an_answer_is_text_and_nothing_is_fetched(qtbot, session: Session) -> None:
    _window, document = _answer_document(qtbot, session)
    text = document.toPlainText()
    assert '<b>not bold</b>' in text and '<img src="https://example.com/track.png">' in text
    assert document.resource(QTextDocument.ResourceType.ImageResource, "https://example.com/track.png") is None
