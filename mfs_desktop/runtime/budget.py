"""A time and memory budget for pure-Python work on someone else's input, in whichever thread runs it.

A chat template is someone else's program (three nested loops over a list make no call and no
output, so no hook inside Jinja sees them); a PDF bounds each stream it inflates but not their
sum. One watchdog thread serves every budget: past its deadline, or once the process's memory
has grown by more than its allowance, it raises an exception inside the working thread
(CPython's PyThreadState_SetAsyncExc, delivered at the next bytecode). That works in a worker
thread, where a signal would not, and costs a dictionary entry while the work is within budget.
C code that runs long in one call (a huge string repeat) cannot be interrupted: callers bound
those by their own size checks.
"""

from __future__ import annotations

import ctypes
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass

_MEMORY_POLL_SECONDS = 0.02  # how long runaway work goes unchecked for memory: ~20 MB at zlib's pace


class OverBudget(BaseException):
    """Raised into the working thread. A BaseException, so that a library's `except Exception`
    (pypdf logs and skips a part it cannot read that way) cannot swallow it."""


class OutOfTime(OverBudget):
    pass


class OutOfMemory(OverBudget):
    pass


def _memory() -> int | None:
    """The memory the process holds, in bytes. On Linux its anonymous resident memory: what the
    work allocates, and not a model's weights paging in from their mapped file meanwhile.
    Elsewhere the peak resident memory (growth past a former peak goes unseen there); None
    where neither is reported (Windows): there only the deadline holds."""
    try:
        with open("/proc/self/status", "rb") as status:
            for line in status:
                if line.startswith(b"RssAnon:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        import resource
    except ImportError:
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # macOS counts bytes, Linux KiB


def _raise_in(thread_id: int, kind: type[OverBudget] | None) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), ctypes.py_object(kind) if kind else None)


@dataclass
class _Budget:
    deadline: float
    memory_limit: int | None  # the process's memory past which the work is stopped
    fired: bool = False


class _Watchdog:
    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._budgets: dict[int, _Budget] = {}  # thread ident -> its budget
        self._thread: threading.Thread | None = None

    @contextmanager
    def bounded(self, seconds: float, memory_bytes: int | None) -> Iterator[None]:
        ident = threading.get_ident()
        start = _memory() if memory_bytes is not None else None
        budget = _Budget(time.monotonic() + seconds, None if start is None else start + (memory_bytes or 0))
        with self._lock:
            self._budgets[ident] = budget
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="budget-watchdog", daemon=True)
                self._thread.start()
            self._lock.notify()
        try:
            yield
        finally:
            with self._lock:  # never after the body ended: the exception would land in unrelated code
                del self._budgets[ident]
                if budget.fired:  # raised but perhaps not yet delivered: withdraw it, the body is over
                    _raise_in(ident, None)

    def _watch(self) -> None:
        with self._lock:
            while True:
                now, polled = time.monotonic(), False
                for ident, budget in self._budgets.items():
                    if budget.fired:
                        continue
                    kind: type[OverBudget] | None = OutOfTime if budget.deadline <= now else None
                    if kind is None and budget.memory_limit is not None:
                        polled, held = True, _memory()
                        kind = OutOfMemory if held is not None and held > budget.memory_limit else None
                    if kind is not None:
                        budget.fired = True
                        _raise_in(ident, kind)
                soonest = min((b.deadline for b in self._budgets.values() if not b.fired), default=now + 3600)
                self._lock.wait(timeout=max(min(soonest - now, _MEMORY_POLL_SECONDS if polled else 3600), 0.005))


_WATCHDOG = _Watchdog()


def bounded(seconds: float, memory_bytes: int | None = None) -> AbstractContextManager[None]:
    """`with bounded(2.0):` raises OutOfTime in this thread once two seconds have passed; with
    `memory_bytes`, OutOfMemory once the process has grown by that much since the start."""
    return _WATCHDOG.bounded(seconds, memory_bytes)
