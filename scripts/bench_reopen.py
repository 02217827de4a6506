#!/usr/bin/env python3
"""Reopen benchmark, printed as JSON: time to first token of the first reply after reopening a
conversation of about 2k, 4k and 8k tokens, with the bundled model through the real services.

For each size a conversation is built from LoCoMo utterances (a window twice its size, so no
compaction runs), then answered by a freshly loaded model — as a new process would be — three
ways: cold (nothing cached), after a warm-up prefill (what the window does while you read),
and from the cache saved after the previous answer (restored, then the rest prefilled). Each
ratio is measured in this one run. Also: the sealed cache's size per 1,000 tokens.

Usage: .venv/bin/python scripts/bench_reopen.py [--sizes 2048 4096 8192]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mfs_desktop.runtime.embedded import EmbeddedModel  # noqa: E402
from mfs_desktop.runtime.model_files import default_model_path  # noqa: E402
from mfs_desktop.runtime.protocol import SamplingSettings  # noqa: E402
from mfs_desktop.services.conversation.chat import ChatService  # noqa: E402
from mfs_desktop.services.session import open_session  # noqa: E402
from mfs_desktop.services.unlock import DataDir  # noqa: E402
from mfs_desktop.store.models import MessageDraft  # noqa: E402

LOCOMO = REPO.parent / "shared" / "data" / "locomo10" / "26.json"
SAMPLING = SamplingSettings(max_tokens=8, temperature=0.0)


def utterances() -> list[str]:
    loaded = json.loads(LOCOMO.read_text("utf-8"))
    conversation = loaded.get("conversation", loaded)
    sessions = [value for key, value in conversation.items() if key.startswith("session_") and isinstance(value, list)]
    return [turn["text"] for value in sessions for turn in value if isinstance(turn, dict) and turn.get("text")]


def service(session, window: int) -> ChatService:
    return ChatService(session, EmbeddedModel(default_model_path(), n_ctx=window), provider="embedded",
                       window=window, sampling=SAMPLING)


def build(session, window: int, target: int, texts: list[str]) -> tuple[str, int]:
    counter = service(session, window)
    conversation = session.transcript.create_conversation(f"{target} tokens").id
    index = 0
    while True:
        pair = [MessageDraft("user", texts[index % len(texts)]),
                MessageDraft("assistant", texts[(index + 1) % len(texts)])]
        session.transcript.append(conversation, pair)
        index += 2
        if index % 10 == 0 and counter.view(conversation)[1].tokens >= target:
            break
    tokens = counter.view(conversation)[1].tokens
    counter.close()
    return conversation, tokens


def first_token(chat: ChatService, conversation: str, question: str) -> tuple[float, dict]:
    began, first = time.perf_counter(), []
    result = chat.send(conversation, question, on_text=lambda _t: first or first.append(time.perf_counter()),
                       cancel=threading.Event())
    return (first[0] if first else time.perf_counter()) - began, {
        "prompt": result.usage.prompt_tokens, "reused": result.usage.prompt_tokens_reused}


def measure(session, target: int, texts: list[str]) -> dict:
    window = target * 2
    conversation, tokens = build(session, window, target, texts)
    session.database.write(lambda c: c.execute("DELETE FROM kv_states"))
    figures: dict = {"target_tokens": target, "view_tokens": tokens, "window": window}
    cold = service(session, window)  # a fresh model: nothing in its cache, nothing saved
    figures["cold_ttft_s"], figures["cold_usage"] = first_token(cold, conversation, "What did they talk about?")
    cold.close()  # the answer's cache is sealed and kept
    row = session.database.connection().execute("SELECT bytes, tokens FROM kv_states").fetchone()
    figures["state_bytes_per_1000_tokens"] = round(row[0] / row[1] * 1000)
    session.database.write(lambda c: c.execute("DELETE FROM kv_states"))  # the warm-up run must not restore
    warm = service(session, window)
    warmed = warm.warm(conversation)
    figures["warm_up_s"] = round(warmed.seconds, 2)
    figures["after_warm_up_ttft_s"], figures["after_warm_up_usage"] = first_token(warm, conversation,
                                                                                   "And after that?")
    warm.close()
    saved = service(session, window)
    restored = saved.warm(conversation)
    figures["restore_s"] = round(restored.seconds, 3)
    figures["restored_tokens"] = restored.restored_tokens
    figures["from_saved_ttft_s"], usage = first_token(saved, conversation, "Anything else?")
    figures["from_saved_usage"] = usage
    figures["from_saved_reused_share"] = round(usage["reused"] / usage["prompt"], 4)
    saved.close()
    for name in ("cold_ttft_s", "after_warm_up_ttft_s", "from_saved_ttft_s"):
        figures[name] = round(figures[name], 3)
    figures["speedup_from_saved"] = round(figures["cold_ttft_s"] / figures["from_saved_ttft_s"], 1)
    figures["speedup_from_saved_counting_restore"] = round(
        figures["cold_ttft_s"] / (figures["from_saved_ttft_s"] + figures["restore_s"]), 1)
    figures["speedup_after_warm_up"] = round(figures["cold_ttft_s"] / figures["after_warm_up_ttft_s"], 1)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[2048, 4096, 8192])
    args = parser.parse_args()
    texts = utterances()
    with tempfile.TemporaryDirectory() as scratch:
        session = open_session(DataDir(Path(scratch)), lambda new: "bench", use_keychain=False, scrypt_n=2**12)
        report = {"model": default_model_path().name, "runs": [measure(session, size, texts) for size in args.sizes]}
        session.close()
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
