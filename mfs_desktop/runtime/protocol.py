"""One small protocol for a chat model, and the values that cross it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class SamplingSettings:
    max_tokens: int = 512
    temperature: float = 0.7
    top_p: float = 0.95
    seed: int = 0
    # None: the provider's own default (llama.cpp: top_k 40, min_p 0.05, repeat_penalty 1.0);
    # an endpoint is sent only what was chosen, as OpenAI's own API refuses names it lacks.
    top_k: int | None = None
    min_p: float | None = None
    repeat_penalty: float | None = None
    # Thinking models: "on" / "off" where the template or endpoint takes it, None the model's own
    # default; a cap on the tokens spent thinking (None: only max_tokens); an endpoint's
    # reasoning_effort ("low" / "medium" / "high"), sent only when chosen.
    thinking: str | None = None
    thinking_tokens: int | None = None
    reasoning_effort: str | None = None

    def chosen_extras(self) -> dict[str, float | int]:
        return {name: value for name, value in
                (("top_k", self.top_k), ("min_p", self.min_p), ("repeat_penalty", self.repeat_penalty))
                if value is not None}


@dataclass(frozen=True)
class Usage:
    """Per call. For the embedded model every figure comes from llama.cpp itself."""

    prompt_tokens: int
    prompt_tokens_reused: int
    prompt_tokens_evaluated: int
    completion_tokens: int
    prefill_ms: float
    decode_ms: float
    thinking_tokens: int = 0  # of completion_tokens, those spent thinking
    thinking_ms: float = 0.0  # from the first thought to the answer's first word
    thinking_capped: int = 0  # calls whose thinking reached SamplingSettings.thinking_tokens


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: str  # JSON text as the model wrote it; validated by the tool, never trusted
    call_id: str


@dataclass(frozen=True)
class ChatMessage:
    role: str  # system / user / assistant / tool
    content: str
    tool_call: ToolCall | None = None  # an assistant message that calls a tool
    tool_call_id: str = ""  # a tool message: which call it answers


@dataclass(frozen=True)
class ToolSpec:
    """One tool the model may call: an OpenAI-style function with a JSON schema."""

    name: str
    description: str
    parameters: dict

    def as_openai(self) -> dict:
        return {"type": "function",
                "function": {"name": self.name, "description": self.description, "parameters": self.parameters}}


@dataclass(frozen=True)
class Completion:
    text: str
    # "stop", "length", "cancelled", "tool_call" or "interrupted" (the endpoint failed mid-answer)
    finish_reason: str
    usage: Usage
    tool_calls: tuple[ToolCall, ...] = ()  # every call the answer asked for, in its order
    prompt_reported: bool = True  # usage.prompt_tokens came from the model itself, not an estimate
    thinking: str = ""  # the model's reasoning, apart from `text` (runtime/thinking.py); never sent again

    @property
    def tool_call(self) -> ToolCall | None:
        return self.tool_calls[0] if self.tool_calls else None


TextSink = Callable[[str], None]


def _ignore(_piece: str) -> None:
    pass


@dataclass(frozen=True)
class Sinks:
    """An answer's text sink that also takes the thinking before it, live: pass it wherever a
    TextSink goes; a plain TextSink gets the answer only."""

    text: TextSink
    thinking: TextSink = _ignore

    def __call__(self, piece: str) -> None:
        self.text(piece)


def thinking_sink(on_text: TextSink) -> TextSink:
    """Where the thinking of an answer streaming into `on_text` goes (nowhere for a plain sink)."""
    return on_text.thinking if isinstance(on_text, Sinks) else _ignore


class ChatModel(Protocol):
    name: str
    counts_exactly: bool  # False: count_tokens is an estimate; the exact count comes with each answer

    def count_tokens(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> int:
        """Prompt tokens of these messages (and tool descriptions) as this model will see them:
        exact where the model's own template and tokenizer are at hand."""

    def complete(
        self, messages: Sequence[ChatMessage], settings: SamplingSettings, on_text: TextSink, cancel: threading.Event,
        tools: Sequence[ToolSpec] = (), tool_choice: str = "auto",
    ) -> Completion:
        """Stream the answer into `on_text`; setting `cancel` stops within a token. With
        `tools`, the answer may instead be calls (finish_reason "tool_call"); tool_choice
        "none" keeps the tools described (the prompt prefix stays) but asks for text,
        "required" asks for a call, a tool's name asks for a call of that tool."""
