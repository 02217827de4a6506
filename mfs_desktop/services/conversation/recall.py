"""Recall in the chat service: which user messages carry zone 6, and the new one's recall.

A recall is made once, for the message that asked, when its request is frozen, and kept: later
requests repeat it in place while that message is in the raw tail (the prefix holds), and a
regenerated answer sees the same originals. It never takes the request past the warn line,
and it is off when the conversation's memory is off or its own setting says so.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from mfs_desktop.context.recall import NOTHING, Recall, RecallHit, RecallRequest, recall
from mfs_desktop.context.send_view import DATA_OPEN, ViewReport
from mfs_desktop.context.snapshot import SendView
from mfs_desktop.profile import ContextProfile
from mfs_desktop.runtime.estimate import estimate_text_tokens
from mfs_desktop.services.session import Session
from mfs_desktop.store import ledger
from mfs_desktop.store.conversation_settings import conversation_settings
from mfs_desktop.store.models import Conversation, Message
from mfs_desktop.store.recall_search import RecallRecord, recalls, save_recall
from mfs_desktop.store.segment_records import day_label, spoken_date


@dataclass(frozen=True)
class RecallState:
    """The recalls a view is built with: kept ones by user uid (those from `shown_from` on are
    sent), and the new message's, if made now."""

    on: bool
    kept: dict[int, RecallRecord]
    shown_from: int = 0
    new: Recall | None = None

    def blocks(self, user_uid: int | None = None) -> dict[int, str]:
        blocks = {uid: record.block for uid, record in self.kept.items() if record.block and uid >= self.shown_from}
        if self.new is not None and self.new.block and user_uid is not None:
            blocks[user_uid] = self.new.block
        return blocks


def recall_enabled(session: Session, conversation: Conversation) -> bool:
    return conversation.memory_mode != "off" and conversation_settings(session.database, conversation.id).recall \
        is not False


def kept_recalls(session: Session, profile: ContextProfile, conversation: Conversation, covered_end: int,
                 user_uids: Sequence[int]) -> RecallState:
    """The recalls a view carries: every raw user message's while they stay with their turn
    (`profile.recall_stays`), else only the newest message's (a regenerated answer). `user_uids`
    ends with the newest user message and the one before it, which is read either way: a
    follow-up question looks at it."""
    if not recall_enabled(session, conversation):
        return RecallState(False, {})
    newest = user_uids[-1] if user_uids else 0
    shown_from = covered_end + 1 if profile.recall_stays else newest
    read_from = min(shown_from, user_uids[-2] if len(user_uids) > 1 else newest)
    return RecallState(True, recalls(session.database, conversation.id, uid_from=read_from), shown_from)


def recall_for_input(session: Session, profile: ContextProfile, visible: Sequence[Message], view: SendView,
                     report: ViewReport, state: RecallState) -> Recall:
    """The new user message's recall: originals before the view's raw turns (covered or left
    out), never one another recall in this view already carries, within the recall share and
    the room left under the warn line."""
    carried = {hit["uid"] for uid, record in state.kept.items() if uid >= max(view.first_uid, state.shown_from)
               for hit in record.hits}
    eligible = {m.uid: m for m in visible
                if m.uid < view.first_uid and m.role in ("user", "assistant") and m.uid not in carried}
    room = profile.tokens(profile.warn) - report.tokens - estimate_text_tokens("\n\n") - 40  # the block's frame
    budget = min(profile.tokens(profile.recall_share), room)
    question = next((m for m in reversed(visible) if m.uid == view.user_uid), None)
    if question is None or not eligible or budget <= 0:
        return NOTHING
    spoken = [m for m in visible if m.role in ("user", "assistant")]
    before = [m for m in spoken if m.uid < question.uid][-2:]
    shown = [m.text for m in spoken if view.first_uid <= m.uid < question.uid and m not in before]
    shown += [line for uid, text in state.blocks().items() if uid != question.uid for line in text.splitlines()]

    previous = next((m.uid for m in reversed(before) if m.role == "user"), None)
    follows = previous in state.kept and bool(state.kept[previous].hits) if previous is not None else False
    return recall(session.database, view.conversation_id, RecallRequest(
        question.text, [m.text for m in before], eligible, shown, follows,
        "\n".join(m.content for m in view.messages[1:2] if m.content.startswith(DATA_OPEN)), len(spoken),
        max(2, sum(1 for m in spoken if m.role == "user")), budget, estimate_text_tokens))


def keep_recall(session: Session, conversation_id: str, user_uid: int, made: Recall) -> None:
    """Store a recall made for a frozen request, and say so in the ledger when it brought
    anything back (the stream's notice and the Ledger tab read it)."""
    save_recall(session.database, conversation_id, made.record(user_uid, time.time()))
    if made.hits:
        ledger.record(session.database, conversation_id, ledger.LedgerEvent.RECALL, ledger.LedgerOutcome.RECALLED,
                      recall_detail(made.hits), input_tokens=made.tokens)


def recall_detail(hits: Sequence[RecallHit]) -> str:
    """"recalled 3 earlier messages from 8 May 2023" (or "from … to …"), with their numbers: no words."""
    days = sorted({day_label(h.created_at) for h in hits})
    span = spoken_date(days[0]) + (f" to {spoken_date(days[-1])}" if len(days) > 1 else "")
    numbers = ", ".join(f"#{h.uid}" for h in hits)
    return f"recalled {len(hits)} earlier messages from {span} ({numbers})"
