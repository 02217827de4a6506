"""Pinned standing instructions: the channel that needs no guessing (DESIGN section 5, zone 2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import open_test_session, run_cli

from mfs_desktop.context.send_view import DATA_OPEN
from mfs_desktop.errors import InvalidInput, NotFound
from mfs_desktop.runtime.fake import FakeModel
from mfs_desktop.runtime.protocol import SamplingSettings
from mfs_desktop.services.conversation.chat import ChatService
from mfs_desktop.services.conversation.pins import change_pin
from mfs_desktop.services.session import Session
from mfs_desktop.store.ledger import entries
from mfs_desktop.store.models import MessageDraft
from mfs_desktop.store.segments import SegmentStore

RULE = "记住，周五不要给我安排会议，所有脚本一律用 LF 换行。"


def _data_block(model: FakeModel) -> str:
    return next(m.content for m in model.calls[-1] if m.role == "user" and m.content.startswith(DATA_OPEN))


def _chat(session: Session, window: int = 2048):
    model = FakeModel()
    service = ChatService(session, model, provider="fake", window=window, use_tools=False,
                          sampling=SamplingSettings(max_tokens=32))
    return model, service


def test_invariant_5_a_pinned_message_rides_verbatim_through_300_turns_and_folds(session: Session) -> None:
    model, service = _chat(session)
    conversation = session.transcript.create_conversation()
    pinned = service.send(conversation.id, RULE)
    service.send(conversation.id, "Hallo, wie geht's?")
    change = change_pin(session, conversation.id, pinned.user_uid, True, service.window)
    assert change.note == "pinned: the next reply re-reads the context"
    assert entries(session.database, conversation.id)[-1].event == "pin"
    blocks = []
    for index in range(300):
        service.send(conversation.id, f"turn {index}: the walk took {index} minutes, then we talked about bread.")
        service.precompactor.wait(conversation.id)
        blocks.append(_data_block(model))
        assert RULE in blocks[-1], f"turn {index}: the pinned message is in the knowledge slot, word for word"
    service.close()
    assert SegmentStore(session.database).read_block(conversation.id)[3], "the talk was folded meanwhile"
    events = sum(1 for entry in entries(session.database, conversation.id) if entry.event in ("compaction", "pin"))
    changes = sum(1 for before, after in zip(blocks, blocks[1:], strict=False) if after != before)
    assert changes <= events, "the slot and block change only with an event: ordinary turns keep their prefix"


def test_unpin_takes_it_out_and_is_an_event(session: Session) -> None:
    model, service = _chat(session, window=8192)
    conversation = session.transcript.create_conversation()
    first = service.send(conversation.id, "Stick to metric units with me.")
    change_pin(session, conversation.id, first.user_uid, True, service.window)
    service.send(conversation.id, "How far is it to Lyon?")
    assert "Stick to metric units with me." in _data_block(model)
    change = change_pin(session, conversation.id, first.user_uid, False, service.window)
    assert change.note.startswith("unpinned") and entries(session.database, conversation.id)[-1].event == "unpin"
    service.send(conversation.id, "And to Turin?")
    assert all("Stick to metric" not in m.content for m in model.calls[-1] if m.content.startswith(DATA_OPEN))
    service.close()


def test_what_cannot_be_pinned_is_refused_in_plain_words_and_changes_nothing(session: Session) -> None:
    model, service = _chat(session, window=2048)
    conversation = session.transcript.create_conversation()
    answered = service.send(conversation.id, "Please answer in German.")
    with pytest.raises(InvalidInput, match="only your own messages"):
        change_pin(session, conversation.id, answered.answer_uid, True, service.window)
    with pytest.raises(NotFound):
        change_pin(session, conversation.id, 999, True, service.window)
    with pytest.raises(InvalidInput, match="not pinned"):
        change_pin(session, conversation.id, answered.user_uid, False, service.window)
    long = service.send(conversation.id, "Bitte beachte immer Folgendes: " + "Regel " * 260)
    with pytest.raises(InvalidInput, match="cannot be pinned.*10% of the 2,048-token window"):
        change_pin(session, conversation.id, long.user_uid, True, service.window)
    before = SegmentStore(session.database).block_state(conversation.id)
    assert not [e for e in entries(session.database, conversation.id) if e.event in ("pin", "unpin")]
    assert "Regel" not in before[1], "a refused pin leaves the slot as it was"
    service.close()


def test_cli_pin_and_unpin(data_root: Path) -> None:
    session = open_test_session(data_root)
    conversation = session.transcript.create_conversation()
    session.transcript.append(conversation.id, [MessageDraft("user", "以后回答请尽量简短。")])
    session.transcript.append(conversation.id, [MessageDraft("assistant", "好的。")])
    session.close()
    pinned = run_cli("pin", "--conversation", conversation.id, "--uid", "1", data_dir=data_root)
    assert pinned.returncode == 0, pinned.stderr
    assert "pinned: the next reply re-reads the context" in pinned.stdout
    inspected = run_cli("inspect", "--conversation", conversation.id, "--payload", data_dir=data_root)
    assert "以后回答请尽量简短。" in inspected.stdout.split("<|im_start|>user", 2)[1]
    for args, said in ((("--uid", "2"), "only your own messages"), (("--uid", "7"), "No message 7")):
        refused = run_cli("pin", "--conversation", conversation.id, *args, data_dir=data_root)
        assert refused.returncode != 0 and said in refused.stderr and "Traceback" not in refused.stderr
    unpinned = run_cli("unpin", "--conversation", conversation.id, "--uid", "1", data_dir=data_root)
    assert unpinned.returncode == 0 and "unpinned" in unpinned.stdout
    again = run_cli("unpin", "--conversation", conversation.id, "--uid", "1", data_dir=data_root)
    assert again.returncode != 0 and "not pinned" in again.stderr
