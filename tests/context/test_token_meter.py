"""S0 token accounting for endpoints that count only with their answers (DESIGN section 6):
anchor + calibrated estimate of what was appended, reset on a structural change, stored."""

from __future__ import annotations

from pathlib import Path

from conftest import open_test_session

from mfs_desktop.runtime.fake import FakeModel
from mfs_desktop.services.conversation.chat import ChatService
from mfs_desktop.store.anchors import AnchorStore

SCALE = 1.3  # the "endpoint's" tokenizer makes 30% more tokens than our estimate


def _remote(session) -> ChatService:
    return ChatService(session, FakeModel(remote_token_scale=SCALE), provider="remote", use_tools=False)


def _turn(service: ChatService, conversation: str, turn: int) -> tuple[int, int]:
    """(what the meter counted for the frozen request, what the endpoint reported for it)"""
    text = f"Turn {turn}: the build at /srv/app-{turn} failed with exit code {turn * 7}; " + "why? " * (turn + 3)
    result = service.send(conversation, text)
    return service.last_report.tokens, result.usage.prompt_tokens


def test_anchor_plus_calibrated_increment_tracks_the_endpoints_count(session) -> None:
    service = _remote(session)
    conversation = session.transcript.create_conversation().id
    counted = [_turn(service, conversation, turn) for turn in range(8)]
    errors = [abs(mine - real) / real for mine, real in counted]
    assert errors[0] > 0.15, "before any answer there is only the estimate"
    assert max(errors[3:]) < 0.03, errors
    anchor = AnchorStore(session.database).load(conversation)
    assert anchor is not None and anchor.exact_tokens == counted[-1][1]
    assert 1.15 < anchor.k <= SCALE + 0.01, "the EMA moves k towards the endpoint's real ratio"
    assert service.meter.basis(conversation, service.view(conversation)[0].messages) == "anchored"


def test_structural_change_falls_back_to_the_estimate_until_the_next_answer(session) -> None:
    service = _remote(session)
    conversation = session.transcript.create_conversation().id
    for turn in range(3):
        _turn(service, conversation, turn)
    first_user = session.transcript.messages(conversation)[0]
    session.transcript.edit_message(conversation, first_user.uid, "An edited first message.")
    view, _ = service.view(conversation)
    assert service.meter.basis(conversation, view.messages) == "estimated"
    _turn(service, conversation, 3)
    assert service.meter.basis(conversation, service.view(conversation)[0].messages) == "anchored"


def test_anchor_survives_a_restart_and_is_preheated(data_root: Path) -> None:
    session = open_test_session(data_root)
    service = _remote(session)
    conversation = session.transcript.create_conversation().id
    for turn in range(4):
        _turn(service, conversation, turn)
    before = service.view(conversation)[1].tokens
    service.close()
    session.close()

    session = open_test_session(data_root)
    try:
        service = _remote(session)
        report = service.open_conversation(conversation)
        assert report is not None and report.tokens == before
        assert service.meter.basis(conversation, service.view(conversation)[0].messages) == "anchored"
        service.close()
    finally:
        session.close()


def test_exact_models_are_asked_directly(session) -> None:
    service = ChatService(session, FakeModel(), provider="fake", use_tools=False)
    conversation = session.transcript.create_conversation().id
    result = service.send(conversation, "hello")
    assert service.last_report.tokens == result.usage.prompt_tokens
    assert AnchorStore(session.database).load(conversation) is None
