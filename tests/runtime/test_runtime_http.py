"""The OpenAI-compatible adapter against a real llama.cpp server on loopback, and the
primary/fallback state machine of seed 003 section 9.1 against misbehaving servers."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from http_servers import LlamaServer, MisbehavingServer, content_chunk, free_port, sse

from mfs_desktop.runtime.endpoint_switch import Endpoint, EndpointSwitch
from mfs_desktop.runtime.errors import ProviderError
from mfs_desktop.runtime.openai_http import OpenAICompatibleModel
from mfs_desktop.runtime.protocol import ChatMessage, SamplingSettings, ToolCall

QUESTION = [ChatMessage("user", "What is 2+2? Answer briefly.")]
SHORT = SamplingSettings(max_tokens=12, temperature=0.0)


@pytest.fixture(scope="module")
def llama() -> Iterator[LlamaServer]:
    server = LlamaServer()
    yield server
    server.stop()


@pytest.fixture
def failing() -> Iterator[MisbehavingServer]:
    server = MisbehavingServer(500)
    yield server
    server.stop()


def _ask(model: OpenAICompatibleModel, cancel: threading.Event | None = None, on_text=lambda p: None):
    return model.complete(QUESTION, SHORT, on_text, cancel or threading.Event())


@pytest.mark.parametrize("stream", [True, False])
def test_real_llama_server_answers(llama: LlamaServer, stream: bool) -> None:
    pieces: list[str] = []
    model = OpenAICompatibleModel(EndpointSwitch(Endpoint(llama.url, "smol")), stream=stream)
    completion = _ask(model, on_text=pieces.append)
    assert completion.text.strip() and completion.text == "".join(pieces)
    assert completion.finish_reason in ("stop", "length")
    assert completion.usage.completion_tokens > 0
    if not stream:  # the server's own usage: its template adds a system prompt our estimate cannot know
        assert completion.usage.prompt_tokens > model.count_tokens(QUESTION)
    if stream:
        assert len(pieces) > 1, "the answer must arrive in pieces"


def test_stream_stops_within_a_chunk(llama: LlamaServer) -> None:
    cancel = threading.Event()
    pieces: list[str] = []

    def on_text(piece: str) -> None:
        pieces.append(piece)
        cancel.set()

    model = OpenAICompatibleModel(EndpointSwitch(Endpoint(llama.url, "smol")))
    completion = model.complete([ChatMessage("user", "Tell a long story.")], SamplingSettings(max_tokens=200),
                                on_text, cancel)
    assert completion.finish_reason == "cancelled" and len(pieces) == 1


@pytest.mark.parametrize("stream", [True, False])
@pytest.mark.parametrize("status", [500, 503, 429])
def test_primary_error_switches_to_complete_fallback(llama: LlamaServer, stream: bool, status: int) -> None:
    primary = MisbehavingServer(status)
    events: list[tuple[str, str]] = []
    switch = EndpointSwitch(Endpoint(primary.url, "big", "k1"), Endpoint(llama.url, "smol", "k2"),
                            on_event=lambda kind, reason: events.append((kind, reason)))
    completion = _ask(OpenAICompatibleModel(switch, stream=stream))
    primary.stop()
    assert completion.text.strip()
    assert primary.paths == ["/v1/chat/completions"], "the request must have reached the primary first"
    assert events == [("fallback", f"HTTP {status}")] and switch.active == "fallback"


def test_refused_connection_switches(llama: LlamaServer) -> None:
    refused = Endpoint(f"http://127.0.0.1:{free_port()}/v1", "big", "k")
    events: list[tuple[str, str]] = []
    switch = EndpointSwitch(refused, Endpoint(llama.url, "smol", "k"),
                            on_event=lambda kind, reason: events.append((kind, reason)))
    assert _ask(OpenAICompatibleModel(switch)).text
    assert events == [("fallback", "connection refused")]


def test_incomplete_fallback_is_never_used(llama: LlamaServer, failing: MisbehavingServer) -> None:
    for half in (Endpoint(llama.url, "smol", ""), Endpoint(llama.url, "", "k"), Endpoint("", "smol", "k")):
        events: list[tuple[str, str]] = []
        switch = EndpointSwitch(Endpoint(failing.url, "big", "k"), half,
                                on_event=lambda k, r, seen=events: seen.append((k, r)))
        with pytest.raises(ProviderError, match="HTTP 500"):
            _ask(OpenAICompatibleModel(switch))
        assert events == [] and switch.active == "primary"


def test_client_error_does_not_switch(llama: LlamaServer) -> None:
    bad_request = MisbehavingServer(400)
    switch = EndpointSwitch(Endpoint(bad_request.url, "big", "k"), Endpoint(llama.url, "smol", "k"))
    with pytest.raises(ProviderError, match="HTTP 400"):
        _ask(OpenAICompatibleModel(switch))
    assert switch.active == "primary"
    bad_request.stop()


def test_primary_is_retried_after_cooldown_and_recovery_is_reported(llama: LlamaServer) -> None:
    now = [0.0]
    primary = MisbehavingServer(500)
    events: list[tuple[str, str]] = []
    switch = EndpointSwitch(Endpoint(primary.url, "big", "k"), Endpoint(llama.url, "smol", "k"),
                            retry_primary_after=60.0, on_event=lambda k, r: events.append((k, r)), clock=lambda: now[0])
    model = OpenAICompatibleModel(switch)
    _ask(model)
    now[0] = 30.0
    _ask(model)
    assert len(primary.paths) == 1, "within the cooldown only the fallback is asked"
    now[0] = 61.0
    switch.primary = Endpoint(llama.url, "smol", "k")  # the primary came back
    _ask(model)
    assert events == [("fallback", "HTTP 500"), ("primary", "primary endpoint answers again")]
    primary.stop()


def test_garbage_stream_is_a_plain_error() -> None:
    garbage = MisbehavingServer(mode="garbage")
    with pytest.raises(ProviderError, match="malformed"):
        _ask(OpenAICompatibleModel(EndpointSwitch(Endpoint(garbage.url, "x"))))
    garbage.stop()


def test_cli_chat_through_configured_endpoints(llama: LlamaServer, failing: MisbehavingServer, data_root) -> None:
    import json

    from conftest import run_cli

    saved = run_cli("endpoint", "set", "primary", "--url", failing.url, "--model", "big", "--key-env", "K",
                    data_dir=data_root, K="primary-secret")
    assert saved.returncode == 0, saved.stderr
    assert run_cli("endpoint", "set", "fallback", "--url", llama.url, "--model", "smol", "--key-env", "K",
                   data_dir=data_root, K="fallback-secret").returncode == 0
    shown = run_cli("endpoint", "show", data_dir=data_root)
    assert "key set" in shown.stdout and "secret" not in shown.stdout
    result = run_cli("chat", "--provider", "openai", "--json", "--max-tokens", "8", "hi", data_dir=data_root)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["answer"]
    assert "now using the fallback (HTTP 500)" in result.stderr
    assert failing.paths == ["/v1/chat/completions"]
    for name in data_root.iterdir():
        assert b"primary-secret" not in name.read_bytes(), name


@pytest.fixture(scope="module")
def llama_with_tools() -> Iterator[LlamaServer]:
    server = LlamaServer("--chat_format", "chatml-function-calling")
    yield server
    server.stop()


@pytest.mark.parametrize("stream", [True, False])
def test_tool_call_through_openai_tools(llama_with_tools: LlamaServer, stream: bool) -> None:
    import json

    from mfs_desktop.runtime.tools import TOOLS

    model = OpenAICompatibleModel(EndpointSwitch(Endpoint(llama_with_tools.url, "smol")), stream=stream)
    completion = model.complete([ChatMessage("user", "Remember that my favourite colour is green.")],
                                SamplingSettings(max_tokens=64, temperature=0.0), lambda p: None, threading.Event(),
                                tools=TOOLS, tool_choice="record_value")
    assert completion.finish_reason == "tool_call" and completion.tool_call is not None
    assert completion.tool_call.name == "record_value" and completion.tool_call.call_id
    assert set(json.loads(completion.tool_call.arguments)) == {"key", "value"}


def test_s0_anchor_from_the_servers_usage_counts_the_next_request_closely(llama: LlamaServer, session) -> None:
    """DESIGN section 6 against a real endpoint: its template adds tokens our estimate cannot
    see; anchored on its reported usage, the next request is counted within a few percent."""
    from mfs_desktop.runtime.estimate import estimate_tokens
    from mfs_desktop.services.conversation.chat import ChatService

    model = OpenAICompatibleModel(EndpointSwitch(Endpoint(llama.url, "smol")), stream=False)
    service = ChatService(session, model, provider="openai", use_tools=False,
                          sampling=SamplingSettings(max_tokens=16, temperature=0.0))
    conversation = session.transcript.create_conversation().id
    counted = []
    for question in ("Name a colour.", "Name a fruit that has that colour.", "Which country grows most of it?",
                     "Answer in one word: is it sweet?"):
        result = service.send(conversation, question)
        counted.append((service.last_report.tokens, result.usage.prompt_tokens,
                        estimate_tokens(model_request(service, result.generation_id))))
    service.close()
    mine, real, plain = counted[-1]
    assert abs(mine - real) / real < 0.05, counted
    assert abs(mine - real) < abs(plain - real), "the anchor beats the plain estimate"


def test_s0_no_anchor_from_a_stream_without_usage(llama: LlamaServer, session) -> None:
    """llama-cpp-python's server sends no usage in a stream: that turn is estimated, never anchored."""
    from mfs_desktop.services.conversation.chat import ChatService
    from mfs_desktop.store.anchors import AnchorStore

    model = OpenAICompatibleModel(EndpointSwitch(Endpoint(llama.url, "smol")), stream=True)
    service = ChatService(session, model, provider="openai", use_tools=False,
                          sampling=SamplingSettings(max_tokens=8, temperature=0.0))
    conversation = session.transcript.create_conversation().id
    service.send(conversation, "Name a colour.")
    service.close()
    assert AnchorStore(session.database).load(conversation) is None


def model_request(service, generation_id: str):
    from mfs_desktop.context.snapshot import thaw

    record = service.generations.get(generation_id)
    return thaw(record.snapshot, record.fingerprint).view.messages


# Issue 27 item 2: hostile and broken endpoints scripted on loopback.

DONE = b"data: [DONE]\n\n"


def _scripted(*events: bytes, linger: float = 0.0, pause: float = 0.0) -> MisbehavingServer:
    return MisbehavingServer(mode="stream", events=events, linger=linger, pause=pause)


def test_error_event_after_text_ends_the_answer_interrupted_not_completed() -> None:
    server = _scripted(content_chunk("The "), content_chunk("answer "), content_chunk("is"),
                       sse({"error": {"message": "server overloaded"}}))
    pieces: list[str] = []
    completion = _ask(OpenAICompatibleModel(EndpointSwitch(Endpoint(server.url, "x"))), on_text=pieces.append)
    server.stop()
    assert completion.finish_reason == "interrupted"
    assert completion.text == "The answer is" == "".join(pieces), "what the user saw is kept"


def test_named_error_event_before_text_moves_to_the_fallback(llama: LlamaServer) -> None:
    server = _scripted(sse({"message": "model not loaded"}, event="error"))
    events: list[tuple[str, str]] = []
    switch = EndpointSwitch(Endpoint(server.url, "big", "k"), Endpoint(llama.url, "smol", "k"),
                            on_event=lambda kind, reason: events.append((kind, reason)))
    assert _ask(OpenAICompatibleModel(switch)).text
    server.stop()
    assert events == [("fallback", "error event: model not loaded")]


@pytest.mark.parametrize(("events", "kept"), [
    ((content_chunk("Half "), content_chunk("an answer"), b"event: error\ndata: {}\n\n"), "Half an answer"),
    # Issue 46: a stream that simply ends (no [DONE], no finish reason) was cut, however cleanly it closed
    ((content_chunk("Cut "), content_chunk("short")), "Cut short"),
], ids=["error event", "closed without [DONE]"])
def test_interrupted_stream_is_stored_partial_and_retryable(session, events: tuple[bytes, ...], kept: str) -> None:
    """Through the service: the partial answer is in the transcript, marked partial, never completed."""
    from mfs_desktop.services.conversation.chat import ChatService

    server = _scripted(*events)
    service = ChatService(session, OpenAICompatibleModel(EndpointSwitch(Endpoint(server.url, "x"))),
                          provider="openai", use_tools=False, sampling=SHORT)
    conversation = session.transcript.create_conversation().id
    result = service.send(conversation, "Tell me something.")
    service.close()
    server.stop()
    stored = session.transcript.messages(conversation)
    assert [m.role for m in stored] == ["user", "assistant"]
    assert stored[-1].text == kept and stored[-1].status == "partial"
    assert result.finish_reason == "interrupted"


def test_finish_reason_without_done_is_a_whole_answer() -> None:
    """Servers that send the finish reason and close without [DONE] did finish the answer."""
    server = _scripted(content_chunk("Whole"), sse({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}))
    completion = _ask(OpenAICompatibleModel(EndpointSwitch(Endpoint(server.url, "x"))))
    server.stop()
    assert (completion.text, completion.finish_reason) == ("Whole", "stop")


def test_empty_stream_closed_without_done_moves_to_the_fallback(llama: LlamaServer) -> None:
    server = _scripted()
    events: list[tuple[str, str]] = []
    switch = EndpointSwitch(Endpoint(server.url, "big", "k"), Endpoint(llama.url, "smol", "k"),
                            on_event=lambda kind, reason: events.append((kind, reason)))
    assert _ask(OpenAICompatibleModel(switch)).text
    server.stop()
    assert events == [("fallback", "stream closed before any answer")]


def test_two_interleaved_tool_calls_are_assembled_by_index() -> None:
    def call_delta(index: int, **fields: object) -> bytes:
        return sse({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": index, **fields}]}}]})

    server = _scripted(
        call_delta(0, id="call_a", type="function", function={"name": "record_value", "arguments": ""}),
        call_delta(1, id="call_b", type="function", function={"name": "recall_history", "arguments": ""}),
        call_delta(0, function={"arguments": '{"key": "col'}),
        call_delta(1, function={"arguments": '{"query": "gre'}),
        call_delta(0, function={"arguments": 'our", "value": "green"}'}),
        call_delta(1, function={"arguments": 'en"}'}),
        sse({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}), DONE, linger=30)
    model = OpenAICompatibleModel(EndpointSwitch(Endpoint(server.url, "x")), timeout=20)
    started = time.monotonic()
    completion = _ask(model)
    server.stop()
    assert time.monotonic() - started < 10, "[DONE] ends the turn; the server keeping the socket open must not"
    assert completion.finish_reason == "tool_call"
    assert completion.tool_call == ToolCall("record_value", '{"key": "colour", "value": "green"}', "call_a")


@pytest.mark.parametrize("stream", [True, False])
def test_server_that_never_sends_headers_times_out_to_the_fallback(llama: LlamaServer, stream: bool) -> None:
    hanging = MisbehavingServer(mode="hang")
    events: list[tuple[str, str]] = []
    switch = EndpointSwitch(Endpoint(hanging.url, "big", "k"), Endpoint(llama.url, "smol", "k"),
                            on_event=lambda kind, reason: events.append((kind, reason)))
    started = time.monotonic()
    assert _ask(OpenAICompatibleModel(switch, timeout=1.0, stream=stream)).text
    hanging.stop()
    assert events == [("fallback", "timed out")]
    assert time.monotonic() - started < 4.5, "the hang (5 s) must not be waited out"


def test_stall_mid_answer_after_text_is_interrupted_by_the_read_timeout() -> None:
    server = _scripted(content_chunk("Partial"), linger=5)
    started = time.monotonic()
    completion = _ask(OpenAICompatibleModel(EndpointSwitch(Endpoint(server.url, "x")), timeout=1.0))
    server.stop()
    assert completion.finish_reason == "interrupted" and completion.text == "Partial"
    assert time.monotonic() - started < 4.5


def test_cancel_while_the_server_is_silent_returns_promptly() -> None:
    server = _scripted(content_chunk("Thinking"), linger=10)
    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    started = time.monotonic()
    completion = _ask(OpenAICompatibleModel(EndpointSwitch(Endpoint(server.url, "x")), timeout=30), cancel=cancel)
    server.stop()
    assert completion.finish_reason == "cancelled" and completion.text == "Thinking"
    assert time.monotonic() - started < 3, "cancel must not wait for the next event"


def test_oversized_event_is_a_plain_error() -> None:
    from mfs_desktop.runtime.openai_http import MAX_EVENT_BYTES

    server = _scripted(content_chunk("x" * (MAX_EVENT_BYTES + 10)), DONE)
    with pytest.raises(ProviderError, match="stream event over"):
        _ask(OpenAICompatibleModel(EndpointSwitch(Endpoint(server.url, "x"))))
    server.stop()


def test_answer_over_the_byte_cap_stops_as_length(monkeypatch: pytest.MonkeyPatch) -> None:
    from mfs_desktop.runtime import openai_http

    monkeypatch.setattr(openai_http, "MAX_ANSWER_BYTES", 2000)
    server = _scripted(*(content_chunk("word ") for _ in range(200)), DONE)
    completion = _ask(OpenAICompatibleModel(EndpointSwitch(Endpoint(server.url, "x"))))
    server.stop()
    assert completion.finish_reason == "length"
    assert 0 < len(completion.text) < 200 * len("word ")


@pytest.mark.parametrize("retry_after, cooldown", [("120", 120.0), ("5", 60.0), ("soon", 60.0), ("1e12", 3600.0)])
def test_429_retry_after_sets_how_long_the_primary_rests(llama: LlamaServer, retry_after: str,
                                                         cooldown: float) -> None:
    now = [0.0]
    limited = MisbehavingServer(429, headers={"Retry-After": retry_after})
    switch = EndpointSwitch(Endpoint(limited.url, "big", "k"), Endpoint(llama.url, "smol", "k"),
                            retry_primary_after=60.0, clock=lambda: now[0])
    model = OpenAICompatibleModel(switch)
    _ask(model)
    now[0] = cooldown - 1
    _ask(model)
    assert len(limited.paths) == 1, "the primary rests as long as it asked (within sane bounds)"
    now[0] = cooldown + 1
    _ask(model)
    limited.stop()
    assert len(limited.paths) == 2


def test_429_without_fallback_says_when_to_retry() -> None:
    limited = MisbehavingServer(429, headers={"Retry-After": "30"})
    with pytest.raises(ProviderError, match="retry after 30 s") as raised:
        _ask(OpenAICompatibleModel(EndpointSwitch(Endpoint(limited.url, "x"))))
    limited.stop()
    assert raised.value.retryable


def test_a_trickling_stream_stops_at_the_total_timeout_and_keeps_its_text() -> None:
    server = _scripted(*(content_chunk(f"t{i} ") for i in range(100)), DONE, pause=0.05)
    started = time.monotonic()
    model = OpenAICompatibleModel(EndpointSwitch(Endpoint(server.url, "x")), timeout=2.0, total_timeout=1.0)
    completion = _ask(model)
    server.stop()
    assert completion.finish_reason == "interrupted" and completion.text.startswith("t0 t1 ")
    assert time.monotonic() - started < 3, "each gap is under the read timeout; only the total stops it"
