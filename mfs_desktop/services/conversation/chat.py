"""The generation lifecycle (DESIGN section 8, before compaction).

persist the user turn (through the outbox, before any model work) → assemble the send view
from the transcript → freeze it (bytes + sha256) and persist → call the model, streaming,
cancellable → commit the answer and its usage in one transaction. A crash leaves a generation
that `resume` finishes from the same frozen bytes; Regenerate makes a new generation and keeps
the earlier answer selectable.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable

from mfs_desktop.compaction.compactor import Compactor, ExtractiveCompactor
from mfs_desktop.compaction.coverage import CoverageReport, check_coverage
from mfs_desktop.context.assembler import DEFAULT_SYSTEM_PROMPT
from mfs_desktop.context.recall import NOTHING
from mfs_desktop.context.send_view import ViewReport, build_send_view
from mfs_desktop.context.snapshot import FrozenRequest, SendView, freeze
from mfs_desktop.context.token_meter import TokenMeter
from mfs_desktop.errors import ConversationBusy, InvalidInput
from mfs_desktop.profile import ContextProfile
from mfs_desktop.runtime.estimate import estimate_text_tokens
from mfs_desktop.runtime.neutral import neutralize
from mfs_desktop.runtime.protocol import ChatModel, SamplingSettings, ToolSpec
from mfs_desktop.runtime.tools import TOOLS
from mfs_desktop.services.conversation.compaction import Compaction, PreCompactor, render_slot
from mfs_desktop.services.conversation.compaction_schedule import CompactionSchedule
from mfs_desktop.services.conversation.intake import queue_message, refuse_unsendable
from mfs_desktop.services.conversation.owner import claimable, is_running, owner_pid, this_process
from mfs_desktop.services.conversation.recall import keep_recall, kept_recalls, recall_for_input
from mfs_desktop.services.conversation.settings import effective_sampling
from mfs_desktop.services.conversation.tools import ExternalTools, ToolRunner, note_offered_tools
from mfs_desktop.services.conversation.turn import (
    Assembled,
    Turn,
    TurnParts,
    TurnResult,
    pending_message,
    uncovered_before,
)
from mfs_desktop.services.conversation.warm_start import DEFAULT_CAP_BYTES, Warmed, WarmStart
from mfs_desktop.services.session import Session
from mfs_desktop.store import ledger
from mfs_desktop.store.anchors import AnchorStore
from mfs_desktop.store.conversation_settings import conversation_settings
from mfs_desktop.store.generations import GenerationRecord, GenerationStore
from mfs_desktop.store.models import Conversation
from mfs_desktop.store.outbox import Outbox
from mfs_desktop.store.segments import SegmentStore
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

log = logging.getLogger(__name__)


DEFAULT_SAMPLING = SamplingSettings()


def _ignore(_: str) -> None:
    pass


class ChatService(CompactionSchedule):
    def __init__(
        self, session: Session, model: ChatModel, *, provider: str, sampling: SamplingSettings = DEFAULT_SAMPLING,
        system_prompt: str = DEFAULT_SYSTEM_PROMPT, window: int = 8192, use_tools: bool = True,
        max_tool_rounds: int = 4, profile: ContextProfile | None = None,
        compactor_factory: Callable[[], Compactor] | None = None, sampling_overrides: dict | None = None,
        cache_bytes: int = DEFAULT_CAP_BYTES, external_tools: ExternalTools | None = None,
    ) -> None:
        """`sampling` and `system_prompt` are the defaults a conversation's own settings
        override; `sampling_overrides` (a command's explicit flags) override those in turn;
        `external_tools` (MCP servers) are offered beside the app's own when `use_tools`."""
        self.session = session
        self.model = model
        self.provider = provider
        self.sampling = sampling
        self.sampling_overrides = sampling_overrides or {}
        self.system_prompt = system_prompt
        self.profile = profile or ContextProfile(window=window)
        self.window = self.profile.window
        self.generations = GenerationStore(session.database)
        self.segments = SegmentStore(session.database)
        self.outbox = Outbox(session.database)
        self.meter = TokenMeter(model, AnchorStore(session.database))
        self.compaction = Compaction(session, self.profile, estimate_text_tokens)
        self.precompactor = PreCompactor(
            self.compaction, compactor_factory or (lambda: ExtractiveCompactor(estimate_text_tokens)),
            follow_up=self.follow_up_plan)
        self.tools = ToolRunner(session, external_tools if use_tools else None)
        self.warm_start = WarmStart(session.database, model, cache_bytes) if WarmStart.supports(model) else None
        self._own_tools = TOOLS if use_tools else ()
        self.max_tool_rounds = max_tool_rounds

    def send(
        self, conversation_id: str, text: str, *, on_text: Callable[[str], None] = _ignore,
        cancel: threading.Event | None = None, origin: str = "", quoted_uid: int | None = None,
        attachment_sha256: str | None = None,
    ) -> TurnResult:
        queue_message(self.session, conversation_id, text, self.profile, origin=origin, quoted_uid=quoted_uid,
                      attachment_sha256=attachment_sha256)
        return self.answer_waiting(conversation_id, on_text=on_text, cancel=cancel)

    def answer_waiting(
        self, conversation_id: str, *, on_text: Callable[[str], None] = _ignore, cancel: threading.Event | None = None,
    ) -> TurnResult:
        """Move this process's waiting messages (and those a killed one left) into the
        transcript, in the order given, and answer them in one turn (as two messages sent
        quickly are answered)."""
        if not self.session.transcript.newest_page(conversation_id, limit=1):
            self.segments.seed_slot(conversation_id, render_slot(self.session, conversation_id))
        if not self.outbox.deliver(conversation_id, claimable):
            raise InvalidInput(QT_TRANSLATE_NOOP("", "No message is waiting for an answer in this conversation."))
        return self._run(conversation_id, self._freeze(conversation_id), on_text, cancel)

    def edit_and_resend(
        self, conversation_id: str, uid: int, text: str, *, on_text: Callable[[str], None] = _ignore,
        cancel: threading.Event | None = None,
    ) -> TurnResult:
        """Edit one of the user's messages: a new epoch rewinds the conversation to it (the
        originals stay stored), and the edited message is answered afresh."""
        self.check_message(text)
        if self.session.transcript.messages(conversation_id, uid_from=uid, uid_to=uid)[0].role != "user":
            raise InvalidInput(QT_TRANSLATE_NOOP("", "Only your own messages can be edited and sent again."))
        self.precompactor.cancel(conversation_id)  # its candidate is stale now; the CAS would refuse it anyway
        self.session.transcript.edit_message(conversation_id, uid, text)
        return self._run(conversation_id, self._freeze(conversation_id), on_text, cancel)

    def tool_specs(self, conversation_id: str) -> tuple[ToolSpec, ...]:
        """The app's own tools, then the MCP tools this conversation offers (a stable order: the
        request's prefix holds their descriptions)."""
        external = self.tools.external
        if external is None:
            return self._own_tools
        offered = conversation_settings(self.session.database, conversation_id).offered_servers()
        return (*self._own_tools, *external.specs(offered))

    def _run(self, conversation_id: str, frozen: tuple[GenerationRecord, Assembled | None],
             on_text: Callable[[str], None], cancel: threading.Event | None) -> TurnResult:
        return Turn(self._turn_parts(conversation_id), *frozen).run(on_text, cancel or threading.Event())

    def _turn_parts(self, conversation_id: str) -> TurnParts:
        return TurnParts(self.session, self.model, self.generations, self.segments, self.meter, self.tools,
                         self.tool_specs(conversation_id), self.max_tool_rounds, self.window,
                         self.profile.tokens(self.profile.tool_result_share), self.warm_start, self._schedule,
                         self.schedule_compaction)

    def check_message(self, text: str) -> None:
        refuse_unsendable(text, self.profile)

    def regenerate(
        self, conversation_id: str, *, on_text: Callable[[str], None] = _ignore, cancel: threading.Event | None = None,
    ) -> TurnResult:
        """A new answer to the newest turn, from a new snapshot; the shown answer stays stored."""
        messages = self.session.transcript.messages(conversation_id)
        answered = [m.generation_id for m in messages if m.generation_id]
        if not messages or not answered:
            raise InvalidInput(QT_TRANSLATE_NOOP("", "There is no answer to regenerate yet."))
        shown = answered[-1]
        user_uid = max(m.uid for m in messages if m.role == "user")
        if self.generations.get(shown).user_uid != user_uid:
            raise InvalidInput(QT_TRANSLATE_NOOP("", "Only the newest turn's answer can be regenerated."))
        frozen = self._freeze(conversation_id, regenerates=shown)
        return self._run(conversation_id, frozen, on_text, cancel)

    def resume(
        self, generation_id: str, *, on_text: Callable[[str], None] = _ignore, cancel: threading.Event | None = None,
    ) -> TurnResult:
        """Finish an interrupted generation from its frozen bytes, never re-assembling; one a
        live process is still writing is left to it (issue 35)."""
        generation = self.generations.get(generation_id)
        if generation.owner != this_process() and is_running(generation.owner):
            raise ConversationBusy.worded(QT_TRANSLATE_NOOP("", "Generation {generation} is being answered by another "
                                                                "MFS Desktop process (pid {pid}); it is left to it."),
                                          generation=generation_id, pid=owner_pid(generation.owner or ""))
        return self._run(generation.conversation_id, (generation, None), on_text, cancel)

    def close(self) -> None:
        """Stop background work and the MCP servers this service started."""
        try:
            self.precompactor.close()
        finally:
            if self.warm_start is not None:
                self.warm_start.close()
            if self.tools.external is not None:
                self.tools.external.close()

    def view(self, conversation_id: str, *, regenerates: str | None = None, fallback: bool = False,
             extra_input: str | None = None):
        """The send view the next generation would freeze, and its report; with `extra_input`,
        the view that message would be sent with (nothing is stored)."""
        assembled = self._assemble(conversation_id, regenerates=regenerates, fallback=fallback, extra_input=extra_input)
        return assembled.view, assembled.report

    def assembled(self, conversation_id: str, *, extra_input: str | None = None) -> Assembled:
        """The next request with its recall, as `inspect` and the Context layers tab show it."""
        return self._assemble(conversation_id, extra_input=extra_input)

    def _assemble(self, conversation_id: str, *, regenerates: str | None = None, fallback: bool = False,
                  extra_input: str | None = None) -> Assembled:
        """The send view from one read of the transcript, with what the answer will report."""
        conversation = self.session.transcript.conversation(conversation_id)
        visible = [m for m in self.session.transcript.messages(conversation_id)
                   if regenerates is None or m.generation_id != regenerates]
        if extra_input is not None:
            visible.append(pending_message(conversation, visible, extra_input))
        expected, slot_text, tool_clear_uid, block = self.segments.read_block(conversation_id)
        if conversation.memory_mode == "automatic":
            coverage = check_coverage([(s.uid_start, s.uid_end) for s in block], [m.uid for m in visible],
                                      conversation.lineage_base_uid)
            if not coverage.ok:
                conversation = self._degrade_to_recent_only(conversation_id, coverage)
        automatic = conversation.memory_mode == "automatic"
        state = kept_recalls(self.session, self.profile, conversation, block[-1].uid_end if automatic and block else 0,
                             [m.uid for m in visible if m.role == "user"][-2:])

        def build(user_uid: int | None = None) -> tuple[SendView, ViewReport]:
            return build_send_view(
                conversation, visible, block, slot_text=slot_text, tool_clear_uid=tool_clear_uid, profile=self.profile,
                counter=self.meter.for_conversation(conversation_id),
                system_prompt=self.system_prompt_for(conversation_id), tools=self.tool_specs(conversation_id),
                fallback=fallback,
                count=estimate_text_tokens, block_version=expected.block_version,
                recalled=state.blocks(user_uid))

        view, report = build()
        if state.on and not fallback and view.user_uid not in state.kept:
            state = dataclasses.replace(state, new=recall_for_input(self.session, self.profile, visible, view,
                                                                     report, state))
            if state.new is not None and state.new.hits:
                view, report = build(view.user_uid)
                if report.tokens > self.profile.tokens(self.profile.warn):  # the estimate fell short
                    state = dataclasses.replace(state, new=NOTHING)
                    view, report = build()
        return Assembled(view, report, uncovered_before(visible, block if automatic else (), view.first_uid),
                         recall=state.new)

    def _degrade_to_recent_only(self, conversation_id: str, coverage: CoverageReport) -> Conversation:
        """A block with a hole or an overlap would tell the model a false history (invariant 2;
        seed 000: a gap means the lineage is no longer trusted). The lineage goes recent-only —
        no segment is sent or committed — until memory is switched back on, which starts a new
        lineage from the current end. The whole history stays on disk."""
        ledger.record(self.session.database, conversation_id, ledger.LedgerEvent.COVERAGE,
                      ledger.LedgerOutcome.RECENT_ONLY,
                      f"{len(coverage.gaps)} gaps, {len(coverage.overlaps)} overlaps in the block; memory set to "
                      "recent-only (switch it back to automatic to start a new lineage from here)")
        log.warning("conversation %s: coverage check failed; lineage degraded to recent-only", conversation_id)
        return self.session.transcript.set_memory_mode(conversation_id, "recent_only")

    def open_conversation(self, conversation_id: str) -> ViewReport | None:
        """Preheat (DESIGN section 6): load the stored anchor and pre-check the pressure at once,
        so a conversation restored past the warn line starts organising before the next message."""
        self.meter.preheat(conversation_id)
        try:
            _, report = self.view(conversation_id)
        except InvalidInput:  # nothing to answer yet
            return None
        self.schedule_compaction(conversation_id, report)
        return report

    def warm(self, conversation_id: str, cancel: threading.Event | None = None) -> Warmed | None:
        """Bring the model's cache to the start of this conversation's next request (a saved
        cache first, then a prefill of the rest); None where there is nothing to warm."""
        if self.warm_start is None:
            return None
        try:
            view, _ = self.view(conversation_id)
        except InvalidInput:  # nothing to answer yet
            return None
        return self.warm_start.warm(conversation_id, list(view.messages), self.tool_specs(conversation_id), cancel)

    def _freeze(self, conversation_id: str, regenerates: str | None = None) -> tuple[GenerationRecord, Assembled]:
        assembled = self._view_under_pressure(conversation_id, regenerates)
        view, report = assembled.view, assembled.report
        self.last_report = report
        sampling = effective_sampling(self.sampling, conversation_settings(self.session.database, conversation_id),
                                      self.sampling_overrides)
        note_offered_tools(self.session.database, conversation_id, self.tool_specs(conversation_id))
        snapshot, fingerprint = freeze(FrozenRequest(view, sampling, self.model.name))
        self.keep_recall(conversation_id, assembled)
        generation_id = self.generations.freeze(
            conversation_id, view.user_uid, view.epoch, view.lineage_id, snapshot, fingerprint,
            provider=self.provider, model=self.model.name, owner=this_process(), regenerates=regenerates,
        )
        if report.left_out:  # never silent (invariant 11): the ledger and the answer say what was left out
            ledger.record(self.session.database, conversation_id, ledger.LedgerEvent.RECENT_EXACT,
                          ledger.LedgerOutcome.FALLBACK,
                          f"{report.left_out} oldest messages not sent: the window is full", input_tokens=report.tokens)
            log.info("generation %s: %d messages left out of the view", generation_id, report.left_out)
        return self.generations.get(generation_id), assembled

    def keep_recall(self, conversation_id: str, assembled: Assembled) -> None:
        """The recall made for this request, kept with its user message (before the model is
        called, like the snapshot that carries it)."""
        if assembled.recall is not None:
            keep_recall(self.session, conversation_id, assembled.view.user_uid, assembled.recall)

    def system_prompt_for(self, conversation_id: str) -> str:
        own = conversation_settings(self.session.database, conversation_id).system_prompt
        return neutralize(own) if own is not None else self.system_prompt

    def _view_under_pressure(self, conversation_id: str, regenerates: str | None) -> Assembled:
        """Below warn: everything (S1), from one read and one build. From warn: clear old tool
        results (S2) and compact in the background. From hard: compact now; if that cannot
        bring it down, the frozen fallback."""
        assembled = self._assemble(conversation_id, regenerates=regenerates)
        report = assembled.report
        automatic = self.session.transcript.conversation(conversation_id).memory_mode == "automatic"
        if not automatic or report.pressure < self.profile.warn:
            return assembled
        if self._clear_old_tool_results(conversation_id, report):
            assembled = self._assemble(conversation_id, regenerates=regenerates)
        if assembled.report.pressure >= self.profile.hard or assembled.report.left_out:
            self._compact_now(conversation_id, assembled.report)
            assembled = self._assemble(conversation_id, regenerates=regenerates)
            if assembled.report.pressure >= self.profile.hard or assembled.report.left_out:
                ledger.record(self.session.database, conversation_id, ledger.LedgerEvent.HARD_LINE,
                              ledger.LedgerOutcome.FALLBACK,
                              "no segment could bring the view under the hard line; block + newest raw turns sent",
                              input_tokens=assembled.report.tokens)
                return self._assemble(conversation_id, regenerates=regenerates, fallback=True)
        # Between warn and hard, pre-compaction is scheduled after the answer, at the turn
        # boundary: the request being frozen now is not held up, and replays stay deterministic.
        return assembled

