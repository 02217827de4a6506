"""Organizing conversations: pinned first, archived apart but searchable, tags, date groups."""

from __future__ import annotations

import os
import time
from datetime import date, datetime, timedelta

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from mfs_desktop.errors import InvalidInput  # noqa: E402
from mfs_desktop.services.session import Session  # noqa: E402
from mfs_desktop.store.conversation_list import (  # noqa: E402
    all_tags,
    list_for_window,
    set_archived,
    set_conversation_pinned,
    set_tags,
)
from mfs_desktop.store.models import MessageDraft  # noqa: E402
from mfs_desktop.store.search import search_messages  # noqa: E402
from tests.conftest import run_cli  # noqa: E402


def _three(session: Session) -> list[str]:
    ids = []
    for index, text in enumerate(("Steuererklärung 2025", "旅行计划：京都和大阪", "Garden notes")):
        when = time.time() - 86_400 * (10 - index)  # 8 to 10 days ago
        conversation = session.transcript.create_conversation(now=when).id
        session.transcript.append(conversation, [MessageDraft("user", text + "\nsecond line"),
                                                 MessageDraft("assistant", f"answer {index}")], now=when)
        ids.append(conversation)
    return ids


def test_pinned_first_then_newest_activity_with_a_preview(session: Session) -> None:
    tax, trip, garden = _three(session)
    assert [c.id for c in list_for_window(session.database)] == [garden, trip, tax]
    set_conversation_pinned(session.database, tax, True)
    listed = list_for_window(session.database)
    assert [c.id for c in listed] == [tax, garden, trip] and listed[0].pinned
    assert listed[0].preview == "answer 0" and listed[0].turns == 1
    set_conversation_pinned(session.database, tax, False)
    assert [c.id for c in list_for_window(session.database)][0] == garden


def test_archived_leave_the_list_stay_searchable_and_come_back(session: Session) -> None:
    tax, trip, _garden = _three(session)
    set_archived(session.database, trip, True)
    assert trip not in [c.id for c in list_for_window(session.database)]
    assert [c.id for c in list_for_window(session.database, archived=True)] == [trip]
    assert [hit.conversation_id for hit in search_messages(session.database, "京都")] == [trip]
    set_archived(session.database, trip, False)
    assert trip in [c.id for c in list_for_window(session.database)]
    session.transcript.trash(tax)
    with pytest.raises(InvalidInput, match="in the trash"):
        set_archived(session.database, tax, True)


def test_tags_are_trimmed_deduplicated_and_filter_the_list(session: Session) -> None:
    tax, trip, garden = _three(session)
    assert set_tags(session.database, trip, [" 旅行 ", "#urlaub", "urlaub", ""]) == ["旅行", "urlaub"]
    set_tags(session.database, garden, ["urlaub"])
    assert all_tags(session.database) == ["urlaub", "旅行"]
    assert [c.id for c in list_for_window(session.database, tag="urlaub")] == [garden, trip]
    assert list_for_window(session.database, tag="旅行")[0].tags == ("urlaub", "旅行")
    with pytest.raises(InvalidInput, match="at most 40"):
        set_tags(session.database, tax, ["x" * 41])
    session.transcript.trash(garden)
    session.transcript.purge([garden])
    assert [c.id for c in list_for_window(session.database, tag="urlaub")] == [trip]


def test_the_command_line_pins_archives_and_tags(tmp_path) -> None:
    data = tmp_path / "data"
    for text in ("erste", "zweite"):
        run_cli("chat", "--provider", "fake", text, data_dir=data)
    first = run_cli("list", data_dir=data).stdout.splitlines()[-1].split()[0]
    done = run_cli("organize", "--conversation", first, "--pin", "--tags", "arbeit,privat", data_dir=data)
    assert done.returncode == 0 and "pinned yes" in done.stdout and "tags arbeit, privat" in done.stdout
    listed = run_cli("list", data_dir=data).stdout.splitlines()
    assert listed[0].startswith(first) and "📌 #arbeit #privat erste" in listed[0]
    run_cli("organize", "--conversation", first, "--archive", data_dir=data)
    assert first not in run_cli("list", data_dir=data).stdout
    assert first in run_cli("list", "--archived", "--tag", "arbeit", data_dir=data).stdout
    refused = run_cli("organize", "--conversation", "nope", "--pin", data_dir=data)
    assert refused.returncode == 9 and "No conversation" in refused.stderr


def test_date_groups() -> None:
    from mfs_desktop.ui.window.organize import date_group

    today = date(2026, 12, 7)
    at = lambda day: datetime.combine(day, datetime.min.time()).timestamp() + 3600  # noqa: E731
    assert [date_group(at(today - timedelta(days=d)), today) for d in (0, 1, 3, 20)] == [
        "Today", "Yesterday", "Previous 7 days", "Previous 30 days"]
    assert date_group(at(date(2026, 3, 2)), today) == "March 2026"


def test_the_window_groups_by_date_and_its_menu_actions_apply(qtbot, session: Session) -> None:
    from mfs_desktop.services.models.choice import ModelChoice
    from mfs_desktop.ui.window.main_window import MainWindow

    tax, trip, garden = _three(session)
    window = MainWindow(session, ModelChoice("fake"))
    qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
    window.show()
    qtbot.waitUntil(lambda: window.model_ready, timeout=10_000)
    rows = [window.conversations.item(i).text() for i in range(window.conversations.count())]
    assert rows[0] == "Previous 30 days" and window.listed_ids() == [garden, trip, tax]
    assert window.item_for(trip).text().startswith("旅行计划：京都和大阪\n1 turns · answer 1")
    window.organize(tax, pinned=True, tags=["steuern"])
    qtbot.waitUntil(lambda: window.listed_ids()[0] == tax, timeout=5_000)
    assert window.conversations.item(0).text() == "Pinned"
    assert window.item_for(tax).text().startswith("📌 Steuererklärung 2025  #steuern")
    window.list_view.setCurrentIndex(window.list_view.findData("steuern"))
    window.refresh_conversations()
    assert window.listed_ids() == [tax]
    window.list_view.setCurrentIndex(0)
    window.refresh_conversations()
    assert trip in window.listed_ids()
    window.organize(trip, archived=True)
    qtbot.waitUntil(lambda: window.listed_ids() == [tax, garden], timeout=5_000)
    window.open_at(trip, 1)  # a search hit in an archived conversation: the list shows the archive
    assert window.current_id == trip and window.listed_ids() == [trip]
