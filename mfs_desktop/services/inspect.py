"""`mfs-desktop inspect`: exactly what the model would see next, zone by zone."""

from __future__ import annotations

import hashlib

from mfs_desktop.compaction.coverage import check_coverage
from mfs_desktop.context.send_view import DATA_OPEN
from mfs_desktop.runtime.estimate import estimate_text_tokens
from mfs_desktop.services.chat import ChatService


def render_payload(service: ChatService, messages) -> str:
    """The send view as text: the model's own template where it has one."""
    render = getattr(service.model, "render", None)
    if render is not None:
        return render(messages, service._tools)
    return "".join(f"<|{m.role}|>\n{m.content}\n" for m in messages)


def inspect_conversation(service: ChatService, conversation_id: str) -> dict:
    view, report = service.view(conversation_id)
    conversation = service.session.transcript.conversation(conversation_id)
    block = service.segments.active_block(conversation_id)
    visible = service.session.transcript.messages(conversation_id)
    coverage = check_coverage([(s.uid_start, s.uid_end) for s in block], [m.uid for m in visible],
                              conversation.lineage_base_uid)
    messages = view.messages
    data = [m for m in messages if m.role == "user" and m.content.startswith(DATA_OPEN)]
    raw = [m for m in messages[1:] if m not in data and not (data and m.role == "assistant" and m is messages[2])]
    payload = render_payload(service, messages)
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
            "system_and_tools": count(messages[:1], service._tools),
            "data_block": count(data) if data else 0,
            "recent_turns": count(raw[:-1]) if len(raw) > 1 else 0,
            "current_input": count(raw[-1:]) if raw else 0,
        },
        "segments": [{
            "uid_start": s.uid_start, "uid_end": s.uid_end, "turn_start": s.turn_start, "turn_end": s.turn_end,
            "depth": s.depth, "degraded": s.degraded, "tokens": estimate_text_tokens(s.render()),
            "items": len(s.items), "facts": len(s.facts),
        } for s in block],
        "coverage": {"ok": coverage.ok, "gaps": [list(g) for g in coverage.gaps],
                     "overlaps": [list(o) for o in coverage.overlaps], "ms": coverage.ms},
        "raw_messages": report.raw_messages,
        "messages_left_out": report.left_out,
        "cleared_tool_results": report.cleared_tool_results,
        "payload_sha256": hashlib.sha256(payload.encode("utf-8")).hexdigest(),
    }
