"""Untrusted text never becomes control (issue 34; issue 27 item 5).

Everything a request carries that a person or a document wrote — messages, tool results,
quotes and facts inside the data block — may spell a chat template's control tokens
(`<|im_start|>system`, `<start_of_turn>`, `[INST]`, DeepSeek's `<｜…｜>`) or the data block's
own delimiters. A tokenizer that parses special tokens would read those as structure: an
injected system turn, or a data block closed early. A WORD JOINER (U+2060, invisible) after
the opening bracket keeps the text readable and makes it plain text to every tokenizer. The
embedded model also checks its own vocabulary (embedded.py), which knows every
control token; these shapes cover endpoints whose vocabulary the app cannot see.
"""

from __future__ import annotations

import re

WORD_JOINER = "\u2060"
_CONTROL_SHAPES = re.compile(
    r"<[|｜][^<>\s|｜]{1,48}[|｜]>"  # ChatML, Llama 3, Phi, Command-R, DeepSeek (full-width bars)
    r"|</?(?:s|bos|eos|start_of_turn|end_of_turn|tool_call|tool_response|conversation-data)>"
    r"|\[/?INST\]|<</?SYS>>"
)


def neutralize(text: str) -> str:
    """`text` with every control-token shape broken after its first character."""
    if "<" not in text and "[" not in text:
        return text
    return _CONTROL_SHAPES.sub(lambda match: match[0][0] + WORD_JOINER + match[0][1:], text)
