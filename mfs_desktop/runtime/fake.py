"""A scripted fake chat model for tests and for `--provider fake`: deterministic and offline.

Each call takes the next step of the script (or the default echo answer when the script is
empty): text, a tool call, or a scripted failure (exception, hang, garbage, truncation,
HTTP-style error). `MFS_FAKE_SCRIPT` may hold a JSON list of steps for child processes.
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from mfs_desktop.runtime.errors import ProviderError
from mfs_desktop.runtime.estimate import estimate_tokens
from mfs_desktop.runtime.protocol import (
    ChatMessage,
    Completion,
    SamplingSettings,
    TextSink,
    ToolCall,
    ToolSpec,
    Usage,
    thinking_sink,
)
from mfs_desktop.runtime.thinking import ThinkingSplitter


@dataclass(frozen=True)
class Step:
    kind: str  # text | tool_call | error | hang | garbage | truncate | http_error
    text: str = ""
    tool_name: str = ""
    arguments: str = ""
    status: int = 0
    delay: float = 0.0  # seconds between streamed words


def default_answer(messages: Sequence[ChatMessage]) -> str:
    last = next((m.content for m in reversed(messages) if m.role == "user"), "")
    words = last.split()
    return f"(fake model) You said {len(words)} words: {' '.join(words[:12])}"


class FakeModel:
    def __init__(
        self, script: Sequence[Step] = (), *, window: int = 8192, name: str = "fake", remote_token_scale: float = 0.0,
    ) -> None:
        """With `remote_token_scale`, it acts like a remote endpoint: its count is only an
        estimate, and each answer reports the "real" count, the estimate times this scale."""
        self.name = name
        self.counts_exactly = not remote_token_scale
        self.remote_token_scale = remote_token_scale
        self.window = window
        self._script = deque(script)
        self.calls: list[tuple[ChatMessage, ...]] = []
        self.settings_seen: list[SamplingSettings] = []  # what each call was asked with

    @classmethod
    def from_environment(cls) -> FakeModel:
        raw = os.environ.get("MFS_FAKE_SCRIPT")
        return cls([Step(**step) for step in json.loads(raw)] if raw else ())

    def count_tokens(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> int:
        return estimate_tokens(messages, tools)

    def complete(
        self, messages: Sequence[ChatMessage], settings: SamplingSettings, on_text: TextSink, cancel: threading.Event,
        tools: Sequence[ToolSpec] = (), tool_choice: str = "auto",
    ) -> Completion:
        self.calls.append(tuple(messages))
        self.settings_seen.append(settings)
        step = self._script.popleft() if self._script else Step("text", default_answer(messages))
        prompt = self.count_tokens(messages, tools)
        if self.remote_token_scale:
            prompt = math.ceil(prompt * self.remote_token_scale)
        if step.kind == "error":
            raise RuntimeError(step.text or "scripted exception")
        if step.kind == "http_error":
            raise ProviderError(f"HTTP {step.status} from the model endpoint", status=step.status,
                                retryable=step.status >= 500 or step.status == 429)
        if step.kind == "hang":
            cancel.wait(step.delay or 3600.0)
            return self._finish("", "cancelled", prompt, 0)
        if step.kind == "garbage":
            text = "\ufffd\x07{{[[" + "".join(chr(0x2500 + (i * 37) % 200) for i in range(40))
            on_text(text)
            return self._finish(text, "stop", prompt, 40)
        if step.kind == "tool_call" and tools and tool_choice != "none":
            call = ToolCall(step.tool_name, step.arguments, f"call-{len(self.calls)}")
            return Completion("", "tool_call", Usage(prompt, 0, prompt, 8, 0.0, 0.0), (call,))
        pieces = (step.text or default_answer(messages)).split(" ")
        limit = len(pieces) // 2 if step.kind == "truncate" else len(pieces)
        # a scripted "<think>…</think>answer" streams as a thinking model's, one word a token
        splitter = ThinkingSplitter(on_thinking=thinking_sink(on_text))
        finish, sampled, capped = ("length" if step.kind == "truncate" else "stop"), limit, False
        for index, word in enumerate(pieces[:limit]):
            if cancel.is_set():
                finish, sampled = "cancelled", index
                break
            if splitter.thinking_now and settings.thinking_tokens and splitter.thinking_pieces >= \
                    settings.thinking_tokens:  # as the embedded model: the rest of the thought is dropped
                if "</think>" not in word:
                    continue
                capped = True
                splitter.close_thinking()
                word = word.split("</think>", 1)[1]
            shown = splitter.feed(word if index == 0 else " " + word)
            if shown:
                on_text(shown)
            if step.delay:
                time.sleep(step.delay)
        tail = splitter.close()
        if tail:
            on_text(tail)
        usage = splitter.usage_of(Usage(prompt, 0, prompt, sampled, 0.0, 0.0), capped=capped)
        return Completion(splitter.result.answer, finish, usage, thinking=splitter.result.thinking)

    @staticmethod
    def _finish(text: str, finish: str, prompt: int, completion: int) -> Completion:
        return Completion(text, finish, Usage(prompt, 0, prompt, completion, 0.0, 0.0))
