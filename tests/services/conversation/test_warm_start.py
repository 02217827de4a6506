"""Warm start with the real bundled model: a saved KV cache, sealed, validated, evicted, and a
reopened conversation answering from it in a new process."""

from __future__ import annotations

import json
import logging
import re
import threading
from pathlib import Path

import pytest

from mfs_desktop.runtime.embedded import EmbeddedModel
from mfs_desktop.runtime.model_files import default_model_path
from mfs_desktop.runtime.protocol import SamplingSettings
from mfs_desktop.services.conversation.chat import ChatService
from mfs_desktop.services.session import Session
from mfs_desktop.store.kv_states import FOLDER, sweep
from tests.conftest import run_cli

WINDOW = 2048
SHORT = SamplingSettings(max_tokens=6, temperature=0.0)
WORD = "Zanzibarquartz"  # appears in the conversation; must appear in no file on disk


@pytest.fixture(scope="module")
def model_path() -> Path:
    return default_model_path()


def _service(session: Session, cap: int = 2 << 30, *, tools: bool = False) -> ChatService:
    model = EmbeddedModel(default_model_path(), n_ctx=WINDOW)
    return ChatService(session, model, provider="embedded", window=WINDOW, sampling=SHORT, use_tools=tools,
                       cache_bytes=cap)


def _talk(service: ChatService, turns: int = 3) -> str:
    conversation = service.session.transcript.create_conversation().id
    for turn in range(turns):
        service.send(conversation, f"Note {turn}: the {WORD} crate {turn} sits on shelf {turn * 7}. " * 8)
    service.warm_start.keep()  # as when the model moves on to another conversation
    service.warm_start.flush()
    return conversation


def test_a_reopened_conversation_answers_from_its_saved_cache(session: Session) -> None:
    first = _service(session)
    conversation = _talk(first)
    first.close()
    second = _service(session)  # a new model, as in a new process: its cache is empty
    warmed = second.warm(conversation)
    assert warmed.restored_tokens > 500 and warmed.evaluated_tokens < 60
    result = second.send(conversation, "Which shelf holds crate 2?")
    usage = result.usage
    assert usage.prompt_tokens_reused / usage.prompt_tokens >= 0.9, usage
    second.close()


def test_every_file_in_the_data_folder_is_sealed(session: Session) -> None:
    service = _service(session)
    _talk(service)
    service.close()
    session.database.checkpoint()
    files = [p for p in session.data_dir.root.rglob("*") if p.is_file()]
    assert any(p.parent.name == FOLDER for p in files)
    for path in files:
        data = path.read_bytes()
        assert WORD.encode() not in data and WORD.encode("utf-16-le") not in data, path
        assert not data.startswith(b"SQLite format 3"), path
        if path.parent.name == FOLDER:
            assert data.startswith(b"MFSKV3")


def test_a_damaged_or_foreign_cache_is_ignored_and_never_used(session: Session, caplog) -> None:
    service = _service(session)
    one, two = _talk(service, 2), _talk(service, 2)
    service.close()
    folder = session.data_dir.root / FOLDER
    row = dict(session.database.connection().execute("SELECT conversation_id, file_name FROM kv_states"))
    damaged = folder / row[one]
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    # two's file under one's name: sealed for another conversation, so it must not open as one's
    session.database.write(lambda c: c.execute("UPDATE kv_states SET file_name = ? WHERE conversation_id = ?",
                                               (row[two], two)))
    reopened = _service(session)
    with caplog.at_level(logging.WARNING):
        warmed = reopened.warm(one)
    assert warmed.restored_tokens == 0 and "does not authenticate" in caplog.text
    assert session.database.connection().execute(
        "SELECT count(*) FROM kv_states WHERE conversation_id = ?", (one,)).fetchone()[0] == 0
    answer = reopened.send(one, "And the shelf of crate 1?")
    assert answer.status == "completed"  # answered from a full prefill instead
    reopened.close()


def test_another_window_does_not_use_the_cache(session: Session) -> None:
    service = _service(session)
    conversation = _talk(service, 2)
    service.close()
    other = ChatService(session, EmbeddedModel(default_model_path(), n_ctx=WINDOW * 2), provider="embedded",
                        window=WINDOW * 2, sampling=SHORT, use_tools=False)
    assert other.warm(conversation).restored_tokens == 0
    other.close()


def test_the_cap_evicts_the_least_recently_used_and_trash_drops_the_cache(session: Session) -> None:
    service = _service(session)
    older = _talk(service, 1)
    size = session.database.connection().execute("SELECT bytes FROM kv_states").fetchone()[0]
    service.warm_start.store.cap_bytes = int(size * 1.5)
    newer = _talk(service, 1)
    kept = [row[0] for row in session.database.connection().execute("SELECT conversation_id FROM kv_states")]
    assert kept == [newer] and older != newer
    session.transcript.trash(newer)
    assert session.database.connection().execute("SELECT count(*) FROM kv_states").fetchone()[0] == 0
    service.close()
    assert sweep(session.database) == 1 and not list((session.data_dir.root / FOLDER).iterdir())


def test_a_warm_up_stops_when_cancelled(session: Session) -> None:
    service = _service(session)
    conversation = _talk(service, 3)
    service.model.clear_cache()
    service.warm_start.holding = None
    session.database.write(lambda c: c.execute("DELETE FROM kv_states"))
    stop = threading.Event()
    stop.set()
    warmed = service.warm(conversation, stop)
    assert warmed.evaluated_tokens == 0
    assert service.warm(conversation).evaluated_tokens > 500  # not cancelled: the whole prefix
    service.close()


def test_chat_in_a_new_process_reuses_the_saved_cache(tmp_path) -> None:
    data = tmp_path / "data"
    started = run_cli("chat", "--json", "--max-tokens", "4", f"Remember: the {WORD} key is 4417. " * 20,
                      data_dir=data)
    assert started.returncode == 0, started.stderr
    conversation = json.loads(started.stdout)["conversation_id"]
    again = run_cli("-v", "chat", "--conversation", conversation, "--json", "--max-tokens", "4", "What is the key?",
                    data_dir=data)
    assert again.returncode == 0, again.stderr
    restored = int(re.search(r"warmed: (\d+) tokens restored", again.stderr).group(1))
    usage = json.loads(again.stdout)["usage"]
    assert restored > 300 and usage["prompt_tokens_reused"] / usage["prompt_tokens"] >= 0.9, (restored, usage)


def test_the_window_warms_an_opened_conversation_from_its_saved_cache(qtbot, session: Session) -> None:
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from mfs_desktop.services.models.choice import ModelChoice
    from mfs_desktop.ui.window.main_window import MainWindow

    first = _service(session, tools=True)  # as the window's service runs: with its tools
    conversation = _talk(first, 2)
    first.close()
    window = MainWindow(session, ModelChoice("embedded", None, WINDOW))
    qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
    seen: list = []
    window.show()
    qtbot.waitUntil(lambda: window.model_ready, timeout=60_000)
    window.worker.warmed.connect(lambda cid, warmed: seen.append((cid, warmed)))
    window.refresh_conversations(select=conversation)
    window.open_requested.emit(conversation)
    qtbot.waitUntil(lambda: any(cid == conversation and w is not None for cid, w in seen), timeout=60_000)
    warmed = next(w for cid, w in seen if cid == conversation and w is not None)
    assert warmed.restored_tokens > 300
    qtbot.waitUntil(lambda: window.usage_label.text().endswith("context ready"), timeout=10_000)


class _Copies:
    """A model that only hands out numbered cache copies (what WarmStart asks of it here)."""

    identity, window, made = "m", 2048, 0
    warm = restore_cache = None

    def snapshot_cache(self):
        from mfs_desktop.runtime.kv_cache import CacheSnapshot

        self.made += 1
        return CacheSnapshot("m", 2048, (1, 2, self.made), f"text {self.made}", b"state" * 10)


def _gated(warm) -> tuple[threading.Event, list]:
    gate, saved = threading.Event(), []
    real_save = warm.store.save

    def slow_save(conversation_id, pieces, model_id, window, tokens):
        gate.wait(10)
        saved.append((conversation_id, b"".join(pieces)))
        return real_save(conversation_id, pieces, model_id, window, tokens)

    warm.store.save = slow_save
    return gate, saved


def test_a_conversation_is_kept_once_when_the_model_leaves_it_not_after_every_answer(session: Session) -> None:
    from mfs_desktop.runtime.kv_cache import unseal
    from mfs_desktop.services.conversation.warm_start import WarmStart

    one, two = session.transcript.create_conversation().id, session.transcript.create_conversation().id
    warm = WarmStart(session.database, _Copies())
    gate, saved = _gated(warm)
    gate.set()
    for _ in range(4):
        warm.after_answer(one)
        warm.before_use(one)  # the next turn of the same conversation: nothing to keep yet
    warm.flush()
    assert saved == []
    warm.before_use(two)  # the model moves to another conversation: the first is kept, once
    warm.after_answer(two)
    warm.flush()
    assert [cid for cid, _ in saved] == [one]
    warm.before_use(two)
    warm.close()  # closing keeps the one held, answered since its last copy
    assert [cid for cid, _ in saved] == [one, two]
    assert unseal(saved[1][1], warm._key, two).text == "text 2"


def test_copies_quicker_than_the_disk_keep_only_the_newest_waiting(session: Session) -> None:
    """Each copy of a long conversation's cache is tens of MB: copies waiting for the writer
    are replaced, one per conversation, not queued."""
    from mfs_desktop.runtime.kv_cache import unseal
    from mfs_desktop.services.conversation.warm_start import WarmStart

    one, two = session.transcript.create_conversation().id, session.transcript.create_conversation().id
    warm = WarmStart(session.database, _Copies())
    gate, saved = _gated(warm)
    for _ in range(5):  # back and forth between two conversations, an answer in each
        warm.after_answer(one)
        warm.before_use(two)
        warm.after_answer(two)
        warm.before_use(one)
    gate.set()
    warm.close()
    assert 2 <= len(saved) <= 3  # the first may already be on its way; the rest coalesce per conversation
    newest = {cid: unseal(blob, warm._key, cid).text for cid, blob in saved}
    assert newest == {one: "text 9", two: "text 10"}  # the newest copy of each is the one kept
