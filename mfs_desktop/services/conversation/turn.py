"""One generation, from its frozen request to its committed answer (DESIGN section 8).

The chat service assembles and freezes the request (services/conversation/chat.py); a `Turn` runs it — the
model streaming, cancellable, with its tool rounds — commits the answer and its usage in one
transaction, and tells the compaction schedule the next request's pressure. An ordinary turn
reads nothing more from the store; a resumed generation reads what its crash left behind.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mfs_desktop.context.assembler import to_chat_message
from mfs_desktop.context.recall import Recall
from mfs_desktop.context.send_view import ViewReport
from mfs_desktop.context.snapshot import SendView, thaw
from mfs_desktop.runtime.protocol import ChatMessage, ToolCall, Usage
from mfs_desktop.services.conversation.owner import this_process
from mfs_desktop.services.conversation.tools import kept_within
from mfs_desktop.store.generations import GenerationRecord, GenerationStatus
from mfs_desktop.store.models import Conversation, Message, MessageDraft, sha256_text
from mfs_desktop.store.segment_records import SegmentDraft

if TYPE_CHECKING:
    from mfs_desktop.context.token_meter import TokenMeter
    from mfs_desktop.runtime.protocol import ChatModel, ToolSpec
    from mfs_desktop.services.conversation.tools import ToolRunner
    from mfs_desktop.services.conversation.warm_start import WarmStart
    from mfs_desktop.services.session import Session
    from mfs_desktop.store.generations import GenerationStore
    from mfs_desktop.store.segments import SegmentStore

log = logging.getLogger(__name__)

TOOL_LIMIT = "tool_limit"  # a finish reason: the model kept calling tools past the round limit


@dataclass(frozen=True)
class Assembled:
    """One assembly of a send view: the view, its report, and the messages before it that no
    segment covers (what the answer reports as left out)."""

    view: SendView
    report: ViewReport
    left_out: int
    recall: Recall | None = None  # made for this request's user message, to be kept when it is frozen


@dataclass(frozen=True)
class TurnResult:
    conversation_id: str
    generation_id: str
    user_uid: int
    answer_uid: int
    answer: str
    status: GenerationStatus  # completed or partial
    finish_reason: str
    usage: Usage
    fingerprint: str
    messages_left_out: int  # oldest messages neither sent nor covered by a segment (recorded in the ledger)
    thinking: str = ""  # the model's reasoning before the answer, stored apart from it


def pending_message(conversation: Conversation, visible: Sequence[Message], text: str) -> Message:
    """`text` as the next user message would be stored, for a view asked about before sending."""
    last = visible[-1] if visible else None
    uid = (last.uid if last else 0) + 1
    return Message(conversation.id, uid, (last.turn_ordinal if last else 0) + 1, "user", "own", text,
                   sha256_text(text), time.time(), conversation.epoch, "complete", None, None, None, None, None,
                   None, None)


def uncovered_before(visible: Sequence[Message], block: Sequence[SegmentDraft], first_uid: int) -> int:
    """Messages before the view's raw turns that no active segment covers: those the model did
    not see in any form. Covered ones reach it through their segment (no loss to warn of)."""
    covered_end = block[-1].uid_end if block else 0
    return sum(1 for m in visible if covered_end < m.uid < first_uid)


@dataclass(frozen=True)
class TurnParts:
    """What a turn uses of the chat service, handed to it: the turn depends on these, not on the
    service that owns them (which would make the two modules import each other)."""

    session: Session
    model: ChatModel
    generations: GenerationStore
    segments: SegmentStore
    meter: TokenMeter
    tools: ToolRunner
    tool_specs: Sequence[ToolSpec]
    max_tool_rounds: int
    window: int
    tool_result_tokens: int  # one result's share of the window; the rest is kept as a snapshot
    warm_start: WarmStart | None
    schedule: Callable[[str, float, int], None]  # conversation, next request's share of the window, block tokens
    schedule_compaction: Callable[[str], None]


class Turn:
    """Made for one generation. `assembled` is what this process just froze (an ordinary turn);
    None for a generation resumed from the store."""

    def __init__(self, parts: TurnParts, generation: GenerationRecord, assembled: Assembled | None) -> None:
        self.parts = parts
        self.generation = generation
        self.assembled = assembled

    def run(self, on_text: Callable[[str], None], cancel: threading.Event) -> TurnResult:
        generation, assembled, parts = self.generation, self.assembled, self.parts
        request = thaw(generation.snapshot, generation.fingerprint)
        parts.generations.start(generation, this_process())
        if assembled is not None:
            left_out, done = assembled.left_out, []
        else:
            # counted against the block the view was frozen with, before a fold after the answer moves it
            left_out = self._left_out(generation.conversation_id, request.view.first_uid)
            # A resumed generation continues after the tool rounds it already committed.
            stored = parts.session.transcript.messages(generation.conversation_id, uid_from=generation.user_uid)
            done = [m for m in stored if m.generation_id == generation.id]
        messages = [*request.view.messages, *(to_chat_message(m) for m in done)]
        rounds = sum(1 for m in done if m.role == "tool")  # a resumed turn counts each call a round: it ends sooner
        usages: list[Usage] = []
        thoughts: list[str] = []  # every round's thinking, kept with the answer it led to
        started = time.perf_counter()
        if parts.warm_start is not None:  # the conversation the cache leaves is kept first
            parts.warm_start.before_use(generation.conversation_id)
        try:
            while True:
                choice = "auto" if rounds < parts.max_tool_rounds else "none"
                completion = parts.model.complete(messages, request.sampling, on_text, cancel,
                                                  tools=parts.tool_specs, tool_choice=choice)
                usages.append(completion.usage)
                thoughts += [completion.thinking] if completion.thinking else []
                if completion.prompt_reported:
                    parts.meter.observe(generation.conversation_id, messages, completion.usage.prompt_tokens)
                if not completion.tool_calls or completion.finish_reason != "tool_call":
                    break
                if rounds >= parts.max_tool_rounds:  # asked for text, the endpoint called again: nothing more runs
                    log.warning("generation %s: tool calls past the round limit (%d); stopped", generation.id, rounds)
                    completion = dataclasses.replace(completion, finish_reason=TOOL_LIMIT)
                    break
                for call in completion.tool_calls:  # every call of the answer, in its order
                    exchange = self._call_tool(call, len(messages), cancel)
                    messages.extend(to_chat_message(m) for m in exchange)
                rounds += 1
        except BaseException as exc:
            parts.generations.mark(generation.id, GenerationStatus.FAILED, error=type(exc).__name__)
            raise
        usage = _summed(usages)
        # stopped by the user, or the endpoint failed after text reached the user: kept, marked partial
        stopped = completion.finish_reason in ("cancelled", "interrupted")
        status = GenerationStatus.PARTIAL if stopped else GenerationStatus.COMPLETED
        answer = parts.generations.commit_answer(
            generation,
            [MessageDraft("assistant", completion.text, status="partial" if stopped else "complete",
                          generation_id=generation.id, thinking="\n\n".join(thoughts) or None)],
            status=status, finish_reason=completion.finish_reason, usage=dataclasses.asdict(usage),
            hide_generation=generation.regenerates,
        )[-1]
        if parts.warm_start is not None:  # kept when the model leaves it: a reopen answers as fast
            parts.warm_start.after_answer(generation.conversation_id)
        if assembled is not None:
            # The next request is this one plus the answer until an event changes the block: a
            # count of that, not another assembly, says whether to organise the context.
            next_request = [*messages, ChatMessage("assistant", completion.text)]
            after = parts.meter.count(generation.conversation_id, next_request, parts.tool_specs)
            parts.schedule(generation.conversation_id, after / parts.window, assembled.report.data_block_tokens)
        else:
            parts.schedule_compaction(generation.conversation_id)
        log.info("generation %s %s: %d calls, %d tool rounds, prompt %d (reused %d), completion %d, %.0f ms",
                 generation.id, status, len(usages), rounds, usage.prompt_tokens, usage.prompt_tokens_reused,
                 usage.completion_tokens, (time.perf_counter() - started) * 1000)
        return TurnResult(generation.conversation_id, generation.id, generation.user_uid, answer.uid, completion.text,
                          status, completion.finish_reason, usage, generation.fingerprint, left_out,
                          "\n\n".join(thoughts))

    def _left_out(self, conversation_id: str, first_uid: int) -> int:
        """`uncovered_before` for a resumed generation, read from the store."""
        if first_uid <= 1:
            return 0
        automatic = self.parts.session.transcript.conversation(conversation_id).memory_mode == "automatic"
        block = self.parts.segments.read_block(conversation_id)[3] if automatic else []
        earlier = self.parts.session.transcript.messages(conversation_id, uid_to=first_uid - 1)
        return uncovered_before(earlier, block, first_uid)

    def _call_tool(self, call: ToolCall, position: int, cancel: threading.Event) -> list[Message]:
        generation, parts = self.generation, self.parts
        call_id = call.call_id or f"call-{generation.id[:8]}-{position}"
        # The call is stored (with its result) after it runs; this worker is the only writer
        # of this conversation's messages meanwhile, so the uid it will get is known now.
        call_uid = parts.session.transcript.next_uid(generation.conversation_id)
        outcome = parts.tools.run(generation.conversation_id, call, call_uid, cancel)
        log.info("generation %s: tool %s %s in %.1f ms", generation.id, call.name, outcome.status, outcome.duration_ms)
        text, snapshot = kept_within(parts.session, outcome.text, parts.tool_result_tokens)
        return parts.generations.commit_tool_exchange(
            generation, call.name, call.arguments, call_id, text, outcome.status, outcome.duration_ms,
            server=outcome.server or None, approval=outcome.approval or None, full_result_sha256=snapshot)


def _summed(usages: list[Usage]) -> Usage:
    """One generation's usage: every model call of its tool rounds added up."""
    return Usage(*(sum(getattr(u, field.name) for u in usages) for field in dataclasses.fields(Usage)))
