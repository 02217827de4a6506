"""When the chat service organises the context: beside a turn, not woven through it.

After an answer (or on opening a conversation) past the warn line, a plan goes to the
pre-compactor's own thread; at the hard line the turn compacts first; from the warn line old
tool results are cleared in the send copy. A mixin of `ChatService`, whose stores and
precompactor it uses."""

from __future__ import annotations

from mfs_desktop.compaction.segments import turn_starts
from mfs_desktop.context.send_view import ViewReport, render_data_block
from mfs_desktop.runtime.estimate import estimate_text_tokens
from mfs_desktop.services.conversation.compaction import CompactionPlan
from mfs_desktop.services.conversation.recall import recall_enabled
from mfs_desktop.store import ledger


class CompactionSchedule:
    def schedule_compaction(self, conversation_id: str, report: ViewReport | None = None) -> bool:
        """Start background pre-compaction if the next request is past the warn line."""
        if report is None:
            _, report = self.view(conversation_id)
        return self._schedule(conversation_id, report.pressure, report.data_block_tokens)

    def _schedule(self, conversation_id: str, pressure: float, data_block_tokens: int) -> bool:
        if pressure < self.organize_line(conversation_id) or self.precompactor.busy(conversation_id):
            return False
        plan, reason = self._next_plan(conversation_id, data_block_tokens)
        if plan is None:
            ledger.record(self.session.database, conversation_id, ledger.LedgerEvent.COMPACTION,
                          ledger.LedgerOutcome(reason), "nothing cooled enough to fold")
            return False
        return self.precompactor.schedule(plan)

    def organize_line(self, conversation_id: str) -> float:
        """Where pre-compaction starts: the warn line, less the recall's share while recall is on,
        so the raw tail leaves a question's recall its room (DESIGN section 7: pins and the block
        first, then recall, then the raw tail)."""
        conversation = self.session.transcript.conversation(conversation_id)
        recall_room = self.profile.recall_share if recall_enabled(self.session, conversation) else 0.0
        return self.profile.warn - recall_room

    def _compact_now(self, conversation_id: str, report: ViewReport) -> None:
        """Fold and, in an emergency, consolidate until under the hard line or nothing is left."""
        self.precompactor.wait(conversation_id)
        for _ in range(64):  # bounded; every step is a recorded event
            _, report = self.view(conversation_id)
            if report.pressure < self.profile.hard and not report.left_out:
                return
            plan, _ = self._next_plan(conversation_id, report.data_block_tokens)
            if plan is not None and self.precompactor.schedule(plan):
                self.precompactor.wait(conversation_id)
                continue
            tail = report.tokens - report.data_block_tokens
            if not self.compaction.consolidate(conversation_id, tail_tokens=tail, emergency=True):
                return

    def _next_plan(self, conversation_id: str, data_block_tokens: int):
        # The block is about to change anyway: a degraded tail gets its one catch-up first.
        upgrade = self.compaction.plan_upgrade(conversation_id)
        if upgrade is not None:
            return upgrade, "ok"
        return self.compaction.plan(conversation_id, self._fixed_tokens(conversation_id, data_block_tokens))

    def follow_up_plan(self, conversation_id: str) -> CompactionPlan | None:
        """On the compactor thread, after a fold: the next range while the raw tail is still over
        the post-compaction target. One event that folds two ranges breaks the prefix once; two
        events a few turns apart would re-prefill the tail twice (LoCoMo 26 at 8,192: the first
        range stops at the compactor's input budget with 70 raw messages left after it)."""
        if self.session.transcript.conversation(conversation_id).memory_mode != "automatic":
            return None
        _, slot_text, _, block = self.segments.read_block(conversation_id)
        plan, _ = self._next_plan(conversation_id, estimate_text_tokens(render_data_block(slot_text, block)))
        return plan

    def _fixed_tokens(self, conversation_id: str, data_block_tokens: int) -> int:
        return data_block_tokens + estimate_text_tokens(self.system_prompt_for(conversation_id))

    def _clear_old_tool_results(self, conversation_id: str, report: ViewReport) -> bool:
        """S2: tool results older than the newest turns are cleared in the send copy, once, as an event."""
        expected, _, cleared_through = self.segments.block_state(conversation_id)
        raw = self.session.transcript.messages(conversation_id, uid_from=report.covered_end + 1)
        starts = turn_starts(raw)
        if len(starts) <= self.profile.keep_recent_tool_turns:
            return False
        boundary = raw[starts[-self.profile.keep_recent_tool_turns]].uid - 1
        clearable = [m for m in raw if m.role == "tool" and cleared_through < m.uid <= boundary]
        if not clearable:
            return False
        return self.segments.clear_tool_results(conversation_id, boundary, expected, len(clearable))
