"""Background threads yield the CPU to the one a person is watching: on a 2-core machine the
compactor's llama.cpp context and the answer being generated would otherwise starve the
window's event loop."""

from __future__ import annotations

import logging
import os
import threading

log = logging.getLogger(__name__)

COMPACTOR_NICENESS = 10  # folding history can always wait a little
GENERATION_NICENESS = 4  # the answer streams; the window still draws it first


def lower_current_thread_priority(niceness: int) -> bool:
    """Raise this thread's nice value (Linux keeps one per thread, and threads it starts, such
    as llama.cpp's workers, inherit it). Elsewhere, or if refused, nothing changes."""
    if not hasattr(os, "setpriority"):
        return False
    thread_id = threading.get_native_id()
    try:
        current = os.getpriority(os.PRIO_PROCESS, thread_id)
        os.setpriority(os.PRIO_PROCESS, thread_id, min(19, current + niceness))
    except OSError as error:
        log.info("thread priority unchanged (%s)", type(error).__name__)
        return False
    return True
