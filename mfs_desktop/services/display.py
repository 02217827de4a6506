"""Stored text as a person sees it: nothing in it may act on the screen.

A title or message may hold terminal escapes (ESC [ … changes a terminal's colours or
cursor, and can hide or rewrite what `list` prints) or bidirectional overrides (U+202E
turns "txt.exe" into what reads as "exe.txt"). Shown, each becomes a visible marker; the
stored text is unchanged, and exports keep it as written.
"""

from __future__ import annotations

# LRE, RLE, PDF, LRO, RLO and the isolates: the "Trojan Source" set. Plain marks (LRM, RLM)
# are left alone: right-to-left writing needs them and they cannot reorder a whole run.
BIDI_CONTROLS = {chr(code) for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}


def _marker(char: str) -> str:
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # the Unicode control picture: ␛ for ESC
    if code == 0x7F:
        return "\u2421"
    return f"⟨U+{code:04X}⟩"


def shown(text: str, *, keep_lines: bool = True) -> str:
    """`text` with controls and bidi overrides as visible markers; tabs (and line breaks, when
    `keep_lines`) stay as they are."""
    keep = {"\t", "\n", "\r"} if keep_lines else {"\t"}
    return "".join(_marker(char) if (char in BIDI_CONTROLS or (ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0))
                   and char not in keep else char for char in text)


def shown_line(text: str) -> str:
    """One line for a list: also newlines shown, so a title cannot forge another row."""
    return shown(text, keep_lines=False)
