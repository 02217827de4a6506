"""Marks text for translation outside the window's layer, which may not import Qt.

`pyside6-lupdate` finds strings by the marker's name, so messages built in `services` (stream
notices, labels shared with the CLI) land in the same catalogue as the window's own; the window
translates them when it shows them (`mfs_desktop.ui.i18n.tr`). The CLI prints the English.
"""

from __future__ import annotations


def QT_TRANSLATE_NOOP(_context: str, text: str) -> str:  # noqa: N802 (the name lupdate looks for)
    return text
