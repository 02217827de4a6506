"""The default system prompt and how a transcript message becomes a chat message."""

from __future__ import annotations

from mfs_desktop.runtime.neutral import neutralize
from mfs_desktop.runtime.protocol import ChatMessage, ToolCall
from mfs_desktop.store.models import Message

DEFAULT_SYSTEM_PROMPT = (
    "You are a helpful assistant in MFS Desktop, a private chat app running on the user's own computer. "
    "Answer clearly and concisely."
)


def to_chat_message(message: Message) -> ChatMessage:
    """A stored message as the model receives it: its text can spell no control token."""
    text = neutralize(message.text)
    if message.role == "assistant" and message.tool_name:
        call = ToolCall(message.tool_name, message.tool_arguments or "{}", message.tool_call_id or "")
        return ChatMessage("assistant", text, tool_call=call)
    if message.role == "tool":
        return ChatMessage("tool", text, tool_call_id=message.tool_call_id or "")
    return ChatMessage(message.role, text)
