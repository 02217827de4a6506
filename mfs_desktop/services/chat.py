"""The generation lifecycle (DESIGN section 8, before compaction).

persist the user turn → assemble the send view from the transcript → freeze it (bytes +
sha256) and persist → call the model, streaming, cancellable → commit the answer and its
usage in one transaction. A crash leaves a generation that `resume` finishes from the same
frozen bytes; Regenerate makes a new generation and keeps the earlier answer selectable.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from mfs_desktop.context.assembler import DEFAULT_SYSTEM_PROMPT, assemble
from mfs_desktop.context.snapshot import FrozenRequest, freeze, thaw
from mfs_desktop.errors import InvalidInput
from mfs_desktop.runtime.protocol import ChatModel, SamplingSettings, Usage
from mfs_desktop.services.session import Session
from mfs_desktop.store.generations import GenerationRecord, GenerationStore
from mfs_desktop.store.models import MessageDraft

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TurnResult:
    conversation_id: str
    generation_id: str
    user_uid: int
    answer_uid: int
    answer: str
    status: str  # "completed" or "partial"
    finish_reason: str
    usage: Usage
    fingerprint: str


def _ignore(_: str) -> None:
    pass


class ChatService:
    def __init__(
        self, session: Session, model: ChatModel, *, provider: str, sampling: SamplingSettings = SamplingSettings(),
        system_prompt: str = DEFAULT_SYSTEM_PROMPT, window: int = 8192,
    ) -> None:
        self.session = session
        self.model = model
        self.provider = provider
        self.sampling = sampling
        self.system_prompt = system_prompt
        self.window = window
        self.generations = GenerationStore(session.database)

    def send(
        self, conversation_id: str, text: str, *, on_text: Callable[[str], None] = _ignore,
        cancel: threading.Event | None = None, origin: str = "",
    ) -> TurnResult:
        if not text.strip():
            raise InvalidInput("The message is empty.")
        self.session.transcript.append(conversation_id, [MessageDraft("user", text, origin=origin)])
        return self._run(self._freeze(conversation_id), on_text, cancel or threading.Event())

    def regenerate(
        self, conversation_id: str, *, on_text: Callable[[str], None] = _ignore, cancel: threading.Event | None = None,
    ) -> TurnResult:
        """A new answer to the newest turn, from a new snapshot; the shown answer stays stored."""
        messages = self.session.transcript.messages(conversation_id)
        answered = [m.generation_id for m in messages if m.generation_id]
        if not messages or not answered:
            raise InvalidInput("There is no answer to regenerate yet.")
        shown = answered[-1]
        user_uid = max(m.uid for m in messages if m.role == "user")
        if self.generations.get(shown).user_uid != user_uid:
            raise InvalidInput("Only the newest turn's answer can be regenerated.")
        return self._run(self._freeze(conversation_id, regenerates=shown), on_text, cancel or threading.Event())

    def resume(
        self, generation_id: str, *, on_text: Callable[[str], None] = _ignore, cancel: threading.Event | None = None,
    ) -> TurnResult:
        """Finish an interrupted generation from its frozen bytes, never re-assembling."""
        return self._run(self.generations.get(generation_id), on_text, cancel or threading.Event())

    def _freeze(self, conversation_id: str, regenerates: str | None = None) -> GenerationRecord:
        conversation = self.session.transcript.conversation(conversation_id)
        messages = [m for m in self.session.transcript.messages(conversation_id)
                    if regenerates is None or m.generation_id != regenerates]
        view = assemble(conversation, messages, self.model, system_prompt=self.system_prompt,
                        budget=self.window - self.sampling.max_tokens)
        snapshot, fingerprint = freeze(FrozenRequest(view, self.sampling, self.model.name))
        generation_id = self.generations.freeze(
            conversation_id, view.user_uid, view.epoch, view.lineage_id, snapshot, fingerprint,
            provider=self.provider, model=self.model.name, regenerates=regenerates,
        )
        if view.first_uid > messages[0].uid:
            log.info("generation %s: recent-exact view from uid %d", generation_id, view.first_uid)
        return self.generations.get(generation_id)

    def _run(self, generation: GenerationRecord, on_text: Callable[[str], None], cancel: threading.Event) -> TurnResult:
        request = thaw(generation.snapshot, generation.fingerprint)
        self.generations.start(generation.id)
        started = time.perf_counter()
        try:
            completion = self.model.complete(request.view.messages, request.sampling, on_text, cancel)
        except BaseException as exc:
            self.generations.mark(generation.id, "failed", error=type(exc).__name__)
            raise
        stopped = completion.finish_reason == "cancelled"
        status = "partial" if stopped else "completed"
        answer = self.generations.commit_answer(
            generation,
            [MessageDraft("assistant", completion.text, status="partial" if stopped else "complete",
                          generation_id=generation.id)],
            status=status, finish_reason=completion.finish_reason, usage=dataclasses.asdict(completion.usage),
            hide_generation=generation.regenerates,
        )[-1]
        log.info("generation %s %s: prompt %d (reused %d), completion %d, %.0f ms", generation.id, status,
                 completion.usage.prompt_tokens, completion.usage.prompt_tokens_reused,
                 completion.usage.completion_tokens, (time.perf_counter() - started) * 1000)
        return TurnResult(generation.conversation_id, generation.id, generation.user_uid, answer.uid, completion.text,
                          status, completion.finish_reason, completion.usage, generation.fingerprint)
