#!/usr/bin/env python3
"""Store benchmark, printed as JSON: append 10,000 turns, open + newest page, export.

Texts are real LoCoMo utterances (../shared/data/locomo10 or --locomo DIR), replayed in
order and cycled, so row sizes are those of a real chat. Targets on a 2-core machine:
append < 2 ms per turn (median, with commit), open + newest page < 50 ms, export < 1 s.
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

from mfs_desktop.services.session import open_session  # noqa: E402
from mfs_desktop.services.transfer.exports import export_json, export_markdown  # noqa: E402
from mfs_desktop.services.unlock import DataDir  # noqa: E402
from mfs_desktop.store.database import Database  # noqa: E402
from mfs_desktop.store.models import MessageDraft  # noqa: E402
from mfs_desktop.store.transcript import TranscriptStore  # noqa: E402


def locomo_utterances(directory: Path) -> list[str]:
    texts = []
    for path in sorted(directory.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        sessions = sorted((k for k in document if k.startswith("session_") and k.split("_")[1].isdigit()
                           and isinstance(document[k], list)), key=lambda k: int(k.split("_")[1]))
        for key in sessions:
            texts.extend(turn["text"] for turn in document[key])
    return texts


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--locomo", type=Path, default=REPO.parent / "shared" / "data" / "locomo10")
    args = parser.parse_args()
    texts = locomo_utterances(args.locomo) or ["How was the weekend? " * 5, "Great, we hiked 12 km. " * 8]

    with tempfile.TemporaryDirectory() as scratch:
        data_dir = DataDir(Path(scratch) / "data")
        session = open_session(data_dir, lambda new: "bench passphrase", use_keychain=False)
        conversation_id = session.transcript.create_conversation().id
        append_ms = []
        for index in range(args.turns):
            question, answer = texts[(2 * index) % len(texts)], texts[(2 * index + 1) % len(texts)]
            started = time.perf_counter()
            session.transcript.append(
                conversation_id, [MessageDraft("user", question), MessageDraft("assistant", answer)]
            )
            append_ms.append((time.perf_counter() - started) * 1000)
        key = session.database._key  # reused below so the open figure is the database's, not scrypt's
        session.close()
        db_bytes = data_dir.database.stat().st_size

        started = time.perf_counter()
        unlocked = open_session(data_dir, lambda new: "bench passphrase")
        unlock_ms = (time.perf_counter() - started) * 1000
        unlocked.close()

        started = time.perf_counter()
        database = Database(data_dir.database, key)
        open_database_ms = (time.perf_counter() - started) * 1000
        started = time.perf_counter()
        transcript = TranscriptStore(database)
        transcript.conversation(conversation_id)
        page = transcript.newest_page(conversation_id, limit=50)
        open_page_ms = (time.perf_counter() - started) * 1000
        assert len(page) == 50

        started = time.perf_counter()
        transcript.newest_page(conversation_id, limit=50, before_uid=page[0].uid)
        older_page_ms = (time.perf_counter() - started) * 1000

        started = time.perf_counter()
        markdown = export_markdown(database, conversation_id)
        export_md_ms = (time.perf_counter() - started) * 1000
        started = time.perf_counter()
        exported_json = export_json(database, conversation_id)
        export_json_ms = (time.perf_counter() - started) * 1000
        database.close()

    print(
        json.dumps(
            {
                "benchmark": "store",
                "turns": args.turns,
                "messages": 2 * args.turns,
                "source_texts": len(texts),
                "append_turn_ms": {
                    "median": round(statistics.median(append_ms), 3),
                    "p95": round(percentile(append_ms, 0.95), 3),
                    "max": round(max(append_ms), 3),
                    "target_median": 2.0,
                },
                "open_database_ms": {
                    "value": round(open_database_ms, 2),
                    "includes": "connect, raw key, verify query, full quick_check of every page",
                },
                "open_conversation_newest_page_ms": {
                    "value": round(open_page_ms, 2),
                    "target": 50.0,
                    "includes": "conversation row + newest 50 messages, cold statement cache",
                },
                "cold_start_total_ms": round(open_database_ms + open_page_ms, 2),
                "older_page_ms": round(older_page_ms, 2),
                "unlock_with_passphrase_ms": round(unlock_ms, 1),
                "export_markdown_ms": {
                    "value": round(export_md_ms, 1),
                    "target": 1000.0,
                    "bytes": len(markdown.encode()),
                },
                "export_json_ms": {"value": round(export_json_ms, 1), "bytes": len(exported_json.encode())},
                "database_bytes": db_bytes,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
