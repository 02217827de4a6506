"""The generation lifecycle with the scripted fake model (DESIGN section 8, invariants 5, 6, 9)."""

from __future__ import annotations

import threading

import pytest

from mfs_desktop.context.snapshot import thaw
from mfs_desktop.errors import InvalidInput
from mfs_desktop.runtime.fake import FakeModel, Step
from mfs_desktop.runtime.protocol import ChatMessage, SamplingSettings
from mfs_desktop.services.chat import ChatService
from mfs_desktop.services.session import Session
from mfs_desktop.store.generations import GenerationStore


class ObservingModel(FakeModel):
    """Records what the store held at the moment the model was called."""

    def __init__(self, session: Session, script=()) -> None:
        super().__init__(script)
        self.session = session
        self.seen_generations: list[tuple[str, str]] = []

    def complete(self, messages, settings, on_text, cancel):
        rows = self.session.database.connection().execute("SELECT id, status FROM generations").fetchall()
        self.seen_generations = rows
        return super().complete(messages, settings, on_text, cancel)


def test_invariant_6_snapshot_persisted_before_model_is_called(session: Session) -> None:
    model = ObservingModel(session)
    service = ChatService(session, model, provider="fake")
    conversation = session.transcript.create_conversation()
    result = service.send(conversation.id, "hello there")
    assert [status for _, status in model.seen_generations] == ["streaming"]
    record = service.generations.get(result.generation_id)
    request = thaw(record.snapshot, record.fingerprint)
    assert request.view.messages == model.calls[0]
    assert record.status == "completed" and record.prompt_tokens == result.usage.prompt_tokens
    messages = session.transcript.messages(conversation.id)
    assert [(m.role, m.generation_id) for m in messages] == [("user", None), ("assistant", result.generation_id)]
    assert messages[1].text == result.answer == "(fake model) You said 2 words: hello there"


def test_invariant_5_send_view_only_grows_at_its_end(session: Session) -> None:
    model = FakeModel()
    service = ChatService(session, model, provider="fake")
    conversation = session.transcript.create_conversation()
    for index in range(4):
        service.send(conversation.id, f"message {index}")
    for earlier, later in zip(model.calls, model.calls[1:]):
        assert later[: len(earlier)] == earlier
        assert len(later) == len(earlier) + 2


def test_invariant_10_same_transcript_same_snapshot_bytes(session: Session) -> None:
    conversation = session.transcript.create_conversation()
    service = ChatService(session, FakeModel(), provider="fake")
    service.send(conversation.id, "one")
    first = service._freeze(conversation.id)
    second = service._freeze(conversation.id)
    assert first.snapshot == second.snapshot and first.fingerprint == second.fingerprint
    assert first.id != second.id


def test_cancel_stores_partial_answer_visibly(session: Session) -> None:
    cancel = threading.Event()
    streamed: list[str] = []

    def on_text(piece: str) -> None:
        streamed.append(piece)
        if len(streamed) == 3:
            cancel.set()

    service = ChatService(session, FakeModel([Step("text", "one two three four five six seven")]), provider="fake")
    conversation = session.transcript.create_conversation()
    result = service.send(conversation.id, "count", on_text=on_text, cancel=cancel)
    assert result.status == "partial" and result.answer == "one two three"
    stored = session.transcript.messages(conversation.id)[-1]
    assert stored.status == "partial" and stored.text == "one two three"
    assert service.generations.get(result.generation_id).finish_reason == "cancelled"


def test_invariant_9_failure_keeps_user_message_and_marks_generation_failed(session: Session) -> None:
    service = ChatService(session, FakeModel([Step("error", "boom")]), provider="fake")
    conversation = session.transcript.create_conversation()
    with pytest.raises(RuntimeError):
        service.send(conversation.id, "are you there?")
    assert [m.text for m in session.transcript.messages(conversation.id)] == ["are you there?"]
    [generation] = service.generations.for_conversation(conversation.id)
    assert generation.status == "failed" and generation.error == "RuntimeError"


def test_resume_reuses_frozen_bytes(session: Session) -> None:
    service = ChatService(session, FakeModel([Step("error")]), provider="fake")
    conversation = session.transcript.create_conversation()
    with pytest.raises(RuntimeError):
        service.send(conversation.id, "first try")
    [failed] = service.generations.for_conversation(conversation.id)
    session.database.connection().execute("UPDATE generations SET status = 'streaming' WHERE id = ?", (failed.id,))
    model = FakeModel()
    resumed = ChatService(session, model, provider="fake").resume(failed.id)
    assert resumed.fingerprint == failed.fingerprint
    assert model.calls[0] == thaw(failed.snapshot, failed.fingerprint).view.messages


def test_regenerate_keeps_earlier_answer_selectable(session: Session) -> None:
    model = FakeModel([Step("text", "first answer"), Step("text", "second answer")])
    service = ChatService(session, model, provider="fake")
    conversation = session.transcript.create_conversation()
    first = service.send(conversation.id, "question")
    second = service.regenerate(conversation.id)
    assert model.calls[1] == model.calls[0], "the regenerated request must not contain the earlier answer"
    assert [m.text for m in session.transcript.messages(conversation.id)] == ["question", "second answer"]
    assert second.fingerprint == first.fingerprint and second.generation_id != first.generation_id
    service.generations.select_answer(conversation.id, first.generation_id)
    assert [m.text for m in session.transcript.messages(conversation.id)] == ["question", "first answer"]
    stored = session.transcript.messages(conversation.id, include_retracted=True)
    assert [m.text for m in stored] == ["question", "first answer", "second answer"]
    with pytest.raises(InvalidInput):
        ChatService(session, FakeModel(), provider="fake").regenerate(session.transcript.create_conversation().id)


def test_edit_abandons_open_generation(session: Session) -> None:
    service = ChatService(session, FakeModel(), provider="fake")
    conversation = session.transcript.create_conversation()
    service.send(conversation.id, "q")
    pending = service._freeze(conversation.id)
    session.transcript.edit_message(conversation.id, 1, "q edited")
    assert GenerationStore(session.database).get(pending.id).status == "abandoned"
    with pytest.raises(Exception, match="no longer open"):
        service.resume(pending.id)


def test_long_conversation_keeps_newest_whole_turns(session: Session) -> None:
    model = FakeModel()
    service = ChatService(session, model, provider="fake", window=400, sampling=SamplingSettings(max_tokens=100))
    conversation = session.transcript.create_conversation()
    for index in range(30):
        service.send(conversation.id, f"turn {index} " + "word " * 20)
    last = model.calls[-1]
    assert model.count_tokens(last) <= 300
    assert last[0].role == "system" and last[1].role == "user" and last[-1].content.startswith("turn 29")
    assert len(last) < 61
    assert ChatMessage("user", "turn 0 " + "word " * 20) not in last
