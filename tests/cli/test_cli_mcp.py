"""Issue 49 items 2 and 3 on the command line: `mcp add / list / test / enable / disable / remove /
import` with real servers, header values kept encrypted, and `chat` asking before a tool runs —
denied without a terminal, run with --approve-tools — with every call in the transcript."""

from __future__ import annotations

import json
import os
import sys

from mcp_servers import connected_when_up, http_server

from mfs_desktop.runtime.mcp_client import McpServer
from mfs_desktop.services.unlock import DataDir
from tests.conftest import PASSPHRASE, REPO, run_cli

WORKBENCH = str(REPO / "tests" / "data" / "mcp_servers" / "workbench.py")
ECHO_CALL = json.dumps([{"kind": "tool_call", "tool_name": "echo", "arguments": '{"text": "from the tool"}'},
                        {"kind": "text", "text": "Echoed."}])


def _listed(data) -> list[dict]:
    done = run_cli("mcp", "list", "--json", data_dir=data)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_add_list_disable_and_remove_a_stdio_server(tmp_path) -> None:
    data = tmp_path / "d"
    added = run_cli("mcp", "add", "bench", "--env", "BENCH_MODE=test", "--", sys.executable, WORKBENCH, data_dir=data)
    assert added.returncode == 0, added.stderr
    assert "bench offers 4 tool(s)" in added.stdout
    [server] = _listed(data)
    assert server["command"] == [sys.executable, WORKBENCH] and server["env"] == ["BENCH_MODE"]
    assert {tool["name"] for tool in server["tools"]} == {"echo", "wait", "long_text", "die"}
    assert run_cli("mcp", "disable", "bench", data_dir=data).returncode == 0
    assert _listed(data)[0]["enabled"] is False
    assert run_cli("mcp", "remove", "bench", data_dir=data).returncode == 0
    assert _listed(data) == []


def test_a_server_that_does_not_answer_stays_configured_and_says_why(tmp_path) -> None:
    data = tmp_path / "d"
    done = run_cli("mcp", "add", "ghost", "--", "/nonexistent/mcp-server", data_dir=data)
    assert done.returncode == 1 and "was not found" in done.stderr
    assert [s["name"] for s in _listed(data)] == ["ghost"]
    refused = run_cli("mcp", "add", "web", "--url", "file:///etc/passwd", data_dir=data)
    assert refused.returncode != 0 and "only http:// and https://" in refused.stderr
    both = run_cli("mcp", "add", "x", "--url", "http://127.0.0.1:9/mcp", "--", "cmd", data_dir=data)
    assert both.returncode != 0 and "one of them" in both.stderr


def test_an_mcp_json_from_another_app_imports_and_a_header_token_is_never_readable_on_disk(tmp_path) -> None:
    data = tmp_path / "d"
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        "bench": {"command": sys.executable, "args": [WORKBENCH]},
        "remote": {"url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer sk-very-secret-token"},
                   "disabled": True},
    }}), "utf-8")
    done = run_cli("mcp", "import", str(config), data_dir=data)
    assert done.returncode == 0, done.stderr
    listed = {s["name"]: s for s in _listed(data)}
    assert listed["remote"]["headers"] == ["Authorization"] and not listed["remote"]["enabled"]
    assert listed["bench"]["tools"], "an enabled server is asked for its tools on import"
    for stored in DataDir(data).root.rglob("*"):
        if stored.is_file():
            assert b"sk-very-secret-token" not in stored.read_bytes(), stored
    broken = tmp_path / "broken.json"
    broken.write_text('{"mcpServers": {"x": {"command": 5}', "utf-8")
    failed = run_cli("mcp", "import", str(broken), data_dir=data)
    assert failed.returncode != 0 and "is not JSON" in failed.stderr


def test_chat_asks_before_a_tool_runs_and_denies_without_a_terminal(tmp_path) -> None:
    data = tmp_path / "d"
    assert run_cli("mcp", "add", "bench", "--", sys.executable, WORKBENCH, data_dir=data).returncode == 0
    denied = run_cli("chat", "--provider", "fake", "--json", "echo something", data_dir=data,
                     MFS_FAKE_SCRIPT=ECHO_CALL)
    assert denied.returncode == 0, denied.stderr
    assert "no terminal to ask on" in denied.stderr
    conversation = json.loads(denied.stdout)["conversation_id"]
    allowed = run_cli("chat", "--provider", "fake", "--json", "--approve-tools", "--conversation", conversation,
                      "echo again", data_dir=data, MFS_FAKE_SCRIPT=ECHO_CALL)
    assert allowed.returncode == 0, allowed.stderr
    exported = run_cli("export", "--conversation", conversation, "--format", "json", data_dir=data)
    tools = [m["text"] for m in json.loads(exported.stdout)["messages"] if m["role"] == "tool"]
    assert tools == ["error: the person denied this call", "from the tool"]
    assert PASSPHRASE  # the CLI ran on the test passphrase throughout


def test_a_streamable_http_server_is_added_and_listed_with_its_tools(tmp_path) -> None:
    """The npm reference server over HTTP (installed by scripts/bootstrap --tests)."""
    everything = REPO / ".venv" / "mcp-npm" / "node_modules" / ".bin" / "mcp-server-everything"
    assert everything.exists(), "installed by scripts/bootstrap --tests"
    data = tmp_path / "d"
    with http_server([str(everything), "streamableHttp"], env=os.environ) as url:
        connected_when_up(McpServer("probe", url=url)).close()  # up before the command line asks it
        added = run_cli("mcp", "add", "everything", "--url", url, "--header", "X-Client=mfs", data_dir=data)
        assert added.returncode == 0, added.stderr
        [listed] = _listed(data)
        assert listed["transport"] == "http" and listed["url"] == url and listed["headers"] == ["X-Client"]
        assert "echo" in {tool["name"] for tool in listed["tools"]}
        assert all(tool["description"] for tool in listed["tools"])
