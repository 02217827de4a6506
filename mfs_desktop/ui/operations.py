"""Background work as small operations with success and failure handlers.

The main thread only renders and dispatches: anything that touches the disk or derives a key
runs on the thread pool, and its result comes back to the main thread through a queued signal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal


class _Relay(QObject):
    succeeded = Signal(object)
    failed = Signal(object)


class _Operation(QRunnable):
    def __init__(self, work: Callable[[], Any], relay: _Relay) -> None:
        super().__init__()
        self._work = work
        self._relay = relay

    def run(self) -> None:
        try:
            result = self._work()
        except BaseException as exc:  # handed to the failure handler on the main thread
            self._relay.failed.emit(exc)
            return
        self._relay.succeeded.emit(result)


_live: set[_Relay] = set()


def run_operation(
    work: Callable[[], Any],
    on_success: Callable[[Any], None],
    on_failure: Callable[[BaseException], None],
    owner: QObject | None = None,
) -> None:
    """Run `work` on the pool; exactly one handler is then called on the main thread — none
    when `owner` (the widget the handlers update) was deleted meanwhile."""
    relay = _Relay()  # created here, so it lives in the main thread and queued calls land there
    _live.add(relay)

    def finish(handler: Callable[[Any], None]) -> Callable[[Any], None]:
        def call(value: Any) -> None:
            _live.discard(relay)
            if owner is None or shiboken6.isValid(owner):
                handler(value)
        return call

    relay.succeeded.connect(finish(on_success), Qt.ConnectionType.QueuedConnection)
    relay.failed.connect(finish(on_failure), Qt.ConnectionType.QueuedConnection)
    QThreadPool.globalInstance().start(_Operation(work, relay))
