"""The floating status over the chat while the pre-compactor works (seed 003 §9.3): never a
percentage, never silent — "Organizing context…", then "Organized (the next reply may be
slower)", which fades after three seconds."""

from __future__ import annotations

from PySide6.QtCore import QEasingCurve, QPropertyAnimation, Qt, QTimer
from PySide6.QtWidgets import QGraphicsOpacityEffect, QLabel, QWidget

from mfs_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr

ORGANIZING = QT_TRANSLATE_NOOP("", "Organizing context…")
ORGANIZED = QT_TRANSLATE_NOOP("", "Organized (the next reply may be slower)")
NOT_ORGANIZED = QT_TRANSLATE_NOOP("", "Context could not be organized this time; nothing was lost")
LINGER_MS = 3_000
FADE_MS = 600


class StatusOverlay(QLabel):
    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setStyleSheet("background: rgba(40, 44, 52, 220); color: white; border-radius: 8px; padding: 6px 12px;")
        self._opacity = QGraphicsOpacityEffect(self)
        self.setGraphicsEffect(self._opacity)
        self._fade = QPropertyAnimation(self._opacity, b"opacity", self)
        self._fade.setDuration(FADE_MS)
        self._fade.setEasingCurve(QEasingCurve.Type.OutQuad)
        self._fade.finished.connect(self._faded)
        self._linger = QTimer(self)
        self._linger.setSingleShot(True)
        self._linger.timeout.connect(self._start_fade)
        self._shown = ""  # the English of the text shown (the label holds its translation)
        self.hide()

    def organizing(self) -> None:
        self._linger.stop()
        self._fade.stop()
        self._show(ORGANIZING)

    def organized(self, committed: bool) -> None:
        self._show(ORGANIZED if committed else NOT_ORGANIZED)
        self._linger.start(LINGER_MS)

    def _show(self, text: str) -> None:
        self._shown = text
        self.setText(tr(text))
        self._opacity.setOpacity(1.0)
        self.adjustSize()
        parent = self.parentWidget()
        self.move(parent.width() - self.width() - 16, 12)
        self.show()
        self.raise_()

    def _start_fade(self) -> None:
        self._fade.setStartValue(1.0)
        self._fade.setEndValue(0.0)
        self._fade.start()

    def _faded(self) -> None:
        if self._shown != ORGANIZING:  # organizing again meanwhile: stays up
            self.hide()
