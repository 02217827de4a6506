"""OpenAI-compatible HTTP endpoints (llama.cpp server, vLLM, Ollama …) through httpx and
httpx-sse, with the primary/fallback switch of endpoint_switch.py.

A 5xx, a 429, a refused connection or a timeout on the primary — in the streaming and in the
non-streaming path alike — moves to the fallback. A stream that already delivered text is
never replayed on another endpoint: what arrived is kept as a partial answer.
"""

from __future__ import annotations

import email.utils
import json
import logging
import math
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import replace
from datetime import UTC, datetime

import httpx
from httpx_sse import EventSource, SSEError, connect_sse

from mfs_desktop.runtime.endpoint_switch import MAX_REST, Endpoint, EndpointSwitch
from mfs_desktop.runtime.errors import ProviderError
from mfs_desktop.runtime.estimate import estimate_text_tokens, estimate_tokens
from mfs_desktop.runtime.openai_wire import (
    add_tool_delta,
    every_call,
    finish_of,
    reasoning_of,
    reasoning_tokens,
    tool_calls_of,
    usage_from,
    wire_message,
)
from mfs_desktop.runtime.protocol import (
    ChatMessage,
    Completion,
    SamplingSettings,
    Sinks,
    TextSink,
    ToolSpec,
    thinking_sink,
)
from mfs_desktop.runtime.thinking import ThinkingSplitter, split_thinking
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 10.0  # seconds; a loopback or LAN server accepts at once or is not there
# A stream is far below these; above them an endpoint is broken or hostile, and memory is ours.
MAX_EVENT_BYTES = 1 << 20
MAX_ANSWER_BYTES = 16 << 20
_MALFORMED_STREAM = QT_TRANSLATE_NOOP("", "The model endpoint sent malformed stream data.")


class _Switchable(Exception):
    """A failure that moves to the fallback: 5xx, 429, refused connection, timeout."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.retry_after = retry_after


class OpenAICompatibleModel:
    def __init__(self, switch: EndpointSwitch, *, timeout: float = 120.0, stream: bool = True,
                 total_timeout: float = 1800.0) -> None:
        """`timeout` bounds each wait (a prefill, the gap between events); `total_timeout` the
        whole answer, since a server trickling one token a minute never trips a read timeout."""
        self.switch = switch
        self.timeout = timeout
        self.total_timeout = total_timeout
        self.stream = stream
        self.name = switch.primary.model
        self.counts_exactly = False

    def count_tokens(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> int:
        """An estimate: the endpoint's own count arrives as `usage` with each answer."""
        return estimate_tokens(messages, tools)

    def complete(
        self, messages: Sequence[ChatMessage], settings: SamplingSettings, on_text: TextSink, cancel: threading.Event,
        tools: Sequence[ToolSpec] = (), tool_choice: str = "auto",
    ) -> Completion:
        streamed: list[str] = []

        def shown(piece: str) -> None:
            streamed.append(piece)
            on_text(piece)

        def thought(piece: str) -> None:  # thinking the user saw is not replayed elsewhere either
            streamed.append(piece)
            thinking_sink(on_text)(piece)

        sink = Sinks(shown, thought)

        last_error = "no endpoint configured"
        for which, endpoint in self.switch.candidates():
            try:
                completion = self._call(endpoint, messages, settings, sink, cancel, tools, tool_choice)
            except _Switchable as exc:
                last_error = f"{which} endpoint: {exc}"
                if exc.retry_after is not None:
                    last_error += f"; retry after {exc.retry_after:.0f} s"
                if streamed:  # text already reached the user: do not replay it elsewhere
                    raise _provider_error(QT_TRANSLATE_NOOP("", "The model endpoint failed mid-answer ({reason})."),
                                          reason=str(exc), retryable=True) from None
                self.switch.failed(which, str(exc), exc.retry_after)
                continue
            self.switch.succeeded(which)
            return completion
        raise _provider_error(QT_TRANSLATE_NOOP("", "No model endpoint answered ({reason})."), reason=last_error,
                              retryable=True)

    def _call(
        self, endpoint: Endpoint, messages: Sequence[ChatMessage], settings: SamplingSettings, sink: TextSink,
        cancel: threading.Event, tools: Sequence[ToolSpec], tool_choice: str,
    ) -> Completion:
        body: dict = {
            "model": endpoint.model,
            "messages": [wire_message(m) for m in messages],
            "max_tokens": settings.max_tokens,
            "temperature": settings.temperature,
            "top_p": settings.top_p,
            "seed": settings.seed,
            "stream": self.stream,
            **settings.chosen_extras(),
        }
        if settings.thinking is not None:  # llama.cpp server and vLLM hand it to the template
            body["chat_template_kwargs"] = {"enable_thinking": settings.thinking == "on"}
        if settings.reasoning_effort is not None:
            body["reasoning_effort"] = settings.reasoning_effort
        if self.stream:
            body["stream_options"] = {"include_usage": True}
        if tools:
            body["tools"] = [tool.as_openai() for tool in tools]
            named = tool_choice in {tool.name for tool in tools}
            body["tool_choice"] = {"type": "function", "function": {"name": tool_choice}} if named else tool_choice
        url = endpoint.url.rstrip("/") + "/chat/completions"
        headers = {"Authorization": f"Bearer {endpoint.api_key}"} if endpoint.api_key else {}
        started = time.perf_counter()
        try:
            with httpx.Client(timeout=self._timeouts()) as client:
                if not self.stream:
                    response = client.post(url, json=body, headers=headers)
                    _refuse_status(response)
                    return self._read_whole(response, messages, sink, started)
                with connect_sse(client, "POST", url, json=body, headers=headers) as source:
                    _refuse_status(source.response)
                    with _unblocked_on_cancel(source.response, cancel):
                        return self._read_stream(source, messages, sink, cancel, started, settings.thinking_tokens)
        except httpx.TransportError as exc:  # before any text: the stream reader keeps what arrived
            raise _Switchable(_reason(exc)) from None

    def _timeouts(self) -> httpx.Timeout:
        """Connecting is quick or never; a read may wait for a long prefill on a slow machine."""
        return httpx.Timeout(self.timeout, connect=min(self.timeout, CONNECT_TIMEOUT))

    def _read_whole(self, response: httpx.Response, messages, sink: TextSink, started: float) -> Completion:
        if len(response.content) > MAX_ANSWER_BYTES:
            raise ProviderError.worded(QT_TRANSLATE_NOOP("", "The model endpoint sent an answer over {limit:,} bytes."),
                                       limit=MAX_ANSWER_BYTES)
        try:
            payload = response.json()
            choice = payload["choices"][0]
            message = choice["message"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise ProviderError.worded(QT_TRANSLATE_NOOP("", "The model endpoint sent a malformed answer ({kind})."),
                                       kind=type(exc).__name__) from None
        split = split_thinking(str(message.get("content") or ""))
        text, thinking = split.answer, reasoning_of(message) + split.thinking
        if text:
            sink(text)
        elapsed = (time.perf_counter() - started) * 1000
        usage, reported = usage_from(payload, messages, text, elapsed, 0.0)
        counted = reasoning_tokens(payload)
        usage = replace(usage, thinking_tokens=estimate_text_tokens(thinking) if counted is None else counted)
        return Completion(text, finish_of(choice.get("finish_reason"), message), usage, tool_calls_of(message),
                          reported,
                          thinking.strip())

    def _read_stream(self, source: EventSource, messages, sink: TextSink, cancel: threading.Event,
                     started: float, cap: int | None) -> Completion:
        """Text that reached the user is kept whatever ends the stream: an error event or a
        broken connection after it gives finish "interrupted" (stored partial, retryable),
        never a completed answer; before it, the failure moves to the fallback. An endpoint
        cannot be told to stop thinking mid-stream: at `cap` thinking tokens the stream is
        closed (finish "length", no answer) and the notice says so."""
        pieces: list[str] = []
        finish = "stop"
        last_payload: dict = {}
        calls: dict[int, dict[str, str]] = {}
        first_token_at: float | None = None
        size = 0
        server_finished = False
        ended_cleanly: list[bool] = []
        # thinking comes as reasoning deltas, or as tags inside the content
        splitter = ThinkingSplitter(on_thinking=thinking_sink(sink))
        capped = False
        try:
            for payload, event_size in _stream_payloads(source, ended_cleanly):
                if cancel.is_set():
                    finish = "cancelled"
                    break
                if payload.get("usage") or payload.get("timings"):
                    last_payload = payload
                for choice in payload.get("choices") or ():
                    delta = choice.get("delta") or {}
                    reasoning = reasoning_of(delta)
                    if reasoning:
                        first_token_at = first_token_at or time.perf_counter()
                        splitter.add_thinking(reasoning)
                    content = splitter.feed(str(delta.get("content") or ""))
                    if content:
                        first_token_at = first_token_at or time.perf_counter()
                        pieces.append(content)
                        sink(content)
                    for call in delta.get("tool_calls") or ():
                        add_tool_delta(calls, call)
                    if choice.get("finish_reason"):
                        finish = choice["finish_reason"]
                        server_finished = True
                    capped = cap is not None and 0 < cap <= splitter.thinking_pieces and not pieces and not calls
                if capped and not server_finished:
                    finish = "length"
                    break
                size += event_size
                if size > MAX_ANSWER_BYTES:
                    finish = "length"
                    break
                if time.perf_counter() - started > self.total_timeout:
                    log.warning("answer stopped at the total timeout (%.0f s) after %d pieces", self.total_timeout,
                                len(pieces))
                    finish = "interrupted"
                    break
        except (httpx.TransportError, httpx.StreamError, _Switchable) as exc:
            if cancel.is_set():  # the watcher broke the read: the user stopped, the endpoint did not fail
                finish = "cancelled"
            elif not pieces and not calls:
                raise exc if isinstance(exc, _Switchable) else _Switchable(_reason(exc)) from None
            else:
                log.warning("stream interrupted after %d pieces: %s", len(pieces), exc)
                finish = "interrupted"
        tail = splitter.close()
        if tail:
            pieces.append(tail)
            sink(tail)
        if cancel.is_set() and not server_finished:  # the watcher's shutdown can also read as a clean end
            finish = "cancelled"
        elif finish == "stop" and not (server_finished or ended_cleanly):
            # A stream closed without [DONE] and without a finish reason was cut, however cleanly the socket
            # closed: a proxy restart or a crashed server looks like this, and the answer is not whole.
            log.warning("stream closed without [DONE] or a finish reason after %d pieces", len(pieces))
            if not pieces and not calls:
                raise _Switchable("stream closed before any answer")
            finish = "interrupted"
        text = "".join(pieces)
        found = every_call(calls) if finish != "interrupted" else ()
        if found and finish != "cancelled":
            finish = "tool_call"
        elif finish not in ("stop", "length", "cancelled", "interrupted"):
            finish = "stop"
        ended = time.perf_counter()
        prefill_ms = ((first_token_at or ended) - started) * 1000
        decode_ms = (ended - (first_token_at or ended)) * 1000
        usage, reported = usage_from(last_payload, messages, text, prefill_ms, decode_ms)
        usage = splitter.usage_of(usage, capped=capped, tokens=reasoning_tokens(last_payload))
        return Completion(text, finish, usage, found, reported, splitter.result.thinking)


@contextmanager
def _unblocked_on_cancel(response: httpx.Response, cancel: threading.Event) -> Iterator[None]:
    """A silent server (a long prefill, a stall) blocks the read until the read timeout;
    cancel must not wait for it. Shutting the socket down wakes the blocked read at once."""
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            if cancel.wait(0.05):
                stream = response.extensions.get("network_stream")
                sock = stream.get_extra_info("socket") if stream is not None else None
                if sock is not None:
                    with suppress(OSError):
                        sock.shutdown(socket.SHUT_RDWR)
                return

    watcher = threading.Thread(target=watch, name="http-cancel", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()


def _refuse_status(response: httpx.Response) -> None:
    if response.status_code < 400:
        return
    response.read()
    if response.status_code >= 500 or response.status_code == 429:
        raise _Switchable(f"HTTP {response.status_code}", _retry_after(response.headers.get("Retry-After")))
    raise _provider_error(QT_TRANSLATE_NOOP("", "The model endpoint refused the request: HTTP {code}."),
                          code=response.status_code, status=response.status_code)


def _provider_error(template: str, *, retryable: bool = False, status: int | None = None,
                    **values: object) -> ProviderError:
    """`ProviderError.worded` (the window translates `template`) with the error's own flags."""
    error = ProviderError.worded(template, **values)
    error.retryable, error.status = retryable, status
    return error


def _retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header (delay-seconds or an HTTP date); None when absent or unreadable."""
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            seconds = (email.utils.parsedate_to_datetime(value) - datetime.now(UTC)).total_seconds()
        except (TypeError, ValueError):
            return None
    return min(max(seconds, 0.0), MAX_REST) if math.isfinite(seconds) else None


def _reason(exc: BaseException) -> str:
    if isinstance(exc, httpx.TimeoutException):
        return "timed out"
    cause: BaseException | None = exc
    while cause is not None:  # httpx wraps httpcore's error, which wraps the socket's
        if isinstance(cause, ConnectionRefusedError):
            return "connection refused"
        cause = cause.__cause__ or cause.__context__
    return f"connection failed ({type(exc).__name__})"


def _stream_payloads(source: EventSource, ended_cleanly: list[bool]) -> Iterator[tuple[dict, int]]:
    """The JSON of each data event, with its size, until [DONE] (then `ended_cleanly` gets True). An error
    event (OpenAI's `{"error": …}` data or an `event: error`) is a failure of the endpoint, not more answer."""
    try:
        for event in source.iter_sse():
            if len(event.data) > MAX_EVENT_BYTES:
                raise ProviderError.worded(QT_TRANSLATE_NOOP("", "The model endpoint sent a stream event over "
                                                                 "{limit:,} bytes."), limit=MAX_EVENT_BYTES)
            if event.data.strip() == "[DONE]":
                ended_cleanly.append(True)
                return
            if not event.data.strip():
                continue
            try:
                payload = json.loads(event.data)
            except ValueError:
                raise ProviderError(_MALFORMED_STREAM) from None
            if not isinstance(payload, dict):
                raise ProviderError(_MALFORMED_STREAM)
            if event.event == "error" or payload.get("error"):
                raise _Switchable(f"error event: {_error_message(payload)}")
            yield payload, len(event.data)
    except SSEError:
        raise ProviderError(QT_TRANSLATE_NOOP("", "The model endpoint did not answer with an event stream.")) from None


def _error_message(payload: dict) -> str:
    error = payload.get("error", payload)
    message = error.get("message") if isinstance(error, dict) else error
    return str(message or "unspecified")[:200]

