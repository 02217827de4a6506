"""A writer killed with SIGKILL mid-turn leaves an openable database with no half turn."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import REPO, open_test_session

WRITER = """
import sys
sys.path.insert(0, {tests!r})
from conftest import open_test_session
from mfs_desktop.store.models import MessageDraft
session = open_test_session(__import__('pathlib').Path({root!r}))
conversation_id = sys.argv[1]
print('ready', flush=True)
index = 0
while True:
    # One turn = one transaction: question, tool call, tool result, answer. Big texts make
    # each commit slow enough for the kill to land inside it.
    big = ('turn %d ' % index) * 40000
    session.transcript.append(conversation_id, [
        MessageDraft('user', big),
        MessageDraft('assistant', '', tool_name='recall_history', tool_arguments='{{}}', tool_call_id='c%d' % index),
        MessageDraft('tool', big[::-1], tool_name='recall_history', tool_call_id='c%d' % index),
        MessageDraft('assistant', 'answer %d' % index),
    ])
    index += 1
"""


def test_sigkill_mid_turn_leaves_whole_turns_only(data_root: Path) -> None:
    session = open_test_session(data_root)
    conversation_id = session.transcript.create_conversation().id
    session.close()
    script = WRITER.format(tests=str(REPO / "tests"), root=str(data_root))
    rng = random.Random(7)
    for _ in range(5):
        child = subprocess.Popen([sys.executable, "-c", script, conversation_id], stdout=subprocess.PIPE, cwd=REPO)
        assert child.stdout is not None and child.stdout.readline().strip() == b"ready"
        time.sleep(rng.uniform(0.2, 0.6))
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        session = open_test_session(data_root)
        messages = session.transcript.messages(conversation_id)
        revision = session.transcript.conversation(conversation_id).transcript_revision
        session.close()
        assert messages, "the writer never committed; the kill proved nothing"
        assert len(messages) % 4 == 0, f"half a turn survived: {len(messages)} messages"
        assert len(messages) // 4 == revision
        for turn in range(len(messages) // 4):
            kinds = [(m.role, m.turn_ordinal) for m in messages[turn * 4:turn * 4 + 4]]
            assert kinds == [("user", turn + 1), ("assistant", turn + 1), ("tool", turn + 1), ("assistant", turn + 1)]
