"""The generation lifecycle with the scripted fake model (DESIGN section 8, invariants 5, 6, 9)."""

from __future__ import annotations

import threading

import pytest

from mfs_desktop.context.snapshot import thaw
from mfs_desktop.errors import InvalidInput
from mfs_desktop.runtime.fake import FakeModel, Step
from mfs_desktop.runtime.protocol import ChatMessage, SamplingSettings
from mfs_desktop.services.conversation.chat import ChatService
from mfs_desktop.services.session import Session
from mfs_desktop.store.generations import GenerationStore


class ObservingModel(FakeModel):
    """Records what the store held at the moment the model was called."""

    def __init__(self, session: Session, script=()) -> None:
        super().__init__(script)
        self.session = session
        self.seen_generations: list[tuple[str, str]] = []

    def complete(self, messages, settings, on_text, cancel, **tool_options):
        rows = self.session.database.connection().execute("SELECT id, status FROM generations").fetchall()
        self.seen_generations = rows
        return super().complete(messages, settings, on_text, cancel, **tool_options)


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
    for earlier, later in zip(model.calls, model.calls[1:], strict=False):
        assert later[: len(earlier)] == earlier
        assert len(later) == len(earlier) + 2


def test_invariant_10_same_transcript_same_snapshot_bytes(session: Session) -> None:
    conversation = session.transcript.create_conversation()
    service = ChatService(session, FakeModel(), provider="fake")
    service.send(conversation.id, "one")
    first, _ = service._freeze(conversation.id)
    second, _ = service._freeze(conversation.id)
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
    session.database.write(lambda connection: connection.execute(
        "UPDATE generations SET status = 'streaming' WHERE id = ?", (failed.id,)))
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
    pending, _ = service._freeze(conversation.id)
    session.transcript.edit_message(conversation.id, 1, "q edited")
    assert GenerationStore(session.database).get(pending.id).status == "abandoned"
    with pytest.raises(Exception, match="no longer open"):
        service.resume(pending.id)


def test_recent_only_memory_keeps_newest_whole_turns_and_says_so(session: Session) -> None:
    from mfs_desktop.store.ledger import entries

    model = FakeModel()
    service = ChatService(session, model, provider="fake", window=1024, use_tools=False,
                          sampling=SamplingSettings(max_tokens=64))
    conversation = session.transcript.create_conversation()
    session.transcript.set_memory_mode(conversation.id, "recent_only")
    for index in range(30):
        result = service.send(conversation.id, f"turn {index} " + "word " * 20)
    last = model.calls[-1]
    assert model.count_tokens(last) <= 1024 * 0.85
    assert last[0].role == "system" and last[1].role == "user" and last[-1].content.startswith("turn 29")
    assert ChatMessage("user", "turn 0 " + "word " * 20) not in last
    assert result.messages_left_out > 0
    recorded = entries(session.database, conversation.id)
    assert recorded and recorded[-1].event == "recent_exact" and "not sent" in recorded[-1].detail
    service.close()


def test_tool_rounds_enter_transcript_and_trajectory(session: Session) -> None:
    from mfs_desktop.store.trajectory import trajectory

    model = FakeModel([
        Step("tool_call", tool_name="record_value", arguments='{"key": "city", "value": "Lisbon"}'),
        Step("tool_call", tool_name="recall_history", arguments='{"uid_start": 1, "uid_end": 1}'),
        Step("text", "Noted: Lisbon."),
    ])
    service = ChatService(session, model, provider="fake")
    conversation = session.transcript.create_conversation()
    result = service.send(conversation.id, "I live in Lisbon, remember that.")
    messages = session.transcript.messages(conversation.id)
    assert [(m.role, m.tool_name) for m in messages] == [
        ("user", None), ("assistant", "record_value"), ("tool", "record_value"),
        ("assistant", "recall_history"), ("tool", "recall_history"), ("assistant", None)]
    assert all(m.turn_ordinal == 1 for m in messages)
    assert messages[2].text == "recorded city"
    assert messages[4].text == "[uid 1 · user] I live in Lisbon, remember that."
    assert [(k, v) for k, v, _, _ in session.transcript.knowledge(conversation.id)] == [("city", "Lisbon")]
    assert [
        (t.tool_name, t.status, t.call_uid, t.result_uid) for t in trajectory(session.database, conversation.id)
    ] == [("record_value", "ok", 2, 3), ("recall_history", "ok", 4, 5)]
    assert result.answer == "Noted: Lisbon." and result.usage.completion_tokens > 8
    # each round saw the previous call and its result
    assert [m.role for m in model.calls[2][-4:]] == ["assistant", "tool", "assistant", "tool"]
    assert model.calls[2][-1].tool_call_id == messages[4].tool_call_id


def test_recorded_values_name_the_call_message_that_recorded_them(session: Session) -> None:
    model = FakeModel([Step("tool_call", tool_name="record_value", arguments='{"key": "city", "value": "Lisbon"}'),
                       Step("tool_call", tool_name="record_value", arguments='{"key": "port", "value": "8443"}'),
                       Step("text", "Noted both.")])
    service = ChatService(session, model, provider="fake")
    conversation = session.transcript.create_conversation()
    service.send(conversation.id, "I live in Lisbon; the service listens on 8443.")
    calls = {m.uid: m.tool_arguments for m in session.transcript.messages(conversation.id)
             if m.role == "assistant" and m.tool_name}
    recorded = {key: uid for key, _, uid, _ in session.transcript.knowledge(conversation.id)}
    assert recorded == {"city": 2, "port": 4} and '"city"' in calls[2] and '"port"' in calls[4]


@pytest.mark.parametrize("arguments, reason", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "JSON object"),
    ('{"uid_start": "one", "uid_end": 2}', "uid_start must be an integer"),
    ('{"uid_start": 5, "uid_end": 2}', "must not be before"),
    ('{"uid_start": 1, "uid_end": 100000}', "at most"),
])
def test_garbage_tool_arguments_become_tool_errors(session: Session, arguments: str, reason: str) -> None:
    model = FakeModel([Step("tool_call", tool_name="recall_history", arguments=arguments), Step("text", "sorry")])
    service = ChatService(session, model, provider="fake")
    conversation = session.transcript.create_conversation()
    result = service.send(conversation.id, "look back")
    tool_message = session.transcript.messages(conversation.id)[2]
    assert tool_message.role == "tool" and tool_message.text.startswith("error:") and reason in tool_message.text
    assert result.status == "completed" and result.answer == "sorry"


def test_unknown_tool_and_bad_document(session: Session) -> None:
    model = FakeModel([Step("tool_call", tool_name="format_disk", arguments="{}"),
                       Step("tool_call", tool_name="read_document",
                            arguments='{"snapshot": "deadbeefdeadbeef", "offset": 0, "length": 10}'),
                       Step("text", "done")])
    service = ChatService(session, model, provider="fake")
    conversation = session.transcript.create_conversation()
    service.send(conversation.id, "go")
    results = [m.text for m in session.transcript.messages(conversation.id) if m.role == "tool"]
    assert results == ["error: there is no tool named 'format_disk'",
                       "error: no document in this conversation has that snapshot id"]


def test_read_document_reads_attached_snapshot(session: Session) -> None:
    from mfs_desktop.store.models import MessageDraft

    conversation = session.transcript.create_conversation()
    blob = session.attachments.put(b"line one\nline two\nline three", name="notes.txt")
    session.transcript.append(conversation.id, [MessageDraft("user", "here", origin="document",
                                                             attachment_sha256=blob.sha256)])
    model = FakeModel([Step("tool_call", tool_name="read_document",
                            arguments=f'{{"snapshot": "{blob.sha256[:12]}", "offset": 9, "length": 8}}'),
                       Step("text", "read it")])
    ChatService(session, model, provider="fake").send(conversation.id, "what is on line two?")
    tool_message = [m for m in session.transcript.messages(conversation.id) if m.role == "tool"][0]
    assert tool_message.text == "[characters 9–17 of 28]\nline two"


def test_tool_rounds_are_bounded(session: Session) -> None:
    calls = [
        Step("tool_call", tool_name="record_value", arguments=f'{{"key": "k{i}", "value": "v"}}') for i in range(6)
    ]
    model = FakeModel([*calls, Step("text", "final")])
    service = ChatService(session, model, provider="fake", max_tool_rounds=2)
    conversation = session.transcript.create_conversation()
    result = service.send(conversation.id, "loop forever")
    assert sum(1 for m in session.transcript.messages(conversation.id) if m.role == "tool") == 2
    assert result.status == "completed"


def test_edit_and_resend_starts_a_new_epoch_and_answers_the_edit(session: Session) -> None:
    service = ChatService(session, FakeModel(), provider="fake", use_tools=False)
    conversation = session.transcript.create_conversation()
    first = service.send(conversation.id, "first question")
    service.send(conversation.id, "second question")
    result = service.edit_and_resend(conversation.id, first.user_uid, "first question, better put")
    shown = session.transcript.messages(conversation.id)
    assert [m.text for m in shown] == ["first question, better put",
                                       "(fake model) You said 4 words: first question, better put"]
    assert session.transcript.conversation(conversation.id).epoch == 2
    assert len(session.transcript.messages(conversation.id, include_retracted=True)) == 6
    assert result.status == "completed"
    with pytest.raises(InvalidInput):
        service.edit_and_resend(conversation.id, result.answer_uid, "not mine")
    service.close()


def test_a_five_megabyte_message_is_refused_before_anything_is_stored(session: Session) -> None:
    service = ChatService(session, FakeModel(), provider="fake")
    conversation = session.transcript.create_conversation()
    with pytest.raises(InvalidInput, match="too long for this model's window"):
        service.send(conversation.id, "x" * 5_000_000)
    with pytest.raises(InvalidInput, match="too long"):
        service.send(conversation.id, "word " * 5000)
    assert session.transcript.messages(conversation.id) == []
    service.close()


@pytest.mark.parametrize("memory_mode", ["automatic", "off"])
def test_invariant_11_a_not_sent_notice_counts_only_what_no_segment_covers(session: Session, memory_mode: str) -> None:
    """After compaction the oldest messages reach the model through their segment: no turn may
    warn that they were not sent. With memory off nothing covers them, and the warning is true."""
    from mfs_desktop.store.segments import SegmentStore

    service = ChatService(session, FakeModel(), provider="fake", window=2048, use_tools=False,
                          sampling=SamplingSettings(max_tokens=48))
    conversation = session.transcript.create_conversation()
    session.transcript.set_memory_mode(conversation.id, memory_mode)
    results = []
    for index in range(40):
        results.append(service.send(conversation.id, f"turn {index}: the walk by the river took {index} minutes "
                                    + "and we talked about the old bakery near the station " * 3))
        service.precompactor.wait(conversation.id)
    service.close()
    block = SegmentStore(session.database).read_block(conversation.id)[3]
    if memory_mode == "automatic":
        assert block, "the chat was long enough to compact"
        assert [r.messages_left_out for r in results] == [0] * 40, "covered messages are not 'not sent'"
    else:
        frozen = GenerationStore(session.database).get(results[-1].generation_id)
        first_sent = thaw(frozen.snapshot, frozen.fingerprint).view.first_uid
        assert not block and first_sent > 1
        assert results[-1].messages_left_out == first_sent - 1, "every message before the view, none covered"


def test_an_ordinary_turn_reads_the_transcript_once_and_builds_one_view(session: Session, monkeypatch) -> None:
    """Issue 28 item 1: below the warn line a turn reads the transcript once, assembles and
    counts its send view once, freezes it, runs and commits; the after-answer check of the
    pressure counts the frozen view plus the answer instead of assembling again."""
    import mfs_desktop.services.conversation.chat as chat_module

    service = ChatService(session, FakeModel(), provider="fake")
    conversation = session.transcript.create_conversation()
    service.send(conversation.id, "the first turn seeds the slot")
    reads, builds = [], []
    original_messages, original_build = session.transcript.messages, chat_module.build_send_view
    monkeypatch.setattr(session.transcript, "messages", lambda *a, **k: reads.append(a) or original_messages(*a, **k))
    monkeypatch.setattr(chat_module, "build_send_view", lambda *a, **k: builds.append(1) or original_build(*a, **k))
    for index in range(3):
        reads.clear()
        builds.clear()
        result = service.send(conversation.id, f"ordinary turn {index}")
        assert result.status == "completed" and service.last_report.pressure < service.profile.warn
        assert (len(reads), len(builds)) == (1, 1), (reads, builds)
    service.close()
