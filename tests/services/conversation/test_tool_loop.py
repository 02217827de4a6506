"""Issue 49 items 3 and 4: the tool loop runs every call of an answer in order, holds its round
limit against an endpoint that ignores tool_choice, asks before an MCP tool runs (once, always,
deny), records server and approval in the trajectory, and cuts a long result to its share of the
window while the whole of it stays readable with read_document."""

from __future__ import annotations

import json
import re
import sys
import threading
import time

from http_servers import MisbehavingServer, sse

from mfs_desktop.runtime.endpoint_switch import Endpoint, EndpointSwitch
from mfs_desktop.runtime.fake import FakeModel, Step
from mfs_desktop.runtime.mcp_client import McpServer
from mfs_desktop.runtime.openai_http import OpenAICompatibleModel
from mfs_desktop.runtime.protocol import ToolCall
from mfs_desktop.runtime.tool_calls import ToolCallWatcher
from mfs_desktop.services.conversation.chat import ChatService
from mfs_desktop.services.conversation.settings import configure
from mfs_desktop.services.conversation.turn import TOOL_LIMIT
from mfs_desktop.services.mcp.servers import ask_tools, save_server
from mfs_desktop.services.mcp.toolbox import ALWAYS, DENY, ONCE, ApprovalRequest, McpToolbox
from mfs_desktop.store.trajectory import trajectory
from tests.conftest import REPO

WORKBENCH = str(REPO / "tests" / "data" / "mcp_servers" / "workbench.py")
DONE = b"data: [DONE]\n\n"


def _call_delta(index: int, call_id: str, key: str) -> bytes:
    arguments = json.dumps({"key": key, "value": f"value of {key}"})
    return sse({"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": index, "id": call_id, "type": "function", "function": {"name": "record_value",
                                                                          "arguments": arguments}}]}}]})


def test_every_call_runs_in_order_and_an_endpoint_ignoring_tool_choice_is_stopped(session) -> None:
    """The endpoint answers every request with the same two parallel calls, tool_choice "none" included."""
    server = MisbehavingServer(mode="stream", events=(
        _call_delta(0, "call_a", "first"), _call_delta(1, "call_b", "second"),
        sse({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}), DONE))
    model = OpenAICompatibleModel(EndpointSwitch(Endpoint(server.url, "x")), timeout=20)
    service = ChatService(session, model, provider="openai", max_tool_rounds=2)
    conversation = session.transcript.create_conversation().id
    started = time.monotonic()
    try:
        result = service.send(conversation, "remember two things, again and again")
    finally:
        service.close()
        server.stop()
    assert time.monotonic() - started < 30
    assert result.finish_reason == TOOL_LIMIT and result.status == "completed"
    rows = trajectory(session.database, conversation)
    assert [json.loads(row.arguments)["key"] for row in rows] == ["first", "second", "first", "second"]
    assert [body.get("tool_choice") for body in server.bodies] == ["auto", "auto", "none"]
    calls = [m.tool_call_id for m in session.transcript.messages(conversation) if m.role == "tool"]
    assert calls == ["call_a", "call_b", "call_a", "call_b"]


def test_the_embedded_models_several_tagged_calls_are_all_taken() -> None:
    shown: list[str] = []
    watcher = ToolCallWatcher(shown.append, enabled=True)
    text = ('<tool_call>{"name": "a", "arguments": {"x": 1}}</tool_call>\n'
            '<tool_call>{"name": "b", "arguments": {}}</tool_call>\nAnd then I')
    stopped_at = next(i for i in range(1, len(text) + 1) if watcher.feed(text[i - 1]))
    assert text[:stopped_at].endswith("A"), "sampling stops at the first word that is not another call"
    answer, calls = watcher.result(forced=False)
    assert answer == "" and shown == []
    assert calls == (ToolCall("a", '{"x": 1}', ""), ToolCall("b", "{}", ""))


def _bench(session) -> None:
    save_server(session, McpServer("bench", sys.executable, (WORKBENCH,)))
    assert {tool.name for tool in ask_tools(session.database, "bench")} >= {"echo", "long_text"}


def test_each_mcp_call_is_asked_for_and_the_answer_recorded(session) -> None:
    _bench(session)
    asked: list[ApprovalRequest] = []
    answers = iter([DENY, ONCE, ALWAYS])

    def approver(request: ApprovalRequest) -> str:
        asked.append(request)
        return next(answers)

    echo = [Step("tool_call", tool_name="echo", arguments=json.dumps({"text": f"hi {i} \u202e"})) for i in range(4)]
    model = FakeModel([*echo, Step("text", "done")])
    service = ChatService(session, model, provider="fake", max_tool_rounds=4,
                          external_tools=McpToolbox(session.database, approver))
    conversation = session.transcript.create_conversation().id
    try:
        service.send(conversation, "echo four times")
    finally:
        service.close()
    assert len(asked) == 3, "after 'always' the tool is not asked about again"
    assert (asked[0].server, asked[0].tool) == ("bench", "echo") and "hi 0" in asked[0].arguments
    rows = trajectory(session.database, conversation)
    assert [(row.server, row.approval, row.status) for row in rows] == [
        ("bench", "deny", "error"), ("bench", "once", "ok"), ("bench", "always", "ok"), ("bench", "always", "ok")]
    results = [m.text for m in session.transcript.messages(conversation) if m.role == "tool"]
    assert "denied" in results[0] and results[1] == "hi 1 \u202e"
    assert "echo" in [spec.name for spec in service.tool_specs(conversation)]
    configure(session, conversation, mcp_servers=["none"])
    assert "echo" not in [spec.name for spec in service.tool_specs(conversation)], "a conversation may offer none"


def test_a_long_result_is_cut_to_its_share_and_kept_whole_as_a_snapshot(session) -> None:
    _bench(session)
    model = FakeModel([Step("tool_call", tool_name="long_text", arguments='{"characters": 200000}'),
                       Step("text", "read it")])
    service = ChatService(session, model, provider="fake", window=4096,
                          external_tools=McpToolbox(session.database, lambda _request: ONCE))
    conversation = session.transcript.create_conversation().id
    try:
        service.send(conversation, "give me a long text")
        result = next(m for m in session.transcript.messages(conversation) if m.role == "tool")
        assert len(result.text) < 5_000 and result.text.startswith("line 000000:")
        snapshot = re.search(r"document snapshot ([0-9a-f]{12})", result.text).group(1)
        assert result.attachment_sha256 and result.attachment_sha256.startswith(snapshot)
        page = service.tools.run(conversation, ToolCall("read_document", json.dumps(
            {"snapshot": snapshot, "offset": 100_000, "length": 200}), "c"), call_uid=99, cancel=threading.Event())
        assert page.status == "ok" and "characters 100000–100200 of 200000" in page.text and "line 001725" in page.text
    finally:
        service.close()


def test_a_change_in_the_tools_offered_is_an_event_shown_once(session) -> None:
    """Issue 49 item 6: the offered tools ride in the prefix; adding a server mid-conversation
    re-reads the context once, and the ledger and the stream say so."""
    from mfs_desktop.services.conversation.notices import notice_for
    from mfs_desktop.store import ledger

    conversation = session.transcript.create_conversation().id
    before = ChatService(session, FakeModel(), provider="fake")
    before.send(conversation, "hello")
    before.send(conversation, "and again")
    before.close()
    _bench(session)
    after = ChatService(session, FakeModel(), provider="fake",
                        external_tools=McpToolbox(session.database, lambda _request: ONCE))
    try:
        after.send(conversation, "now with tools")
        after.send(conversation, "and once more")
    finally:
        after.close()
    events = [e for e in ledger.entries(session.database, conversation) if e.event == "tools"]
    assert len(events) == 1 and events[0].outcome == "changed"
    assert notice_for(events[0]).text == "The tools offered changed (7 now): this reply re-reads the context"


def test_a_bare_json_call_naming_an_offered_tool_is_a_call_and_other_json_an_answer() -> None:
    """Llama 3.x templates ask for `{"name": …, "parameters": …}`; small models write it untagged."""
    names = frozenset({"record_value"})
    for text, call in [
        ('{"name": "record_value", "parameters": {"key": "a", "value": "b \\"}\\" c"}}',
         ToolCall("record_value", '{"key": "a", "value": "b \\"}\\" c"}', "")),
        ('  {"name": "record_value", "arguments": {"key": "k", "value": "v"}} trailing words',
         ToolCall("record_value", '{"key": "k", "value": "v"}', "")),
    ]:
        shown: list[str] = []
        watcher = ToolCallWatcher(shown.append, enabled=True, names=names)
        stopped = [watcher.feed(ch) for ch in text]
        assert stopped.index(True) == text.index("}}") + 1 and shown == []
        assert watcher.result(forced=False) == ("", (call,))
    for text in ('{"answer": 42, "unit": "km"}', '{"name": "not_offered", "parameters": {}}', "{ not json } at all"):
        shown = []
        watcher = ToolCallWatcher(shown.append, enabled=True, names=names)
        assert not any(watcher.feed(ch) for ch in text)
        assert watcher.result(forced=False) == (text, ()) and "".join(shown) == text, "an answer in JSON is shown"


def test_an_mcp_tool_named_like_the_apps_own_or_anothers_is_offered_under_its_servers_name() -> None:
    from mfs_desktop.runtime.mcp_client import McpTool
    from mfs_desktop.services.mcp.toolbox import _named

    named = _named([McpTool("docs", "read_document", ""), McpTool("a", "search", ""), McpTool("b", "search", ""),
                    McpTool("a", "echo", "")])
    assert sorted(named) == ["a__search", "b__search", "docs__read_document", "echo"]
    assert named["docs__read_document"].name == "read_document", "the server is still asked by its own name"
