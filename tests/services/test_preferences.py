"""Preferences (settings the window edits) and the user's profile in the knowledge slot (DESIGN §5)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mfs_desktop.errors import EnvironmentFault
from mfs_desktop.runtime.fake import FakeModel
from mfs_desktop.runtime.model_files import default_model_path
from mfs_desktop.services.conversation.chat import ChatService
from mfs_desktop.services.preferences import Preferences, load_preferences, save_preferences
from mfs_desktop.services.session import Session


def test_preferences_round_trip_and_default_to_the_bundled_model(session: Session) -> None:
    assert load_preferences(session.database) == Preferences()
    assert Preferences().model_choice().model_path is None  # the bundled GGUF
    saved = save_preferences(
        session.database,
        Preferences(
            model_path=str(default_model_path()),
            window=4096,
            threads=2,
            send_key="ctrl+enter",
            profile_text="  I am Ada. ",
        ),
    )
    assert saved.profile_text == "I am Ada."
    assert load_preferences(session.database) == saved
    assert saved.model_choice().window == 4096 and saved.model_choice().threads == 2


@pytest.mark.parametrize(("change", "words"), [
    ({"model_path": "/nonexistent/model.gguf"}, "does not exist"),
    ({"window": 100}, "between 512"),
    ({"send_key": "space"}, "send key"),
    ({"profile_text": "x" * 5000}, "limited to 4,000"),
    ({"provider": "cloud"}, "Unknown model provider"),
])
def test_bad_preferences_are_refused_plainly_and_nothing_is_saved(session: Session, change: dict, words: str) -> None:
    with pytest.raises(EnvironmentFault, match=words):
        save_preferences(session.database, replace(Preferences(), **change))
    assert load_preferences(session.database) == Preferences()


def test_a_file_that_is_not_gguf_is_refused(session: Session, tmp_path) -> None:
    fake = tmp_path / "notes.gguf"
    fake.write_text("hello")
    with pytest.raises(EnvironmentFault, match="not a GGUF"):
        save_preferences(session.database, Preferences(model_path=str(fake)))


def _data_block(model: FakeModel, call: int) -> str:
    return next(m.content for m in model.calls[call] if m.role == "user" and "[knowledge slot]" in m.content)


def test_profile_reaches_a_new_conversation_at_once_and_an_ongoing_one_never_mid_prefix(session: Session) -> None:
    model = FakeModel()
    service = ChatService(session, model, provider="fake")
    ongoing = session.transcript.create_conversation()
    service.send(ongoing.id, "hello before any profile")
    save_preferences(session.database, Preferences(profile_text="I am Ada; I write Rust at work."))
    fresh = session.transcript.create_conversation()
    service.send(fresh.id, "hello with a profile")
    assert "I am Ada; I write Rust at work." in _data_block(model, 1)
    service.send(ongoing.id, "second turn")
    # The ongoing conversation's prefix is byte-stable: the slot waits for its next compaction.
    assert model.calls[2][: len(model.calls[0])] == model.calls[0]
    assert not any("I am Ada" in m.content for m in model.calls[2])


def test_user_edits_recorded_values(session: Session) -> None:
    conversation = session.transcript.create_conversation()
    session.transcript.set_knowledge(conversation.id, "editor", "vim")
    session.transcript.set_knowledge(conversation.id, "editor", "helix")
    session.transcript.set_knowledge(conversation.id, "city", "Lyon")
    assert [(k, v, uid) for k, v, uid, _ in session.transcript.knowledge(conversation.id)] == [
        ("city", "Lyon", None), ("editor", "helix", None)]
    session.transcript.delete_knowledge(conversation.id, "city")
    assert [k for k, _, _, _ in session.transcript.knowledge(conversation.id)] == ["editor"]
    with pytest.raises(EnvironmentFault, match="name and a value"):
        session.transcript.set_knowledge(conversation.id, "empty", " ")
