"""A conversation's own system prompt and sampling: checked, frozen with each request, an event
when the prompt changes, and really applied by llama.cpp and sent to an endpoint."""

from __future__ import annotations

import json
import threading

import pytest

from mfs_desktop.context.snapshot import thaw
from mfs_desktop.errors import InvalidInput
from mfs_desktop.runtime.fake import FakeModel
from mfs_desktop.runtime.protocol import ChatMessage, SamplingSettings
from mfs_desktop.services.conversation.chat import ChatService
from mfs_desktop.services.conversation.notices import notice_for
from mfs_desktop.services.conversation.settings import configure, presets, save_preset
from mfs_desktop.services.session import Session
from mfs_desktop.store import ledger
from tests.conftest import run_cli


def _frozen(service: ChatService, generation_id: str):
    record = service.generations.get(generation_id)
    return thaw(record.snapshot, record.fingerprint)


def test_the_system_prompt_and_sampling_ride_in_the_frozen_request(session: Session) -> None:
    conversation = session.transcript.create_conversation().id
    service = ChatService(session, FakeModel(), provider="fake")
    configure(session, conversation, system_prompt="Antworte immer auf Deutsch, in höchstens drei Sätzen.",
              preset="precise", values={"top_k": 7, "max_tokens": 64})
    request = _frozen(service, service.send(conversation, "Hallo").generation_id)
    assert request.view.messages[0] == ChatMessage("system", "Antworte immer auf Deutsch, in höchstens drei Sätzen.")
    assert request.sampling == SamplingSettings(max_tokens=64, temperature=0.2, top_p=0.9, seed=0, top_k=7,
                                                min_p=0.1, repeat_penalty=1.05)
    other = session.transcript.create_conversation().id
    plain = _frozen(service, service.send(other, "hello").generation_id)
    assert plain.sampling == SamplingSettings() and plain.view.messages[0].content == service.system_prompt


def test_a_changed_system_prompt_is_an_event_and_a_notice_sampling_alone_is_not(session: Session) -> None:
    conversation = session.transcript.create_conversation().id
    _, changed = configure(session, conversation, values={"temperature": 0.3})
    assert not changed and ledger.entries(session.database, conversation) == []
    _, changed = configure(session, conversation, system_prompt="用中文回答。")
    (entry,) = ledger.entries(session.database, conversation)
    assert changed and entry.event == "system_prompt" and entry.outcome in ledger.PREFIX_CHANGING
    assert notice_for(entry).text == "System prompt changed: the next reply re-reads the context"
    _, changed = configure(session, conversation, system_prompt="用中文回答。")
    assert not changed and len(ledger.entries(session.database, conversation)) == 1
    settings, changed = configure(session, conversation, reset=True)
    assert changed and settings.system_prompt is None and settings.temperature is None


@pytest.mark.parametrize("values, message", [
    ({"temperature": 2.5}, "temperature must be between 0 and 2"),
    ({"top_k": 3.5}, "top_k must be a whole number"),
    ({"top_p": "a lot"}, "top_p must be a number"),
    ({"warmth": 1}, "Unknown sampling setting 'warmth'"),
    ({"max_tokens": 0}, "max_tokens must be between 1"),
])
def test_bad_values_are_refused_plainly_and_nothing_changes(session: Session, values, message) -> None:
    conversation = session.transcript.create_conversation().id
    configure(session, conversation, values={"temperature": 0.4})
    with pytest.raises(InvalidInput, match=message):
        configure(session, conversation, values=values)
    assert configure(session, conversation)[0].temperature == 0.4


def test_own_presets_are_kept_and_built_in_names_are_not_taken(session: Session) -> None:
    conversation = session.transcript.create_conversation().id
    save_preset(session, "Lektorat", {"temperature": 0.1, "repeat_penalty": 1.2})
    assert presets(session)["lektorat"] == {"temperature": 0.1, "repeat_penalty": 1.2}
    settings, _ = configure(session, conversation, preset="lektorat")
    assert (settings.temperature, settings.repeat_penalty, settings.top_k, settings.preset) == (0.1, 1.2, None,
                                                                                                 "lektorat")
    with pytest.raises(InvalidInput, match="other than"):
        save_preset(session, "precise", {"temperature": 1})
    with pytest.raises(InvalidInput, match="No preset 'nope'"):
        configure(session, conversation, preset="nope")


def test_the_command_line_configures_and_chat_flags_still_win(tmp_path) -> None:
    data = tmp_path / "data"
    made = run_cli("chat", "--provider", "fake", "--json", "first", data_dir=data)
    conversation = json.loads(made.stdout)["conversation_id"]
    done = run_cli("configure", "--conversation", conversation, "--system-prompt", "Be terse.", "--preset",
                   "creative", "--seed", "9", "--json", data_dir=data)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[0]) | {} == {
        "system_prompt": "Be terse.", "temperature": 1.0, "top_p": 0.98, "top_k": 100, "min_p": 0.02,
        "repeat_penalty": 1.1, "max_tokens": None, "seed": 9, "preset": "creative", "recall": None,
        "thinking": None, "thinking_tokens": None, "reasoning_effort": None, "mcp_servers": None}
    assert "re-reads the context" in done.stdout
    off = run_cli("configure", "--conversation", conversation, "--recall", "off", "--json", data_dir=data)
    assert json.loads(off.stdout.splitlines()[0])["recall"] is False
    refused = run_cli("configure", "--conversation", conversation, "--temperature", "-1", data_dir=data)
    assert refused.returncode == 10 and "between 0 and 2" in refused.stderr
    flagged = run_cli("chat", "--provider", "fake", "--conversation", conversation, "--temperature", "0.5",
                      "--json", "second", data_dir=data)
    generation = json.loads(flagged.stdout)["generation_id"]
    from tests.conftest import open_test_session

    session = open_test_session(data)
    record = ChatService(session, FakeModel(), provider="fake").generations.get(generation)
    request = thaw(record.snapshot, record.fingerprint)
    session.close()
    assert request.sampling.temperature == 0.5 and request.sampling.seed == 9 and request.sampling.top_k == 100
    assert request.view.messages[0].content == "Be terse."


def _fresh_answer(settings: SamplingSettings) -> str:
    """From a model loaded for this one call: a cached prefix changes how the prompt is batched,
    and with it the rounding of the first logits, which would blur what the sampler does."""
    from mfs_desktop.runtime.embedded import EmbeddedModel
    from mfs_desktop.runtime.model_files import default_model_path

    model = EmbeddedModel(default_model_path(), n_ctx=512)
    return model.complete([ChatMessage("user", "Name three colours.")], settings, lambda _t: None,
                          threading.Event()).text


def test_llama_cpp_applies_top_k() -> None:
    """top_k 1 is greedy decoding: at temperature 1.5 two seeds still write the same words."""
    greedy = [_fresh_answer(SamplingSettings(max_tokens=12, temperature=1.5, seed=seed, top_k=1)) for seed in (1, 2)]
    assert greedy[0] == greedy[1]
    loose = {_fresh_answer(SamplingSettings(max_tokens=12, temperature=1.5, seed=seed, top_k=500, min_p=0.0))
             for seed in (1, 2, 3)}
    assert len(loose) > 1  # without it the seeds do differ: the test can fail


def test_an_endpoint_is_sent_only_the_sampling_values_chosen() -> None:
    from mfs_desktop.errors import EnvironmentFault
    from mfs_desktop.runtime.endpoint_switch import Endpoint, EndpointSwitch
    from mfs_desktop.runtime.openai_http import OpenAICompatibleModel
    from tests.http_servers import MisbehavingServer

    server = MisbehavingServer(400)
    try:
        model = OpenAICompatibleModel(EndpointSwitch(Endpoint(server.url, "m")), stream=False)
        for settings in (SamplingSettings(), SamplingSettings(top_k=5, repeat_penalty=1.2)):
            with pytest.raises(EnvironmentFault):
                model.complete([ChatMessage("user", "hi")], settings, lambda _t: None, threading.Event())
    finally:
        server.stop()
    plain, chosen = server.bodies
    assert not {"top_k", "min_p", "repeat_penalty"} & set(plain)
    assert chosen["top_k"] == 5 and chosen["repeat_penalty"] == 1.2 and "min_p" not in chosen
