"""Light and dark, following the system unless chosen, and the text size.

Qt 6 reports the desktop's colour scheme; "system" follows it. Dark uses the Fusion style
with a dark palette, so every widget (not only ours) changes; code colours follow (a light
Pygments style on light, a dark one on dark).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from mfs_desktop.ui.window import code_blocks

_DEFAULT_POINT_SIZE: list[float] = []


def is_dark(theme: str) -> bool:
    if theme == "system":
        return QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark
    return theme == "dark"


def dark_palette() -> QPalette:
    palette = QPalette()
    colours = {
        QPalette.ColorRole.Window: "#202329", QPalette.ColorRole.WindowText: "#e6e8eb",
        QPalette.ColorRole.Base: "#181a1f", QPalette.ColorRole.AlternateBase: "#262a31",
        QPalette.ColorRole.Text: "#e6e8eb", QPalette.ColorRole.Button: "#2b2f36",
        QPalette.ColorRole.ButtonText: "#e6e8eb", QPalette.ColorRole.Highlight: "#3d6fb6",
        QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: "#2b2f36",
        QPalette.ColorRole.ToolTipText: "#e6e8eb", QPalette.ColorRole.Link: "#7fb2ff",
        QPalette.ColorRole.PlaceholderText: "#8a919c",
    }
    for role, colour in colours.items():
        palette.setColor(role, QColor(colour))
    return palette


def apply_look(app: QApplication, theme: str, font_size: int) -> bool:
    """Apply a theme and a text size (0: the system's); True when the result is dark."""
    dark = is_dark(theme)
    app.setStyle("Fusion")
    app.setPalette(dark_palette() if dark else app.style().standardPalette())
    code_blocks.use_style("monokai" if dark else "friendly")
    font = QFont(app.font())
    if not _DEFAULT_POINT_SIZE:
        _DEFAULT_POINT_SIZE.append(font.pointSizeF())
    font.setPointSizeF(float(font_size) if font_size else _DEFAULT_POINT_SIZE[0])
    app.setFont(font)
    return dark
