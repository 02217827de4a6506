"""`replay` and `inspect` as a person runs them, and the embedded model as compactor."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path

from conftest import open_test_session, run_cli

from mfs_desktop.compaction.compactor import ModelCompactor
from mfs_desktop.compaction.segments import verify_items
from mfs_desktop.runtime.embedded import EmbeddedModel
from mfs_desktop.runtime.estimate import estimate_text_tokens
from mfs_desktop.runtime.fake import FakeModel
from mfs_desktop.runtime.model_files import default_model_path
from mfs_desktop.services.conversation.chat import ChatService
from mfs_desktop.store.models import MessageDraft


def locomo_like(path: Path, sessions: int = 6, turns: int = 30) -> Path:
    """A small file in LoCoMo's format: two speakers, dated sessions."""
    document = {"speaker_a": "Ana", "speaker_b": "Ben"}
    for number in range(1, sessions + 1):
        document[f"session_{number}_date_time"] = f"1:{10 + number:02d} pm on {number + 2} May, 2023"
        document[f"session_{number}"] = [
            {"speaker": "Ana" if i % 2 == 0 else "Ben", "dia_id": f"D{number}:{i}",
             "text": f"Session {number} line {i}: we talked about the garden, the bakery and the old harbor again."}
            for i in range(turns)]
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_replay_then_inspect(tmp_path: Path, data_root: Path) -> None:
    source = locomo_like(tmp_path / "tiny.json")
    result = run_cli("replay", str(source), "--window", "2048", "--json", data_dir=data_root)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["turns"] == 90 and report["coverage_ok_every_turn"]
    assert report["max_payload_ratio"] <= 0.95 and report["segments"] >= 1 and report["events"] >= 1
    assert 0.5 < report["reuse_share_without_event"] <= 1.0
    again = run_cli("replay", str(source), "--window", "2048", "--json", data_dir=tmp_path / "again")
    assert {k: v for k, v in json.loads(again.stdout).items() if k not in ("conversation_id", "seconds")} == \
        {k: v for k, v in report.items() if k not in ("conversation_id", "seconds")}, "replays must be deterministic"

    inspected = run_cli("inspect", "--conversation", report["conversation_id"], "--window", "2048", "--json",
                        data_dir=data_root)
    assert inspected.returncode == 0, inspected.stderr
    view = json.loads(inspected.stdout)
    assert view["coverage"]["ok"] and view["segments"] and view["window_tokens"] == 2048
    assert view["zones"]["data_block"] > 0
    payload = run_cli("inspect", "--conversation", report["conversation_id"], "--window", "2048", "--payload",
                      data_dir=data_root)
    assert "<|im_start|>system" in payload.stdout and "compressed below" in payload.stdout
    assert re.search(
        r"days: [^\n]*; (Sun|Mon|Tues|Wednes|Thurs|Fri|Satur)day \d May 2023 turns \d+–\d+", payload.stdout
    ), "compressed days keep their dates, the newest whole"
    assert "days: May 2023 turns 1–" in payload.stdout, "the oldest coarsen to their month within the budget"


def test_replay_refuses_a_foreign_file(tmp_path: Path, data_root: Path) -> None:
    bogus = tmp_path / "bogus.json"
    bogus.write_text('{"hello": 1}', encoding="utf-8")
    result = run_cli("replay", str(bogus), data_dir=data_root)
    assert result.returncode == 10 and "not a LoCoMo" in result.stderr


def test_embedded_model_as_compactor(data_root: Path) -> None:
    session = open_test_session(data_root)
    service = ChatService(session, FakeModel(), provider="fake", window=2048)
    conversation = session.transcript.create_conversation()
    for turn in range(1, 9):
        session.transcript.append(conversation.id, [
            MessageDraft("user", f"Day {turn}: I planted {turn * 3} tulips by the north fence and watered them."),
            MessageDraft("assistant", "That sounds lovely; tulips like that spot.")])
    plan, reason = service.compaction.plan(conversation.id, fixed_tokens=10_000)
    assert plan is not None, reason
    compactor = ModelCompactor(EmbeddedModel(default_model_path(), n_ctx=2048))
    raw = compactor.summarize(plan.messages, plan.target_tokens, threading.Event())
    turns = {m.turn_ordinal for m in plan.messages}
    assert raw.startswith('{"items"'), "the grammar fixes the shape from the first token"
    try:  # the verifier decides: a 135M model often runs past the output target mid-string
        items = verify_items(raw, sorted(turns), plan.target_tokens, estimate_text_tokens)
        assert all(set(item.source_turns) <= turns for item in items)
        expected = "committed"
    except Exception as exc:
        assert type(exc).__name__ == "CompactorOutputRejected"
        expected = "degraded"
    outcome = service.compaction.run(plan, compactor, threading.Event())
    assert outcome.state == "active"
    from mfs_desktop.store.ledger import entries

    assert entries(session.database, conversation.id)[-1].outcome == expected
    service.close()
    session.close()
