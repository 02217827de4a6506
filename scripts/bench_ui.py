#!/usr/bin/env python3
"""UI benchmark, printed as JSON (issue 5, item 8), offscreen with real widgets.

1. Open a 10,000-turn conversation: time from selecting it to its newest page laid out, and
   the time to bring one older page when the view is scrolled to the top.
2. The longest stall of the UI event loop, seen by a 10 ms heartbeat timer, while the bundled
   model streams an answer and the pre-compactor folds old history with the same model on
   its own context. Target: no stall over 50 ms.

Texts are LoCoMo utterances (../shared/data/locomo10), so rows have a real chat's sizes.
Usage: .venv/bin/python scripts/bench_ui.py [--turns N] [--window TOKENS]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from bench_store import locomo_utterances, percentile  # noqa: E402
from offscreen import settle, wait_for  # noqa: E402
from PySide6.QtCore import QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from mfs_desktop.services.models.choice import ModelChoice  # noqa: E402
from mfs_desktop.services.session import Session, open_session  # noqa: E402
from mfs_desktop.services.unlock import DataDir  # noqa: E402
from mfs_desktop.store.models import MessageDraft  # noqa: E402
from mfs_desktop.ui.window.main_window import MainWindow  # noqa: E402

HEARTBEAT_MS = 10


class Heartbeat:
    """Gaps between ticks of a 10 ms timer: a gap well over 10 ms is time the loop was blocked."""

    def __init__(self) -> None:
        self.gaps_ms: list[float] = []
        self._last = time.perf_counter()
        self._timer = QTimer()
        self._timer.setInterval(HEARTBEAT_MS)
        self._timer.timeout.connect(self._tick)

    def start(self) -> None:
        self.gaps_ms.clear()
        self._last = time.perf_counter()
        self._timer.start()

    def stop(self) -> dict:
        self._timer.stop()
        gaps = self.gaps_ms or [0.0]
        return {"ticks": len(self.gaps_ms), "max_gap_ms": round(max(gaps), 1),
                "p99_gap_ms": round(percentile(gaps, 0.99), 1),
                "gaps_over_50ms": sum(1 for gap in gaps if gap > 50)}

    def _tick(self) -> None:
        now = time.perf_counter()
        self.gaps_ms.append((now - self._last) * 1000)
        self._last = now


def fill(session: Session, texts: list[str], turns: int, offset: int = 0) -> str:
    conversation_id = session.transcript.create_conversation(title=f"{turns:,} turns").id
    for index in range(offset, offset + turns):
        session.transcript.append(conversation_id, [
            MessageDraft("user", texts[(2 * index) % len(texts)]),
            MessageDraft("assistant", texts[(2 * index + 1) % len(texts)])])
    return conversation_id


def shown_window(app: QApplication, session: Session, choice: ModelChoice) -> MainWindow:
    window = MainWindow(session, choice)
    window.resize(1400, 820)
    window.show()
    wait_for(app, lambda: window.model_ready, 300)
    return window


def bench_open(app: QApplication, session: Session, texts: list[str], turns: int) -> dict:
    started = time.perf_counter()
    conversation_id = fill(session, texts, turns)
    fill_s = time.perf_counter() - started
    session.transcript.create_conversation(title="small")  # selected first, so the big one is opened below
    window = shown_window(app, session, ModelChoice("fake"))
    window.refresh_conversations(select=session.transcript.list_conversations()[0].id)
    settle(app, 0.5)
    heartbeat = Heartbeat()
    heartbeat.start()
    started = time.perf_counter()
    window.refresh_conversations(select=conversation_id)
    app.processEvents()  # the page is laid out and painted on this pass
    open_ms = (time.perf_counter() - started) * 1000
    wait_for(app, lambda: window.last_report.get("conversation_id") == conversation_id, 60)
    settle(app, 0.3)
    stall_open = heartbeat.stop()
    older = []
    for _ in range(5):
        started = time.perf_counter()
        window.load_older()
        app.processEvents()
        older.append((time.perf_counter() - started) * 1000)
    window.shutdown()
    window.deleteLater()
    settle(app, 0.2)
    return {"turns": turns, "fill_s": round(fill_s, 1), "open_ms": round(open_ms, 1),
            "older_page_ms_median": round(sorted(older)[len(older) // 2], 1), "older_page_ms_max": round(max(older), 1),
            "event_loop_while_opening": stall_open}


def bench_stall(app: QApplication, session: Session, texts: list[str], window_tokens: int) -> dict:
    """Enough history to pass the warn line of a small window, so the pre-compactor runs."""
    conversation_id = fill(session, texts, max(8, window_tokens // 60), offset=500)
    window = shown_window(app, session, ModelChoice("embedded", window=window_tokens))
    organized: list[str] = []
    organizing: list[float] = []
    window.worker.organizing.connect(lambda cid: organizing.append(time.perf_counter()))
    window.worker.organized.connect(lambda cid, state: organized.append(state))
    heartbeat = Heartbeat()
    heartbeat.start()
    started = time.perf_counter()
    window.refresh_conversations(select=conversation_id)
    settle(app, 0.2)
    window.composer.setPlainText("Tell me about the hiking trip again, with the distances.")
    window.send_or_stop()
    wait_for(app, lambda: not window.generating, 600)
    answered_s = time.perf_counter() - started
    wait_for(app, lambda: organizing and len(organized) >= len(organizing), 600)
    settle(app, 4.0)  # the "Organized" status fades: that animation is part of what is measured
    stall = heartbeat.stop()
    window.shutdown()
    window.deleteLater()
    settle(app, 0.2)
    return {"window_tokens": window_tokens, "answer_s": round(answered_s, 1), "compactions_started": len(organizing),
            "compaction_outcomes": organized, "seconds_measured": round(time.perf_counter() - started, 1),
            "event_loop": stall, "target_max_gap_ms": 50}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--window", type=int, default=2048, help="model window for the stall run (small: compacts)")
    parser.add_argument("--locomo", type=Path, default=REPO.parent / "shared" / "data" / "locomo10")
    args = parser.parse_args()
    texts = locomo_utterances(args.locomo) or ["How was the weekend? " * 5, "Great, we hiked 12 km. " * 8]
    app = QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as scratch:
        session = open_session(DataDir(Path(scratch) / "data"), lambda new: "bench passphrase", use_keychain=False)
        try:
            report = {"open": bench_open(app, session, texts, args.turns),
                      "stall": bench_stall(app, session, texts, args.window)}
        finally:
            session.close()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
