"""Compactors: what turns a range of messages into guide items (JSON, verified afterwards).

- `ExtractiveCompactor`: deterministic and model-free (the "fake" of tests and replays).
- `ModelCompactor`: an embedded llama.cpp context of its own (never the chat context),
  grammar-constrained to the item schema narrowed per call: `source_turns` is an enum of the
  range's turns, the item count is bounded — otherwise a small model counts 1, 2, 3 … until
  it is cut off (seen with the bundled 135M model).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from typing import Protocol

from mfs_desktop.compaction.segments import compactor_input, extract_items
from mfs_desktop.runtime.errors import ProviderError
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
    """No model: the range's most informative sentences (see `extract_items`), as JSON."""

    name = "extractive"

    def __init__(self, count: Callable[[str], int]) -> None:
        self._count = count

    def summarize(self, messages: Sequence[Message], target_tokens: int, cancel: threading.Event) -> str:
        items = extract_items(messages, target_tokens, self._count)
        return json.dumps({"items": [item.as_dict() for item in items]}, ensure_ascii=False)


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
        if completion.finish_reason == "interrupted":  # half a summary is never a segment
            raise ProviderError("The compactor's endpoint stopped mid-answer.", retryable=True)
        return completion.text
