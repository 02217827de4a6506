"""Issue 48 item 1 and 3: a thinking model's reasoning is told apart while it streams, stored
apart, never shown as the answer, never sent again, searched, exported as the answer or
counted in it — through the scripted fake model, a scripted endpoint on loopback, and the real
bundled GGUF with a template that opens the thinking tag itself."""

from __future__ import annotations

import json
import threading

from http_servers import MisbehavingServer, content_chunk, sse
from hypothesis import given, settings
from hypothesis import strategies as st

from mfs_desktop.runtime.endpoint_switch import Endpoint, EndpointSwitch
from mfs_desktop.runtime.fake import FakeModel, Step
from mfs_desktop.runtime.openai_http import OpenAICompatibleModel
from mfs_desktop.runtime.protocol import ChatMessage, SamplingSettings
from mfs_desktop.runtime.thinking import ThinkingSplitter, opens_thinking, split_thinking
from mfs_desktop.services.conversation.chat import ChatService
from mfs_desktop.services.transfer.exports import export_json, export_text
from mfs_desktop.store.search import search_messages
from tests.conftest import run_cli
from tests.gguf_files import template_copy

THOUGHT = "<think>PLAN: the user wants 40 plus 2; check the zebra arithmetic.</think>\n\nThe answer is 42."


def _pieces(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts})
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]


@settings(max_examples=200, deadline=None)
@given(text=st.sampled_from([THOUGHT, "a [THINK]x[/THINK]\nb", "no thinking < here <th", "<think>open only",
                             "x</think>y", "<think></think>\n\n\nz"]),
       cuts=st.lists(st.integers(0, 200), max_size=10))
def test_any_cut_of_the_stream_splits_as_the_whole_text(text: str, cuts: list[int]) -> None:
    """Markers cut across pieces (`<thi` + `nk>`) are held back, never shown, never lost."""
    splitter = ThinkingSplitter()
    shown = "".join(splitter.feed(piece) for piece in _pieces(text, cuts)) + splitter.close()
    assert splitter.result == split_thinking(text) and shown == splitter.result.answer
    assert (splitter.result.answer + splitter.result.thinking).replace(" ", "") != "" or not text.strip()


def test_a_template_that_opens_the_tag_starts_the_answer_inside_the_thinking() -> None:
    assert opens_thinking("<|im_start|>assistant\n<think>\n")
    opened = split_thinking("plan it</think>\n\nDone.", thinking_first=True)
    assert opened == split_thinking("<think>plan it</think>Done.")
    assert split_thinking("no close tag at all", thinking_first=True).answer == ""


def test_thinking_is_stored_apart_never_resent_searched_or_exported_as_the_answer(session) -> None:
    model = FakeModel([Step("text", THOUGHT), Step("text", "Fine.")])
    service = ChatService(session, model, provider="fake", use_tools=False)
    conversation = session.transcript.create_conversation().id
    shown: list[str] = []
    first = service.send(conversation, "What is 40 plus 2?", on_text=shown.append)
    service.send(conversation, "Thanks.")
    service.close()
    assert "".join(shown) == first.answer == "The answer is 42."
    assert first.thinking == "PLAN: the user wants 40 plus 2; check the zebra arithmetic."
    stored = [m for m in session.transcript.messages(conversation) if m.role == "assistant"][0]
    assert (stored.text, stored.thinking) == ("The answer is 42.", first.thinking)
    resent = " ".join(m.content for m in model.calls[-1])
    assert "The answer is 42." in resent and "zebra" not in resent, "the next request carries the answer only"
    assert search_messages(session.database, "zebra") == [] and search_messages(session.database, "answer")
    document = json.loads(export_json(session.database, conversation))
    assert [m.get("thinking") for m in document["messages"] if m["role"] == "assistant"][0] == first.thinking
    markdown = export_text(session.database, conversation, "md")
    assert "<details><summary>Thinking</summary>" in markdown and markdown.index("zebra") < markdown.index("42.")


def test_chat_json_gives_the_answer_and_the_thinking_apart(tmp_path) -> None:
    script = json.dumps([{"kind": "text", "text": THOUGHT}])
    done = run_cli("chat", "--provider", "fake", "--json", "What is 40 plus 2?", data_dir=tmp_path / "d",
                   MFS_FAKE_SCRIPT=script)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["answer"] == "The answer is 42." and "zebra" in answer["thinking"]


def test_an_endpoints_reasoning_deltas_are_thinking_not_answer() -> None:
    """llama.cpp server and vLLM send `reasoning_content`, Ollama `reasoning`; a server that leaves the
    tags in the content is split the same way."""
    server = MisbehavingServer(mode="stream", events=(
        sse({"choices": [{"index": 0, "delta": {"reasoning_content": "First, 40 "}}]}),
        sse({"choices": [{"index": 0, "delta": {"reasoning": "plus 2."}}]}),
        content_chunk("The answer"), content_chunk(" is 42. <think>late"), content_chunk("</think>"),
        sse({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}), b"data: [DONE]\n\n"))
    shown: list[str] = []
    completion = OpenAICompatibleModel(EndpointSwitch(Endpoint(server.url, "x"))).complete(
        [ChatMessage("user", "40 plus 2?")], SamplingSettings(max_tokens=8), shown.append, threading.Event())
    server.stop()
    assert completion.text == "".join(shown) == "The answer is 42. "
    assert completion.thinking == "First, 40 plus 2.late"


def test_the_bundled_model_with_a_template_that_opens_thinking_keeps_it_apart(tmp_path) -> None:
    """A real GGUF whose template ends the generation prompt with `<think>` (as DeepSeek-R1-Distill's
    does): whatever the model writes before `</think>` is thinking, and no tag reaches the answer."""
    template = ("{% for m in messages %}{{ '<|im_start|>' + m['role'] + '\n' + m['content'] + '<|im_end|>\n' }}"
                "{% endfor %}{{ '<|im_start|>assistant\n<think>\n' }}")
    model = template_copy(tmp_path / "thinking.gguf", template)
    data = tmp_path / "data"
    assert run_cli("models", "use", str(model), "--window", "2048", data_dir=data).returncode == 0
    done = run_cli("chat", "--json", "--max-tokens", "24", "--temperature", "0", "Say hello.", data_dir=data)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["thinking"] or answer["answer"]
    assert "<think>" not in answer["answer"] and "</think>" not in answer["answer"]
    assert answer["answer"] == "" or "</think>" not in answer["thinking"]
