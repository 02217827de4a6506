"""The three tools the assistant may call, as OpenAI-style function specs.

Their execution needs the store and lives in `services.tools`; here is only what the model
is told. The schemas carry shapes, not length or range bounds: grammar compilers (llama.cpp's
among them) expand `maxLength: 4000` into thousands of rules and give up. The runner checks
the bounds and answers a violation with a tool error the model can read.
"""

from __future__ import annotations

from mfs_desktop.runtime.protocol import ToolSpec

RECALL_HISTORY = ToolSpec(
    "recall_history",
    "Bring back the original messages of this conversation between two message uids (inclusive, "
    "at most 200 messages), for details that are no longer in context.",
    {"type": "object", "properties": {"uid_start": {"type": "integer"}, "uid_end": {"type": "integer"}},
     "required": ["uid_start", "uid_end"], "additionalProperties": False},
)
RECORD_VALUE = ToolSpec(
    "record_value",
    "Remember a value for the rest of this conversation (a name, a number, a preference); "
    "key up to 200 characters, value up to 4000.",
    {"type": "object", "properties": {"key": {"type": "string"}, "value": {"type": "string"}},
     "required": ["key", "value"], "additionalProperties": False},
)
READ_DOCUMENT = ToolSpec(
    "read_document",
    "Read part of an attached document by its snapshot id (sha256 or its first 12 characters): "
    "length characters (at most 20000) from offset.",
    {"type": "object", "properties": {"snapshot": {"type": "string"}, "offset": {"type": "integer"},
                                     "length": {"type": "integer"}},
     "required": ["snapshot", "offset", "length"], "additionalProperties": False},
)
TOOLS = (RECALL_HISTORY, RECORD_VALUE, READ_DOCUMENT)
