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
