#!/usr/bin/env python3
"""Runtime benchmark for the bundled model, printed as JSON.

- prefill and decode tokens/s, from llama.cpp's own timings;
- time to first token on turn 1 and on turn 20 of one conversation with the KV cache reused,
  and turn 20 again with the cache cleared (the ratio is the headline; target >= 20x);
- resident memory with one and with two contexts over the same memory-mapped GGUF.
User turns are real LoCoMo utterances (../shared/data/locomo10 or --locomo DIR).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mfs_desktop.context.assembler import DEFAULT_SYSTEM_PROMPT  # noqa: E402
from mfs_desktop.runtime.embedded import EmbeddedModel  # noqa: E402
from mfs_desktop.runtime.model_files import default_model_path  # noqa: E402
from mfs_desktop.runtime.protocol import ChatMessage, SamplingSettings  # noqa: E402

SHORT_FOLLOW_UP = "What did I tell you first?"
MEMORY_PROBE = """
import sys, threading
sys.path.insert(0, {repo!r})
from mfs_desktop.runtime.embedded import EmbeddedModel
from mfs_desktop.runtime.model_files import default_model_path
from mfs_desktop.runtime.protocol import ChatMessage, SamplingSettings

def status():
    fields = dict(line.split(':', 1) for line in open('/proc/self/status') if ':' in line)
    return {{k: int(fields[k].split()[0]) // 1024 for k in ('VmRSS', 'RssAnon', 'RssFile')}}

models = [EmbeddedModel(default_model_path(), n_ctx={window}) for _ in range({count})]
for model in models:
    model.complete([ChatMessage('user', 'Say hello.')], SamplingSettings(max_tokens=8, temperature=0.0),
                   lambda p: None, threading.Event())
print(status())
"""


def locomo_questions(directory: Path, count: int) -> list[str]:
    document = json.loads(sorted(directory.glob("*.json"))[0].read_text(encoding="utf-8"))
    first = document["speaker_a"]
    texts = [turn["text"] for key in sorted((k for k in document if k.startswith("session_") and k[8:].isdigit()),
                                            key=lambda k: int(k[8:]))
             for turn in document[key] if turn["speaker"] == first]
    return texts[:count] if texts else [f"Tell me something about number {i}." for i in range(count)]


def timed_turn(model: EmbeddedModel, messages: list[ChatMessage], settings: SamplingSettings) -> dict:
    first_piece: list[float] = []
    started = time.perf_counter()
    completion = model.complete(messages, settings, lambda p: first_piece or first_piece.append(time.perf_counter()),
                                threading.Event())
    ended = time.perf_counter()
    return {"completion": completion, "ttft_ms": ((first_piece[0] if first_piece else ended) - started) * 1000}


def resident_memory(window: int, count: int) -> dict:
    done = subprocess.run([sys.executable, "-c", MEMORY_PROBE.format(repo=str(REPO), window=window, count=count)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().replace("'", '"'))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--window", type=int, default=8192)
    parser.add_argument("--answer-tokens", type=int, default=48)
    parser.add_argument("--locomo", type=Path, default=REPO.parent / "shared" / "data" / "locomo10")
    args = parser.parse_args()

    model = EmbeddedModel(default_model_path(), n_ctx=args.window)
    settings = SamplingSettings(max_tokens=args.answer_tokens, temperature=0.0, seed=1)
    messages = [ChatMessage("system", DEFAULT_SYSTEM_PROMPT)]
    turns = []
    for question in locomo_questions(args.locomo, args.turns):
        messages.append(ChatMessage("user", question))
        turn = timed_turn(model, messages, settings)
        messages.append(ChatMessage("assistant", turn["completion"].text))
        turns.append(turn)
    warm = turns[-1]
    model.clear_cache()
    cold = timed_turn(model, messages[:-1], settings)

    # The same turn with a short follow-up instead of a long LoCoMo utterance: how much the
    # ratio owes to the length of the new message.
    history = messages[:-2]
    model.clear_cache()
    model.complete(history[:-1], settings, lambda p: None, threading.Event())  # cache up to turn 19's question
    short = [*history[:-1], history[-1], ChatMessage("user", SHORT_FOLLOW_UP)]
    short_warm = timed_turn(model, short, settings)
    model.clear_cache()
    short_cold = timed_turn(model, short, settings)

    long_prompt = [ChatMessage("user", " ".join(locomo_questions(args.locomo, 200))[:12000])]
    model.clear_cache()
    prefill = timed_turn(model, long_prompt, SamplingSettings(max_tokens=64, temperature=0.0))["completion"].usage
    decode_tokens = sum(t["completion"].usage.completion_tokens for t in turns)
    decode_ms = sum(t["completion"].usage.decode_ms for t in turns)

    usage = lambda turn: {k: v for k, v in vars(turn["completion"].usage).items()}  # noqa: E731
    one, two = resident_memory(args.window, 1), resident_memory(args.window, 2)
    print(json.dumps({
        "benchmark": "runtime",
        "model": default_model_path().name,
        "model_file_mb": round(default_model_path().stat().st_size / 2**20, 1),
        "window": args.window,
        "prefill_tokens_per_s": round(prefill.prompt_tokens_evaluated / (prefill.prefill_ms / 1000), 1),
        "prefill_tokens_measured": prefill.prompt_tokens_evaluated,
        "decode_tokens_per_s": round(decode_tokens / (decode_ms / 1000), 1),
        "turn_1": {"ttft_ms": round(turns[0]["ttft_ms"], 1), "usage": usage(turns[0])},
        f"turn_{len(turns)}_warm": {"ttft_ms": round(warm["ttft_ms"], 1), "usage": usage(warm)},
        f"turn_{len(turns)}_cold": {"ttft_ms": round(cold["ttft_ms"], 1), "usage": usage(cold)},
        "ttft_ratio_cold_over_warm": round(cold["ttft_ms"] / warm["ttft_ms"], 1),
        "short_follow_up": {"question": SHORT_FOLLOW_UP,
                            "warm": {"ttft_ms": round(short_warm["ttft_ms"], 1), "usage": usage(short_warm)},
                            "cold": {"ttft_ms": round(short_cold["ttft_ms"], 1), "usage": usage(short_cold)},
                            "ttft_ratio_cold_over_warm": round(short_cold["ttft_ms"] / short_warm["ttft_ms"], 1)},
        "evaluated_tokens_turns_2_to_n": [t["completion"].usage.prompt_tokens_evaluated for t in turns[1:]],
        "resident_mb": {"one_context": one, "two_contexts": two,
                        "second_context_anon_mb": two["RssAnon"] - one["RssAnon"]},
    }, indent=2))


if __name__ == "__main__":
    main()
