"""`mfs-desktop inspect`: exactly what the model would see next, zone by zone."""

from __future__ import annotations

import hashlib

from mfs_desktop.compaction.coverage import check_coverage
from mfs_desktop.context.recall import Recall
from mfs_desktop.context.send_view import DATA_OPEN
from mfs_desktop.errors import NotFound
from mfs_desktop.runtime.estimate import estimate_text_tokens
from mfs_desktop.services.conversation.chat import ChatService
from mfs_desktop.services.conversation.compaction import pinned_messages
from mfs_desktop.services.session import Session
from mfs_desktop.store.recall_search import recalls
from mfs_desktop.store.segment_records import cited_turns, day_label, days_line, spoken_date
from mfs_desktop.store.segments import SegmentStore


def render_payload(service: ChatService, conversation_id: str, messages) -> str:
    """The send view as text: the model's own template where it has one."""
    render = getattr(service.model, "render", None)
    if render is not None:
        return render(messages, service.tool_specs(conversation_id))
    return "".join(f"<|{m.role}|>\n{m.content}\n" for m in messages)


def recall_report(session: Session, conversation_id: str, user_uid: int, made: Recall | None) -> dict:
    """What recall brought for a user message (made now, or kept with it): uids, dates, terms."""
    if made is not None:
        hits, tokens = [hit.as_dict() for hit in made.hits], made.tokens
    else:
        kept = recalls(session.database, conversation_id, uid_from=user_uid).get(user_uid)
        hits, tokens = (list(kept.hits), kept.tokens) if kept else ([], 0)
    return {"user_uid": user_uid, "tokens": tokens, "uids": [hit["uid"] for hit in hits],
            "hits": [{**hit, "date": spoken_date(day_label(hit["created_at"]))} for hit in hits]}


def inspect_conversation(service: ChatService, conversation_id: str, extra_input: str | None = None) -> dict:
    assembled = service.assembled(conversation_id, extra_input=extra_input)
    view, report = assembled.view, assembled.report
    conversation = service.session.transcript.conversation(conversation_id)
    block = service.segments.active_block(conversation_id)
    visible = service.session.transcript.messages(conversation_id)
    coverage = check_coverage([(s.uid_start, s.uid_end) for s in block], [m.uid for m in visible],
                              conversation.lineage_base_uid)
    messages = view.messages
    data = [m for m in messages[1:2] if m.role == "user" and m.content.startswith(DATA_OPEN)]
    raw = [m for m in messages[1:] if m not in data and not (data and m.role == "assistant" and m is messages[2])]
    payload = render_payload(service, conversation_id, messages)
    count = service.model.count_tokens
    return {
        "conversation_id": conversation_id,
        "memory_mode": conversation.memory_mode,
        "epoch": conversation.epoch,
        "block_version": report.block_version,
        "window_tokens": service.profile.window,
        "payload_tokens": report.tokens,
        "token_count": service.meter.basis(conversation_id, messages),
        "pressure": round(report.pressure, 4),
        "warn": service.profile.warn,
        "hard": service.profile.hard,
        "zones": {
            "system_and_tools": count(messages[:1], service.tool_specs(conversation_id)),
            "data_block": count(data) if data else 0,
            "recent_turns": count(raw[:-1]) if len(raw) > 1 else 0,
            "current_input": count(raw[-1:]) if raw else 0,
        },
        "segments": [{
            "uid_start": s.uid_start, "uid_end": s.uid_end, "turn_start": s.turn_start, "turn_end": s.turn_end,
            "depth": s.depth, "degraded": s.degraded, "tokens": estimate_text_tokens(s.render()),
            "items": len(s.items), "facts": len(s.facts), "quotes": len(s.quotes),
        } for s in block],
        "coverage": {"ok": coverage.ok, "gaps": [list(g) for g in coverage.gaps],
                     "overlaps": [list(o) for o in coverage.overlaps], "ms": coverage.ms},
        "pinned": [{"uid": m.uid, "text": m.text, "tokens": estimate_text_tokens(m.text)}
                   for m in pinned_messages(service.session, conversation_id)],
        "pinned_budget": service.profile.tokens(service.profile.pinned_share),
        "raw_messages": report.raw_messages,
        "messages_left_out": report.left_out,
        "cleared_tool_results": report.cleared_tool_results,
        "recall": recall_report(service.session, conversation_id, view.user_uid, assembled.recall),
        "payload_sha256": hashlib.sha256(payload.encode("utf-8")).hexdigest(),
    }


def segment_detail(session: Session, conversation_id: str, uid_start: int) -> dict:
    """One active segment with what it holds and the original messages it covers."""
    block = SegmentStore(session.database).active_block(conversation_id)
    segment = next((s for s in block if s.uid_start == uid_start), None)
    if segment is None:
        raise NotFound(f"No active segment starts at uid {uid_start} (the block changed; refresh).")
    originals = session.transcript.messages(conversation_id, uid_from=segment.uid_start, uid_to=segment.uid_end)
    return {
        "uid_start": segment.uid_start, "uid_end": segment.uid_end, "turn_start": segment.turn_start,
        "turn_end": segment.turn_end, "depth": segment.depth, "degraded": segment.degraded,
        "days": days_line(segment.days) if segment.days else "",
        "items": [{**item.as_dict(), "cited": cited_turns(item.source_turns)} for item in segment.items],
        "facts": list(segment.facts), "dropped_facts": segment.dropped_facts,
        "quotes": list(segment.quotes), "dropped_quotes": segment.dropped_quotes,
        "originals": [{"uid": m.uid, "turn": m.turn_ordinal, "role": m.role, "text": m.text} for m in originals],
    }


def payload_series(session: Session, conversation_id: str) -> list[tuple[int, int, int, float]]:
    """(turn, prompt tokens, tokens evaluated, time) of every answered generation, oldest first."""
    rows = session.database.connection().execute(
        "SELECT m.turn_ordinal, g.prompt_tokens, g.prompt_tokens_evaluated, g.created_at FROM generations g "
        "JOIN messages m ON m.conversation_id = g.conversation_id AND m.uid = g.user_uid "
        "WHERE g.conversation_id = ? AND g.prompt_tokens IS NOT NULL ORDER BY g.created_at", (conversation_id,))
    return [(turn, prompt, evaluated or 0, when) for turn, prompt, evaluated, when in rows]
