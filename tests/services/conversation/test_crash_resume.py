"""Issue 33 with the reliability crash tests (issue 27): a `chat` killed while it finishes an
interrupted answer loses none of the messages given to it. Each message is stored (in the
outbox, migration 0009) before the model loads; the resumed answer keeps its place before it."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from conftest import PASSPHRASE, REPO, open_test_session, run_cli

SLOW = json.dumps([{"kind": "text", "text": " ".join(f"word{i}" for i in range(400)), "delay": 0.01}])


def _chat_until_streaming(data_root: Path, *args: str, after_resume_marker: bool) -> subprocess.Popen:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("MFS_")}
    environment.update(MFS_KEY_STORE="passphrase", MFS_PASSPHRASE=PASSPHRASE, MFS_FAKE_SCRIPT=SLOW)
    child = subprocess.Popen(
        [sys.executable, "-m", "mfs_desktop", "--data-dir", str(data_root), "chat", "--provider", "fake", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=environment, cwd=REPO)
    assert child.stderr is not None and child.stdout is not None
    if after_resume_marker:
        seen = [child.stderr.readline()]
        while seen[-1] and b"finishing an interrupted answer" not in seen[-1]:
            seen.append(child.stderr.readline())
        assert seen[-1], f"no resume was announced: {seen}"
    assert child.stdout.read(1), "the answer never started streaming"
    return child


def _kill(child: subprocess.Popen, delay: float) -> None:
    try:
        child.wait(delay)
    except subprocess.TimeoutExpired:
        pass
    assert child.poll() is None, "the run finished before the kill; the test proved nothing"
    os.kill(child.pid, signal.SIGKILL)
    child.wait()


def test_kills_during_resume_lose_no_message_and_keep_the_order(data_root: Path) -> None:
    rng = random.Random(33)
    first = _chat_until_streaming(data_root, "message 0", after_resume_marker=False)
    _kill(first, 0.1)
    session = open_test_session(data_root)
    conversation_id = session.transcript.list_conversations()[0].id
    session.close()
    given = ["message 0"]
    for attempt in range(1, 7):
        given.append(f"message {attempt}")
        child = _chat_until_streaming(data_root, "--conversation", conversation_id, given[-1], after_resume_marker=True)
        _kill(child, rng.uniform(0.0, 1.0))
    given.append("last message")
    final = run_cli("chat", "--provider", "fake", "--conversation", conversation_id, given[-1], data_dir=data_root)
    assert final.returncode == 0, final.stderr
    assert "finishing an interrupted answer" in final.stderr

    session = open_test_session(data_root)
    messages = session.transcript.messages(conversation_id)
    session.close()
    assert [m.text for m in messages if m.role == "user"] == given, "every message stored exactly once, in order"
    roles = [m.role for m in messages]
    assert roles[:2] == ["user", "assistant"], "the resumed answer keeps its place after message 0"
    assert messages[1].text.endswith("message 0") and messages[1].status == "complete", "answered from its snapshot"
    assert roles[-1] == "assistant" and "You said" in messages[-1].text, "the conversation goes on"
