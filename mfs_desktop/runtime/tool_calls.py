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
MAX_BARE_CALL_CHARS = 8_000  # a JSON answer longer than this is shown, not held back as a possible call


def tool_instructions(tools: Sequence[ToolSpec]) -> str:
    """The template-independent way to offer tools to a GGUF: described in the system prompt,
    called with one tagged JSON object. Constant for a given tool set, so the prefix stays."""
    lines = ["You can call tools. To call one, answer with exactly one line and nothing else:",
             f'{CALL_OPEN}{{"name": "<tool name>", "arguments": {{...}}}}{CALL_CLOSE}', "Tools:"]
    for tool in tools:
        lines.append(f"- {tool.name}: {tool.description} Arguments: {json.dumps(tool.parameters, sort_keys=True)}")
    return "\n".join(lines)


def message_content(message: ChatMessage, *, bare: bool = False) -> str:
    """A message as the template gets it; an earlier call in the form the model was asked for
    (tagged, or `bare` as Llama 3.x templates ask: {"name": …, "parameters": …})."""
    if message.tool_call is None:
        return message.content
    call = message.tool_call
    try:
        arguments = json.loads(call.arguments)
    except ValueError:
        arguments = call.arguments
    if bare:
        return json.dumps({"name": call.name, "parameters": arguments}, ensure_ascii=False)
    return CALL_OPEN + json.dumps({"name": call.name, "arguments": arguments}, ensure_ascii=False) + CALL_CLOSE


def call_grammar(tools: Sequence[ToolSpec]) -> llama_cpp.LlamaGrammar:
    """Constrain the answer to one call of one of `tools`, arguments per that tool's schema."""
    schema = {"oneOf": [
        {"type": "object", "properties": {"name": {"const": tool.name}, "arguments": tool.parameters},
         "required": ["name", "arguments"], "additionalProperties": False}
        for tool in tools]}
    return llama_cpp.LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)


class ToolCallWatcher:
    """Streams text through, unless the answer opens with the call tag — or with a bare JSON
    object naming one of `names` (what Llama 3.x templates ask for, and what small models write
    when they ignore the tag): then it is held back until it is known to be a call or not."""

    def __init__(self, on_text: TextSink, *, enabled: bool, names: frozenset[str] = frozenset()) -> None:
        self._on_text = on_text
        self._enabled = enabled
        self._names = names
        self._held: list[str] = []
        self.captured: list[str] = []
        self._bare: ToolCall | None = None
        self._streaming = not enabled
        self._shown: list[str] = []

    def feed(self, piece: str) -> bool:
        """Pass a piece on; True when the answer should stop: its calls are complete and what
        follows them is not another call (models write several tagged calls one after another)."""
        if not piece:
            return False
        if self._bare is not None:  # the call is whole; nothing after it is the answer
            return True
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
        if held.startswith("{") and self._names:
            end = _object_end(held)
            if end is None and len(held) < MAX_BARE_CALL_CHARS:
                return False  # an object still open: a call or an answer in JSON, not known yet
            self._bare = _bare_call(held[:end], self._names) if end is not None else None
            if self._bare is not None:
                self._held = []
                return True
        if not CALL_OPEN.startswith(held) or held.startswith("{"):
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
        if self._bare is not None:
            return "", (self._bare,)
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


def _object_end(text: str) -> int | None:
    """Where the JSON object `text` opens with ends (just past its brace), None while open."""
    depth, quoted, escaped = 0, False, False
    for index, char in enumerate(text):
        if quoted:
            escaped, quoted = (not escaped and char == "\\"), quoted and (escaped or char != '"')
            continue
        if char == '"':
            quoted = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index + 1
    return None


def _bare_call(text: str, names: frozenset[str]) -> ToolCall | None:
    """`{"name": N, "parameters"|"arguments": {...}}` naming an offered tool, else None (an
    answer that happens to be JSON stays an answer)."""
    try:
        parsed = json.loads(text)
    except ValueError:
        return None
    if not isinstance(parsed, dict) or parsed.get("name") not in names:
        return None
    arguments = parsed.get("arguments", parsed.get("parameters", {}))
    text_arguments = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return ToolCall(str(parsed["name"]), text_arguments, "")


def _parsed_call(body: str) -> ToolCall:
    try:
        parsed = json.loads(body)
        name = str(parsed.get("name", "")) if isinstance(parsed, dict) else ""
        arguments = parsed.get("arguments", {}) if isinstance(parsed, dict) else body
        text_arguments = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    except ValueError:  # garbage from the model: the tool runner turns it into a tool error
        name, text_arguments = "", body
    return ToolCall(name, text_arguments, "")
