"""Try a chat template once, in a child process that can be killed, before a model is chosen.

Rendering in-process is bounded (chat_template.py), but a template is someone else's program
and only a process of its own gives hard limits: an address-space cap no allocation can pass,
and a kill that works whatever C code is running. The child imports only Jinja and this
package's template module, so it starts in a fraction of a second.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys

from mfs_desktop.runtime.chat_template import ChatTemplate, TemplateFailed, sample_conversation

CHECK_SECONDS = 8.0  # the child's whole life: start, parse, render twice (with and without a system role)
CHECK_MEMORY_BYTES = 512 << 20  # address space of the child; Python and Jinja take about 40 MB of it


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CHECK_MEMORY_BYTES, CHECK_MEMORY_BYTES))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def failure_of(source: str) -> str | None:
    """Why `source` cannot render the sample conversation, or None when it can."""
    try:
        completed = subprocess.run(_child_command(), input=source.encode("utf-8", "replace"),
                                   capture_output=True, timeout=CHECK_SECONDS, preexec_fn=_limited, check=False)
    except subprocess.TimeoutExpired:
        return f"the template ran for more than {CHECK_SECONDS:g} s"
    try:
        answer = json.loads(completed.stdout)
    except ValueError:
        if completed.returncode < 0 or b"MemoryError" in completed.stderr:
            return f"the template needs more than {CHECK_MEMORY_BYTES >> 20} MB of memory"
        return f"the template check ended with exit code {completed.returncode}"
    return answer.get("failure")


def _child_command() -> list[str]:
    # A frozen build has no `python -m`: the executable itself runs the check as a hidden command.
    if getattr(sys, "frozen", False):
        return [sys.executable, "template-check"]
    return [sys.executable, "-m", __name__]


def check_from_stdin() -> None:
    """The child's side: the template on standard input, {"failure": reason or null} on standard output."""
    source = sys.stdin.buffer.read().decode("utf-8", "replace")
    try:
        ChatTemplate(source, bos_token="<s>", eos_token="</s>").render(sample_conversation())
        failure = None
    except TemplateFailed as reason:
        failure = str(reason)
    except MemoryError:
        failure = f"the template needs more than {CHECK_MEMORY_BYTES >> 20} MB of memory"
    sys.stdout.write(json.dumps({"failure": failure}))


if __name__ == "__main__":
    check_from_stdin()
