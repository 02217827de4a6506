#!/usr/bin/env python3
"""Context-engine figures, printed as JSON: `replay` with the deterministic compactor on every
LoCoMo conversation at windows 4,096 and 8,192 (coverage at every turn, maximum payload ÷
window, reusable share of prompt tokens on turns without an event, events per 100 turns).
With --embedded FILE, also one conversation with the embedded model as compactor.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mfs_desktop.compaction.compactor import ExtractiveCompactor, ModelCompactor  # noqa: E402
from mfs_desktop.runtime.embedded import EmbeddedModel  # noqa: E402
from mfs_desktop.runtime.estimate import estimate_text_tokens  # noqa: E402
from mfs_desktop.runtime.model_files import default_model_path  # noqa: E402
from mfs_desktop.services.conversation.chat import ChatService  # noqa: E402
from mfs_desktop.services.conversation.replay import replay_locomo  # noqa: E402
from mfs_desktop.services.session import open_session  # noqa: E402
from mfs_desktop.services.unlock import DataDir  # noqa: E402

SUMMARY_KEYS = ("turns", "coverage_ok_every_turn", "max_payload_ratio", "reuse_share_without_event",
                "reuse_ceiling_without_event", "reuse_of_ceiling_without_event",
                "reuse_share_without_event_prompt_only", "events_per_100_turns", "segments",
                "turns_with_messages_left_out", "seconds")


def run(path: Path, window: int, compactor_factory, scratch: Path) -> dict:
    session = open_session(DataDir(scratch / f"{path.stem}-{window}-{time.monotonic_ns()}"), lambda new: "bench",
                           use_keychain=False, scrypt_n=2**12)
    tokenizer = EmbeddedModel(default_model_path(), n_ctx=window, tokenizer_only=True)
    service = ChatService(session, tokenizer, provider="replay", window=window, compactor_factory=compactor_factory)
    try:
        report = replay_locomo(service, path, tokenizer)
        outcomes = session.database.connection().execute(
            "SELECT outcome, count(*), avg(duration_ms) FROM ledger WHERE conversation_id = ? AND event = 'compaction' "
            "GROUP BY outcome", (report["conversation_id"],)).fetchall()
        report["compactions"] = {outcome: {"count": n, "avg_ms": round(ms or 0, 1)} for outcome, n, ms in outcomes}
        return report
    finally:
        service.close()
        session.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--locomo", type=Path, default=REPO.parent / "shared" / "data" / "locomo10")
    parser.add_argument("--windows", type=int, nargs="+", default=[4096, 8192])
    parser.add_argument("--files", nargs="+", help="only these conversations (default: all)")
    parser.add_argument("--embedded", metavar="FILE", help="one conversation with the embedded compactor")
    args = parser.parse_args()
    results: dict = {"benchmark": "context", "compactor": "extractive (deterministic)", "runs": {}}
    with tempfile.TemporaryDirectory() as scratch:
        for window in args.windows:
            rows = []
            paths = [args.locomo / name for name in args.files] if args.files else sorted(args.locomo.glob("*.json"))
            for path in paths:
                report = run(path, window, lambda: ExtractiveCompactor(estimate_text_tokens), Path(scratch))
                rows.append({"file": path.name, **{k: report[k] for k in SUMMARY_KEYS}})
            turns = sum(r["turns"] for r in rows)
            results["runs"][str(window)] = {
                "conversations": rows,
                "coverage_ok_everywhere": all(r["coverage_ok_every_turn"] for r in rows),
                "max_payload_ratio": max(r["max_payload_ratio"] for r in rows),
                **{key: round(sum(r[key] * r["turns"] for r in rows) / turns, 4)
                   for key in ("reuse_share_without_event", "reuse_ceiling_without_event",
                               "reuse_of_ceiling_without_event")},
                "events_per_100_turns": round(sum(r["events_per_100_turns"] * r["turns"] for r in rows) / turns, 2),
            }
        if args.embedded:
            window = args.windows[0]
            report = run(args.locomo / args.embedded, window,
                         lambda: ModelCompactor(EmbeddedModel(default_model_path(), n_ctx=window)), Path(scratch))
            results["embedded_compactor"] = {
                "file": args.embedded,
                "window": window,
                **{k: report[k] for k in SUMMARY_KEYS},
                "compactions": report["compactions"],
            }
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
