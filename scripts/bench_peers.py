#!/usr/bin/env python3
"""Our context engine against the peers' strategies, side by side in one run (issue 6).

For each LoCoMo conversation and window, every strategy sees the same messages turn by turn
and is measured with the bundled model's real tokenizer and chat template:

- prompt tokens sent, and tokens prefilled after reusing the longest common prefix of the
  previous request and its answer (what llama.cpp's prefix matching reuses); the physical
  minimum is what sending everything to an unbounded window would prefill (the new tokens);
- compactor calls and the tokens they read; payload ÷ window, its mean over the turns (how much
  the model reads each turn) and its maximum;
- evidence presence: for each LoCoMo question of categories 1–4, whether its evidence turns are
  verbatim in the final send view or its normalised answer appears there as whole words, per
  category; and the same share averaged over 20 views of the second half, each against the
  questions whose evidence came before it (one final view falls anywhere between two events);
- a planted-facts run: numbers, paths, commands and plain-language requirements inserted into
  user messages of one conversation, and the share still verbatim at the end;
- with --clock, the embedded model as compactor of `mfs` and `rolling` at the first window
  (seconds spent compacting) and every strategy's requests replayed through llama.cpp for
  wall-clock prefill seconds (`sliding` timed on every tenth request and scaled; see
  prefill_clock.py).

Prints JSON (also written to resources/bench/peers.json, with a per-window summary across the
conversations), draws one PNG per run (payload per turn against the window, and cumulative prefill ÷
cumulative minimum on a log scale; a line per strategy) and, with --readme, rewrites the results
table in docs/benchmarks.md (the option keeps its old name).
Usage: .venv/bin/python scripts/bench_peers.py [--files 26.json 30.json] [--windows 4096 8192 32768]
       [--clock] [--readme]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import tempfile
import time
from dataclasses import asdict
from itertools import accumulate
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from peers import Rolling, Shift, Sliding, TokenLengths, Utterance, as_chat, locomo_messages, system  # noqa: E402
from prefill_clock import Clock, PrefillTime, Step  # noqa: E402

from mfs_desktop.compaction.compactor import Compactor, ExtractiveCompactor, ModelCompactor  # noqa: E402
from mfs_desktop.compaction.segments import CompactorOutputRejected, verify_items  # noqa: E402
from mfs_desktop.profile import ContextProfile  # noqa: E402
from mfs_desktop.runtime.embedded import EmbeddedModel  # noqa: E402
from mfs_desktop.runtime.estimate import estimate_text_tokens  # noqa: E402
from mfs_desktop.runtime.model_files import default_model_path  # noqa: E402
from mfs_desktop.runtime.tools import TOOLS  # noqa: E402
from mfs_desktop.services.conversation.chat import ChatService  # noqa: E402
from mfs_desktop.services.conversation.replay import common_prefix, replay_locomo  # noqa: E402
from mfs_desktop.services.session import open_session  # noqa: E402
from mfs_desktop.services.unlock import DataDir  # noqa: E402

STRATEGIES = ("mfs", "mfs+recall", "sliding", "shift", "rolling")
SLIDING_SAMPLE = 10  # sliding re-prefills most of its window each turn: time one request in ten
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
# The final view is one moment: a strategy that compacts in steps holds more raw text just
# before an event than just after it. Evidence is also read at this many user turns spread
# over the second half, each against the questions whose evidence came before it.
VIEWS_SAMPLED = 20
PLANTED = ([f"My staging database listens on port {5400 + n} and its dump lives at /var/dumps/stage-{n:03d}.sql"
            for n in range(12)]
           + [f"To rebuild the index run `indexer --shard {n} --threads 4` before noon" for n in range(10)]
           + [f"The customer reference for that trip is REF-{70_000 + 913 * n}" for n in range(10)]
           + [f"The upload died with Traceback: OSError: [Errno {n + 2}] while writing chunk {n}" for n in range(8)])
WISHES = ["Please always write the date first in any plan you make for me.",
          "Never suggest anything that involves flying.", "Keep your answers warm but short.",
          "Always remind me to stretch when we talk about work.", "Do not recommend fast food places.",
          "I want every list you give me ordered from easiest to hardest.",
          "From now on, call my sister by her nickname, Bee.", "Please never bring up my old job again.",
          "Always mention a quiet option when suggesting places to go.", "Avoid jargon when you explain money things.",
          "Ask me before you plan anything on weekends.", "Please use plain words instead of idioms.",
          "Never schedule anything before nine in the morning for me.", "Always suggest a vegetarian choice.",
          "Do not use exclamation marks with me.", "Keep the tone calm when we talk about family.",
          "Always give me one book idea when I feel stuck.", "Please spell out abbreviations the first time.",
          "Never compare me to other people.", "Remind me to drink water when we talk for long."]


def normalised(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", str(text).lower()).split())


def evidence_presence(document: dict, messages: list[Utterance], final_text: str, before: int | None = None) -> dict:
    """Per category, the share of questions whose evidence turns are all verbatim in the text or
    whose answer is in it (normalised); with `before`, only questions whose evidence all came
    before message `before`."""
    by_id = {m.dia_id: m.text for m in messages}
    position = {m.dia_id: i for i, m in enumerate(messages)}
    flat = normalised(final_text)
    totals: dict[str, list[int]] = {name: [0, 0] for name in CATEGORIES.values()}
    for question in document.get("qa", []):
        name = CATEGORIES.get(question.get("category"))
        evidence = [by_id[e] for e in question.get("evidence", []) if e in by_id]
        if name is None or (not evidence and "answer" not in question):
            continue
        if before is not None and not (evidence and all(position[e] < before for e in question["evidence"]
                                                          if e in position)):
            continue
        verbatim = bool(evidence) and all(text in final_text for text in evidence)
        # whole words: "3 km" is not in "23 km"
        answered = "answer" in question and f" {normalised(question['answer'])} " in f" {flat} "
        totals[name][0] += verbatim or answered
        totals[name][1] += 1
    shares = {name: round(hit / total, 3) if total else None for name, (hit, total) in totals.items()}
    hits, total = sum(h for h, _ in totals.values()), sum(t for _, t in totals.values())
    return {"per_category": shares, "all": round(hits / total, 3) if total else None, "questions": total}


def sampled_turns(messages: list[Utterance]) -> list[int]:
    """Message indexes of VIEWS_SAMPLED user turns evenly over the second half."""
    users = [i for i, m in enumerate(messages) if m.role == "user"]
    half = users[len(users) // 2:]
    step = max(1, len(half) // VIEWS_SAMPLED)
    return half[::step][:VIEWS_SAMPLED]


def evidence_over_views(document: dict, messages: list[Utterance], views: dict[int, str]) -> float:
    """The mean share of evidence present over the sampled views."""
    shares = [evidence_presence(document, messages, text, before=k)["all"] for k, text in sorted(views.items())]
    shares = [share for share in shares if share is not None]
    return round(sum(shares) / len(shares), 3) if shares else 0.0


class Compactors:
    """Who folds history for `mfs` and `rolling`: the deterministic compactor, or the bundled
    model (each strategy its own instance, as each app would load it)."""

    def __init__(self, embedded: bool) -> None:
        self.embedded = embedded
        self.name = "embedded SmolLM2-135M" if embedded else "extractive (deterministic)"

    def for_mfs(self, window: int) -> Compactor:
        if self.embedded:
            return ModelCompactor(EmbeddedModel(default_model_path(), n_ctx=window))
        return ExtractiveCompactor(estimate_text_tokens)

    def for_rolling(self, window: int) -> TimedCompactor:
        # One summary reads 0.9 × window and writes 0.1 × window: its own model needs room for both.
        primary = ModelCompactor(EmbeddedModel(default_model_path(), n_ctx=2 * window)) if self.embedded else None
        return TimedCompactor(primary, ExtractiveCompactor(estimate_text_tokens))


class TimedCompactor:
    """The rolling summary's compactor: the model when there is one, and, as `mfs` degrades a
    failed guide, the deterministic summary when its output is not the items it was asked for."""

    def __init__(self, primary: Compactor | None, fallback: Compactor) -> None:
        self.primary, self.fallback = primary, fallback
        self.seconds, self.degraded = 0.0, 0

    def summarize(self, messages, target_tokens: int, cancel) -> str:
        started = time.perf_counter()
        try:
            if self.primary is not None:
                raw = self.primary.summarize(messages, target_tokens, cancel)
                try:  # the verifier `mfs` applies to its own guides
                    verify_items(raw, [m.turn_ordinal for m in messages], target_tokens, estimate_text_tokens)
                    return raw
                except CompactorOutputRejected:
                    self.degraded += 1
            return self.fallback.summarize(messages, target_tokens, cancel)
        finally:
            self.seconds += time.perf_counter() - started


def trace(messages: list[Utterance], requests: list[list[int]], tokenizer: EmbeddedModel) -> list[Step]:
    """What a strategy sent, in order, with the answers that entered the cache between."""
    sent = iter(requests)
    return [
        Step("request", tuple(next(sent)))
        if m.role == "user"
        else Step("answer", tuple(tokenizer.answer_tokens(m.text)))
        for m in messages
    ]


def run_mfs(path: Path, window: int, tokenizer: EmbeddedModel, scratch: Path, compactors: Compactors,
            messages: list[Utterance], document: dict, recall: bool = False) -> dict:
    """Our engine through the real services; without `recall` its recall share is 0 (the
    engine before issue 45)."""
    session = open_session(DataDir(scratch / f"mfs-{path.stem}-{window}-{time.monotonic_ns()}"), lambda new: "bench",
                           use_keychain=False, scrypt_n=2**12)
    profile = ContextProfile(window=window) if recall else ContextProfile(window=window, recall_share=0.0)
    service = ChatService(session, tokenizer, provider="replay", profile=profile,
                          compactor_factory=lambda: compactors.for_mfs(window))
    requests: list[list[int]] = []
    try:
        report = replay_locomo(service, path, tokenizer, on_turn=lambda turn, ids: requests.append(ids))
        view, _ = service.view(report["conversation_id"])
        asked = question_views(service, report["conversation_id"], document)
        calls, read, spent = session.database.connection().execute(
            "SELECT count(*), coalesce(sum(input_tokens), 0), coalesce(sum(duration_ms), 0) FROM ledger "
            "WHERE conversation_id = ? AND event IN ('compaction', 'consolidation') AND input_tokens IS NOT NULL",
            (report["conversation_id"],)).fetchone()
    finally:
        service.close()
        session.close()
    turns = report["per_turn"]
    request_of = dict(zip((i for i, m in enumerate(messages) if m.role == "user"), requests, strict=False))
    views = {k: tokenizer.text_of(request_of[k]) for k in sampled_turns(messages)}
    return {
        "views": views,
        "prompt": [t["prompt_tokens"] for t in turns],
        "prefilled": [t["prompt_tokens"] - t["reusable_tokens"] for t in turns],
        "final_text": "\n".join(m.content for m in view.messages),
        "question_time": asked,
        "compactor_calls": calls,
        "compactor_input_tokens": read,
        "compacting_seconds": round(spent / 1000, 1),
        "coverage_ok_every_turn": report["coverage_ok_every_turn"],
        "trace": trace(messages, requests, tokenizer),
    }


def question_views(service: ChatService, conversation_id: str, document: dict) -> dict[str, str]:
    """Per question: the request text built with the question as the current input (nothing
    stored), less the question itself, so an answer that the question spells is not counted."""
    asked = {}
    for question in document.get("qa", []):
        text = str(question.get("question", ""))
        if question.get("category") in CATEGORIES and text and text not in asked:
            view, _ = service.view(conversation_id, extra_input=text)
            asked[text] = "\n".join(m.content for m in view.messages).replace(text, "")
    return asked


def question_time_evidence(document: dict, messages: list[Utterance], run: dict) -> dict:
    """`evidence_presence` with each question against the request it would be sent with: its own
    for a strategy that builds one per question, else the final view (a peer's request does not
    depend on what is asked)."""
    asked = run.get("question_time")
    if asked is None:
        return evidence_presence(document, messages, run["final_text"])
    tallies = [evidence_presence({"qa": [q]}, messages, asked.get(str(q.get("question", "")), run["final_text"]))
               for q in document.get("qa", [])]
    totals: dict[str, list[int]] = {name: [0, 0] for name in CATEGORIES.values()}
    for question, tally in zip(document.get("qa", []), tallies, strict=True):
        name = CATEGORIES.get(question.get("category"))
        if name is not None and tally["questions"]:
            totals[name][0] += tally["all"] == 1.0
            totals[name][1] += 1
    hits, total = sum(h for h, _ in totals.values()), sum(t for _, t in totals.values())
    return {"per_category": {name: round(h / t, 3) if t else None for name, (h, t) in totals.items()},
            "all": round(hits / total, 3) if total else None, "questions": total}


def run_requests(strategy, messages: list[Utterance], tokenizer: EmbeddedModel) -> dict:
    """A strategy that builds a request per user turn: prefill is what the prefix cache misses."""
    cached: list[int] = []
    prompt, prefilled, requests = [], [], []
    sampled, views = set(sampled_turns(messages)), {}
    for k, message in enumerate(messages):
        if message.role == "user":
            request = strategy.request(k, tokenizer) if isinstance(strategy, Rolling) else strategy.request(k)
            if k in sampled:
                views[k] = "\n".join(m.content for m in request)
            ids = tokenizer.prompt_tokens(request, TOOLS)
            prompt.append(len(ids))
            prefilled.append(len(ids) - common_prefix(cached, ids))
            requests.append(ids)
            cached = ids
        else:
            cached = cached + tokenizer.answer_tokens(message.text)
    last = len(messages) - 1
    compactor = getattr(strategy, "compactor", None)
    return {"prompt": prompt, "prefilled": prefilled, "final_text": strategy.final_text(last), "views": views,
            "compactor_calls": getattr(strategy, "compactor_calls", 0),
            "compactor_input_tokens": getattr(strategy, "compactor_input_tokens", 0),
            "compacting_seconds": round(getattr(compactor, "seconds", 0.0), 1),
            **({"degraded_summaries": compactor.degraded} if isinstance(compactor, TimedCompactor) else {}),
            "trace": trace(messages, requests, tokenizer)}


class Everything:
    """No window: the physical minimum of prefill is what this sends new each turn."""

    def __init__(self, messages: list[Utterance]) -> None:
        self.messages = messages

    def request(self, k: int):
        return [system(), *as_chat(self.messages[: k + 1])]

    def final_text(self, k: int) -> str:
        return ""


def run_shift(messages: list[Utterance], lengths: TokenLengths, window: int, unbounded: dict) -> dict:
    shift = Shift(messages, lengths, window)
    sampled, views = set(sampled_turns(messages)), {}
    for k in range(len(messages)):
        shift.advance(k)
        if k in sampled:
            views[k] = shift.final_text(k)
    return {"views": views, "prompt": shift.payloads, "prefilled": list(unbounded["prefilled"]),
            "final_text": shift.final_text(len(messages) - 1), "compactor_calls": 0, "compactor_input_tokens": 0,
            "compacting_seconds": 0.0, "shifts": shift.shifts, "trace": unbounded["trace"]}


def prefill_times(runs: dict, window: int, keep: int) -> dict[str, PrefillTime]:
    clock = Clock(default_model_path(), window, threads=os.cpu_count() or 2)
    return {name: clock.replay_shift(run["trace"], keep) if name == "shift"
            else clock.replay(run["trace"], sample_every=SLIDING_SAMPLE if name == "sliding" else 1)
            for name, run in runs.items()}


def compare(path: Path, window: int, scratch: Path, document: dict, compactors: Compactors | None = None,
            clock: bool = False, unbounded: dict | None = None) -> dict:
    """All strategies on one conversation at one window. `unbounded` is the no-window run, which
    does not depend on the window: a long talk passes it in rather than tokenizing its whole
    history once per turn again (quadratic in the talk's length)."""
    compactors = compactors or Compactors(embedded=False)
    tokenizer = EmbeddedModel(default_model_path(), n_ctx=max(window, 32_768), tokenizer_only=True)
    messages = locomo_messages(path)
    lengths = TokenLengths(tokenizer, messages)
    unbounded = unbounded or run_requests(Everything(messages), messages, tokenizer)
    minimum = unbounded["prefilled"]
    runs = {
        "mfs": run_mfs(path, window, tokenizer, scratch, compactors, messages, document),
        "mfs+recall": run_mfs(path, window, tokenizer, scratch, compactors, messages, document, recall=True),
        "sliding": run_requests(Sliding(messages, lengths, window), messages, tokenizer),
        "shift": run_shift(messages, lengths, window, unbounded),
        "rolling": run_requests(Rolling(messages, lengths, window, compactors.for_rolling(window),
                                        estimate_text_tokens), messages, tokenizer),
    }
    times = prefill_times(runs, window, lengths.fixed) if clock else {}
    physical = sum(minimum)
    result = {"file": path.name, "window": window, "compactor": compactors.name, "turns": len(minimum),
              "physical_minimum_prefill": physical, "minimum_series": minimum,
              "series": {name: {"prompt": run["prompt"], "prefilled": run["prefilled"]} for name, run in runs.items()},
              "finals": {name: run["final_text"] for name, run in runs.items()}, "strategies": {}}
    for name, run in runs.items():
        result["strategies"][name] = {
            "cumulative_prompt_tokens": sum(run["prompt"]), "cumulative_prefilled_tokens": sum(run["prefilled"]),
            "prefill_vs_minimum": round(sum(run["prefilled"]) / physical, 2),
            "compactor_calls": run["compactor_calls"], "compactor_input_tokens": run["compactor_input_tokens"],
            "compacting_seconds": run["compacting_seconds"],
            **({"degraded_summaries": run["degraded_summaries"]} if "degraded_summaries" in run else {}),
            **({"prefill_wall_clock": asdict(times[name])} if name in times else {}),
            "max_payload_ratio": round(max(run["prompt"]) / window, 3),
            "mean_payload_ratio": round(sum(run["prompt"]) / len(run["prompt"]) / window, 3),
            "evidence": evidence_presence(document, messages, run["final_text"]),
            "evidence_over_views": evidence_over_views(document, messages, run["views"]),
            "question_time_evidence": question_time_evidence(document, messages, run),
            **({"coverage_ok_every_turn": run["coverage_ok_every_turn"]} if "coverage_ok_every_turn" in run else {}),
            **({"kv_shifts": run["shifts"]} if "shifts" in run else {})}
    return result


def long_talk_file(paths: list[Path], scratch: Path) -> Path:
    """Several LoCoMo conversations as one long talk: sessions renumbered in order, the first
    speaker of each as the user, and every question kept with its evidence ids renumbered, so
    the same measures read a talk many windows long. Dates stay as recorded (temporal answers
    name them), so the talk's calendar restarts where a conversation does."""
    joined: dict = {"speaker_a": "A", "speaker_b": "B", "qa": []}
    offset = 0
    for path in paths:
        document = json.loads(path.read_text(encoding="utf-8"))
        speakers = {document["speaker_a"]: "A", document["speaker_b"]: "B"}
        numbers = sorted(int(k.split("_")[1]) for k in document
                         if k.startswith("session_") and k.count("_") == 1 and isinstance(document[k], list))

        for n in numbers:
            joined[f"session_{n + offset}_date_time"] = document[f"session_{n}_date_time"]
            joined[f"session_{n + offset}"] = [{**turn, "speaker": speakers[turn["speaker"]],
                                                "dia_id": _renumbered(turn["dia_id"], offset) or turn["dia_id"]}
                                               for turn in document[f"session_{n}"]]
        for question in document.get("qa", []):
            evidence = [e for e in (_renumbered(e, offset) for e in question.get("evidence", [])) if e]
            joined["qa"].append({**question, "evidence": evidence})
        offset += numbers[-1]
    target = scratch / ("long-" + "+".join(path.stem for path in paths) + ".json")
    target.write_text(json.dumps(joined), encoding="utf-8")
    return target


def _renumbered(dia_id: str, offset: int) -> str | None:
    """"D3:7" → "D{3 + offset}:7"; None for an id that is not one turn ("D8:6; D9:17")."""
    match = re.fullmatch(r"D(\d+):(\d+)", dia_id.strip())
    return f"D{int(match[1]) + offset}:{match[2]}" if match else None


def planted_file(path: Path, scratch: Path) -> tuple[Path, list[str]]:
    """The conversation with facts and wishes appended to user messages spread over it."""
    document = json.loads(path.read_text(encoding="utf-8"))
    first = document["speaker_a"]
    slots = [(key, i) for key in sorted((k for k in document if k.startswith("session_") and k.count("_") == 1
                                         and isinstance(document[k], list)), key=lambda k: int(k.split("_")[1]))
             for i, turn in enumerate(document[key]) if turn["speaker"] == first]
    planted = PLANTED + WISHES
    step = max(1, (len(slots) - 10) // len(planted))
    for n, sentence in enumerate(planted):
        key, i = slots[min(len(slots) - 11, n * step)]
        document[key][i]["text"] += f" {sentence}"
    target = scratch / f"planted-{path.name}"
    target.write_text(json.dumps(document), encoding="utf-8")
    return target, planted


def planted_run(path: Path, window: int, scratch: Path) -> dict:
    planted_path, _ = planted_file(path, scratch)
    result = compare(planted_path, window, scratch, {})
    return {"file": path.name, "window": window, "facts": len(PLANTED), "wishes": len(WISHES),
            "verbatim": {name: {"facts": sum(f in text for f in PLANTED), "wishes": sum(w in text for w in WISHES)}
                         for name, text in result["finals"].items()},
            "prefill_vs_minimum": {name: s["prefill_vs_minimum"] for name, s in result["strategies"].items()}}


def draw_chart(result: dict, target: Path) -> None:
    """Two panels, a line per strategy: payload tokens per turn against the window, and
    cumulative prefilled tokens ÷ the cumulative physical minimum on a log scale (on a linear
    scale sliding's 50× flattened mfs, shift and rolling into one line at the bottom)."""
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter, QPen, QPolygonF

    QGuiApplication.instance() or QGuiApplication([])
    colours = {"mfs": "#1565c0", "mfs+recall": "#2e7d32", "sliding": "#c62828", "shift": "#6a1b9a",
               "rolling": "#e08a00"}
    image = QImage(1000, 640, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    left, width, height = 70, 900, 230
    minimum = list(accumulate(result["minimum_series"]))
    ratios = {name: [p / max(1, m) for p, m in zip(accumulate(data["prefilled"]), minimum, strict=False)]
              for name, data in result["series"].items()}
    top_ratio = max(2.0, max(max(v) for v in ratios.values()))
    panels = [
        (f"payload tokens per turn (dashed: the window, {result['window']:,})", 40,
         {name: data["prompt"] for name, data in result["series"].items()},
         lambda v: v / result["window"], [(1.0, f"{result['window']:,}")]),
        ("cumulative prefilled ÷ cumulative physical minimum (log scale)", 350, ratios,
         lambda v: math.log(max(v, 1.0)) / math.log(top_ratio),
         [(math.log(g) / math.log(top_ratio), f"{g:g}×") for g in (1, 1.5, 2, 5, 10, 20, 50, 100) if g <= top_ratio]),
    ]
    for title, top, series, scale, grid in panels:
        painter.setPen(QColor("#333"))
        painter.drawText(left, top - 12, f"{title} — LoCoMo {result['file']}")
        painter.drawRect(left, top, width, height)
        for level, label in grid:
            y = top + height - level * height
            painter.setPen(QPen(QColor("#999"), 1, Qt.PenStyle.DashLine))
            painter.drawLine(QPointF(left, y), QPointF(left + width, y))
            painter.setPen(QColor("#333"))
            painter.drawText(4, int(y) + 4, label)
        for name, values in series.items():
            step = width / max(1, len(values) - 1)
            points = [
                QPointF(left + i * step, top + height - min(1.0, scale(v)) * height) for i, v in enumerate(values)
            ]
            painter.setPen(QPen(QColor(colours[name]), 2))
            painter.drawPolyline(QPolygonF(points))
    for n, name in enumerate(colours):
        painter.setPen(QPen(QColor(colours[name]), 6))
        painter.drawLine(80 + n * 150, 618, 110 + n * 150, 618)
        painter.setPen(QColor("#333"))
        painter.drawText(118 + n * 150, 623, name)
    painter.end()
    image.save(str(target))


def clock_table(clocked: list[dict]) -> list[str]:
    lines = [
        "",
        "| conversation (embedded compactor) | window | strategy | seconds compacting | prefill seconds "
        "(wall clock) | ÷ shift | prefilled ÷ minimum | evidence present |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for result in clocked:
        base = result["strategies"]["shift"]["prefill_wall_clock"]["seconds"] or 1
        for name in STRATEGIES:
            s = result["strategies"][name]
            clock = s["prefill_wall_clock"]
            scaled = (
                f" (scaled from {clock['measured_requests']} of {clock['requests']})"
                if clock["sampled_every"] > 1
                else ""
            )
            lines.append(f"| {result['file']} | {result['window']:,} | {name} | {s['compacting_seconds']:.0f} | "
                         f"{clock['seconds']:,.0f}{scaled} | {clock['seconds'] / base:.1f}× | "
                         f"{s['prefill_vs_minimum']:.2f}× | {s['evidence']['all']:.0%} |")
    return lines


def readme_table(results: list[dict], planted: list[dict], clocked: list[dict]) -> str:
    lines = ["| conversation | window | strategy | prefilled ÷ minimum | payload ÷ window, mean / max | compactor "
             f"calls (tokens read) | evidence present (cat. 1 / 2 / 3 / 4) | evidence, mean of {VIEWS_SAMPLED} views "
             "| question-time evidence |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for result in results:
        for name in STRATEGIES:
            s = result["strategies"][name]
            cats = " / ".join("–" if v is None else f"{v:.0%}" for v in s["evidence"]["per_category"].values())
            lines.append(f"| {result['file']} | {result['window']:,} | {name} | {s['prefill_vs_minimum']:.2f}× | "
                         f"{s['mean_payload_ratio']:.2f} / {s['max_payload_ratio']:.3f} | "
                         f"{s['compactor_calls']} ({s['compactor_input_tokens']:,}) | "
                         f"{s['evidence']['all']:.0%} ({cats}) | {s['evidence_over_views']:.0%} | "
                         f"{s['question_time_evidence']['all']:.0%} |")
    lines += [
        "",
        "| planted run | window | " + " | ".join(STRATEGIES) + " |",
        "| --- | --- |" + " --- |" * len(STRATEGIES),
    ]
    for run in planted:
        cells = [f"{v['facts']}/{run['facts']} facts, {v['wishes']}/{run['wishes']} wishes"
                 for v in (run["verbatim"][name] for name in STRATEGIES)]
        lines.append(f"| {run['file']} | {run['window']:,} | " + " | ".join(cells) + " |")
    return "\n".join(lines + (clock_table(clocked) if clocked else []))


def stored(result: dict) -> dict:
    """A run as the JSON keeps it: figures, without the per-turn series and final texts."""
    return {k: v for k, v in result.items() if k not in ("series", "finals", "minimum_series")}


def summary(results: list[dict]) -> dict:
    """Per window and strategy, across the conversations run: the prefill ratio's mean and
    range, the mean evidence (final view and mean over views), and on how many conversations
    mfs has at least the evidence of that strategy (of the mean over views)."""
    def across(runs: list[dict], name: str) -> dict:
        ratios = [r["strategies"][name]["prefill_vs_minimum"] for r in runs]
        views = [r["strategies"][name]["evidence_over_views"] for r in runs]
        return {
            "prefill_vs_minimum": {"mean": round(sum(ratios) / len(runs), 2), "min": min(ratios), "max": max(ratios)},
            "evidence_final_mean": round(sum(r["strategies"][name]["evidence"]["all"] for r in runs) / len(runs), 3),
            "evidence_over_views_mean": round(sum(views) / len(runs), 3),
            "question_time_evidence_mean": round(
                sum(r["strategies"][name]["question_time_evidence"]["all"] for r in runs) / len(runs), 3),
            "mfs_at_least_as_much_evidence": sum(
                r["strategies"]["mfs"]["evidence_over_views"] >= v for r, v in zip(runs, views, strict=False)
            ),
        }

    out: dict = {}
    for window in sorted({r["window"] for r in results}):
        runs = [r for r in results if r["window"] == window]
        out[str(window)] = {"conversations": len(runs), **{name: across(runs, name) for name in STRATEGIES}}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--locomo", type=Path, default=REPO.parent / "shared" / "data" / "locomo10")
    parser.add_argument("--files", nargs="+", default=["26.json", "30.json"])
    parser.add_argument("--windows", type=int, nargs="+", default=[4096, 8192, 32768])
    parser.add_argument("--charts", type=Path, default=REPO / "resources" / "bench")
    parser.add_argument("--readme", action="store_true", help="rewrite the results table in docs/benchmarks.md")
    parser.add_argument("--clock", action="store_true",
                        help="also: embedded compactor and wall-clock prefill, every file at the first window")
    parser.add_argument("--long", nargs="+", metavar="FILE",
                        help="also: these conversations replayed as one long talk, at the first two windows")
    args = parser.parse_args()
    args.charts.mkdir(parents=True, exist_ok=True)
    results, long, planted, clocked = [], [], [], []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch_dir:
        scratch = Path(scratch_dir)
        for name in args.files:
            path = args.locomo / name
            document = json.loads(path.read_text(encoding="utf-8"))
            for window in args.windows:
                result = compare(path, window, scratch, document)
                draw_chart(result, args.charts / f"peers-{path.stem}-{window}.png")
                results.append(result)
        if args.long:
            path = long_talk_file([args.locomo / name for name in args.long], scratch)
            document = json.loads(path.read_text(encoding="utf-8"))
            messages = locomo_messages(path)
            tokenizer = EmbeddedModel(default_model_path(), n_ctx=32_768, tokenizer_only=True)
            unbounded = run_requests(Everything(messages), messages, tokenizer)
            for window in args.windows[:2]:
                result = compare(path, window, scratch, document, unbounded=unbounded)
                draw_chart(result, args.charts / f"peers-{path.stem}-{window}.png")
                long.append(result)
        for window in args.windows[:2]:
            planted.append(planted_run(args.locomo / args.files[0], window, scratch))
        for name in args.files if args.clock else []:
            path = args.locomo / name
            clocked.append(compare(path, args.windows[0], scratch, json.loads(path.read_text(encoding="utf-8")),
                                   Compactors(embedded=True), clock=True))
    report = {"benchmark": "peers", "compactor": "extractive (deterministic), for mfs and rolling",
              "seconds": round(time.perf_counter() - started, 1),
              "summary": summary(results),
              "runs": [stored(r) for r in results], "long_talk": [stored(r) for r in long], "planted": planted,
              "clocked": [stored(r) for r in clocked]}
    if args.readme:
        readme = REPO / "docs" / "benchmarks.md"  # the table moved out of the README (issue 28)
        text = readme.read_text(encoding="utf-8")
        begin, end = "<!-- peers table: scripts/bench_peers.py --readme -->", "<!-- end peers table -->"
        table = f"{begin}\n{readme_table(results + long, planted, clocked)}\n{end}"
        text = re.sub(re.escape(begin) + r".*?" + re.escape(end), lambda _: table, text, flags=re.S) \
            if begin in text else text + "\n" + table + "\n"
        readme.write_text(text, encoding="utf-8")
    (args.charts / "peers.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
