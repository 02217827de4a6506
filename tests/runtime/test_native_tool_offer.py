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


@pytest.mark.parametrize(("name", "native"), [
    ("qwen2.5-7b-instruct.jinja", True), ("qwen3-0.6b.jinja", True), ("smollm3-3b.jinja", True),
    ("exaone-4.0.jinja", True),
    # they describe tools, but ask for calls in other shapes (bare JSON, [TOOL_CALLS], channels, XML args)
    ("llama-3.1-8b-instruct.jinja", False), ("mistral-small-3.2-24b-instruct-2506.jinja", False),
    ("gpt-oss-20b.jinja", False), ("glm-4.6.jinja", False),
    ("gemma-3-it.jinja", False), ("zephyr-7b-beta.jinja", False),
])
def test_a_template_speaks_tagged_tool_calls_or_not(name: str, native: bool) -> None:
    assert _template(name).speaks_tool_calls is native


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
    for model in (tokenizer, qwen):
        earlier = model.render(_conversation(2), TOOLS)
        later = model.render(_conversation(3), TOOLS)
        assert later.startswith(earlier), "the same tools, a longer conversation: the earlier request is a prefix"
