"""A simple, deterministic send view: system prompt + the transcript's current view.

The full context engine (segments, tracks, gates) replaces the trimming here; until then a
conversation longer than the window keeps its newest whole turns (recent-exact).
"""

from __future__ import annotations

from collections.abc import Sequence

from mfs_desktop.context.snapshot import SendView
from mfs_desktop.errors import InvalidInput
from mfs_desktop.runtime.protocol import ChatMessage, ChatModel, ToolCall, ToolSpec
from mfs_desktop.store.models import Conversation, Message

DEFAULT_SYSTEM_PROMPT = (
    "You are a helpful assistant in MFS Desktop, a private chat app running on the user's own computer. "
    "Answer clearly and concisely."
)


def to_chat_message(message: Message) -> ChatMessage:
    if message.role == "assistant" and message.tool_name:
        call = ToolCall(message.tool_name, message.tool_arguments or "{}", message.tool_call_id or "")
        return ChatMessage("assistant", message.text, tool_call=call)
    if message.role == "tool":
        return ChatMessage("tool", message.text, tool_call_id=message.tool_call_id or "")
    return ChatMessage(message.role, message.text)


def _turns(messages: Sequence[Message]) -> list[list[Message]]:
    turns: list[list[Message]] = []
    for message in messages:
        if message.role == "user" or not turns:
            turns.append([])
        turns[-1].append(message)
    return turns


def assemble(
    conversation: Conversation, messages: Sequence[Message], model: ChatModel, *, system_prompt: str, budget: int,
    tools: Sequence[ToolSpec] = (),
) -> SendView:
    """Everything if it fits `budget` tokens (tool descriptions included); else the newest
    whole turns that do."""
    system = ChatMessage("system", system_prompt)
    turns = _turns(messages)
    if not turns:
        raise InvalidInput("There is nothing to answer yet.")

    def chat_from(first_turn: int) -> tuple[ChatMessage, ...]:
        return (system, *(to_chat_message(m) for turn in turns[first_turn:] for m in turn))

    # The fewest turns to leave out so the rest fits; counting is exact (rendered template),
    # so search instead of counting every cut.
    low, high = 0, len(turns) - 1
    if high > 0 and model.count_tokens(chat_from(0), tools) > budget:
        low += 1
        while low < high:
            middle = (low + high) // 2
            if model.count_tokens(chat_from(middle), tools) <= budget:
                high = middle
            else:
                low = middle + 1
    kept = [m for turn in turns[low:] for m in turn]
    chat = chat_from(low)
    return SendView(
        conversation_id=conversation.id,
        epoch=conversation.epoch,
        lineage_id=conversation.lineage_id,
        user_uid=next(m.uid for m in reversed(kept) if m.role == "user"),
        first_uid=kept[0].uid,
        last_uid=kept[-1].uid,
        messages=chat,
    )
