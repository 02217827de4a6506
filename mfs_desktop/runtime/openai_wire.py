"""The JSON of OpenAI's chat API as endpoints send it: messages out, deltas, tool calls,
thinking and usage in. Read defensively: every field may be missing or of another type."""

from __future__ import annotations

from collections.abc import Sequence

from mfs_desktop.runtime.estimate import estimate_text_tokens, estimate_tokens
from mfs_desktop.runtime.protocol import ChatMessage, ToolCall, Usage


def wire_message(message: ChatMessage) -> dict:
    if message.tool_call is not None:
        call = message.tool_call
        return {"role": "assistant", "content": message.content or None,
                "tool_calls": [{"id": call.call_id, "type": "function",
                                "function": {"name": call.name, "arguments": call.arguments}}]}
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    return {"role": message.role, "content": message.content}



def reasoning_of(delta: dict) -> str:
    """Thinking an endpoint parsed itself: llama.cpp server and vLLM send `reasoning_content`,
    Ollama and OpenRouter `reasoning`."""
    value = delta.get("reasoning_content") or delta.get("reasoning")
    return value if isinstance(value, str) else ""



def add_tool_delta(calls: dict[int, dict[str, str]], delta: dict) -> None:
    """Deltas of several calls arrive interleaved; `index` says which call each belongs to."""
    index = delta.get("index", 0)
    part = calls.setdefault(index if isinstance(index, int) else 0, {"id": "", "name": "", "arguments": ""})
    function = delta.get("function") or {}
    part["id"] = delta.get("id") or part["id"]
    part["name"] = function.get("name") or part["name"]
    part["arguments"] += function.get("arguments") or ""



def every_call(calls: dict[int, dict[str, str]]) -> tuple[ToolCall, ...]:
    """The calls a streamed answer asked for, by their `index` (parallel calls come interleaved)."""
    return tuple(ToolCall(calls[i]["name"], calls[i]["arguments"], calls[i]["id"]) for i in sorted(calls)
                 if calls[i]["name"])


def finish_of(reason: str | None, message: dict) -> str:
    if message.get("tool_calls"):
        return "tool_call"
    return reason if reason in ("stop", "length") else "stop"



def tool_calls_of(message: dict) -> tuple[ToolCall, ...]:
    """Every call of a whole (not streamed) answer."""
    found = []
    for call in message.get("tool_calls") or ():
        function = (call.get("function") if isinstance(call, dict) else None) or {}
        found.append(ToolCall(str(function.get("name", "")), str(function.get("arguments", "") or ""),
                              str(call.get("id", ""))))
    return tuple(found)


def usage_from(
    payload: dict, messages: Sequence[ChatMessage], text: str, prefill_ms: float, decode_ms: float,
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


def reasoning_tokens(payload: dict) -> int | None:
    """Of the completion tokens, those the endpoint counted as thinking (OpenAI's and vLLM's
    completion_tokens_details), when it says."""
    details = (payload.get("usage") or {}).get("completion_tokens_details") or {}
    value = details.get("reasoning_tokens") if isinstance(details, dict) else None
    return value if isinstance(value, int) and value >= 0 else None
