"""A model's chat template (Jinja, from the GGUF), rendered so that a hostile one is stopped.

The environment is the one llama-cpp-python and Transformers give templates (an immutable
sandbox, trim/lstrip blocks, loop controls, `{% generation %}` passed through, `tojson`,
`raise_exception`, `strftime_now`), so a template renders here as it does there. Around it:
a time limit per render (`budget.py` stops pure loops), an output limit proportional to the
messages, and caps on the arguments that make C code allocate in one step (`"x" * 10**9`,
`center(10**9)`, `2 ** 10**9`), which no time limit can interrupt. Whatever goes wrong —
a parse error, `raise_exception`, the sandbox, a loop — comes out as `TemplateFailed` with a
plain reason, never as a traceback.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import Any

import jinja2
import jinja2.ext
from jinja2.sandbox import ImmutableSandboxedEnvironment

from mfs_desktop.errors import TemplateUnusable
from mfs_desktop.runtime.budget import OutOfTime, bounded
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

RENDER_SECONDS = 2.0  # a real template renders a long chat in milliseconds
OUTPUT_FLOOR_CHARS = 1 << 20  # the scaffolding a template may add, whatever the messages
OUTPUT_PER_INPUT_CHAR = 4  # …plus this many characters per character of the messages
BIG_ARGUMENT = 1 << 20  # a width or count past this in a call or filter is never layout
MAX_TEMPLATE_CHARS = 1 << 20  # real templates are a few KB; the largest known about 40 KB


class TemplateFailed(Exception):
    """The template cannot render; `str()` is the plain reason."""


class TemplateRefuses(TemplateFailed):
    """The template itself said no (`raise_exception`): usually a message shape it does not take."""


class _TooBig(Exception):
    pass


class _IgnoreGenerationTags(jinja2.ext.Extension):
    """Transformers' `{% generation %}` marks the assistant's part for training; rendering passes it through."""

    tags = {"generation"}

    def parse(self, parser: jinja2.parser.Parser) -> list[jinja2.nodes.Node]:
        parser.stream.skip(1)
        return parser.parse_statements(("name:endgeneration",), drop_needle=True)


def _tojson(value: Any, ensure_ascii: bool = False, indent: int | None = None,
            separators: tuple[str, str] | None = None, sort_keys: bool = False) -> str:
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def _raise_exception(message: str) -> None:
    raise TemplateRefuses(f"the template refuses: {message}")


def _strftime_now(pattern: str) -> str:
    return datetime.now().strftime(pattern)


def _length(value: Any) -> int:
    return len(value) if isinstance(value, (str, bytes, list, tuple, dict)) else 0


def _checked_arguments(args: Sequence[Any], kwargs: Mapping[str, Any]) -> None:
    for value in (*args, *kwargs.values()):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > BIG_ARGUMENT:
            raise _TooBig(f"a call with the number {value:,}")


class _GuardedEnvironment(ImmutableSandboxedEnvironment):
    intercepted_binops = frozenset({"*", "**", "+", "%"})

    def __init__(self) -> None:
        super().__init__(loader=jinja2.BaseLoader(), trim_blocks=True, lstrip_blocks=True,
                         extensions=[_IgnoreGenerationTags, jinja2.ext.loopcontrols])
        self.filters["tojson"] = _tojson
        self.filters = {name: self._bounded(function) for name, function in self.filters.items()}
        self.output_limit = OUTPUT_FLOOR_CHARS

    def parsed(self, source: str) -> jinja2.Template:
        template = self.from_string(source)
        # `~` compiles to a call of `str_join` (or `markup_join`) from the template module's globals, past every
        # hook of the sandbox: a loop doubling a string with it fills the memory between two deadline checks.
        names = template.root_render_func.__globals__
        for name in ("str_join", "markup_join"):
            names[name] = self._bounded(names[name])
        return template

    def _bounded(self, function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)  # keeps jinja's pass_context/pass_environment marks
        def guarded(*args: Any, **kwargs: Any) -> Any:
            _checked_arguments(args, kwargs)
            return self._checked_result(function(*args, **kwargs))

        return guarded

    def _checked_result(self, value: Any) -> Any:
        # One step of growth past the limit is allowed, never a second: doubling stops near twice the limit.
        if _length(value) > self.output_limit:
            raise _TooBig(f"a value of {_length(value):,} characters")
        return value

    def call(self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N807 (jinja's names)
        _checked_arguments(args, kwargs)
        return self._checked_result(super().call(__context, __obj, *args, **kwargs))

    def call_binop(self, context: Any, operator_name: str, left: Any, right: Any) -> Any:
        if operator_name == "*":
            times = right if isinstance(right, int) else left if isinstance(left, int) else 1
            if max(_length(left), _length(right)) * max(times, 0) > self.output_limit:
                raise _TooBig("a repeated string or list")
        elif operator_name == "**":
            if isinstance(right, int) and abs(right) > 4096 and isinstance(left, (int, float)) and abs(left) > 1:
                raise _TooBig("a power too large to compute")
        elif operator_name == "+" and _length(left) + _length(right) > self.output_limit:
            raise _TooBig("a joined string")
        elif operator_name == "%" and isinstance(left, str) and re.search(r"%[-+ #0]*\d{7,}", left):
            raise _TooBig("a format with a huge width")
        return super().call_binop(context, operator_name, left, right)




@dataclass(frozen=True)
class Family:
    name: str
    source: str
    system_role: bool  # False: the system text is folded into the first user message


# Templates of the common families, for a model whose own template cannot be used. Written
# from each family's published prompt format; only the shapes this app sends (system, user,
# assistant, alternating) are covered.
FAMILIES = {
    "chatml": Family("chatml", "{% for m in messages %}{{ '<|im_start|>' + m['role'] + '\n' + m['content'] + "
                               "'<|im_end|>\n' }}{% endfor %}{% if add_generation_prompt %}"
                               "{{ '<|im_start|>assistant\n' }}{% endif %}", True),
    "llama3": Family("llama3", "{{ bos_token }}{% for m in messages %}{{ '<|start_header_id|>' + m['role'] + "
                               "'<|end_header_id|>\n\n' + m['content'] | trim + '<|eot_id|>' }}{% endfor %}"
                               "{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>"
                               "\n\n' }}{% endif %}", True),
    "gemma": Family("gemma", "{{ bos_token }}{% for m in messages %}{{ '<start_of_turn>' + ('model' if m['role'] "
                             "== 'assistant' else m['role']) + '\n' + m['content'] | trim + '<end_of_turn>\n' }}"
                             "{% endfor %}{% if add_generation_prompt %}{{ '<start_of_turn>model\n' }}{% endif %}",
                    False),
    "mistral": Family("mistral", "{{ bos_token }}{% for m in messages %}{% if m['role'] == 'user' %}"
                                 "{{ '[INST] ' + m['content'] + ' [/INST]' }}{% else %}{{ m['content'] + eos_token }}"
                                 "{% endif %}{% endfor %}", False),
    "phi3": Family("phi3", "{% for m in messages %}{{ '<|' + m['role'] + '|>\n' + m['content'] + '<|end|>\n' }}"
                           "{% endfor %}{% if add_generation_prompt %}{{ '<|assistant|>\n' }}{% endif %}", True),
}
# The control tokens that give a family away inside a template or a vocabulary.
_FAMILY_MARKS = (("chatml", "<|im_start|>"), ("llama3", "<|start_header_id|>"), ("gemma", "<start_of_turn>"),
                 ("phi3", "<|assistant|>"), ("mistral", "[INST]"))


def likely_family(text: str) -> str | None:
    """The known family whose control tokens `text` (a template, broken or not) spells, if any."""
    return next((family for family, mark in _FAMILY_MARKS if mark in text), None)


class ChatTemplate:
    """One template, parsed once; `render` is bounded in time and size and raises only `TemplateFailed`."""

    def __init__(self, source: str, *, bos_token: str, eos_token: str, system_role: bool | None = None) -> None:
        if len(source) > MAX_TEMPLATE_CHARS:
            raise TemplateFailed(f"the template is {len(source):,} characters long (at most {MAX_TEMPLATE_CHARS:,})")
        self.source = source
        self._environment = _GuardedEnvironment()
        self._tokens = {"bos_token": bos_token, "eos_token": eos_token}
        self._template = self._guarded(lambda: self._environment.parsed(source))
        self.system_role = system_role if system_role is not None else self._takes_system_role()

    def render(self, messages: Sequence[Mapping[str, str]], *, enable_thinking: bool | None = None,
               tools: Sequence[dict] | None = None) -> str:
        """The prompt for `messages`, opened for the assistant's answer; `enable_thinking` is the
        name Qwen3's templates (and others after them) read, passed only when chosen; `tools`
        (OpenAI-style function specs) for a template that describes tools itself."""
        wire = [dict(m) for m in messages]
        if not self.system_role and wire and wire[0]["role"] == "system":
            system = wire.pop(0)["content"]
            if wire and wire[0]["role"] == "user":
                wire[0] = {"role": "user", "content": system + "\n\n" + wire[0]["content"]}
            else:
                wire.insert(0, {"role": "user", "content": system})
        given = sum(len(m["content"]) for m in wire) + (len(json.dumps(list(tools))) if tools else 0)
        limit = OUTPUT_FLOOR_CHARS + OUTPUT_PER_INPUT_CHAR * given
        self._environment.output_limit = limit
        chosen: dict[str, Any] = {} if enable_thinking is None else {"enable_thinking": enable_thinking}
        if tools:
            chosen["tools"] = list(tools)
        return self._guarded(lambda: self._joined(wire, limit, chosen))

    @cached_property
    def tool_call_form(self) -> str:
        """How this template, given tools, asks the model to call one — in a form the embedded
        model's call watcher reads: "tagged" (`<tool_call>{"name": …, "arguments": …}</tool_call>`:
        Qwen2.5, Qwen3, SmolLM3, EXAONE, Hermes), "bare" (`{"name": function name, "parameters":
        …}`: Llama 3.x), or "" (no tools of its own, or another form: `[TOOL_CALLS]`, channels,
        XML arguments) — then the app's own instructions go in the system prompt. Found by
        rendering a sample tool, not by the model's name."""
        try:
            shown = self.render(sample_conversation(), tools=[SAMPLE_TOOL])
        except TemplateFailed:
            return ""
        if SAMPLE_TOOL_NAME not in shown:
            return ""
        return "tagged" if _TAGGED_CALL.search(shown) else "bare" if _BARE_CALL.search(shown) else ""

    def _joined(self, wire: list[dict[str, str]], limit: int, chosen: dict) -> str:
        pieces, size = [], 0
        # The names llama-cpp-python's formatter passes, so a template sees what it sees there.
        names = {"add_generation_prompt": True, "raise_exception": _raise_exception, "strftime_now": _strftime_now,
                 "tools": None, "tool_choice": None, "functions": None, "function_call": None}
        for piece in self._template.generate(messages=wire, **{**names, **chosen}, **self._tokens):
            size += len(piece)
            if size > limit:
                raise _TooBig(f"more than {limit:,} characters of prompt")
            pieces.append(piece)
        return "".join(pieces)

    def _takes_system_role(self) -> bool:
        """Some templates (Gemma's, Mistral's older ones) refuse a system message; the app then folds it
        into the first user message, as the model was trained to see it."""
        sample = [{"role": "system", "content": "You are helpful."}, {"role": "user", "content": "Hello"}]
        self.system_role = True
        try:
            self.render(sample)
        except TemplateRefuses:
            self.system_role = False
            self.render(sample)  # fails for good if the template refuses the folded shape too
            return False
        return True

    @staticmethod
    def _guarded(work: Callable[[], Any]) -> Any:
        try:
            with bounded(RENDER_SECONDS):  # time only: a model loading meanwhile would look like the template
                return work()
        except TemplateFailed:
            raise
        except OutOfTime:
            raise TemplateFailed(f"the template ran for more than {RENDER_SECONDS:g} s (a loop that does not end)") \
                from None
        except _TooBig as reason:
            raise TemplateFailed(f"the template builds {reason} (refused before it fills the memory)") from None
        except jinja2.TemplateSyntaxError as error:
            raise TemplateFailed(f"the template does not parse (line {error.lineno}: {error.message})") from None
        except jinja2.exceptions.SecurityError as error:
            raise TemplateFailed(f"the template tries something the sandbox forbids ({error})") from None
        except (jinja2.TemplateError, ArithmeticError, LookupError, TypeError, ValueError, AttributeError,
                RecursionError, MemoryError) as error:
            raise TemplateFailed(f"the template fails: {type(error).__name__}: {str(error)[:200]}") from None


SAMPLE_TOOL_NAME = "look_up_sample_zq"  # no real tool is called this: its presence means the template wrote it
SAMPLE_TOOL: dict[str, Any] = {"type": "function", "function": {
    "name": SAMPLE_TOOL_NAME, "description": "Look a word up.",
    "parameters": {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]}}}
_TAGGED_CALL = re.compile(r'<tool_call>\s*\{\s*\\?"name"')
# an instruction showing a call as a bare object whose name is a placeholder, not a tool's JSON
_BARE_CALL = re.compile(r'\{\s*\\?"name\\?"\s*:\s*[^"\s{][^,"]{0,40},\s*\\?"(parameters|arguments)\\?"')


def sample_conversation() -> list[dict[str, str]]:
    """What a template is tried on before a model is chosen: every role the app sends, alternating."""
    return [{"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "Hello! 你好"}, {"role": "assistant", "content": "Hi. How can I help?"},
            {"role": "user", "content": "Name three colours."}]


def template_unusable(path: Path, source: str, reason: str) -> TemplateUnusable:
    """The fault a person reads: which model, why, and the family template to use instead."""
    family = likely_family(source)
    return TemplateUnusable.worded(
        QT_TRANSLATE_NOOP("", "The chat template of {name} cannot be used: {reason}. Use a known family's template "
                              "instead: mfs-desktop models use {path} --template {families} (or Settings › Models)."),
        name=path.name, reason=reason, path=path, families=family or "|".join(FAMILIES))
