"""Issue 27 item 7 and issue 35: two `chat` processes on one conversation at once. The one
that finds the other's answer in progress leaves it alone (its owner runs) and answers its own
message; nothing is lost, nothing stored twice, and no raw "database is locked"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import PASSPHRASE, REPO, open_test_session

SLOW = json.dumps([{"kind": "text", "text": " ".join(f"w{i}" for i in range(60)), "delay": 0.01}])


def test_twelve_concurrent_pairs_store_and_answer_every_message_once(data_root: Path) -> None:
    session = open_test_session(data_root)
    conversation_id = session.transcript.create_conversation().id
    session.close()
    environment = {k: v for k, v in os.environ.items() if not k.startswith("MFS_")}
    environment.update(MFS_KEY_STORE="passphrase", MFS_PASSPHRASE=PASSPHRASE, MFS_FAKE_SCRIPT=SLOW)
    given: list[str] = []
    finished: list[tuple[int, str]] = []
    for pair in range(12):
        children = []
        for side in ("a", "b"):
            given.append(f"pair {pair} from process {side}")
            children.append(subprocess.Popen(
                [sys.executable, "-m", "mfs_desktop", "--data-dir", str(data_root), "chat", "--provider", "fake",
                 "--conversation", conversation_id, given[-1]],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=environment, cwd=REPO))
        for child in children:
            _, err = child.communicate(timeout=120)
            finished.append((child.returncode, err.decode()))
    assert [code for code, _ in finished] == [0] * 24, [err for code, err in finished if code]
    assert not any("locked" in err or "internal error" in err for _, err in finished)
    assert any("is writing an answer here; yours follows" in err for _, err in finished), \
        "no pair overlapped: the test proved nothing"
    session = open_test_session(data_root)
    messages = session.transcript.messages(conversation_id)
    waiting = session.database.connection().execute("SELECT COUNT(*) FROM outbox").fetchone()[0]
    session.close()
    users = [m.text for m in messages if m.role == "user"]
    assert sorted(users) == sorted(given) and len(set(users)) == 24, "every message exactly once"
    assert waiting == 0
    assert sum(1 for m in messages if m.role == "assistant") == 24, "each process wrote one answer"


def test_rekey_is_refused_while_another_process_streams_and_nothing_is_lost(data_root: Path) -> None:
    """Issue 35: a rekey under a live chat made that chat's commit fail and lost its answer."""
    from conftest import run_cli

    session = open_test_session(data_root)
    conversation_id = session.transcript.create_conversation().id
    session.close()
    environment = {k: v for k, v in os.environ.items() if not k.startswith("MFS_")}
    slow = json.dumps([{"kind": "text", "text": " ".join(f"w{i}" for i in range(200)), "delay": 0.01}])
    environment.update(MFS_KEY_STORE="passphrase", MFS_PASSPHRASE=PASSPHRASE, MFS_FAKE_SCRIPT=slow)
    chat = subprocess.Popen(
        [sys.executable, "-m", "mfs_desktop", "--data-dir", str(data_root), "chat", "--provider", "fake",
         "--conversation", conversation_id, "a long answer, please"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=environment, cwd=REPO)
    assert chat.stdout is not None and chat.stdout.read(2), "the answer never started"
    rekey = run_cli("rekey", data_dir=data_root, MFS_NEW_PASSPHRASE="another passphrase")
    _, err = chat.communicate(timeout=60)
    assert chat.returncode == 0, err
    assert rekey.returncode == 11, rekey.stderr
    assert "has this database open: close it, then change the key" in rekey.stderr
    session = open_test_session(data_root)  # the old passphrase still opens it: nothing changed
    messages = session.transcript.messages(conversation_id)
    session.close()
    assert [m.role for m in messages] == ["user", "assistant"] and messages[1].text.startswith("w0 w1")
    again = run_cli("rekey", data_dir=data_root, MFS_NEW_PASSPHRASE="another passphrase")
    assert again.returncode == 0, again.stderr
