"""`mfs-desktop chat` as a person runs it, and a crash mid-stream followed by resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from conftest import PASSPHRASE, REPO, open_test_session, run_cli

from mfs_desktop.context.snapshot import thaw
from mfs_desktop.store.generations import GenerationStore


def test_chat_new_with_bundled_model_offline(data_root: Path) -> None:
    result = run_cli("chat", "--new", "--json", "--temperature", "0", "--max-tokens", "16", "hello", data_dir=data_root)
    assert result.returncode == 0, result.stderr
    reply = json.loads(result.stdout)
    assert reply["answer"].strip() and reply["status"] == "completed"
    assert reply["usage"]["prompt_tokens"] > 10 and reply["usage"]["completion_tokens"] > 0
    session = open_test_session(data_root)
    messages = session.transcript.messages(reply["conversation_id"])
    assert [m.text for m in messages] == ["hello", reply["answer"]]
    session.close()


def test_chat_plain_output_and_unknown_conversation(data_root: Path) -> None:
    result = run_cli("chat", "--provider", "fake", "three little words", data_dir=data_root)
    assert result.returncode == 0 and result.stdout.strip() == "(fake model) You said 3 words: three little words"
    missing = run_cli("chat", "--provider", "fake", "--conversation", "nope", "hi", data_dir=data_root)
    assert missing.returncode == 9 and "No conversation" in missing.stderr
    empty = run_cli("chat", "--provider", "fake", "   ", data_dir=data_root)
    assert empty.returncode == 10


def test_chat_output_shows_escapes_and_overrides_instead_of_obeying_them(data_root: Path) -> None:
    """Issue 34 item 4: a model (or an echo of the user) cannot drive the terminal."""
    script = json.dumps([{"kind": "text", "text": "red \x1b[31malert\x1b[0m and \u202eexe.txt"}])
    result = run_cli("chat", "--provider", "fake", "hi", data_dir=data_root, MFS_FAKE_SCRIPT=script)
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "\u202e" not in result.stdout
    assert "red ␛[31malert␛[0m and ⟨U+202E⟩exe.txt" in result.stdout
    refused = run_cli("chat", "--provider", "fake", "broken \udcff text", data_dir=data_root)
    assert refused.returncode == 10 and "not valid text" in refused.stderr
    session = open_test_session(data_root)
    assert len(session.transcript.list_conversations()) == 1, "the refused message left no empty conversation"
    session.close()


def test_interactive_loop_with_regenerate(data_root: Path) -> None:
    environment = {
        **os.environ,
        "MFS_PASSPHRASE": PASSPHRASE,
        "MFS_KEY_STORE": "passphrase",
        "MFS_FAKE_SCRIPT": json.dumps([{"kind": "text", "text": "first"}, {"kind": "text", "text": "second"}]),
    }
    result = subprocess.run(
        [sys.executable, "-m", "mfs_desktop", "--data-dir", str(data_root), "chat", "--provider", "fake"],
        input="question\n/regenerate\n/quit\n", capture_output=True, text=True, env=environment, cwd=REPO, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "first" in result.stdout and "second" in result.stdout
    session = open_test_session(data_root)
    [conversation] = session.transcript.list_conversations()
    assert [m.text for m in session.transcript.messages(conversation.id)] == ["question", "second"]
    session.close()


def test_sigkill_mid_stream_then_resume_uses_same_frozen_bytes(data_root: Path) -> None:
    script = json.dumps([{"kind": "text", "text": "slow " * 200, "delay": 0.05}])
    environment = {**os.environ, "MFS_PASSPHRASE": PASSPHRASE, "MFS_KEY_STORE": "passphrase", "MFS_FAKE_SCRIPT": script}
    child = subprocess.Popen(
        [sys.executable, "-m", "mfs_desktop", "--data-dir", str(data_root), "chat", "--provider", "fake", "tell me"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment, cwd=REPO)
    assert child.stdout is not None
    assert child.stdout.read(10).startswith(b"slow")  # streaming has begun
    os.kill(child.pid, signal.SIGKILL)
    child.wait()

    session = open_test_session(data_root)
    [conversation] = session.transcript.list_conversations()
    [interrupted] = GenerationStore(session.database).unfinished(conversation.id)
    assert interrupted.status == "streaming"
    assert [m.text for m in session.transcript.messages(conversation.id)] == ["tell me"]  # the user's words survived
    frozen = interrupted.snapshot
    session.close()

    result = run_cli("chat", "--provider", "fake", "--conversation", conversation.id, data_dir=data_root)
    assert result.returncode == 0, result.stderr
    assert "finishing an interrupted answer" in result.stderr
    session = open_test_session(data_root)
    resumed = GenerationStore(session.database).get(interrupted.id)
    assert resumed.status == "completed" and resumed.snapshot == frozen
    request = thaw(resumed.snapshot, resumed.fingerprint)
    assert [m.content for m in request.view.messages][1:] == ["tell me"]
    answer = session.transcript.messages(conversation.id)[-1]
    assert answer.generation_id == interrupted.id and answer.text == "(fake model) You said 2 words: tell me"
    session.close()
