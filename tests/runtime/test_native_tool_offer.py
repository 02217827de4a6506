"""Issue 49 item 6: tools are offered in the words of the model's own chat template where it has
them (tagged-JSON calls: Qwen2.5, Qwen3, SmolLM3, EXAONE), else with the app's instructions;
either way the offered tools keep the request's prefix byte-constant from turn to turn."""

from __future__ import annotations

import pytest

from mfs_desktop.runtime.chat_template import ChatTemplate
from mfs_desktop.runtime.embedded import EmbeddedModel
from mfs_desktop.runtime.model_files import default_model_path
from mfs_desktop.runtime.protocol import ChatMessage, ToolCall
from mfs_desktop.runtime.tools import TOOLS
from tests.conftest import REPO

TEMPLATES = REPO / "tests" / "data" / "chat_templates"


def _template(name: str) -> ChatTemplate:
    return ChatTemplate((TEMPLATES / name).read_text("utf-8"), bos_token="<s>", eos_token="</s>")


@pytest.mark.parametrize(("name", "form"), [
    ("qwen2.5-7b-instruct.jinja", "tagged"), ("qwen3-0.6b.jinja", "tagged"), ("smollm3-3b.jinja", "tagged"),
    ("exaone-4.0.jinja", "tagged"),
    ("llama-3.1-8b-instruct.jinja", "bare"), ("llama-3.2-3b-instruct.jinja", "bare"),
    # they describe tools, but ask for calls in shapes the watcher does not read ([TOOL_CALLS] and
    # channels are special tokens the detokenizer drops; XML arguments; a list in tags)
    ("mistral-small-3.2-24b-instruct-2506.jinja", ""), ("gpt-oss-20b.jinja", ""), ("glm-4.6.jinja", ""),
    ("hunyuan-a13b-instruct.jinja", ""),
    ("gemma-3-it.jinja", ""), ("zephyr-7b-beta.jinja", ""),
])
def test_a_template_asks_for_calls_in_a_form_the_watcher_reads_or_not(name: str, form: str) -> None:
    assert _template(name).tool_call_form == form


def _conversation(turns: int) -> list[ChatMessage]:
    messages = [ChatMessage("system", "You are helpful.")]
    for turn in range(turns):
        messages.append(ChatMessage("user", f"Question {turn}?"))
        if turn < turns - 1:
            messages.append(ChatMessage("assistant", "", ToolCall("record_value", '{"key": "k", "value": "v"}',
                                                                  f"call-{turn}")))
            messages.append(ChatMessage("tool", "recorded k", tool_call_id=f"call-{turn}"))
            messages.append(ChatMessage("assistant", f"Answer {turn}."))
    return messages


@pytest.fixture(scope="module")
def tokenizer() -> EmbeddedModel:
    return EmbeddedModel(default_model_path(), n_ctx=4096, tokenizer_only=True)


def test_a_qwen_template_is_given_the_tools_and_the_bundled_one_gets_the_apps_words(tokenizer) -> None:
    own = tokenizer.render(_conversation(1), TOOLS)
    assert "You can call tools." in own and "<tools>" not in own
    qwen = EmbeddedModel.__new__(EmbeddedModel)  # the bundled tokenizer with Qwen2.5's own template
    qwen.__dict__.update(tokenizer.__dict__, _template=_template("qwen2.5-7b-instruct.jinja"))
    native = qwen.render(_conversation(1), TOOLS)
    assert "<tools>" in native and '"name": "recall_history"' in native and "You can call tools." not in native
    llama = EmbeddedModel.__new__(EmbeddedModel)
    llama.__dict__.update(tokenizer.__dict__, _template=_template("llama-3.1-8b-instruct.jinja"))
    answered = llama.render(_conversation(2), TOOLS)
    assert '"name": "recall_history"' in answered and "You can call tools." not in answered
    assert '{"name": "record_value", "parameters": {"key": "k", "value": "v"}}' in answered, \
        "an earlier call is shown in the form the template asked for"
    for model in (tokenizer, qwen, llama):
        earlier = model.render(_conversation(2), TOOLS)
        later = model.render(_conversation(3), TOOLS)
        assert later.startswith(earlier), "the same tools, a longer conversation: the earlier request is a prefix"
