"""The generation worker: one QThread owns the chat model (a llama.cpp context is not
thread-safe) and runs the chat service; its progress comes back as signals."""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, QThread, Signal, Slot

from mfs_desktop.services.chat import ChatService
from mfs_desktop.services.models import ModelChoice, build_model
from mfs_desktop.services.session import Session


class ChatWorker(QObject):
    ready = Signal(str)  # model name
    piece = Signal(str)
    finished = Signal(object)  # TurnResult
    failed = Signal(object)  # the exception

    def __init__(self, session: Session, choice: ModelChoice) -> None:
        super().__init__()
        self._session = session
        self._choice = choice
        self._service: ChatService | None = None
        self._cancel = threading.Event()

    @Slot()
    def load(self) -> None:
        try:
            model = build_model(self._choice, self._session.database)
        except BaseException as exc:  # shown to the user; the window stays usable for reading
            self.failed.emit(exc)
            return
        self._service = ChatService(self._session, model, provider=self._choice.provider, window=self._choice.window)
        self.ready.emit(model.name)

    def close(self) -> None:
        """After the thread has stopped: let the background compactor finish or cancel."""
        if self._service is not None:
            self._service.close()
            self._service = None

    def stop(self) -> None:
        """Called from the main thread: a threading.Event is safe to set from anywhere."""
        self._cancel.set()

    @Slot(str, str)
    def send(self, conversation_id: str, text: str) -> None:
        self._run(lambda service: service.send(conversation_id, text, on_text=self.piece.emit, cancel=self._cancel))

    @Slot(str)
    def regenerate(self, conversation_id: str) -> None:
        self._run(lambda service: service.regenerate(conversation_id, on_text=self.piece.emit, cancel=self._cancel))

    def _run(self, work) -> None:
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


# A QThread destroyed while running aborts the process; the registry keeps each one alive
# until it has finished, whatever happens to the window that started it.
_running: set[tuple[QThread, ChatWorker]] = set()


def start_worker(session: Session, choice: ModelChoice, owner: QObject) -> tuple[QThread, ChatWorker]:
    """Start the worker thread; it stops when `owner` is destroyed, if not before."""
    thread = QThread()
    thread.setObjectName("generation")
    worker = ChatWorker(session, choice)
    worker.moveToThread(thread)
    entry = (thread, worker)
    _running.add(entry)
    thread.started.connect(worker.load)
    thread.finished.connect(lambda: _running.discard(entry))
    owner.destroyed.connect(lambda: stop_worker(thread, worker))
    thread.start()
    return thread, worker


def stop_worker(thread: QThread, worker: ChatWorker, wait_ms: int = 30_000) -> None:
    if thread.isRunning():
        worker.stop()
        thread.quit()
        thread.wait(wait_ms)
    worker.close()
