"""Background work yields the CPU to the window (the UI benchmark's stall target)."""

from __future__ import annotations

import os
import threading

import pytest

from mfs_desktop.services.conversation.background import lower_current_thread_priority


@pytest.mark.skipif(not hasattr(os, "setpriority"), reason="no per-thread nice values here")
def test_only_the_calling_thread_is_lowered_and_its_children_inherit_it() -> None:
    seen: dict[str, int] = {}

    def child() -> None:
        seen["child"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    def background() -> None:
        before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        assert lower_current_thread_priority(5)
        seen["lowered"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) - before
        started = threading.Thread(target=child)
        started.start()
        started.join()
        seen["child"] -= before

    main_before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    worker = threading.Thread(target=background)
    worker.start()
    worker.join()
    assert seen == {"lowered": min(5, 19 - main_before), "child": min(5, 19 - main_before)}
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == main_before
