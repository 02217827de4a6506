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

from dataclasses import dataclass

# (opening, closing) markers, in the order they are looked for.
MARKERS = (("<think>", "</think>"), ("[THINK]", "[/THINK]"))


@dataclass(frozen=True)
class Split:
    answer: str
    thinking: str


def opens_thinking(prompt: str) -> bool:
    """Whether a rendered prompt ends inside an opened thinking tag (the template opened it)."""
    tail = prompt.rstrip()
    return any(tail.endswith(opening) for opening, _ in MARKERS)


class ThinkingSplitter:
    """Feed the model's text piece by piece; each call returns the answer text that is safe to
    show now. A marker cut across pieces is held back until the next piece decides it."""

    def __init__(self, *, thinking_first: bool = False) -> None:
        self._answer: list[str] = []
        self._thinking: list[str] = []
        self._held = ""
        self._closing = MARKERS[0][1] if thinking_first else ""  # inside thinking: the marker that ends it
        self._trim = False  # just out of the thinking: the blank lines models put after it are not the answer

    @property
    def thinking_now(self) -> bool:
        return bool(self._closing)

    def feed(self, piece: str) -> str:
        """The answer text of `piece` (with what was held back), to show now."""
        text, self._held = self._held + piece, ""
        shown: list[str] = []
        while text:
            if self._closing:
                at = text.find(self._closing)
                if at < 0:
                    keep = _partial_suffix(text, (self._closing,))
                    self._thinking.append(text[:len(text) - keep])
                    self._held = text[len(text) - keep:]
                    break
                self._thinking.append(text[:at])
                text, self._closing, self._trim = text[at + len(self._closing):], "", True
                continue
            if self._trim:
                text = text.lstrip("\n")
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
        answer = "".join(shown)
        self._answer.append(answer)
        return answer

    def add_thinking(self, piece: str) -> None:
        """Thinking an endpoint sent apart from the answer (`reasoning_content`)."""
        self._thinking.append(piece)

    def close(self) -> str:
        """The stream has ended: what was held back is settled (a marker never completed is
        text of the part it stood in); returns the answer text still to show."""
        held, self._held = self._held, ""
        if self._closing:
            self._thinking.append(held)
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
