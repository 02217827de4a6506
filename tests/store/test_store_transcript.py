"""The canonical transcript: append-only (invariant 1), epochs and lineages, trash and retention."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import sqlcipher3

from mfs_desktop.errors import InvalidInput
from mfs_desktop.services.session import Session
from mfs_desktop.store.database import Connection
from mfs_desktop.store.models import MessageDraft, sha256_text
from mfs_desktop.store.retention import DAY, apply_retention, empty_trash


def _turn(session: Session, conversation_id: str, question: str, answer: str) -> None:
    session.transcript.append(conversation_id, [MessageDraft("user", question), MessageDraft("assistant", answer)])


def _tool_turn(session: Session, conversation_id: str, question: str, tool: str, arguments: str, answer: str) -> None:
    session.transcript.append(conversation_id, [
        MessageDraft("user", question),
        MessageDraft("assistant", "", tool_name=tool, tool_arguments=arguments, tool_call_id="c1"),
        MessageDraft("tool", "result", tool_name=tool, tool_call_id="c1"),
        MessageDraft("assistant", answer),
    ])


def test_append_assigns_uids_turns_hashes_and_title(session: Session) -> None:
    conversation = session.transcript.create_conversation()
    _turn(session, conversation.id, "Plan a trip to Lisbon\nin May", "Sure.")
    _tool_turn(session, conversation.id, "Which train?", "record_value", '{"key": "city"}', "The 8:05.")
    messages = session.transcript.messages(conversation.id)
    assert [m.uid for m in messages] == [1, 2, 3, 4, 5, 6]
    assert [m.turn_ordinal for m in messages] == [1, 1, 2, 2, 2, 2]
    assert all(m.text_sha256 == sha256_text(m.text) for m in messages)
    assert [m.origin for m in messages] == ["own", "model", "own", "model", "tool", "model"]
    refreshed = session.transcript.conversation(conversation.id)
    assert refreshed.title == "Plan a trip to Lisbon"
    assert refreshed.transcript_revision == 2
    assert session.transcript.list_conversations()[0].turns == 2


def test_conversation_must_start_with_user_message(session: Session) -> None:
    conversation = session.transcript.create_conversation()
    with pytest.raises(InvalidInput):
        session.transcript.append(conversation.id, [MessageDraft("assistant", "hello")])
    assert session.transcript.messages(conversation.id) == []


def test_invariant_1_triggers_refuse_update_and_delete_of_messages(session: Session) -> None:
    conversation = session.transcript.create_conversation()
    _turn(session, conversation.id, "original words", "reply")
    for statement in (
        "UPDATE messages SET text = 'rewritten'",
        "UPDATE messages SET text_sha256 = text_sha256",
        "UPDATE messages SET turn_ordinal = 9",
        "DELETE FROM messages",
        "DELETE FROM conversations",
    ):
        with pytest.raises(sqlcipher3.IntegrityError):
            session.database.write(lambda connection: connection.execute(statement))  # noqa: B023 (runs now)
    with pytest.raises(sqlcipher3.IntegrityError, match="monotonic"):
        session.database.write(lambda connection: connection.execute(
            "INSERT INTO messages (conversation_id, uid, turn_ordinal, role, origin, text, text_sha256, created_at, "
            "epoch) VALUES (?, 1, 1, 'user', 'own', 'x', ?, 0, 1)",
            (conversation.id, "0" * 64),
        ))
    assert [m.text for m in session.transcript.messages(conversation.id)] == ["original words", "reply"]


def test_invariant_6_frozen_snapshot_cannot_change(session: Session) -> None:
    conversation = session.transcript.create_conversation()

    def freeze_and_complete(connection: Connection) -> None:
        connection.execute(
            "INSERT INTO generations (id, conversation_id, user_uid, epoch, lineage_id, snapshot, fingerprint, "
            "created_at) VALUES ('g1', ?, 1, 1, 'l', x'00', ?, 0)", (conversation.id, "a" * 64))
        connection.execute("UPDATE generations SET status = 'completed' WHERE id = 'g1'")

    session.database.write(freeze_and_complete)
    with pytest.raises(sqlcipher3.IntegrityError, match="frozen"):
        session.database.write(lambda connection: connection.execute(
            "UPDATE generations SET snapshot = x'01' WHERE id = 'g1'"))


def test_edit_rewinds_in_a_new_epoch_and_lineage_keeping_originals(session: Session) -> None:
    conversation = session.transcript.create_conversation()
    for index in range(3):
        _turn(session, conversation.id, f"q{index}", f"a{index}")
    before = session.transcript.conversation(conversation.id)
    edited = session.transcript.edit_message(conversation.id, 3, "q1 but better")
    after = session.transcript.conversation(conversation.id)
    assert after.epoch == before.epoch + 1 and after.lineage_id != before.lineage_id
    assert edited.uid == 7 and edited.turn_ordinal == 2 and edited.edit_of_uid == 3 and edited.epoch == after.epoch
    assert [m.text for m in session.transcript.messages(conversation.id)] == ["q0", "a0", "q1 but better"]
    assert [r.uid for r in session.transcript.retractions(conversation.id)] == [3, 4, 5, 6]
    stored = session.transcript.messages(conversation.id, include_retracted=True)
    assert [m.text for m in stored][:6] == ["q0", "a0", "q1", "a1", "q2", "a2"]
    session.transcript.append(conversation.id, [MessageDraft("assistant", "a1'")])
    assert session.transcript.messages(conversation.id)[-1].turn_ordinal == 2


def test_delete_takes_whole_turn_or_whole_answer(session: Session) -> None:
    conversation = session.transcript.create_conversation()
    _turn(session, conversation.id, "q0", "a0")
    _tool_turn(session, conversation.id, "q1", "recall_history", "{}", "a1")
    _turn(session, conversation.id, "q2", "a2")
    assert session.transcript.delete_message(conversation.id, 5) == [4, 5, 6]  # a tool result never loses its call
    assert [m.text for m in session.transcript.messages(conversation.id)] == ["q0", "a0", "q1", "q2", "a2"]
    assert session.transcript.delete_message(conversation.id, 1) == [1, 2]
    assert [m.text for m in session.transcript.messages(conversation.id)] == ["q1", "q2", "a2"]
    assert session.transcript.conversation(conversation.id).epoch == 3


def test_new_epoch_invalidates_old_segments_and_open_generations(session: Session) -> None:
    conversation = session.transcript.create_conversation()
    _turn(session, conversation.id, "q0", "a0")

    def segment_and_generation(connection: Connection) -> None:
        connection.execute(
            "INSERT INTO segments (id, conversation_id, epoch, lineage_id, uid_start, uid_end, state, source_digest, "
            "block_version, created_at) VALUES ('s1', ?, 1, ?, 1, 2, 'active', 'd', 0, 0)",
            (conversation.id, conversation.lineage_id))
        connection.execute(
            "INSERT INTO generations (id, conversation_id, user_uid, epoch, lineage_id, snapshot, fingerprint, "
            "created_at) VALUES ('g', ?, 1, 1, ?, x'00', ?, 0)", (conversation.id, conversation.lineage_id, "b" * 64))

    session.database.write(segment_and_generation)
    connection = session.database.connection()
    session.transcript.edit_message(conversation.id, 1, "q0 again")
    assert connection.execute("SELECT state FROM segments").fetchone()[0] == "invalidated"
    assert connection.execute("SELECT status FROM generations").fetchone()[0] == "abandoned"


def test_memory_back_on_starts_lineage_at_current_end(session: Session) -> None:
    conversation = session.transcript.create_conversation()
    _turn(session, conversation.id, "q0", "a0")
    session.transcript.set_memory_mode(conversation.id, "off")
    _turn(session, conversation.id, "q1", "a1")
    back = session.transcript.set_memory_mode(conversation.id, "automatic")
    assert back.lineage_base_uid == 4 and back.lineage_id != conversation.lineage_id
    assert back.preference_revision == 2 and back.epoch == conversation.epoch


def test_trash_restore_and_purge_after_seven_days(session: Session) -> None:
    keep = session.transcript.create_conversation()
    gone = session.transcript.create_conversation()
    _turn(session, gone.id, "delete me", "ok")
    session.transcript.trash(gone.id, now=1000.0)
    assert [c.id for c in session.transcript.list_conversations()] == [keep.id]
    assert [c.id for c in session.transcript.list_conversations(trashed=True)] == [gone.id]
    with pytest.raises(InvalidInput):
        _turn(session, gone.id, "more", "no")
    assert apply_retention(session.database, now=1000.0 + 7 * DAY - 1).conversations_purged == 0
    session.transcript.restore(gone.id)
    session.transcript.trash(gone.id, now=1000.0)
    assert apply_retention(session.database, now=1000.0 + 7 * DAY + 1).conversations_purged == 1
    assert session.database.connection().execute("SELECT count(*) FROM messages").fetchone()[0] == 0
    assert [c.id for c in session.transcript.list_conversations(trashed=True)] == []


def test_empty_trash_purges_now(session: Session) -> None:
    conversation = session.transcript.create_conversation()
    _turn(session, conversation.id, "q", "a")
    session.transcript.trash(conversation.id)
    assert empty_trash(session.database) == 1
    assert session.database.connection().execute("SELECT count(*) FROM conversations").fetchone()[0] == 0


def test_attachment_lives_while_referenced_plus_48_hours(session: Session) -> None:
    conversation = session.transcript.create_conversation()
    blob = session.attachments.put(b"report line 1\nline 2", name="r.txt", media_type="text/plain", now=0.0)
    assert blob.first_line == "report line 1" and blob.unreferenced_since == 0.0
    session.transcript.append(
        conversation.id, [MessageDraft("user", "see doc", origin="document", attachment_sha256=blob.sha256)]
    )
    assert session.attachments.info(blob.sha256).unreferenced_since is None
    assert apply_retention(session.database, now=10 * DAY).attachments_purged == 0
    session.transcript.trash(conversation.id)
    empty_trash(session.database)
    released = session.attachments.info(blob.sha256).unreferenced_since
    assert released is not None
    assert apply_retention(session.database, now=released + 47 * 3600).attachments_purged == 0
    assert apply_retention(session.database, now=released + 49 * 3600).attachments_purged == 1
    assert session.attachments.put(b"\x00\x01binary", now=0.0).first_line == "(binary content)"


def test_two_threads_append_to_different_conversations(session: Session) -> None:
    conversations = [session.transcript.create_conversation().id for _ in range(2)]
    errors: list[BaseException] = []

    def writer(conversation_id: str) -> None:
        try:
            for index in range(150):
                _turn(session, conversation_id, f"{conversation_id} q{index}", f"a{index}")
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(c,)) for c in conversations]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    for conversation_id in conversations:
        messages = session.transcript.messages(conversation_id)
        assert [m.uid for m in messages] == list(range(1, 301))
        assert all(m.text.startswith(conversation_id) for m in messages if m.role == "user")


def test_newest_page_pages_backwards(session: Session) -> None:
    conversation = session.transcript.create_conversation()
    for index in range(60):
        _turn(session, conversation.id, f"q{index}", f"a{index}")
    page = session.transcript.newest_page(conversation.id, limit=50)
    assert [m.uid for m in page] == list(range(71, 121))
    older = session.transcript.newest_page(conversation.id, limit=50, before_uid=page[0].uid)
    assert [m.uid for m in older] == list(range(21, 71))


def test_large_paste_and_nul_text(session: Session) -> None:
    conversation = session.transcript.create_conversation()
    paste = "x" * (5 * 1024 * 1024)
    session.transcript.append(conversation.id, [MessageDraft("user", paste)])
    assert session.transcript.messages(conversation.id)[0].text == paste
    with pytest.raises(InvalidInput, match="NUL"):
        session.transcript.append(conversation.id, [MessageDraft("user", "a\x00b")])


def test_migrated_schema_equals_fresh_schema_from_every_version(tmp_path: Path) -> None:
    from conftest import open_test_session

    from mfs_desktop.store.database import LATEST_VERSION, apply_migrations
    from mfs_desktop.store.search_text import search_text

    def schema(root: Path) -> list[tuple[str, str]]:
        session = open_test_session(root)
        rows = session.database.connection().execute(
            "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name").fetchall()
        version = session.database.connection().execute("PRAGMA user_version").fetchone()[0]
        session.close()
        assert version == LATEST_VERSION
        return rows

    fresh = schema(tmp_path / "fresh")
    # from 1: at version 0 the file is empty, and an empty file beside its key file is refused
    # (test_zero_byte_database_beside_its_key_file_is_refused_not_recreated)
    for start in range(1, LATEST_VERSION):
        root = tmp_path / f"from-{start}"
        session = open_test_session(root)  # creates at latest; rebuild an old one below
        session.close()
        (root / "transcript.db").unlink()
        key = session.database._key
        old = sqlcipher3.connect(str(root / "transcript.db"), isolation_level=None)
        old.execute(f"PRAGMA key = \"x'{key.hex()}'\"")
        old.create_function("mfs_search_text", 1, search_text)  # what every writing connection has (0012)
        apply_migrations(old, target=start)
        old.execute("INSERT INTO conversations (id, created_at, updated_at, lineage_id) VALUES ('c', 0, 0, 'l')")
        old.execute("INSERT INTO messages (conversation_id, uid, turn_ordinal, role, origin, text, text_sha256, "
                    "created_at, epoch) VALUES ('c', 1, 1, 'user', 'own', 'kept', ?, 0, 1)", (sha256_text("kept"),))
        old.close()
        assert schema(root) == fresh
        reopened = open_test_session(root)
        assert [m.text for m in reopened.transcript.messages("c")] == ["kept"]
        reopened.close()


def test_every_write_runs_on_one_writer_thread_and_readers_cannot_write(session: Session) -> None:
    """Issue 28 item 2: writes from the window, the turn, the pre-compactor and the tools go
    through one thread and one connection; each other thread reads through its own
    read-only connection, so a stray write cannot bypass the writer."""
    writers: set[int] = set()
    errors: list[BaseException] = []

    def append_from_a_thread(index: int) -> None:
        try:
            conversation = session.transcript.create_conversation(f"t{index}")
            _turn(session, conversation.id, f"q{index}", f"a{index}")
            writers.add(session.database.write(lambda connection: threading.get_ident()))
        except BaseException as exc:  # reported below: a thread's exception is otherwise lost
            errors.append(exc)

    threads = [threading.Thread(target=append_from_a_thread, args=(index,)) for index in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    assert len(writers) == 1 and threading.get_ident() not in writers, "one writer thread, not the callers"
    assert len(session.transcript.list_conversations()) == 12
    with pytest.raises(sqlcipher3.OperationalError, match="readonly"):
        session.database.connection().execute("DELETE FROM knowledge")


def test_a_failed_write_rolls_back_and_reaches_the_caller(session: Session) -> None:
    conversation = session.transcript.create_conversation()

    def half_then_fail(connection: Connection) -> None:
        connection.execute("UPDATE conversations SET title = 'half' WHERE id = ?", (conversation.id,))
        raise InvalidInput("refused midway")

    with pytest.raises(InvalidInput, match="refused midway"):
        session.database.write(half_then_fail)
    assert session.transcript.conversation(conversation.id).title == ""


def test_a_finished_thread_closes_its_reader(session: Session) -> None:
    """Issue 28: 20 threads that each read once left 20 connections open until close."""
    def read() -> None:
        session.transcript.list_conversations()

    threads = [threading.Thread(target=read) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    session.transcript.list_conversations()
    assert session.database.open_readers() == 1, "only this thread's reader is left"
    session.database.rekey(bytes(range(32)))  # closes this thread's reader; no other is open
    assert session.transcript.list_conversations() == []
