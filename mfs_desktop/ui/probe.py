"""Whether Qt can open its platform here, for `doctor`.

Qt aborts the whole process when its platform plugin cannot load (a missing libxcb-cursor0
on Debian, say), so the probe runs in a child process and reports what it printed.
"""

from __future__ import annotations

import os
import subprocess
import sys

_PROBE = (
    "import sys\n"
    "from PySide6 import __version__\n"
    "from PySide6.QtGui import QGuiApplication\n"
    "app = QGuiApplication(sys.argv[:1])\n"
    "print(__version__, app.platformName())\n"
)


def qt_platform_report() -> str:
    has_display = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    if not os.environ.get("QT_QPA_PLATFORM") and not has_display:
        raise RuntimeError(
            "no display here (DISPLAY and WAYLAND_DISPLAY unset): the window needs a desktop session "
            "(QT_QPA_PLATFORM=offscreen runs it without one)"
        )
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        reason = next((line for line in reversed(done.stderr.splitlines()) if line.strip()), "no output")
        raise RuntimeError(f"Qt could not start its platform plugin: {reason.strip()}")
    version, platform = done.stdout.split()
    return f"PySide6 {version}, platform {platform}"
