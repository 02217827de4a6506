"""How the embedded model is offered tools and how its calls are read back.

A GGUF's own template may or may not describe tools; this way works with any: the tools are
described in the system prompt and a call is one tagged JSON object, which the watcher holds
back from the stream."""

from __future__ import annotations

import json
from collections.abc import Sequence

import llama_cpp

from mfs_desktop.runtime.protocol import ChatMessage, TextSink, ToolCall, ToolSpec

CALL_OPEN, CALL_CLOSE = "<tool_call>", "</tool_call>"
MAX_CALLS = 16  # of one answer; a model that writes calls without end is stopped by max_tokens anyway


def tool_instructions(tools: Sequence[ToolSpec]) -> str:
    """The template-independent way to offer tools to a GGUF: described in the system prompt,
    called with one tagged JSON object. Constant for a given tool set, so the prefix stays."""
    lines = ["You can call tools. To call one, answer with exactly one line and nothing else:",
             f'{CALL_OPEN}{{"name": "<tool name>", "arguments": {{...}}}}{CALL_CLOSE}', "Tools:"]
    for tool in tools:
        lines.append(f"- {tool.name}: {tool.description} Arguments: {json.dumps(tool.parameters, sort_keys=True)}")
    return "\n".join(lines)


def message_content(message: ChatMessage) -> str:
    if message.tool_call is None:
        return message.content
    call = message.tool_call
    try:
        arguments = json.loads(call.arguments)
    except ValueError:
        arguments = call.arguments
    return CALL_OPEN + json.dumps({"name": call.name, "arguments": arguments}, ensure_ascii=False) + CALL_CLOSE


def call_grammar(tools: Sequence[ToolSpec]) -> llama_cpp.LlamaGrammar:
    """Constrain the answer to one call of one of `tools`, arguments per that tool's schema."""
    schema = {"oneOf": [
        {"type": "object", "properties": {"name": {"const": tool.name}, "arguments": tool.parameters},
         "required": ["name", "arguments"], "additionalProperties": False}
        for tool in tools]}
    return llama_cpp.LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)


class ToolCallWatcher:
    """Streams text through, unless the answer opens with the call tag: then it is held back."""

    def __init__(self, on_text: TextSink, *, enabled: bool) -> None:
        self._on_text = on_text
        self._enabled = enabled
        self._held: list[str] = []
        self.captured: list[str] = []
        self._streaming = not enabled
        self._shown: list[str] = []

    def feed(self, piece: str) -> bool:
        """Pass a piece on; True when the answer should stop: its calls are complete and what
        follows them is not another call (models write several tagged calls one after another)."""
        if not piece:
            return False
        if self._streaming:
            self._show(piece)
            return False
        if self.captured:
            self.captured.append(piece)
            return self._calls_done()
        self._held.append(piece)
        held = "".join(self._held).lstrip()
        if held.startswith(CALL_OPEN):
            self.captured, self._held = [held], []
            return self._calls_done()
        if not CALL_OPEN.startswith(held):
            waiting, self._held = "".join(self._held), []
            self._streaming = True
            self._show(waiting)
        return False

    def _calls_done(self) -> bool:
        body = "".join(self.captured)
        if body.count(CALL_OPEN) > body.count(CALL_CLOSE):
            return False  # inside a call
        after = body.rsplit(CALL_CLOSE, 1)[1].lstrip()  # every call closed: another may be starting
        return bool(after) and not CALL_OPEN.startswith(after)

    def _show(self, text: str) -> None:
        self._shown.append(text)
        self._on_text(text)

    def result(self, forced: bool) -> tuple[str, tuple[ToolCall, ...]]:
        if self._held:  # the answer ended while it still looked like the start of a tag
            self._show("".join(self._held))
        if not self.captured:
            return "".join(self._shown), ()
        body = "".join(self.captured).strip()
        if forced:  # the grammar wrote one call's JSON, untagged
            return "", (_parsed_call(body),)
        # every tagged call, in order; one the answer ended inside of is still a call (its error is the model's)
        bodies = [part.split(CALL_CLOSE, 1)[0] for part in body.split(CALL_OPEN)[1:]]
        return "", tuple(_parsed_call(part) for part in bodies[:MAX_CALLS])


def _parsed_call(body: str) -> ToolCall:
    try:
        parsed = json.loads(body)
        name = str(parsed.get("name", "")) if isinstance(parsed, dict) else ""
        arguments = parsed.get("arguments", {}) if isinstance(parsed, dict) else body
        text_arguments = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    except ValueError:  # garbage from the model: the tool runner turns it into a tool error
        name, text_arguments = "", body
    return ToolCall(name, text_arguments, "")
