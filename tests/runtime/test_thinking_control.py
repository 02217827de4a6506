"""Issue 48 items 2 and 4: the thought streams live apart from the answer and its tokens and time
are counted; per conversation, thinking on / off / the model's default and a cap on its tokens,
reaching the scripted model, a scripted endpoint's request body, the real bundled GGUF with a
template that opens the thinking, and Qwen3's own template."""

from __future__ import annotations

import json
import threading

import pytest
from http_servers import MisbehavingServer, content_chunk, sse

from mfs_desktop.errors import InvalidInput
from mfs_desktop.runtime.chat_template import ChatTemplate
from mfs_desktop.runtime.endpoint_switch import Endpoint, EndpointSwitch
from mfs_desktop.runtime.fake import FakeModel, Step
from mfs_desktop.runtime.openai_http import OpenAICompatibleModel
from mfs_desktop.runtime.protocol import ChatMessage, SamplingSettings, Sinks
from mfs_desktop.runtime.thinking import without_opened_thinking
from mfs_desktop.services.conversation.chat import ChatService
from mfs_desktop.services.conversation.settings import ThinkingChoice, configure
from mfs_desktop.store.generations import answer_speeds
from tests.conftest import REPO, run_cli
from tests.gguf_files import template_copy

THOUGHT = "<think>one two three four five six</think> The answer is 42."
QWEN3 = (REPO / "tests" / "data" / "chat_templates" / "qwen3-0.6b.jinja").read_text("utf-8")
HELLO = [{"role": "user", "content": "Hello"}]


def _streamed(model, settings: SamplingSettings | None = None) -> tuple[list[str], list[str], object]:
    answer: list[str] = []
    thought: list[str] = []
    completion = model.complete([ChatMessage("user", "40 plus 2?")], settings or SamplingSettings(),
                                Sinks(answer.append, thought.append), threading.Event())
    return answer, thought, completion


def test_the_thought_streams_live_to_its_own_sink_and_its_tokens_are_counted() -> None:
    answer, thought, completion = _streamed(FakeModel([Step("text", THOUGHT)]))
    assert "".join(answer) == completion.text == "The answer is 42."
    assert "".join(thought).split() == "one two three four five six".split(), "the thought arrives live, piece by piece"
    assert len(thought) > 1 and completion.usage.thinking_tokens == 6 and completion.usage.thinking_ms >= 0
    assert completion.usage.thinking_capped == 0


def test_a_plain_text_sink_still_gets_the_answer_only() -> None:
    shown: list[str] = []
    completion = FakeModel([Step("text", THOUGHT)]).complete([ChatMessage("user", "x")], SamplingSettings(),
                                                             shown.append, threading.Event())
    assert "".join(shown) == completion.text == "The answer is 42." and "three" in completion.thinking


def test_a_thinking_cap_cuts_the_thought_and_the_answer_still_comes() -> None:
    _, thought, completion = _streamed(FakeModel([Step("text", THOUGHT)]), SamplingSettings(thinking_tokens=3))
    assert completion.text == "The answer is 42." and completion.thinking == "one two three"
    assert "".join(thought).split() == ["one", "two", "three"] and completion.usage.thinking_capped == 1


def test_qwen3s_own_template_takes_the_switch_and_other_templates_ignore_it() -> None:
    template = ChatTemplate(QWEN3, bos_token="", eos_token="<|im_end|>")
    assert template.render(HELLO).endswith("<|im_start|>assistant\n")
    assert template.render(HELLO, enable_thinking=False).endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")
    assert template.render(HELLO, enable_thinking=True) == template.render(HELLO)
    plain = ChatTemplate("{% for m in messages %}{{ m['content'] }}{% endfor %}", bos_token="", eos_token="")
    assert plain.render(HELLO, enable_thinking=False) == "Hello"


def test_off_closes_a_thinking_the_template_opened_by_itself() -> None:
    """DeepSeek-R1-Distill's template opens `<think>` with no switch: off closes it empty, as Qwen3's does."""
    assert without_opened_thinking("<|Assistant|><think>\n") == "<|Assistant|><think>\n\n</think>\n\n"
    assert without_opened_thinking("[THINK]") == "[THINK]\n\n[/THINK]\n\n"
    assert without_opened_thinking("<|im_start|>assistant\n") == "<|im_start|>assistant\n"


def test_a_conversations_thinking_settings_reach_the_model_and_its_figures_are_stored(session) -> None:
    conversation = session.transcript.create_conversation().id
    settings, _ = configure(session, conversation, thinking=ThinkingChoice("off", 512, "low"))
    assert (settings.thinking, settings.thinking_tokens, settings.reasoning_effort) == ("off", 512, "low")
    model = FakeModel([Step("text", THOUGHT)])
    service = ChatService(session, model, provider="fake", use_tools=False)
    result = service.send(conversation, "What is 40 plus 2?")
    service.close()
    asked = model.settings_seen[-1]
    assert (asked.thinking, asked.thinking_tokens, asked.reasoning_effort) == ("off", 512, "low")
    speed = answer_speeds(session.database, conversation)[result.generation_id]
    assert speed.thinking_tokens == 6 and speed.completion_tokens >= 6 and not speed.thinking_capped
    back, _ = configure(session, conversation, thinking=ThinkingChoice("default", 0, "default"))
    assert (back.thinking, back.thinking_tokens, back.reasoning_effort) == (None, None, None)


@pytest.mark.parametrize("choice", [ThinkingChoice("maybe"), ThinkingChoice(tokens=10), ThinkingChoice(effort="max")])
def test_thinking_values_out_of_range_are_refused_plainly(session, choice: ThinkingChoice) -> None:
    conversation = session.transcript.create_conversation().id
    with pytest.raises(InvalidInput):
        configure(session, conversation, thinking=choice)


def test_configure_sets_thinking_from_the_command_line(tmp_path) -> None:
    data = tmp_path / "d"
    created = run_cli("chat", "--provider", "fake", "--json", "hello", data_dir=data)
    conversation = json.loads(created.stdout)["conversation_id"]
    done = run_cli("configure", "--conversation", conversation, "--thinking", "on", "--thinking-tokens", "1024",
                   "--reasoning-effort", "high", "--json", data_dir=data)
    assert done.returncode == 0, done.stderr
    chosen = json.loads(done.stdout)
    assert (chosen["thinking"], chosen["thinking_tokens"], chosen["reasoning_effort"]) == ("on", 1024, "high")
    refused = run_cli("configure", "--conversation", conversation, "--thinking-tokens", "5", data_dir=data)
    assert refused.returncode != 0 and "thinking cap" in refused.stderr


def test_an_endpoint_is_sent_the_switch_and_effort_only_when_chosen_and_stopped_at_the_cap() -> None:
    thinking = tuple(sse({"choices": [{"index": 0, "delta": {"reasoning_content": f"step {i}. "}}]})
                     for i in range(12))
    server = MisbehavingServer(mode="stream", events=(
        *thinking, content_chunk("Never reached."),
        sse({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}), b"data: [DONE]\n\n"))
    model = OpenAICompatibleModel(EndpointSwitch(Endpoint(server.url, "x")))
    try:
        _, _, whole = _streamed(model)
        _, thought, cut = _streamed(model, SamplingSettings(thinking="off", reasoning_effort="low", thinking_tokens=4))
    finally:
        server.stop()
    plain, chosen = server.bodies
    assert "chat_template_kwargs" not in plain and "reasoning_effort" not in plain
    assert chosen["chat_template_kwargs"] == {"enable_thinking": False} and chosen["reasoning_effort"] == "low"
    assert whole.text == "Never reached." and whole.usage.thinking_tokens == 12
    assert cut.text == "" and cut.finish_reason == "length" and cut.usage.thinking_capped == 1
    assert len(thought) == 4 and cut.thinking.startswith("step 0.")


def test_the_bundled_model_stops_thinking_at_the_cap_and_answers(tmp_path) -> None:
    """A real GGUF whose template opens `<think>`: the cap closes the thought in the model's own
    words (`</think>` fed back) and the model goes on to an answer; off never starts a thought."""
    from mfs_desktop.runtime.embedded import EmbeddedModel

    template = ("{% for m in messages %}{{ '<|im_start|>' + m['role'] + '\n' + m['content'] + '<|im_end|>\n' }}"
                "{% endfor %}{{ '<|im_start|>assistant\n<think>\n' }}")
    model = EmbeddedModel(template_copy(tmp_path / "thinking.gguf", template), n_ctx=1024)
    capped = SamplingSettings(max_tokens=40, temperature=0.0, thinking_tokens=6)
    answer, thought, completion = _streamed(model, capped)
    assert completion.usage.thinking_capped == 1 and completion.usage.thinking_tokens == 6
    assert thought and "".join(thought).strip() == completion.thinking
    assert completion.usage.completion_tokens > 6, "the model went on after the thought was closed"
    assert "</think>" not in completion.text and "".join(answer) == completion.text
    off = SamplingSettings(max_tokens=12, temperature=0.0, thinking="off")
    assert model.render([ChatMessage("user", "Hi")], thinking="off").endswith("<think>\n\n</think>\n\n")
    _, thought_off, quiet = _streamed(model, off)
    assert quiet.thinking == "" and thought_off == [] and quiet.usage.thinking_tokens == 0
