"""A thinking model's reasoning, told apart from its answer while the answer streams.

Models mark their thinking in the text they write: `<think>…</think>` (Qwen3, DeepSeek-R1 and
its distills, SmolLM3, GLM), `[THINK]…[/THINK]` (Magistral). Some templates open the tag
themselves at the end of the generation prompt (DeepSeek-R1-Distill's), so the model's text
starts inside the thinking with no opening tag: the splitter is told so and starts there.
Endpoints that parse thinking themselves send it in `reasoning_content` or `reasoning` deltas
instead; those go to `add_thinking` directly.

The answer is what the user reads, what is stored as the message's text, sent again later and
searched; the thinking is kept apart (messages.thinking) and never sent again, as the templates
intend.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from mfs_desktop.runtime.protocol import TextSink, Usage

# (opening, closing) markers, in the order they are looked for.
MARKERS = (("<think>", "</think>"), ("[THINK]", "[/THINK]"))


@dataclass(frozen=True)
class Split:
    answer: str
    thinking: str


def opens_thinking(prompt: str) -> bool:
    """Whether a rendered prompt ends inside an opened thinking tag (the template opened it)."""
    return _opened(prompt) is not None


def _opened(prompt: str) -> str | None:
    tail = prompt.rstrip()
    return next((closing for opening, closing in MARKERS if tail.endswith(opening)), None)


def without_opened_thinking(prompt: str) -> str:
    """A prompt whose template opened the thinking, with that thinking closed empty: the model
    answers at once. It is what Qwen3's own template writes for enable_thinking=false, applied to
    any template that opens the tag (DeepSeek-R1-Distill's has no switch of its own)."""
    closing = _opened(prompt)
    if closing is None:
        return prompt
    return prompt + ("" if prompt.endswith("\n") else "\n") + "\n" + closing + "\n\n"


class ThinkingSplitter:
    """Feed the model's text piece by piece; each call returns the answer text that is safe to
    show now. A marker cut across pieces is held back until the next piece decides it."""

    def __init__(self, *, thinking_first: bool = False, on_thinking: TextSink | None = None) -> None:
        self._answer: list[str] = []
        self._thinking: list[str] = []
        self._held = ""
        self._closing = MARKERS[0][1] if thinking_first else ""  # inside thinking: the marker that ends it
        self._trim = False  # just out of the thinking: the blank lines models put after it are not the answer
        self._on_thinking = on_thinking
        self.thinking_pieces = 0  # pieces that carried thought: tokens, for a model that streams one at a time
        self._began: float | None = None  # the first thought, and the answer's first word after it
        self._ended: float | None = None

    @property
    def thinking_ms(self) -> float:
        if self._began is None:
            return 0.0
        return ((self._ended if self._ended is not None else time.perf_counter()) - self._began) * 1000

    def _thought(self, text: str) -> None:
        if self._began is None:
            self._began = time.perf_counter()
        if text:
            self._thinking.append(text)
            if self._on_thinking is not None:
                self._on_thinking(text)

    def _leave_thinking(self) -> None:
        self._closing, self._trim = "", True
        self._ended = time.perf_counter()

    def close_thinking(self) -> str:
        """End the thinking now (its cap was reached); returns the text that closes it in the
        model's own words, for the model to read before it answers."""
        closing = self._closing
        self._thought(self._held)
        self._held = ""
        self._leave_thinking()
        return "\n" + closing + "\n\n"

    def usage_of(self, usage: Usage, *, capped: bool = False, tokens: int | None = None) -> Usage:
        """`usage` with this answer's thinking figures (`tokens` where the model counted them)."""
        return replace(usage, thinking_tokens=self.thinking_pieces if tokens is None else tokens,
                       thinking_ms=round(self.thinking_ms, 3), thinking_capped=int(capped))

    @property
    def thinking_now(self) -> bool:
        return bool(self._closing)

    def feed(self, piece: str) -> str:
        """The answer text of `piece` (with what was held back), to show now."""
        thought_before = len(self._thinking)
        text, self._held = self._held + piece, ""
        shown: list[str] = []
        while text:
            if self._closing:
                at = text.find(self._closing)
                if at < 0:
                    keep = _partial_suffix(text, (self._closing,))
                    self._thought(text[:len(text) - keep])
                    self._held = text[len(text) - keep:]
                    break
                self._thought(text[:at])
                text = text[at + len(self._closing):]
                self._leave_thinking()
                continue
            if self._trim:
                text = text.lstrip()
                self._trim = not text
                if not text:
                    break
            found = [(text.find(opening), opening, closing) for opening, closing in MARKERS if opening in text]
            if found:
                at, opening, closing = min(found)
                shown.append(text[:at])
                text, self._closing = text[at + len(opening):], closing
                continue
            keep = _partial_suffix(text, tuple(opening for opening, _ in MARKERS))
            shown.append(text[:len(text) - keep])
            self._held = text[len(text) - keep:]
            break
        if len(self._thinking) > thought_before:  # a piece that carried thought counts as one token of it
            self.thinking_pieces += 1
        answer = "".join(shown)
        self._answer.append(answer)
        return answer

    def add_thinking(self, piece: str) -> None:
        """Thinking an endpoint sent apart from the answer (`reasoning_content`)."""
        self.thinking_pieces += 1
        self._thought(piece)

    def close(self) -> str:
        """The stream has ended: what was held back is settled (a marker never completed is
        text of the part it stood in); returns the answer text still to show."""
        held, self._held = self._held, ""
        if self._closing:
            self._thought(held)
            self._ended = time.perf_counter()
            return ""
        self._answer.append(held)
        return held

    @property
    def result(self) -> Split:
        return Split("".join(self._answer), "".join(self._thinking).strip())


def _partial_suffix(text: str, markers: tuple[str, ...]) -> int:
    """How many characters at the end of `text` could begin one of `markers`."""
    longest = 0
    for marker in markers:
        for size in range(min(len(marker) - 1, len(text)), 0, -1):
            if marker.startswith(text[-size:]):
                longest = max(longest, size)
                break
    return longest


def split_thinking(text: str, *, thinking_first: bool = False) -> Split:
    """The whole of a model's text, split at once."""
    splitter = ThinkingSplitter(thinking_first=thinking_first)
    splitter.feed(text)
    splitter.close()
    return splitter.result
