"""The primary/fallback state machine of seed 003 section 9.1, apart from HTTP.

A failure that may be the endpoint's (5xx, 429, refused, timeout) moves to the fallback, which
is used only when its url, model and key are all set (half a fallback is more dangerous than
none). The primary rests `retry_primary_after` seconds, or as long as its Retry-After asked
(at most MAX_REST), then is tried again. Every switch is reported (invariant 11).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

MAX_REST = 3600.0  # seconds; a Retry-After beyond an hour is broken, not a plan


@dataclass(frozen=True)
class Endpoint:
    url: str  # base URL, e.g. http://127.0.0.1:8080/v1
    model: str
    api_key: str = ""

    @property
    def complete(self) -> bool:
        return bool(self.url and self.model and self.api_key)


EndpointEvent = Callable[[str, str], None]
"""Called with ("fallback", reason) or ("primary", reason) whenever the active endpoint changes."""


class EndpointSwitch:
    def __init__(
        self, primary: Endpoint, fallback: Endpoint | None = None, *, retry_primary_after: float = 60.0,
        on_event: EndpointEvent | None = None, clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.primary = primary
        self.fallback = fallback if fallback is not None and fallback.complete else None
        self.retry_primary_after = retry_primary_after
        self._on_event = on_event or (lambda kind, reason: None)
        self._clock = clock
        self._lock = threading.Lock()
        self._on_fallback_since: float | None = None
        self._rest = retry_primary_after

    @property
    def active(self) -> str:
        with self._lock:
            return "primary" if self._on_fallback_since is None else "fallback"

    def candidates(self) -> list[tuple[str, Endpoint]]:
        with self._lock:
            primary_due = (self._on_fallback_since is None
                           or self._clock() - self._on_fallback_since >= self._rest)
        order = [("primary", self.primary)] if primary_due or self.fallback is None else []
        if self.fallback is not None:
            order.append(("fallback", self.fallback))
        return order

    def failed(self, which: str, reason: str, retry_after: float | None = None) -> None:
        """`retry_after` is the primary's own Retry-After: it rests at least that long."""
        if which != "primary" or self.fallback is None:
            return
        with self._lock:
            switched = self._on_fallback_since is None
            self._on_fallback_since = self._clock()
            self._rest = max(self.retry_primary_after, min(retry_after or 0.0, MAX_REST))
        if switched:
            self._on_event("fallback", reason)

    def succeeded(self, which: str) -> None:
        if which != "primary":
            return
        with self._lock:
            recovered = self._on_fallback_since is not None
            self._on_fallback_since = None
        if recovered:
            self._on_event("primary", "primary endpoint answers again")
