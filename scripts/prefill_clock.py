"""Wall-clock prefill of each strategy's requests through the bundled model in llama.cpp, for the
peers benchmark only (issue 6, item 4).

A strategy's trace is what it sends and what the model answers, in order. A request reuses the
longest common prefix of the KV cache, as llama.cpp's prefix matching does, and only the rest
is evaluated and timed; an answer is appended to the cache untimed (it is decoded in the app,
not prefilled). `shift` keeps its KV cache and moves it in place when full, exactly as
llama.cpp's context shift does (drop half of what follows the kept system prompt, shift the
rest down), so its cost includes the shifts.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import llama_cpp

from mfs_desktop.services.conversation.replay import common_prefix


@dataclass(frozen=True)
class Step:
    kind: str  # "request" or "answer"
    ids: tuple[int, ...]


@dataclass(frozen=True)
class PrefillTime:
    measured_seconds: float
    measured_requests: int
    measured_tokens: int
    requests: int
    prefilled_tokens: int
    seconds: float  # all requests: measured, or scaled from the measured ones when sampled
    sampled_every: int


class Clock:
    def __init__(self, model_path: Path, window: int, threads: int) -> None:
        self.window = window
        self.llama = llama_cpp.Llama(str(model_path), n_ctx=window, n_batch=512, n_threads=threads,
                                     n_threads_batch=threads, verbose=False)

    def _load(self, ids: list[int], cached: list[int]) -> float:
        """Make the cache hold `ids`, evaluating only past the common prefix; seconds spent."""
        reuse = common_prefix(cached, ids)
        if reuse == len(ids) and reuse:
            reuse -= 1  # llama.cpp re-evaluates the last token to have its logits
        self.llama.n_tokens = reuse
        started = time.perf_counter()
        self.llama.eval(ids[reuse:])
        return time.perf_counter() - started

    def _reset(self) -> None:
        self.llama.reset()
        self.llama._ctx.kv_cache_clear()

    def replay(self, steps: list[Step], *, sample_every: int = 1) -> PrefillTime:
        """Time every `sample_every`-th request; before a timed one the cache is brought to what
        it would hold then (the previous request and its answer), untimed."""
        self._reset()
        in_cache: list[int] = []
        wanted: list[int] = []  # what the cache holds after the previous request and its answer
        seconds, measured, measured_tokens, requests, prefilled = 0.0, 0, 0, 0, 0
        for step in steps:
            ids = list(step.ids)
            if step.kind == "answer":
                wanted = (wanted + ids)[: self.window - 1]
                continue
            new = len(ids) - common_prefix(wanted, ids)
            prefilled += new
            if requests % sample_every == 0:
                self._load(wanted, in_cache)
                seconds += self._load(ids, wanted)
                measured += 1
                measured_tokens += new
                in_cache = ids
            requests += 1
            wanted = ids
        scaled = seconds * prefilled / measured_tokens if measured_tokens else 0.0
        return PrefillTime(round(seconds, 2), measured, measured_tokens, requests, prefilled, round(scaled, 2),
                           sample_every)

    def replay_shift(self, steps: list[Step], keep: int) -> PrefillTime:
        """Steps of the unbounded conversation; the cache keeps the first `keep` tokens (the
        system prompt) and shifts out half of the rest whenever the next batch would not fit."""
        self._reset()
        context = self.llama._ctx
        logical: list[int] = []
        seconds, requests, prefilled = 0.0, 0, 0
        for step in steps:
            ids = list(step.ids)
            new = ids[common_prefix(logical, ids):] if step.kind == "request" else ids
            logical = ids if step.kind == "request" else logical + ids
            started = time.perf_counter()
            past = self.llama.n_tokens
            while past + len(new) > self.window - 1:
                discard = (past - keep) // 2
                context.kv_cache_seq_rm(0, keep, keep + discard)
                context.kv_cache_seq_shift(0, keep + discard, past, -discard)
                self.llama.input_ids[keep: past - discard] = self.llama.input_ids[keep + discard: past]
                past -= discard
            self.llama.n_tokens = past
            self.llama.eval(new)
            if step.kind == "request":
                seconds += time.perf_counter() - started
                requests += 1
                prefilled += len(new)
        return PrefillTime(round(seconds, 2), requests, prefilled, requests, prefilled, round(seconds, 2), 1)
