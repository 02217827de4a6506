"""Whether Qt can open its platform here, for `doctor`.

Qt aborts the whole process when its platform plugin cannot load (a missing libxcb-cursor0
on Debian, say), so the probe runs in a child process and reports what it printed.
"""

from __future__ import annotations

import os
import subprocess
import sys


def probe_platform() -> int:
    """The child's side (`mfs-desktop qt-probe`): start the platform plugin, print what started."""
    from PySide6 import __version__
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication(sys.argv[:1])
    print(__version__, app.platformName())
    return 0


def _probe_command() -> list[str]:
    # A frozen build (PyInstaller) has no interpreter to run `-m`: its executable is the app.
    if getattr(sys, "frozen", False):
        return [sys.executable, "qt-probe"]
    return [sys.executable, "-m", "mfs_desktop", "qt-probe"]


def qt_platform_report() -> str:
    has_display = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    if not os.environ.get("QT_QPA_PLATFORM") and not has_display:
        raise RuntimeError(
            "no display here (DISPLAY and WAYLAND_DISPLAY unset): the window needs a desktop session "
            "(QT_QPA_PLATFORM=offscreen runs it without one)"
        )
    done = subprocess.run(_probe_command(), capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        reason = next((line for line in reversed(done.stderr.splitlines()) if line.strip()), "no output")
        raise RuntimeError(f"Qt could not start its platform plugin: {reason.strip()}")
    version, platform = done.stdout.split()
    return f"PySide6 {version}, platform {platform}"
