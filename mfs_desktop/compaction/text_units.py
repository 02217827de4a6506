"""Sentences and clauses in the scripts people write: Latin text puts a space after its stops,
Chinese and Japanese do not (。！？ and the full-width ，；：、 sit between two characters).

A sentence is what the quote track and the guide keep whole; a clause is what the fact track
keeps, so a number, path or error glued to Chinese text is kept with its own clause and the
rest of the message is not. Every unit is a verbatim slice of the text it came from.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# A stop ends a sentence where whitespace follows it (Latin) or always (CJK, full-width).
# Closing quotes and brackets stay with the sentence they close.
_CLOSERS = "\"'”’」』）)】》"
_SENTENCE_END = re.compile(
    rf"[.。！？!?…]+[{_CLOSERS}]*(?=\s|$)"  # Latin: the space decides
    rf"|[。！？；][{_CLOSERS}]*"  # CJK: no space needed
    rf"|[!?！？]+[{_CLOSERS}]*(?=[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef])"  # "好的!明天" glued
)
# A list item or a bullet opens a new unit even without a stop before it.
_LIST_MARKER = re.compile(r"^\s*(?:[-*•·・]|\d{1,3}[.)、]|[a-zA-Z][.)]|[（(]\d{1,3}[）)])\s*")
# Clause marks: the full-width ones always; a Latin comma or semicolon only before a space,
# so "5,000", "9:40", "C:\\x" and "a,b" stay whole. Colons are not cut: "Error: …" and
# "run: pip …" lean on what follows them.
_CLAUSE_MARK = re.compile(r"[，、；：](?:\s*)|[,;](?=\s)\s*")
_CODE = re.compile(r"`[^`\n]*`")


def lines(text: str) -> Iterator[str]:
    """Non-empty lines, each without its list marker."""
    for line in text.splitlines():
        body = _LIST_MARKER.sub("", line, count=1) if _LIST_MARKER.match(line) and not _is_number_line(line) else line
        if body.strip():
            yield body.strip()


def _is_number_line(line: str) -> bool:
    """"3.5 GB free" opens with digits and a dot but is no list item."""
    return bool(re.match(r"^\s*\d+[.]\d", line))


def sentences(text: str) -> Iterator[str]:
    """The sentences of every line, verbatim, each with its closing stop."""
    for line in lines(text):
        yield from _split(line, _SENTENCE_END, keep_mark=True)


def clause_spans(sentence: str) -> list[tuple[int, int]]:
    """Where each clause of `sentence` lies in it, as (start, end), without the mark between
    them: a run of clauses is cut back out of the sentence itself, so what it keeps is word for
    word what was said."""
    return list(_spans(sentence, _CLAUSE_MARK, keep_mark=False))


def _split(text: str, mark: re.Pattern[str], *, keep_mark: bool) -> Iterator[str]:
    for start, end in _spans(text, mark, keep_mark=keep_mark):
        yield text[start:end]


def _spans(text: str, mark: re.Pattern[str], *, keep_mark: bool) -> Iterator[tuple[int, int]]:
    code = [match.span() for match in _CODE.finditer(text)]  # a mark inside backticks is code
    start = 0
    for match in mark.finditer(text):
        if any(a <= match.start() < b for a, b in code):
            continue
        end = match.end() if keep_mark else match.start()
        yield from _trimmed(text, start, end)
        start = match.end()
    yield from _trimmed(text, start, len(text))


def _trimmed(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        yield start, end
