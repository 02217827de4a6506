"""Compaction as a use case: plan on a snapshot, build a segment, commit it by CAS.

The plan (the range and what the CAS will expect) is taken on the caller's thread; the
worker only ever sees that snapshot (seed 003 section 4.6). Any compactor failure —
exception, timeout, output that fails verification — gives a deterministic degraded segment
(invariant 9); a stale candidate is rejected at commit and recorded (invariant 7).
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from mfs_desktop.compaction.compactor import Compactor
from mfs_desktop.compaction.consolidate import plan_consolidation
from mfs_desktop.compaction.segments import (
    CompactorOutputRejected,
    choose_range,
    compactor_input,
    draft_segment,
    extract_items,
    verify_items,
)
from mfs_desktop.errors import EnvironmentFault
from mfs_desktop.profile import ContextProfile
from mfs_desktop.services.conversation.background import COMPACTOR_NICENESS, lower_current_thread_priority
from mfs_desktop.services.preferences import load_preferences
from mfs_desktop.services.session import Session
from mfs_desktop.store.models import Message
from mfs_desktop.store.pins import pinned_uids
from mfs_desktop.store.segment_records import SegmentDraft
from mfs_desktop.store.segments import BlockExpectation, CommitOutcome, SegmentState, SegmentStore

log = logging.getLogger(__name__)
Counter = Callable[[str], int]
COMPACTOR_TIMEOUT_S = 120.0
MAX_FOLDS_PER_EVENT = 8  # bounds one event's chain of ranges; each range is at least `minimum_range`


@dataclass(frozen=True)
class CompactionPlan:
    conversation_id: str
    expected: BlockExpectation
    messages: tuple[Message, ...]  # exactly the range the segment will claim (invariant 3)
    slot_text: str
    input_tokens: int
    target_tokens: int
    upgrade_of: SegmentDraft | None = None  # a catch-up: rebuild this degraded segment's range


def render_slot(session: Session, conversation_id: str) -> str:
    """The knowledge slot: the messages the user pinned, verbatim, then the user's own profile,
    then what the assistant recorded."""
    parts = []
    pinned = pinned_messages(session, conversation_id)
    if pinned:
        parts += [
            "Standing instructions the user pinned, in their words:",
            *(f"(uid {m.uid}) {m.text}" for m in pinned),
        ]
    profile_text = load_preferences(session.database).profile_text
    if profile_text:
        parts += ["The user's profile, in their words:", profile_text]
    values = session.transcript.knowledge(conversation_id)
    if values:
        parts += ["Values the assistant recorded:", *(f"{key}: {value}" for key, value, _, _ in values)]
    return "\n".join(parts)


def pinned_messages(session: Session, conversation_id: str) -> list[Message]:
    """The pinned messages still in the current view (an edit that rewinds past one leaves it
    out), oldest first."""
    uids = pinned_uids(session.database, conversation_id)
    return [m for uid in uids for m in session.transcript.messages(conversation_id, uid_from=uid, uid_to=uid)]


class Compaction:
    def __init__(self, session: Session, profile: ContextProfile, count: Counter) -> None:
        self.session = session
        self.profile = profile
        self.count = count
        self.segments = SegmentStore(session.database)

    def plan(self, conversation_id: str, fixed_tokens: int) -> tuple[CompactionPlan | None, str]:
        """The next range to fold. `fixed_tokens` is what the view holds besides raw turns (system
        prompt, data block); the segment this fold will add is reserved here, sized from the same
        block that sizes the fold's output, so the raw tail it leaves is the one the view will have."""
        expected, _, _ = self.segments.block_state(conversation_id)
        block = self.segments.active_block(conversation_id)
        conversation = self.session.transcript.conversation(conversation_id)
        start_after = block[-1].uid_end if block else conversation.lineage_base_uid
        uncovered = self.session.transcript.messages(conversation_id, uid_from=start_after + 1)
        block_tokens = sum(self.count(segment.render()) for segment in block)
        expected_segment = self.profile.output_target(self.profile.tokens(self.profile.compactor_input), block_tokens)
        chosen, reason = choose_range(uncovered, self.profile, self.count, fixed_tokens=fixed_tokens + expected_segment)
        if not chosen:
            return None, reason
        input_tokens = self.count(compactor_input(chosen))
        return CompactionPlan(conversation_id, expected, tuple(chosen), render_slot(self.session, conversation_id),
                              input_tokens, self.profile.output_target(input_tokens, block_tokens)), "ok"

    def plan_upgrade(self, conversation_id: str) -> CompactionPlan | None:
        """Seed 003 §4.5: a degraded segment at the block's end gets one catch-up with the compactor."""
        segment = self.segments.upgrade_candidate(conversation_id)
        if segment is None:
            return None
        expected, slot_text, _ = self.segments.block_state(conversation_id)
        messages = self.session.transcript.messages(conversation_id, uid_from=segment.uid_start, uid_to=segment.uid_end)
        input_tokens = self.count(compactor_input(messages))
        return CompactionPlan(conversation_id, expected, tuple(messages), slot_text, input_tokens,
                              self.profile.output_target(input_tokens), upgrade_of=segment)

    def _guide(self, plan: CompactionPlan, compactor: Compactor, cancel: threading.Event) -> tuple[tuple, bool]:
        """(items, degraded)"""
        try:
            raw = compactor.summarize(plan.messages, plan.target_tokens, cancel)
            return verify_items(raw, [m.turn_ordinal for m in plan.messages], plan.target_tokens, self.count), False
        except (CompactorOutputRejected, TimeoutError, RuntimeError, ValueError, OSError) as exc:
            log.info("compaction of %s degraded: %s", plan.conversation_id, type(exc).__name__)
        except Exception as exc:  # a compactor bug must not block the conversation either
            log.warning("compactor failed unexpectedly (%s); degraded segment", type(exc).__name__)
        return extract_items(plan.messages, plan.target_tokens, self.count), True

    def run(self, plan: CompactionPlan, compactor: Compactor, cancel: threading.Event) -> CommitOutcome:
        if plan.upgrade_of is not None:
            return self._upgrade(plan, plan.upgrade_of, compactor, cancel)
        started = time.perf_counter()
        items, degraded = self._guide(plan, compactor, cancel)
        if cancel.is_set():  # cancelling discards the result, degraded or not
            return CommitOutcome(SegmentState.REJECTED, "cancelled", "")
        draft = draft_segment(plan.messages, items, degraded=degraded, profile=self.profile, count=self.count)
        tokens = self.count(draft.render())
        # The ledger's in → out is the folded range → the segment that now stands for it.
        outcome = self.segments.commit(
            plan.conversation_id, draft, plan.expected, tokens=tokens, slot_text=plan.slot_text,
            compactor=compactor.name, input_tokens=plan.input_tokens, output_tokens=tokens,
            duration_ms=round((time.perf_counter() - started) * 1000, 1))
        log.info("compaction of %s: %s (%s), uids %d-%d", plan.conversation_id, outcome.state,
                 "degraded" if degraded else "guided", draft.uid_start, draft.uid_end)
        if outcome.state is SegmentState.ACTIVE:
            self.consolidate(plan.conversation_id, tail_tokens=0, emergency=False)
        return outcome

    def _upgrade(
        self, plan: CompactionPlan, old: SegmentDraft, compactor: Compactor, cancel: threading.Event,
    ) -> CommitOutcome:
        """Kept only if the compactor now succeeds and the segment gets strictly shorter; tried once."""
        items, degraded = self._guide(plan, compactor, cancel)
        if cancel.is_set():
            return CommitOutcome(SegmentState.REJECTED, "cancelled", "")
        new = draft_segment(plan.messages, items, degraded=False, profile=self.profile, count=self.count)
        before, after = self.count(old.render()), self.count(new.render())
        if degraded or after >= before:
            reason = "the compactor failed again" if degraded else f"not shorter ({after} ≥ {before} tokens)"
            self.segments.mark_upgrade_tried(plan.conversation_id, old, declined=reason)
            return CommitOutcome(SegmentState.REJECTED, reason, "")
        self.segments.mark_upgrade_tried(plan.conversation_id, old)
        expected, _, _ = self.segments.block_state(plan.conversation_id)
        if expected != plan.expected:  # marking is not an event; anything else since the plan is
            return CommitOutcome(SegmentState.REJECTED, "the block changed since the plan", "")
        return self.segments.replace(plan.conversation_id, [old], new, expected, tokens=after, kind="upgraded",
                                     before_tokens=before)

    def consolidate(self, conversation_id: str, *, tail_tokens: int, emergency: bool) -> bool:
        """One consolidation step if the block needs it and the gates allow; True if the block changed."""
        expected, _, _ = self.segments.block_state(conversation_id)
        block = self.segments.active_block(conversation_id)
        if len(block) < 1:
            return False

        def range_of(uid_start: int, uid_end: int) -> list[Message]:
            return self.session.transcript.messages(conversation_id, uid_from=uid_start, uid_to=uid_end)

        step, reason = plan_consolidation(block, self.profile, self.count, tail_tokens=tail_tokens,
                                          emergency=emergency, range_of=range_of)
        if step is None:
            return False
        outcome = self.segments.replace(conversation_id, step.replaced, step.merged, expected,
                                        tokens=step.after_tokens, kind=step.kind, before_tokens=step.before_tokens)
        return outcome.state is SegmentState.ACTIVE


class PreCompactor:
    """One background worker thread owns the compactor (a llama.cpp context is not
    thread-safe); at most one job per conversation; cancelling discards the result."""

    def __init__(
        self, compaction: Compaction, compactor_factory: Callable[[], Compactor],
        follow_up: Callable[[str], CompactionPlan | None] = lambda conversation_id: None,
    ) -> None:
        self.compaction = compaction
        self._factory = compactor_factory
        # After a fold, the next range of the same event, or None: an event folds down to the
        # post-compaction target even when the compactor's input budget cuts one range short.
        self._follow_up = follow_up
        self._jobs: queue.Queue = queue.Queue()
        self._pending: dict[str, tuple[threading.Event, threading.Event]] = {}
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._work, name="pre-compactor", daemon=True)
        self._thread.start()
        self.outcomes: list[CommitOutcome] = []
        self.errors: list[BaseException] = []  # bugs, kept for tests and `inspect`; the chat goes on
        # Called on the compactor thread with (conversation id, outcome or None when starting);
        # the GUI re-emits them as signals for its floating status.
        self.listeners: list[Callable[[str, CommitOutcome | None], None]] = []

    def schedule(self, plan: CompactionPlan) -> bool:
        with self._lock:
            if plan.conversation_id in self._pending:
                return False
            entry = (threading.Event(), threading.Event())
            self._pending[plan.conversation_id] = entry
        self._jobs.put((plan, *entry))
        return True

    def busy(self, conversation_id: str) -> bool:
        with self._lock:
            return conversation_id in self._pending

    def wait(self, conversation_id: str, timeout: float = COMPACTOR_TIMEOUT_S) -> bool:
        with self._lock:
            entry = self._pending.get(conversation_id)
        return entry is None or entry[1].wait(timeout)

    def cancel(self, conversation_id: str) -> None:
        with self._lock:
            entry = self._pending.get(conversation_id)
        if entry is not None:
            entry[0].set()

    def close(self) -> None:
        with self._lock:
            for cancel, _ in self._pending.values():
                cancel.set()
        self._jobs.put(None)
        self._thread.join(COMPACTOR_TIMEOUT_S)

    def _work(self) -> None:
        lower_current_thread_priority(COMPACTOR_NICENESS)
        compactor: Compactor | None = None
        while True:
            job = self._jobs.get()
            if job is None:
                return
            plan, cancel, done = job
            conversation_id = plan.conversation_id
            # The listeners hear one start and one end per event, however many folds it takes;
            # the end carries the last committed fold, or why none was.
            self._tell(conversation_id, None)
            event: CommitOutcome = CommitOutcome(SegmentState.REJECTED, "cancelled", "")
            try:
                for fold in range(MAX_FOLDS_PER_EVENT):
                    if cancel.is_set():
                        break
                    compactor = compactor or self._factory()
                    outcome = self.compaction.run(plan, compactor, cancel)
                    self.outcomes.append(outcome)
                    event = outcome if outcome.state is SegmentState.ACTIVE or fold == 0 else event
                    plan = self._follow_up(conversation_id) if outcome.state is SegmentState.ACTIVE else None
                    if plan is None:
                        break
                self._tell(conversation_id, event)
            except Exception as exc:  # the conversation goes on; the ledger shows what was committed
                self.errors.append(exc)
                # a fault of the environment (a full disk) is told in its own plain words
                why = exc.message if isinstance(exc, EnvironmentFault) else f"failed ({type(exc).__name__})"
                self._tell(conversation_id, CommitOutcome(SegmentState.REJECTED, why, ""))
                log.warning(
                    "pre-compaction failed (%s)", type(exc).__name__, exc_info=bool(os.environ.get("MFS_DEBUG"))
                )
            finally:
                with self._lock:
                    self._pending.pop(conversation_id, None)
                done.set()

    def _tell(self, conversation_id: str, outcome: CommitOutcome | None) -> None:
        for listener in self.listeners:
            try:
                listener(conversation_id, outcome)
            except Exception as exc:  # a display problem must not stop compaction
                log.warning("compaction listener failed (%s)", type(exc).__name__)
