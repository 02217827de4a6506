"""OpenAI-compatible HTTP endpoints (llama.cpp server, vLLM, Ollama …) with a fallback.

The endpoint state machine follows seed 003 section 9.1: a 5xx, a 429, a refused connection
or a timeout on the primary — in the streaming and in the non-streaming path alike — moves
to the fallback, which is used only when its url, model and key are all set (half a fallback
is more dangerous than none). After `retry_primary_after` seconds the primary is tried again.
A stream that already delivered text is never replayed on another endpoint: the partial
answer is an error to show, not something to repeat. Every switch is reported (invariant 11).
"""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from mfs_desktop.runtime.errors import ProviderError
from mfs_desktop.runtime.estimate import estimate_text_tokens, estimate_tokens
from mfs_desktop.runtime.protocol import ChatMessage, Completion, SamplingSettings, TextSink, ToolCall, ToolSpec, Usage



@dataclass(frozen=True)
class Endpoint:
    url: str  # base URL, e.g. http://127.0.0.1:8080/v1
    model: str
    api_key: str = ""

    @property
    def complete(self) -> bool:
        return bool(self.url and self.model and self.api_key)


EndpointEvent = Callable[[str, str], None]
"""Called with ("fallback", reason) or ("primary", reason) whenever the active endpoint changes."""


class EndpointSwitch:
    def __init__(
        self, primary: Endpoint, fallback: Endpoint | None = None, *, retry_primary_after: float = 60.0,
        on_event: EndpointEvent | None = None, clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.primary = primary
        self.fallback = fallback if fallback is not None and fallback.complete else None
        self.retry_primary_after = retry_primary_after
        self._on_event = on_event or (lambda kind, reason: None)
        self._clock = clock
        self._lock = threading.Lock()
        self._on_fallback_since: float | None = None

    @property
    def active(self) -> str:
        with self._lock:
            return "primary" if self._on_fallback_since is None else "fallback"

    def candidates(self) -> list[tuple[str, Endpoint]]:
        with self._lock:
            primary_due = (self._on_fallback_since is None
                           or self._clock() - self._on_fallback_since >= self.retry_primary_after)
        order = [("primary", self.primary)] if primary_due or self.fallback is None else []
        if self.fallback is not None:
            order.append(("fallback", self.fallback))
        return order

    def failed(self, which: str, reason: str) -> None:
        if which != "primary" or self.fallback is None:
            return
        with self._lock:
            switched = self._on_fallback_since is None
            self._on_fallback_since = self._clock()
        if switched:
            self._on_event("fallback", reason)

    def succeeded(self, which: str) -> None:
        if which != "primary":
            return
        with self._lock:
            recovered = self._on_fallback_since is not None
            self._on_fallback_since = None
        if recovered:
            self._on_event("primary", "primary endpoint answers again")


class _Switchable(Exception):
    """A failure that moves to the fallback: 5xx, 429, refused connection, timeout."""


class OpenAICompatibleModel:
    def __init__(self, switch: EndpointSwitch, *, timeout: float = 120.0, stream: bool = True) -> None:
        self.switch = switch
        self.timeout = timeout
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

        def sink(piece: str) -> None:
            streamed.append(piece)
            on_text(piece)

        last_error = "no endpoint configured"
        for which, endpoint in self.switch.candidates():
            try:
                completion = self._call(endpoint, messages, settings, sink, cancel, tools, tool_choice)
            except _Switchable as exc:
                last_error = f"{which} endpoint: {exc}"
                if streamed:  # text already reached the user: do not replay it elsewhere
                    raise ProviderError(f"The model endpoint failed mid-answer ({exc}).", retryable=True) from None
                self.switch.failed(which, str(exc))
                continue
            self.switch.succeeded(which)
            return completion
        raise ProviderError(f"No model endpoint answered ({last_error}).", retryable=True)

    def _call(
        self, endpoint: Endpoint, messages: Sequence[ChatMessage], settings: SamplingSettings, sink: TextSink,
        cancel: threading.Event, tools: Sequence[ToolSpec], tool_choice: str,
    ) -> Completion:
        body: dict = {
            "model": endpoint.model,
            "messages": [_wire_message(m) for m in messages],
            "max_tokens": settings.max_tokens,
            "temperature": settings.temperature,
            "top_p": settings.top_p,
            "seed": settings.seed,
            "stream": self.stream,
        }
        if self.stream:
            body["stream_options"] = {"include_usage": True}
        if tools:
            body["tools"] = [tool.as_openai() for tool in tools]
            named = tool_choice in {tool.name for tool in tools}
            body["tool_choice"] = {"type": "function", "function": {"name": tool_choice}} if named else tool_choice
        request = urllib.request.Request(
            endpoint.url.rstrip("/") + "/chat/completions", data=json.dumps(body).encode("utf-8"), method="POST",
            headers={"Content-Type": "application/json", "Accept": "text/event-stream" if self.stream else "application/json",
                     **({"Authorization": f"Bearer {endpoint.api_key}"} if endpoint.api_key else {})},
        )
        started = time.perf_counter()
        try:
            response = urllib.request.urlopen(request, timeout=self.timeout)
        except urllib.error.HTTPError as exc:
            if exc.code >= 500 or exc.code == 429:
                raise _Switchable(f"HTTP {exc.code}") from None
            raise ProviderError(f"The model endpoint refused the request: HTTP {exc.code}.", status=exc.code) from None
        except (urllib.error.URLError, ConnectionError, socket.timeout, TimeoutError) as exc:
            raise _Switchable(_reason(exc)) from None
        with response:
            try:
                if self.stream:
                    return self._read_stream(response, messages, sink, cancel, started)
                return self._read_whole(response, messages, sink, started)
            except (ConnectionError, socket.timeout, TimeoutError) as exc:
                raise _Switchable(_reason(exc)) from None

    def _read_whole(self, response, messages, sink: TextSink, started: float) -> Completion:
        try:
            payload = json.loads(response.read().decode("utf-8"))
            choice = payload["choices"][0]
            message = choice["message"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise ProviderError(f"The model endpoint sent a malformed answer ({type(exc).__name__}).") from None
        text = message.get("content") or ""
        if text:
            sink(text)
        elapsed = (time.perf_counter() - started) * 1000
        usage, reported = self._usage(payload, messages, text, elapsed, 0.0)
        return Completion(text, _finish(choice.get("finish_reason"), message), usage, _tool_call(message), reported)

    def _read_stream(self, response, messages, sink: TextSink, cancel: threading.Event, started: float) -> Completion:
        pieces: list[str] = []
        finish = "stop"
        last_payload: dict = {}
        tool_parts: dict[str, str] = {}
        first_token_at: float | None = None
        for payload in _sse_events(response):
            if cancel.is_set():
                finish = "cancelled"
                break
            if payload.get("usage") or payload.get("timings"):
                last_payload = payload
            for choice in payload.get("choices") or ():
                delta = choice.get("delta") or {}
                content = delta.get("content")
                if content:
                    first_token_at = first_token_at or time.perf_counter()
                    pieces.append(content)
                    sink(content)
                for call in delta.get("tool_calls") or ():
                    function = call.get("function") or {}
                    tool_parts["id"] = call.get("id") or tool_parts.get("id", "")
                    tool_parts["name"] = function.get("name") or tool_parts.get("name", "")
                    tool_parts["arguments"] = tool_parts.get("arguments", "") + (function.get("arguments") or "")
                if choice.get("finish_reason"):
                    finish = choice["finish_reason"]
        text = "".join(pieces)
        call = ToolCall(tool_parts["name"], tool_parts.get("arguments", ""), tool_parts.get("id", "")) \
            if tool_parts.get("name") else None
        if call is not None and finish != "cancelled":
            finish = "tool_call"
        elif finish not in ("stop", "length", "cancelled"):
            finish = "stop"
        ended = time.perf_counter()
        prefill_ms = ((first_token_at or ended) - started) * 1000
        decode_ms = (ended - (first_token_at or ended)) * 1000
        usage, reported = self._usage(last_payload, messages, text, prefill_ms, decode_ms)
        return Completion(text, finish, usage, call, reported)

    def _usage(
        self, payload: dict, messages: Sequence[ChatMessage], text: str, prefill_ms: float, decode_ms: float,
    ) -> tuple[Usage, bool]:
        """The endpoint's own figures where it sends them (usage; llama.cpp's timings), else
        estimates; the flag says whether the prompt count is the endpoint's own."""
        usage = payload.get("usage") or {}
        timings = payload.get("timings") or {}
        reported = int(usage.get("prompt_tokens") or timings.get("prompt_n", 0) + timings.get("cache_n", 0))
        prompt = reported or estimate_tokens(messages)
        completion = int(usage.get("completion_tokens") or timings.get("predicted_n")
                         or estimate_text_tokens(text))
        reused = int((usage.get("prompt_tokens_details") or {}).get("cached_tokens") or timings.get("cache_n") or 0)
        return Usage(prompt, reused, prompt - reused, completion,
                     round(float(timings.get("prompt_ms", prefill_ms)), 3),
                     round(float(timings.get("predicted_ms", decode_ms)), 3)), reported > 0


def _wire_message(message: ChatMessage) -> dict:
    if message.tool_call is not None:
        call = message.tool_call
        return {"role": "assistant", "content": message.content or None,
                "tool_calls": [{"id": call.call_id, "type": "function",
                                "function": {"name": call.name, "arguments": call.arguments}}]}
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    return {"role": message.role, "content": message.content}


def _reason(exc: BaseException) -> str:
    inner = getattr(exc, "reason", exc)
    if isinstance(inner, (socket.timeout, TimeoutError)):
        return "timed out"
    if isinstance(inner, ConnectionRefusedError):
        return "connection refused"
    return f"connection failed ({type(inner).__name__})"


def _sse_events(response) -> Iterator[dict]:
    for raw in response:
        line = raw.decode("utf-8", "replace").strip()
        if not line.startswith("data:"):
            continue
        data = line[5:].strip()
        if data == "[DONE]":
            return
        try:
            yield json.loads(data)
        except ValueError:
            raise ProviderError("The model endpoint sent malformed stream data.") from None


def _finish(reason: str | None, message: dict) -> str:
    if message.get("tool_calls"):
        return "tool_call"
    return reason if reason in ("stop", "length") else "stop"


def _tool_call(message: dict) -> ToolCall | None:
    calls = message.get("tool_calls") or []
    if not calls:
        return None
    function = calls[0].get("function") or {}
    return ToolCall(function.get("name", ""), function.get("arguments", "") or "", calls[0].get("id", ""))
