"""Which process is writing an answer. A generation in progress names its owner — host, pid
and the pid's start time, since pids are reused — so another process can tell a live answer
from one a crash left behind, and never runs the model a second time on a live one."""

from __future__ import annotations

import functools
import os
import socket
from pathlib import Path


def _start_time(pid: int) -> str:
    """Linux's start time of `pid` in clock ticks; "" where /proc does not say."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat[stat.rfind(")") + 2:].split()[19]  # field 22; the name in () may hold spaces


@functools.cache
def this_process() -> str:
    pid = os.getpid()
    return f"{socket.gethostname()}:{pid}:{_start_time(pid)}"


def owner_pid(owner: str) -> int:
    return int(owner.rsplit(":", 2)[1])


def is_running(owner: str | None) -> bool:
    """Is the owner still running? An owner on another host, or where this platform cannot
    tell (Windows), counts as gone: its answer may be finished here, as after a crash."""
    if not owner:
        return False
    host, pid, started = owner.rsplit(":", 2)
    if host != socket.gethostname() or os.name != "posix":
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another account's process: alive
        pass
    return not started or _start_time(int(pid)) == started


def claimable(owner: str) -> bool:
    """May this process take over what `owner` holds? Its own, or a process's that is gone."""
    return owner == this_process() or not is_running(owner)
