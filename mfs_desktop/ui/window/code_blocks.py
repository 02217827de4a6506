"""Fenced code in an answer: coloured by Pygments, with a "copy code" link under each block.

Qt's Markdown reader keeps a fence's language on each of its blocks (BlockCodeLanguage); the
colours are laid over those blocks as character formats, so the text stays exactly as written
(copying takes the stored message, never the rendering). Nothing is loaded or run.
"""

from __future__ import annotations

import html
import re

from PySide6.QtGui import QColor, QTextBlock, QTextCharFormat, QTextCursor, QTextDocument, QTextFormat

from mfs_desktop.ui.i18n import tr

_FENCE = re.compile(r"^(```|~~~)[^\n]*\n(.*?)^\1[ \t]*$", re.MULTILINE | re.DOTALL)
_STYLE = ["friendly"]  # the Pygments style in use; ui/look.py switches it with the theme


def fenced_code(markdown: str) -> list[str]:
    """The code of each fenced block of `markdown`, in order (what "copy code" copies)."""
    return [match.group(2).rstrip("\n") for match in _FENCE.finditer(markdown)]


def _runs(document: QTextDocument) -> list[tuple[str, list[QTextBlock]]]:
    runs: list[tuple[str, list[QTextBlock]]] = []
    block, previous_code = document.begin(), False
    while block.isValid():
        is_code = block.blockFormat().hasProperty(QTextFormat.Property.BlockCodeFence)
        if is_code:
            language = str(block.blockFormat().property(QTextFormat.Property.BlockCodeLanguage) or "")
            if not previous_code:
                runs.append((language, []))
            runs[-1][1].append(block)
        previous_code = is_code
        block = block.next()
    return runs


def use_style(name: str) -> None:
    global _FORMATS
    if name != _STYLE[0]:
        _STYLE[0], _FORMATS = name, None


def _formats() -> dict:
    from pygments.styles import get_style_by_name

    style = get_style_by_name(_STYLE[0])
    formats = {}
    for token, spec in style:
        if spec["color"] or spec["bold"] or spec["italic"]:
            char = QTextCharFormat()
            if spec["color"]:
                char.setForeground(QColor(f"#{spec['color']}"))
            if spec["bold"]:
                char.setFontWeight(700)
            if spec["italic"]:
                char.setFontItalic(True)
            formats[token] = char
    return formats


_FORMATS: dict | None = None


def _lexer(language: str):
    from pygments.lexers import TextLexer, get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        return get_lexer_by_name(language or "text", stripnl=False, ensurenl=False)
    except ClassNotFound:
        return TextLexer(stripnl=False, ensurenl=False)


def highlight_code_blocks(document: QTextDocument, uid: int | None) -> int:
    """Colour every fenced block; under each, for a stored message, a "copy code" link
    (`copycode:<uid>:<index>`). Returns how many blocks there were."""
    global _FORMATS
    runs = _runs(document)
    if not runs:
        return 0
    if _FORMATS is None:
        _FORMATS = _formats()
    for language, blocks in runs:
        start = blocks[0].position()
        code = "\n".join(block.text() for block in blocks)
        cursor = QTextCursor(document)
        at = 0
        for token, value in _lexer(language).get_tokens(code):
            kind = token
            while kind not in _FORMATS and kind.parent is not None:
                kind = kind.parent
            if kind in _FORMATS and value:
                cursor.setPosition(start + at)
                cursor.setPosition(start + at + len(value), QTextCursor.MoveMode.KeepAnchor)
                cursor.mergeCharFormat(_FORMATS[kind])
            at += len(value)
    if uid is not None:
        label = html.escape(tr("copy code"))
        for index, (_language, blocks) in reversed(list(enumerate(runs))):
            cursor = QTextCursor(blocks[-1])
            cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock)
            cursor.insertBlock(document.begin().blockFormat(), QTextCharFormat())
            cursor.insertHtml(f'<a href="copycode:{uid}:{index}" style="font-size: 11px">{label}</a>')
    return len(runs)
