#!/usr/bin/env python3
"""Recall at question time (issue 45), as JSON.

1. Casual details: conversations in English, German and Chinese (tests/data/casual_details,
   written by someone who had not seen the recall code) replayed through the real services with
   the deterministic compactor; at the end each question is asked in its own words and the
   request it would be sent with is read: is the detail (the answer) in it, outside the question?
   With recall off as the baseline, at each window.
2. The recall step's own time at 10,000 turns (20,000 messages of LoCoMo text repeated): search,
   scoring, choice and rendering, median over 30 questions.

Usage: .venv/bin/python scripts/bench_recall.py [--windows 4096 2048] [--skip-timing]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mfs_desktop.profile import ContextProfile  # noqa: E402
from mfs_desktop.runtime.embedded import EmbeddedModel  # noqa: E402
from mfs_desktop.runtime.model_files import default_model_path  # noqa: E402
from mfs_desktop.services.conversation.chat import ChatService  # noqa: E402
from mfs_desktop.services.conversation.replay import locomo_sessions, replay_locomo  # noqa: E402
from mfs_desktop.services.session import Session, open_session  # noqa: E402
from mfs_desktop.services.unlock import DataDir  # noqa: E402
from mfs_desktop.store.conversation_settings import ConversationSettings, save_conversation_settings  # noqa: E402
from mfs_desktop.store.models import MessageDraft  # noqa: E402

DETAILS = REPO / "tests" / "data" / "casual_details"
LOCOMO = REPO.parent / "shared" / "data" / "locomo10"


def new_session(scratch: Path, name: str) -> Session:
    return open_session(DataDir(scratch / f"{name}-{time.monotonic_ns()}"), lambda new: "bench",
                        use_keychain=False, scrypt_n=2**12)


def details_present(path: Path, window: int, tokenizer: EmbeddedModel, scratch: Path) -> dict:
    document = json.loads(path.read_text(encoding="utf-8"))
    session = new_session(scratch, path.stem)
    service = ChatService(session, tokenizer, provider="replay", profile=ContextProfile(window=window))
    try:
        report = replay_locomo(service, path, tokenizer)
        conversation_id = report["conversation_id"]
        result = {}
        for mode in ("recall", "off"):
            if mode == "off":
                save_conversation_settings(session.database, conversation_id, ConversationSettings(recall=False))
            found, recalled, rows = 0, 0, []
            for question in document["qa"]:
                assembled = service.assembled(conversation_id, extra_input=question["question"])
                text = "\n".join(m.content for m in assembled.view.messages).replace(question["question"], "")
                present = question["answer"].casefold() in text.casefold()
                found += present
                hits = len(assembled.recall.hits) if assembled.recall else 0
                recalled += hits > 0
                rows.append({"question": question["question"], "present": present, "recalled": hits})
            result[mode] = {"details": len(document["qa"]), "present": found,
                            "share": round(found / len(document["qa"]), 3), "questions_with_recall": recalled,
                            **({"misses": [r["question"] for r in rows if not r["present"]]} if mode == "recall"
                               else {})}
        result["replay"] = {k: report[k] for k in ("turns", "events", "max_payload_ratio", "coverage_ok_every_turn",
                                                   "reuse_of_ceiling_without_event")}
        return result
    finally:
        service.close()
        session.close()


def recall_step_ms(scratch: Path, turns: int = 10_000, questions: int = 30, window: int = 8192) -> dict:
    """The recall step's own time at `turns` turns: the search (term frequencies and BM25
    candidates on the encrypted index), scoring, choice and rendering, for questions from LoCoMo
    against a conversation of its text repeated, all but the newest 40 messages out of view and
    the recall share as budget; medians over the questions."""
    from mfs_desktop.context.recall import RecallRequest, recall
    from mfs_desktop.runtime.estimate import estimate_text_tokens

    session = new_session(scratch, "timing")
    try:
        texts = [text for path in sorted(LOCOMO.glob("*.json")) for _, session_turns in locomo_sessions(path)[1]
                 for _, text in session_turns]
        conversation_id = session.transcript.create_conversation("timing").id
        drafts = [MessageDraft("user" if i % 2 == 0 else "assistant", texts[i % len(texts)]) for i in range(2 * turns)]
        for start in range(0, len(drafts), 1000):
            session.transcript.append(conversation_id, drafts[start:start + 1000])
        visible = session.transcript.messages(conversation_id)
        eligible = {m.uid: m for m in visible[:-40]}
        shown = [m.text for m in visible[-40:-2]]
        budget = ContextProfile(window=window).tokens(ContextProfile.recall_share)
        asked = [t for t in texts if t.rstrip().endswith("?") and len(t) > 40][:questions]
        timings, hits = [], 0
        for question in asked:
            started = time.perf_counter()
            made = recall(session.database, conversation_id, RecallRequest(
                question, [m.text for m in visible[-2:]], eligible, shown, False, "", len(visible),
                len(visible) // 2, budget, estimate_text_tokens))
            timings.append((time.perf_counter() - started) * 1000)
            hits += bool(made.hits)
        return {"turns": turns, "messages": len(visible), "questions": len(asked), "questions_with_recall": hits,
                "recall_step_ms": {"median": round(statistics.median(timings), 1), "max": round(max(timings), 1)}}
    finally:
        session.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--windows", type=int, nargs="+", default=[4096, 2048])
    parser.add_argument("--skip-timing", action="store_true")
    args = parser.parse_args()
    tokenizer = EmbeddedModel(default_model_path(), n_ctx=32_768, tokenizer_only=True)
    started = time.perf_counter()
    report: dict = {"benchmark": "recall", "casual_details": {}}
    with tempfile.TemporaryDirectory() as scratch_dir:
        scratch = Path(scratch_dir)
        for window in args.windows:
            for path in sorted(DETAILS.glob("*.json")):
                report["casual_details"][f"{path.stem}@{window}"] = details_present(path, window, tokenizer, scratch)
        if not args.skip_timing:
            report["timing"] = recall_step_ms(scratch)
    report["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
