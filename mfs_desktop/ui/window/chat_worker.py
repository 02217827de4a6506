"""The generation worker: one QThread owns the chat model (a llama.cpp context is not
thread-safe) and runs the chat service; its progress comes back as signals. The service's
background pre-compactor reports through the same object."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QObject, QThread, Signal, Slot

from mfs_desktop.runtime.protocol import Sinks
from mfs_desktop.services.conversation.background import GENERATION_NICENESS, lower_current_thread_priority
from mfs_desktop.services.conversation.chat import ChatService
from mfs_desktop.services.conversation.composer import Outgoing
from mfs_desktop.services.conversation.inspect import inspect_conversation
from mfs_desktop.services.mcp.toolbox import Approver, deny_every_call, toolbox_for
from mfs_desktop.services.models.choice import ModelChoice, build_model, compactor_factory
from mfs_desktop.services.preferences import load_preferences
from mfs_desktop.services.session import Session
from mfs_desktop.store.segments import CommitOutcome

log = logging.getLogger(__name__)


class ChatWorker(QObject):
    ready = Signal(str)  # model name
    piece = Signal(str)
    thought = Signal(str)  # a piece of a thinking model's thought, before its answer
    finished = Signal(object)  # TurnResult
    failed = Signal(object)  # the exception
    inspected = Signal(str, object)  # conversation id, `inspect --json`'s dict
    organizing = Signal(str)  # a pre-compaction started for this conversation
    organized = Signal(str, str)  # conversation id, outcome state ("active" / "rejected")
    warming = Signal(str)  # a warm-up of this conversation's cache started
    warmed = Signal(str, object)  # conversation id, Warmed (or None: nothing to warm)

    def __init__(self, session: Session, choice: ModelChoice, approver: Approver = deny_every_call) -> None:
        """`approver` is asked before each MCP tool call (on this worker's thread)."""
        super().__init__()
        self._approver = approver
        self._sinks = Sinks(self.piece.emit, self.thought.emit)
        self._session = session
        self._choice = choice
        self._service: ChatService | None = None
        self._cancel = threading.Event()
        self._warm_cancel = threading.Event()

    @Slot()
    def reload_tools(self) -> None:
        """Settings › Tools changed: the next request offers the servers as they are now."""
        if self._service is not None:
            old = self._service.tools.external
            self._service.tools.external = toolbox_for(self._session.database, self._approver)
            if old is not None:
                old.close()

    @Slot()
    def load(self) -> None:
        lower_current_thread_priority(GENERATION_NICENESS)
        try:
            model = build_model(self._choice, self._session.database)
        except BaseException as exc:  # shown to the user; the window stays usable for reading
            self.failed.emit(exc)
            return
        cache = load_preferences(self._session.database).cache_bytes
        self._service = ChatService(self._session, model, provider=self._choice.provider, window=self._choice.window,
                                    cache_bytes=cache,
                                    compactor_factory=compactor_factory(self._choice, self._session.database),
                                    external_tools=toolbox_for(self._session.database, self._approver))
        self._service.precompactor.listeners.append(self._compaction_progress)
        self.ready.emit(model.name)

    def _compaction_progress(self, conversation_id: str, outcome: CommitOutcome | None) -> None:
        """On the compactor thread: signals cross to the window's thread queued."""
        if outcome is None:
            self.organizing.emit(conversation_id)
        else:
            self.organized.emit(conversation_id, outcome.state)

    def close(self) -> None:
        """After the thread has stopped: let the background compactor finish or cancel."""
        if self._service is not None:
            self._service.close()
            self._service = None

    def cancel_warm_up(self) -> None:
        """From the main thread, when another conversation is opened."""
        self._warm_cancel.set()

    def stop(self) -> None:
        """Called from the main thread: a threading.Event is safe to set from anywhere."""
        self._cancel.set()

    @Slot(str, object)
    def send(self, conversation_id: str, outgoing: Outgoing) -> None:
        self._run(conversation_id, lambda service: service.send(
            conversation_id, outgoing.text, on_text=self._sinks, cancel=self._cancel, origin=outgoing.origin,
            quoted_uid=outgoing.quoted_uid, attachment_sha256=outgoing.attachment_sha256))

    @Slot(str)
    def regenerate(self, conversation_id: str) -> None:
        self._run(conversation_id, lambda service: service.regenerate(
            conversation_id, on_text=self._sinks, cancel=self._cancel))

    @Slot(str, int, str)
    def edit_and_resend(self, conversation_id: str, uid: int, text: str) -> None:
        self._run(conversation_id, lambda service: service.edit_and_resend(
            conversation_id, uid, text, on_text=self._sinks, cancel=self._cancel))

    @Slot(str)
    def open_conversation(self, conversation_id: str) -> None:
        """Preheat: the stored anchor, the pressure pre-check, then what the layers tab shows."""
        if self._service is None:
            return
        self._warm_cancel.clear()  # set by the window for the conversation opened before this one
        try:
            self._service.open_conversation(conversation_id)
        except BaseException as exc:
            self.failed.emit(exc)
            return
        self.inspect(conversation_id)
        if self._service.warm_start is None:
            return
        self.warming.emit(conversation_id)
        try:
            warmed = self._service.warm(conversation_id, self._warm_cancel)
        except BaseException as exc:  # a warm-up is an optimisation; the reply prefills itself
            log.warning("warm-up of conversation %s failed: %s", conversation_id, type(exc).__name__)
            warmed = None
        self.warmed.emit(conversation_id, warmed)

    @Slot(str)
    def inspect(self, conversation_id: str) -> None:
        if self._service is None:
            return
        try:
            report = inspect_conversation(self._service, conversation_id)
        except BaseException as exc:  # an empty conversation has nothing to inspect yet
            report = {"conversation_id": conversation_id, "error": str(getattr(exc, "message", exc))}
        self.inspected.emit(conversation_id, report)

    def _run(self, conversation_id: str, work) -> None:
        self._cancel.clear()
        if self._service is None:
            self.failed.emit(RuntimeError("the model is not loaded"))
            return
        try:
            result = work(self._service)
        except BaseException as exc:
            self.failed.emit(exc)
            return
        self.finished.emit(result)
        self.inspect(conversation_id)


# A QThread destroyed while running aborts the process; the registry keeps each one alive
# until it has finished, whatever happens to the window that started it.
_running: set[tuple[QThread, ChatWorker]] = set()


def start_worker(session: Session, choice: ModelChoice, owner: QObject, wire: Callable[[ChatWorker], None],
                 approver: Approver = deny_every_call) -> tuple[QThread, ChatWorker]:
    """Start the worker thread; it stops when `owner` is destroyed, if not before.

    `wire` connects the worker's signals before the thread starts: a model that loads at once
    would otherwise emit `ready` (or `failed`) before anyone listens, and the window would
    wait for it forever."""
    thread = QThread()
    thread.setObjectName("generation")
    worker = ChatWorker(session, choice, approver)
    worker.moveToThread(thread)
    wire(worker)
    entry = (thread, worker)
    _running.add(entry)
    thread.started.connect(worker.load)
    thread.finished.connect(lambda: _running.discard(entry))
    owner.destroyed.connect(lambda: stop_worker(thread, worker))
    thread.start()
    return thread, worker


def stop_worker(thread: QThread, worker: ChatWorker, wait_ms: int = 30_000) -> None:
    # At interpreter exit Qt may have deleted the thread object before its owner's last signal.
    if shiboken6.isValid(thread) and thread.isRunning():
        worker.stop()
        thread.quit()
        thread.wait(wait_ms)
    worker.close()
