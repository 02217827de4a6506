"""The real bundled GGUF through llama-cpp-python: answers, KV reuse, stop, abort."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from mfs_desktop.context.assembler import DEFAULT_SYSTEM_PROMPT
from mfs_desktop.errors import NotFound
from mfs_desktop.runtime.embedded import EmbeddedModel
from mfs_desktop.runtime.model_files import default_model_path
from mfs_desktop.runtime.protocol import ChatMessage, SamplingSettings
from mfs_desktop.services.conversation.chat import ChatService
from mfs_desktop.services.session import Session

GREEDY = SamplingSettings(max_tokens=24, temperature=0.0, seed=7)


@pytest.fixture(scope="module")
def model() -> Iterator[EmbeddedModel]:
    yield EmbeddedModel(default_model_path(), n_ctx=4096)


@pytest.fixture(autouse=True)
def cold(model: EmbeddedModel) -> None:
    model.clear_cache()


def _ask(model: EmbeddedModel, messages: list[ChatMessage], question: str, settings: SamplingSettings = GREEDY):
    messages.append(ChatMessage("user", question))
    completion = model.complete(messages, settings, lambda piece: None, threading.Event())
    messages.append(ChatMessage("assistant", completion.text))
    return completion


def _in_cache_after(completion) -> int:
    return completion.usage.prompt_tokens + completion.usage.completion_tokens - (completion.finish_reason == "length")


def test_bundled_model_answers_deterministically(model: EmbeddedModel) -> None:
    first = _ask(model, [ChatMessage("system", DEFAULT_SYSTEM_PROMPT)], "What is the capital of France?")
    model.clear_cache()
    again = _ask(model, [ChatMessage("system", DEFAULT_SYSTEM_PROMPT)], "What is the capital of France?")
    assert "Paris" in first.text
    assert again.text == first.text and first.finish_reason in ("stop", "length")
    assert first.usage.prompt_tokens == model.count_tokens(
        [ChatMessage("system", DEFAULT_SYSTEM_PROMPT), ChatMessage("user", "What is the capital of France?")])
    assert first.usage.prompt_tokens_reused == 0 and first.usage.prompt_tokens_evaluated == first.usage.prompt_tokens
    assert first.usage.prefill_ms > 0 and first.usage.decode_ms > 0 and first.usage.completion_tokens > 0


def test_follow_up_turns_evaluate_only_the_new_tokens(model: EmbeddedModel) -> None:
    messages = [ChatMessage("system", "You are helpful.")]
    previous = _ask(model, messages, "Name a large animal.")
    for question in ("Where does it live?", "What does it eat?", "How long does it live?"):
        completion = _ask(model, messages, question)
        # Everything the cache held is reused: the last prompt and every sampled answer token
        # (but the very last one when the answer was cut at max_tokens: it was sampled, never evaluated) ...
        assert completion.usage.prompt_tokens_reused == _in_cache_after(previous)
        # ... so only the new user message and the template tokens around it are evaluated.
        assert completion.usage.prompt_tokens_evaluated <= len(question.split()) * 2 + 12
        previous = completion


def test_stop_within_a_token_keeps_partial(model: EmbeddedModel) -> None:
    cancel = threading.Event()
    pieces: list[str] = []

    def on_text(piece: str) -> None:
        pieces.append(piece)
        if len(pieces) == 3:
            cancel.set()

    completion = model.complete([ChatMessage("user", "Write a long story about a dragon.")],
                                SamplingSettings(max_tokens=200, temperature=0.0), on_text, cancel)
    assert completion.finish_reason == "cancelled"
    assert completion.usage.completion_tokens <= 4 and completion.text == "".join(pieces)


def test_long_prefill_can_be_aborted(model: EmbeddedModel) -> None:
    long_prompt = [ChatMessage("user", "Summarize: " + "the quick brown fox jumps over the lazy dog. " * 120)]
    started = time.perf_counter()
    model.complete(long_prompt, SamplingSettings(max_tokens=1, temperature=0.0), lambda p: None, threading.Event())
    full = time.perf_counter() - started
    model.clear_cache()
    cancel = threading.Event()
    threading.Timer(full / 10, cancel.set).start()
    started = time.perf_counter()
    completion = model.complete(long_prompt, SamplingSettings(max_tokens=1, temperature=0.0), lambda p: None, cancel)
    aborted = time.perf_counter() - started
    assert completion.finish_reason == "cancelled"
    assert aborted < full * 0.7, (aborted, full)
    after = _ask(model, [], "Say hi.")  # the model still works after an abort
    assert after.usage.prompt_tokens_reused == 0 and after.text


def test_missing_and_broken_model_files(tmp_path) -> None:
    with pytest.raises(NotFound, match="does not exist"):
        EmbeddedModel(tmp_path / "nope.gguf")
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"not a model at all" * 100)
    with pytest.raises(NotFound, match="not a GGUF"):
        EmbeddedModel(broken)
    truncated = tmp_path / "truncated.gguf"
    truncated.write_bytes(default_model_path().read_bytes()[:4096])
    with pytest.raises(NotFound, match="could not load"):
        EmbeddedModel(truncated)


def test_chat_service_with_real_model_reports_reuse(session: Session, model: EmbeddedModel) -> None:
    service = ChatService(session, model, provider="embedded", window=4096, sampling=GREEDY)
    conversation = session.transcript.create_conversation()
    first = service.send(conversation.id, "Hello! Who are you?")
    second = service.send(conversation.id, "What can you do?")
    assert first.usage.prompt_tokens_reused == 0
    assert second.usage.prompt_tokens_reused == _in_cache_after(first)
    stored = service.generations.get(second.generation_id)
    assert stored.prompt_tokens_reused == second.usage.prompt_tokens_reused and stored.decode_ms > 0
    assert [m.role for m in session.transcript.messages(conversation.id)] == ["user", "assistant"] * 2


def test_grammar_constrained_tool_call_with_real_model(model: EmbeddedModel) -> None:
    import json

    from mfs_desktop.runtime.tools import TOOLS

    messages = [ChatMessage("system", DEFAULT_SYSTEM_PROMPT),
                ChatMessage("user", "Remember that my favourite colour is green.")]
    completion = model.complete(messages, SamplingSettings(max_tokens=96, temperature=0.0), lambda p: None,
                                threading.Event(), tools=TOOLS, tool_choice="required")
    assert completion.finish_reason == "tool_call", completion
    call = completion.tool_call
    assert call is not None and call.name in {tool.name for tool in TOOLS}
    arguments = json.loads(call.arguments)
    schema = next(tool.parameters for tool in TOOLS if tool.name == call.name)
    assert set(arguments) == set(schema["required"])


def test_tagged_tool_call_is_held_back_and_text_streams() -> None:
    from mfs_desktop.runtime.tool_calls import ToolCallWatcher as _ToolCallWatcher

    shown: list[str] = []
    watcher = _ToolCallWatcher(shown.append, enabled=True)
    pieces = ["  <tool", "_call>", '{"name": "record_value", "arguments": {"key": "a", "value": "b"}}', "</tool_call>",
              "\n", "Done"]
    assert [watcher.feed(p) for p in pieces] == [False, False, False, False, False, True], \
        "after a call the watcher waits to see whether another follows"
    text, calls = watcher.result(forced=False)
    assert shown == [] and text == "" and len(calls) == 1
    call = calls[0]
    assert call.name == "record_value" and call.arguments == '{"key": "a", "value": "b"}'

    shown.clear()
    watcher = _ToolCallWatcher(shown.append, enabled=True)
    for piece in ["<to", "day is", " sunny"]:
        watcher.feed(piece)
    assert watcher.result(forced=False) == ("<today is sunny", ()) and "".join(shown) == "<today is sunny"

    watcher = _ToolCallWatcher(lambda p: None, enabled=True)
    watcher.feed("<tool_call>{broken json")
    text, calls = watcher.result(forced=False)
    assert calls[0].name == "" and calls[0].arguments == "{broken json"
