"""Issue 49 item 1: MCP servers through the official SDK, against real server processes — the
PyPI reference server mcp-server-time over stdio, and a workbench server on the SDK's own server
code (tests/data/mcp_servers/workbench.py) over stdio and streamable HTTP: tools listed, calls
answered, and every way a server fails becomes a plain McpUnavailable within its bound."""

from __future__ import annotations

import json
import shutil
import sys
import threading
import time

import pytest
from mcp_servers import connected_when_up, http_server

from mfs_desktop.runtime.mcp_client import McpConnection, McpServer, McpUnavailable
from tests.conftest import REPO

WORKBENCH = str(REPO / "tests" / "data" / "mcp_servers" / "workbench.py")


def time_server() -> McpServer:
    command = shutil.which("mcp-server-time", path=str(REPO / ".venv" / "bin")) or shutil.which("mcp-server-time")
    assert command, "mcp-server-time is a test dependency (pyproject [test])"
    return McpServer("time", command, ("--local-timezone", "UTC"))


def workbench() -> McpServer:
    return McpServer("bench", sys.executable, (WORKBENCH,))


def test_the_reference_time_server_lists_its_tools_and_answers() -> None:
    connection = McpConnection(time_server())
    try:
        tools = {tool.name: tool for tool in connection.tools()}
        assert {"get_current_time", "convert_time"} <= set(tools)
        assert "timezone" in json.dumps(tools["get_current_time"].parameters)
        answer = connection.call("get_current_time", {"timezone": "Europe/Berlin"})
        assert not answer.is_error and json.loads(answer.text)["timezone"] == "Europe/Berlin"
        wrong = connection.call("get_current_time", {"timezone": "Mars/Olympus_Mons"})
        assert wrong.is_error and wrong.text, "a tool's own failure is a result the model reads, not an exception"
    finally:
        connection.close()


def test_a_call_is_stopped_by_cancel_and_by_its_timeout_and_the_server_goes_on() -> None:
    connection = McpConnection(workbench())
    try:
        cancel = threading.Event()
        threading.Timer(0.3, cancel.set).start()
        started = time.perf_counter()
        with pytest.raises(McpUnavailable, match="stopped"):
            connection.call("wait", {"seconds": 30}, cancel=cancel)
        assert time.perf_counter() - started < 3
        started = time.perf_counter()
        with pytest.raises(McpUnavailable, match="did not answer in time"):
            connection.call("wait", {"seconds": 30}, timeout=0.5)
        assert time.perf_counter() - started < 4
        assert connection.call("echo", {"text": "still here ✓"}).text == "still here ✓"
    finally:
        connection.close()


def test_a_server_that_dies_mid_session_becomes_a_plain_closed_error() -> None:
    connection = McpConnection(workbench())
    try:
        with pytest.raises(McpUnavailable) as died:
            connection.call("die", {})
        assert died.value.closed
        with pytest.raises(McpUnavailable) as after:
            connection.call("echo", {"text": "x"})
        assert after.value.closed
    finally:
        started = time.perf_counter()
        connection.close()
        assert time.perf_counter() - started < 6


@pytest.mark.parametrize(("server", "reason"), [
    (McpServer("missing", "/nonexistent/mcp-server"), "was not found"),
    (McpServer("quits", sys.executable, ("-c", "pass")), "server 'quits'"),
    (McpServer("babbles", sys.executable, ("-c", "print('hello, not JSON'); import time; time.sleep(30)")), "babbles"),
    (McpServer("silent", sys.executable, ("-c", "import time; time.sleep(30)")), "did not start within"),
])
def test_a_server_that_cannot_start_is_refused_plainly_and_in_bounded_time(server: McpServer, reason: str) -> None:
    started = time.perf_counter()
    with pytest.raises(McpUnavailable, match=reason):
        McpConnection(server, start_seconds=3)
    assert time.perf_counter() - started < 10, "start is bounded, and the child is cleaned up within it"


def test_a_streamable_http_server_with_a_header_answers() -> None:
    with http_server([sys.executable, WORKBENCH, "--http", "{port}"]) as url:
        connection = connected_when_up(McpServer("web", url=url, headers=(("Authorization", "Bearer test-token"),)))
        try:
            assert "echo" in {tool.name for tool in connection.tools()}
            assert connection.call("echo", {"text": "über HTTP"}).text == "über HTTP"
        finally:
            connection.close()
    with pytest.raises(McpUnavailable):
        McpConnection(McpServer("gone", url=url), start_seconds=5)
