"""Compactors: what turns a range of messages into guide items (JSON, verified afterwards).

- `ExtractiveCompactor`: deterministic and model-free (the "fake" of tests and replays).
- `ModelCompactor`: an embedded llama.cpp context of its own (never the chat context),
  grammar-constrained to the item schema narrowed per call: `source_turns` is an enum of the
  range's turns, the item count is bounded — otherwise a small model counts 1, 2, 3 … until
  it is cut off (seen with the bundled 135M model).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Sequence
from typing import Protocol

from mfs_desktop.compaction.facts import pieces
from mfs_desktop.compaction.segments import compactor_input
from mfs_desktop.runtime.protocol import ChatMessage, SamplingSettings
from mfs_desktop.store.models import Message

COMPACTOR_PROMPT = (
    "You compress part of a chat into a short guide for later. Write a flat list of items; each item is one "
    "short sentence about what was said, decided or done, and cites the turns it comes from. Keep names, "
    "numbers and paths exactly. Answer with JSON only."
)


class Compactor(Protocol):
    name: str

    def summarize(self, messages: Sequence[Message], target_tokens: int, cancel: threading.Event) -> str:
        """Raw JSON text `{"items": [{"text": …, "source_turns": […]}]}`; verified by the caller."""


class ExtractiveCompactor:
    """No model: the range's most informative sentences, both speakers, cited, up to the target.

    A sentence scores for names, numbers and substance; questions and short pleasantries
    score low. The user's own words are also kept verbatim in the segment's quote track, so
    the guide is where the assistant's side survives."""

    name = "extractive"

    def __init__(self, count: Callable[[str], int]) -> None:
        self._count = count

    def summarize(self, messages: Sequence[Message], target_tokens: int, cancel: threading.Event) -> str:
        candidates = []  # (score, order, role, sentence, turn)
        for message in messages:
            if message.role not in ("user", "assistant") or not message.text:
                continue
            for sentence in pieces(message.text):
                sentence = sentence.strip()[:SENTENCE_CHARS]
                candidates.append((-informative(sentence), len(candidates), message.role, sentence,
                                   message.turn_ordinal))
        chosen: list[tuple[int, dict]] = []
        seen: set[str] = set()
        used = 2
        for _, order, role, sentence, turn in sorted(candidates):
            text = f"{role}: {sentence}"
            cost = self._count(text) + 12
            if text in seen or (chosen and used + cost > target_tokens):
                continue
            seen.add(text)
            chosen.append((order, {"text": text, "source_turns": [turn]}))
            used += cost
        return json.dumps({"items": [item for _, item in sorted(chosen)]}, ensure_ascii=False)


SENTENCE_CHARS = 200
_NAME = re.compile(r"(?<=\s)[A-Z][a-z]+")
_DIGITS = re.compile(r"\d+")


def informative(sentence: str) -> float:
    """How much a sentence is likely to be asked about later: names, numbers, length."""
    words = len(sentence.split())
    score = 2 * len(_NAME.findall(sentence)) + 2 * len(_DIGITS.findall(sentence)) + min(words, 25) / 5
    return score - (3 if sentence.endswith("?") else 0) - (2 if words < 5 else 0)


def item_schema(turns: Sequence[int], max_items: int) -> dict:
    return {
        "type": "object",
        "properties": {"items": {
            "type": "array", "minItems": 1, "maxItems": max_items,
            "items": {"type": "object",
                      "properties": {"text": {"type": "string"},
                                     "source_turns": {"type": "array", "minItems": 1, "maxItems": 4,
                                                      "items": {"enum": sorted(set(turns))}}},
                      "required": ["text", "source_turns"], "additionalProperties": False}}},
        "required": ["items"], "additionalProperties": False,
    }


class ModelCompactor:
    def __init__(self, model, *, max_items: int = 8) -> None:
        self.model = model  # an EmbeddedModel of its own: complete(..., json_schema=…)
        self.name = f"model:{model.name}"
        self.max_items = max_items

    def summarize(self, messages: Sequence[Message], target_tokens: int, cancel: threading.Event) -> str:
        turns = [m.turn_ordinal for m in messages]
        request = [ChatMessage("system", COMPACTOR_PROMPT), ChatMessage("user", compactor_input(messages))]
        completion = self.model.complete(
            request, SamplingSettings(max_tokens=max(16, target_tokens), temperature=0.0, seed=0),
            lambda piece: None, cancel, json_schema=item_schema(turns, self.max_items))
        if completion.finish_reason == "cancelled":
            raise TimeoutError("compaction cancelled")
        return completion.text
