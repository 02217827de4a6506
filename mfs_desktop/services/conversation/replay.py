"""Replaying a LoCoMo conversation through the real services, turn by turn.

The first speaker is the user, the second the assistant; the assistant's words come from the
file, not from a model. Each session's date and time become its messages' times. Before each
user turn the send view is assembled exactly as a generation would freeze it; the
pre-compactor runs after the turn as in the app, so its commit lands at the next turn
boundary. Reuse is measured as a KV cache keyed on token ids would see it: the longest common
prefix of this request's ids and the previous request's, with the model's real tokenizer —
once with the previous answer's tokens in the cache (as after a real generation: the sampled
ids stay in the KV cache) and once with the previous request's ids only.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from mfs_desktop.errors import InvalidInput
from mfs_desktop.runtime.embedded import EmbeddedModel
from mfs_desktop.services.conversation.chat import ChatService
from mfs_desktop.store.models import MessageDraft


@dataclass(frozen=True)
class ReplayTurn:
    turn: int
    prompt_tokens: int
    reusable_tokens: int  # with the previous answer in the cache, as after a real generation
    reusable_prompt_only: int
    reachable_tokens: int  # the most any cache could hold: the previous request and its answer
    event: bool
    segments: int
    payload_ratio: float
    coverage_ok: bool
    left_out: int


def parse_locomo_time(text: str) -> float:
    """'1:56 pm on 8 May, 2023' → seconds since the epoch, UTC."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC).timestamp()


def locomo_sessions(path: Path) -> tuple[str, list[tuple[float, list[tuple[str, str]]]]]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        first = document["speaker_a"]
        numbers = sorted(int(k.split("_")[1]) for k in document if k.startswith("session_") and k.count("_") == 1
                         and isinstance(document[k], list))
        sessions = [
            (
                parse_locomo_time(document[f"session_{n}_date_time"]),
                [
                    ("user" if turn["speaker"] == first else "assistant", turn["text"])
                    for turn in document[f"session_{n}"]
                ],
            )
            for n in numbers
        ]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InvalidInput(f"{path} is not a LoCoMo conversation file ({type(exc).__name__}).") from None
    return f"LoCoMo {path.stem}: {first} and {document['speaker_b']}", sessions


def common_prefix(a: list[int], b: list[int]) -> int:
    n = min(len(a), len(b))
    for index in range(n):
        if a[index] != b[index]:
            return index
    return n


def replay_locomo(
    service: ChatService, path: Path, tokenizer: EmbeddedModel,
    on_turn: Callable[[ReplayTurn, list[int]], None] = lambda turn, ids: None,
) -> dict:
    """Replays the file into a new conversation; `on_turn` sees each turn's figures and the
    exact token ids of its request (the peers benchmark replays them through llama.cpp)."""
    from mfs_desktop.compaction.coverage import check_coverage

    title, sessions = locomo_sessions(path)
    transcript = service.session.transcript
    conversation_id = transcript.create_conversation(title).id
    previous_ids: list[int] = []
    cached_ids: list[int] = []
    previous_version = None
    turns: list[ReplayTurn] = []
    started = time.perf_counter()
    for stamp, utterances in sessions:
        for offset, (role, text) in enumerate(utterances):
            when = stamp + offset  # one second apart keeps the order inside a session
            if role == "assistant" and not turns:
                continue  # a conversation starts with the user; LoCoMo's rare opening reply is skipped
            transcript.append(conversation_id, [MessageDraft(role, text)], now=when)
            if role == "user":
                assembled = service._view_under_pressure(conversation_id, None)
                service.keep_recall(conversation_id, assembled)  # as freezing the request would
                view, report = assembled.view, assembled.report
                ids = tokenizer.prompt_tokens(view.messages, service.tool_specs(conversation_id))
                block = service.segments.active_block(conversation_id)
                visible = [m.uid for m in transcript.messages(conversation_id)]
                coverage = check_coverage([(s.uid_start, s.uid_end) for s in block], visible)
                turn = ReplayTurn(
                    turn=len(turns) + 1, prompt_tokens=len(ids), reusable_tokens=common_prefix(cached_ids, ids),
                    reusable_prompt_only=common_prefix(previous_ids, ids),
                    reachable_tokens=min(len(cached_ids), len(ids)),
                    event=previous_version is not None and report.block_version != previous_version,
                    segments=len(block), payload_ratio=round(len(ids) / service.profile.window, 4),
                    coverage_ok=coverage.ok, left_out=report.left_out)
                turns.append(turn)
                on_turn(turn, ids)
                previous_ids, cached_ids, previous_version = ids, ids, report.block_version
            else:
                cached_ids = cached_ids + tokenizer.answer_tokens(text)
                service.schedule_compaction(conversation_id)
                service.precompactor.wait(conversation_id)
    steady = [t for t in turns[1:] if not t.event]
    reusable = sum(t.reusable_tokens for t in steady)
    total = sum(t.prompt_tokens for t in steady)
    return {
        "conversation_id": conversation_id,
        "file": path.name,
        "window": service.profile.window,
        "turns": len(turns),
        "messages": len(transcript.messages(conversation_id)),
        "coverage_ok_every_turn": all(t.coverage_ok for t in turns),
        "max_payload_ratio": max((t.payload_ratio for t in turns), default=0.0),
        "reuse_share_without_event": round(reusable / total, 4) if total else 1.0,
        # The new user message and its template can never come from a cache; this is the ceiling
        # the share above is bounded by, and how much of it the prefix discipline kept.
        "reuse_ceiling_without_event": round(sum(t.reachable_tokens for t in steady) / total, 4) if total else 1.0,
        "reuse_of_ceiling_without_event": round(reusable / sum(t.reachable_tokens for t in steady), 4)
        if steady and any(t.reachable_tokens for t in steady) else 1.0,
        "reuse_share_without_event_prompt_only": round(sum(t.reusable_prompt_only for t in steady) / total, 4)
        if total else 1.0,
        "events": sum(t.event for t in turns),
        "events_per_100_turns": round(100 * sum(t.event for t in turns) / max(1, len(turns)), 2),
        "segments": turns[-1].segments if turns else 0,
        "turns_with_messages_left_out": sum(1 for t in turns if t.left_out),
        "seconds": round(time.perf_counter() - started, 2),
        "per_turn": [asdict(t) for t in turns],
    }
