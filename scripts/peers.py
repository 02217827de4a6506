"""The peers' context strategies, for the benchmark only (never in the app's send path), each
at its best settings: what other local chat apps send when a conversation outgrows the window.

- `sliding`: the newest whole turns that fit 0.95 × window (LM Studio's rolling window, Cherry
  Studio's message count);
- `shift`: llama.cpp context shift (GPT4All, Jan): the KV cache keeps the system prompt and,
  when full, drops the oldest half of the rest in place — nothing is prefilled again;
- `rolling`: everything until 0.9 × window, then one summary of all but the newest turn that
  absorbs the previous summary, with the newest user messages kept verbatim up to a budget
  (Codex; Claude Code re-summarises at a similar high-water mark). It uses the same compactor
  as `mfs`.

All of them see the same messages `mfs` sees in `replay` (LoCoMo, first speaker as the user).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mfs_desktop.compaction.compactor import Compactor
from mfs_desktop.context.assembler import DEFAULT_SYSTEM_PROMPT
from mfs_desktop.runtime.protocol import ChatMessage
from mfs_desktop.runtime.tools import TOOLS
from mfs_desktop.services.conversation.replay import locomo_sessions
from mfs_desktop.store.models import Message

SLIDING_SHARE = 0.95
ROLLING_HIGH_WATER = 0.90
ROLLING_SUMMARY_SHARE = 0.10  # the one summary's target
ROLLING_USER_SHARE = 0.10  # newest user messages kept verbatim beside it (Codex keeps ~20k of 272k)


@dataclass(frozen=True)
class Utterance:
    role: str
    text: str
    dia_id: str


def locomo_messages(path: Path) -> list[Utterance]:
    """The messages in `replay`'s order: a conversation starts with the user."""
    document = json.loads(path.read_text(encoding="utf-8"))
    _, sessions = locomo_sessions(path)
    ids = [turn["dia_id"] for number in sorted(int(k.split("_")[1]) for k in document
                                               if k.startswith("session_") and k.count("_") == 1
                                               and isinstance(document[k], list))
           for turn in document[f"session_{number}"]]
    flat = [(role, text) for _, utterances in sessions for role, text in utterances]
    messages: list[Utterance] = []
    for (role, text), dia_id in zip(flat, ids, strict=False):
        if role == "assistant" and not messages:
            continue
        messages.append(Utterance(role, text, dia_id))
    return messages


def system() -> ChatMessage:
    return ChatMessage("system", DEFAULT_SYSTEM_PROMPT)


def as_chat(messages: list[Utterance]) -> list[ChatMessage]:
    return [ChatMessage(m.role, m.text) for m in messages]


class TokenLengths:
    """Each message's tokens in the rendered conversation (template included), from the real
    tokenizer: spans[k] is where message k starts in the whole conversation's token stream."""

    def __init__(self, tokenizer, messages: list[Utterance]) -> None:
        self.spans = [len(tokenizer.prompt_tokens([system()], TOOLS))]
        for index in range(len(messages)):
            self.spans.append(len(tokenizer.prompt_tokens([system(), *as_chat(messages[: index + 1])], TOOLS)))
        self.fixed = self.spans[0]

    def of(self, first: int, last: int) -> int:
        """Tokens of messages first..last-1."""
        return self.spans[last] - self.spans[first]


@dataclass
class Sliding:
    messages: list[Utterance]
    lengths: TokenLengths
    window: int
    name: str = "sliding"

    def request(self, k: int) -> list[ChatMessage]:
        budget = int(SLIDING_SHARE * self.window) - self.lengths.fixed
        starts = [i for i in range(k + 1) if self.messages[i].role == "user"]
        first = k
        for start in reversed(starts):  # whole turns, newest first
            if self.lengths.of(start, k + 1) > budget:
                break
            first = start
        self.first = first
        return [system(), *as_chat(self.messages[first: k + 1])]

    def final_text(self, k: int) -> str:
        return "\n".join(m.content for m in self.request(k))


@dataclass
class Rolling:
    messages: list[Utterance]
    lengths: TokenLengths
    window: int
    compactor: Compactor
    count: Callable[[str], int]  # as `mfs` counts its compactor's budgets
    name: str = "rolling"
    summary_items: list[str] = field(default_factory=list)
    kept_user: list[int] = field(default_factory=list)
    start: int = 0
    compactor_calls: int = 0
    compactor_input_tokens: int = 0

    def _data(self) -> list[ChatMessage]:
        if not self.summary_items:
            return []
        parts = ["[summary of the earlier conversation]", *(f"- {item}" for item in self.summary_items),
                 "[the user's recent messages, verbatim]", *(self.messages[i].text for i in self.kept_user)]
        return [ChatMessage("user", "\n".join(parts))]

    def _assemble(self, k: int) -> list[ChatMessage]:
        return [system(), *self._data(), *as_chat(self.messages[self.start: k + 1])]

    def request(self, k: int, tokenizer=None) -> list[ChatMessage]:
        request = self._assemble(k)
        if tokenizer is not None and len(tokenizer.prompt_tokens(request, TOOLS)) >= ROLLING_HIGH_WATER * self.window:
            self._compact(k, tokenizer)
            request = self._assemble(k)
        return request

    def _compact(self, k: int, tokenizer) -> None:
        """Everything but the newest turn becomes one summary, the previous one absorbed."""
        folded = list(range(self.start, k))
        previous = [_as_message(i, "user", item) for i, item in enumerate(self.summary_items)]
        fresh = [_as_message(n + 1, self.messages[i].role, self.messages[i].text) for n, i in enumerate(folded)]
        target = int(ROLLING_SUMMARY_SHARE * self.window)
        self.compactor_calls += 1
        self.compactor_input_tokens += sum(self.count(m.text) for m in previous + fresh)
        raw = self.compactor.summarize(previous + fresh, target, threading.Event())
        self.summary_items = [item["text"] for item in json.loads(raw)["items"]]
        budget = int(ROLLING_USER_SHARE * self.window)
        kept: list[int] = []
        for index in reversed(self.kept_user + [i for i in folded if self.messages[i].role == "user"]):
            cost = sum(self.lengths.of(j, j + 1) for j in kept) + self.lengths.of(index, index + 1)
            if cost > budget:
                break
            kept.insert(0, index)
        self.kept_user, self.start = kept, k
        if len(tokenizer.prompt_tokens(self._assemble(k), TOOLS)) > SLIDING_SHARE * self.window:
            self.summary_items = self.summary_items[len(self.summary_items) // 2:]  # never over the window

    def final_text(self, k: int) -> str:
        return "\n".join(m.content for m in self._assemble(k))


def _as_message(turn: int, role: str, text: str) -> Message:
    return Message("bench", turn, turn, role, "own", text, "0" * 64, 0.0, 1, "complete", None, None, None, None,
                   None, None, None)


@dataclass
class Shift:
    """Token positions only: what stays in llama.cpp's KV cache after each shift."""

    messages: list[Utterance]
    lengths: TokenLengths
    window: int
    name: str = "shift"
    start: int = 0  # first kept position after the system prompt
    end: int = 0
    shifts: int = 0
    payloads: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.start = self.end = self.lengths.fixed

    def advance(self, k: int) -> None:
        """Message k enters the cache (a user prompt or a generated answer); shift if full."""
        self.end = self.lengths.spans[k + 1]
        while self.lengths.fixed + (self.end - self.start) > self.window:
            self.start += (self.end - self.start) // 2  # n_discard = (n_past - n_keep) / 2
            self.shifts += 1
        if self.messages[k].role == "user":
            self.payloads.append(self.lengths.fixed + (self.end - self.start))

    def final_text(self, k: int) -> str:
        visible = [m for i, m in enumerate(self.messages[: k + 1])
                   if self.lengths.spans[i] >= self.start and self.lengths.spans[i + 1] <= self.end]
        return "\n".join([DEFAULT_SYSTEM_PROMPT, *(m.text for m in visible)])
