#!/usr/bin/env python3
"""Precision and recall of the standing-instruction classifier per language, as JSON.

Usage: scripts/bench_instructions.py [LABELLED.jsonl] [--misses]
The labelled set (default tests/data/standing_instructions.jsonl) holds one sentence per line
with its language and whether it binds the assistant for the rest of a conversation. A
sentence counts as recognised when `binding_class` gives it any class.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mfs_desktop.compaction.binding import binding_class  # noqa: E402

DEFAULT = Path(__file__).resolve().parents[1] / "tests" / "data" / "standing_instructions.jsonl"


def scores(rows: list[dict]) -> dict[str, dict]:
    """Per language (and "all"): counts, precision and recall."""
    tally: dict[str, dict[str, int]] = defaultdict(lambda: {"tp": 0, "fp": 0, "fn": 0, "tn": 0})
    for row in rows:
        said = binding_class(row["text"]) is not None
        cell = ("tp" if row["label"] else "fp") if said else ("fn" if row["label"] else "tn")
        for key in (row["lang"], "all"):
            tally[key][cell] += 1
    result = {}
    for lang, t in sorted(tally.items()):
        predicted, actual = t["tp"] + t["fp"], t["tp"] + t["fn"]
        result[lang] = {**t, "sentences": sum(t.values()),
                        "precision": round(t["tp"] / predicted, 3) if predicted else None,
                        "recall": round(t["tp"] / actual, 3) if actual else None}
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("labelled", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--misses", action="store_true", help="also list every wrong answer")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.labelled.read_text(encoding="utf-8").splitlines() if line.strip()]
    report: dict = {"labelled": str(args.labelled), "languages": scores(rows)}
    if args.misses:
        report["misses"] = [{"lang": r["lang"], "label": r["label"], "kind": r.get("kind"), "text": r["text"]}
                            for r in rows if (binding_class(r["text"]) is not None) != r["label"]]
    print(json.dumps(report, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
