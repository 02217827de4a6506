"""Issue 49 in the window: the question before an MCP tool runs (its answer goes to the model and
the trajectory), Settings › Tools (import, test, switch off), and the Conversation tab's servers."""

from __future__ import annotations

import json
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QMessageBox  # noqa: E402
from qt_windows import shown_window  # noqa: E402

from mfs_desktop.runtime.mcp_client import McpServer  # noqa: E402
from mfs_desktop.services.mcp.servers import ask_tools, save_server, servers  # noqa: E402
from mfs_desktop.services.session import Session  # noqa: E402
from mfs_desktop.store.conversation_settings import conversation_settings  # noqa: E402
from mfs_desktop.store.trajectory import trajectory  # noqa: E402
from mfs_desktop.ui.window.main_window import MainWindow  # noqa: E402
from tests.conftest import REPO  # noqa: E402

WORKBENCH = str(REPO / "tests" / "data" / "mcp_servers" / "workbench.py")


def _bench(session: Session) -> None:
    save_server(session, McpServer("bench", sys.executable, (WORKBENCH,)))
    ask_tools(session.database, "bench")


def _window(qtbot, session) -> MainWindow:
    return shown_window(qtbot, session)


def _question(window: MainWindow) -> QMessageBox | None:
    return next((box for box in window.findChildren(QMessageBox) if box.isVisible()), None)


def test_the_window_asks_before_a_tool_runs_and_the_trajectory_shows_the_answer(qtbot, session, monkeypatch) -> None:
    _bench(session)
    monkeypatch.setenv("MFS_FAKE_SCRIPT", json.dumps([
        {"kind": "tool_call", "tool_name": "echo", "arguments": '{"text": "ping \\u001b[2J"}'},
        {"kind": "tool_call", "tool_name": "echo", "arguments": '{"text": "again"}'},
        {"kind": "text", "text": "Both echoed."}]))
    window = _window(qtbot, session)
    window.composer.setPlainText("echo twice")
    window.send_or_stop()
    qtbot.waitUntil(lambda: _question(window) is not None, timeout=15_000)
    box = _question(window)
    assert "echo" in box.text() and "bench" in box.text()
    assert "\x1b" not in box.informativeText() and "ping" in box.informativeText(), "escapes shown, not obeyed"
    next(b for b in box.buttons() if b.text() == "Allow once").click()
    qtbot.waitUntil(lambda: _question(window) is not None, timeout=15_000)
    next(b for b in _question(window).buttons() if b.text() == "Deny").click()
    qtbot.waitUntil(lambda: not window.generating, timeout=15_000)
    rows = trajectory(session.database, window.current_id)
    assert [(row.server, row.approval, row.status) for row in rows] == [("bench", "once", "ok"),
                                                                        ("bench", "deny", "error")]
    window.refresh_side_tabs()
    window.tabs.setCurrentWidget(window.trajectory_tab)
    qtbot.waitUntil(lambda: window.trajectory_tab.table.rowCount() == 2, timeout=5_000)
    cells = [window.trajectory_tab.table.item(0, column).text() for column in range(4)]
    assert cells[2] == "bench" and cells[3] == "echo"
    assert window.trajectory_tab.table.item(1, 5).text() == "denied"


def test_settings_tools_imports_tests_and_switches_a_server_off(qtbot, session, tmp_path) -> None:
    from mfs_desktop.ui.settings.tools_page import ToolsPage

    errors: list[BaseException] = []
    page = ToolsPage(session, errors.append)
    qtbot.addWidget(page)
    assert page.tools.item(0).text() == "Add a server to see its tools here."
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"bench": {"command": sys.executable, "args": [WORKBENCH]}}}))
    page.import_file(config)
    qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=5_000)
    page.test("bench")
    qtbot.waitUntil(lambda: "offers 4 tools" in page.status.text(), timeout=20_000)
    assert page.tools.count() == 4 and page.table.item(0, 3).text() == "4"
    page.table.item(0, 0).setCheckState(page.table.item(0, 0).checkState().Unchecked)
    qtbot.waitUntil(lambda: not servers(session.database)[0].enabled, timeout=5_000)
    assert page.changed and errors == []


def test_a_conversation_can_leave_a_servers_tools_out(qtbot, session) -> None:
    _bench(session)
    window = _window(qtbot, session)
    conversation = session.transcript.create_conversation().id
    window.refresh_conversations(select=conversation)
    qtbot.waitUntil(lambda: window.current_id == conversation, timeout=5_000)
    tab = window.conversation_tab
    tab.load(conversation)
    assert tab.servers.count() == 1 and tab.chosen_servers() == ["all"]
    tab.servers.item(0).setCheckState(tab.servers.item(0).checkState().Unchecked)
    tab.save()
    qtbot.waitUntil(lambda: conversation_settings(session.database, conversation).offered_servers() == frozenset(),
                    timeout=5_000)
