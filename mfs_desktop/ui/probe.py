"""The child's side of `doctor`'s Qt check (services/doctor.py runs it in its own process,
since Qt aborts the whole process when its platform plugin cannot load)."""

from __future__ import annotations

import sys


def probe_platform() -> int:
    """`mfs-desktop qt-probe`: start the platform plugin, print what started."""
    from PySide6 import __version__
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication(sys.argv[:1])
    print(__version__, app.platformName())
    return 0
