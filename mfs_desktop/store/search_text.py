"""The text the search index holds for a message, and a person's query turned into FTS5's.

FTS5's unicode61 tokenizer splits on spaces and punctuation, which suits Latin, Cyrillic and
Greek text; remove_diacritics folds accents (München, munchen). Scripts written without spaces
(Han, kana, Hangul, Thai …) come out of it as one token per run, so the indexed text puts a
space between their characters: every character is a token, and a query of any length — two
characters included — is a phrase of adjacent characters, i.e. a substring. Text is casefolded
first, so ß and ss meet. The index is contentless: the message text lives only in `messages`.
"""

from __future__ import annotations

import re
import unicodedata

from mfs_desktop.errors import InvalidInput

# Scripts written without spaces between words.
_UNSPACED = ("\u0e00-\u0e7f\u0e80-\u0eff\u1000-\u109f\u1780-\u17ff"  # Thai, Lao, Myanmar, Khmer
             "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # kana, Han
             "\uac00-\ud7af\u1100-\u11ff\u3130-\u318f"  # Hangul
             "\U00020000-\U0003134f")
_UNSPACED_CHAR = re.compile(f"([{_UNSPACED}])")
_TERM = re.compile(r'"([^"]*)"|(\S+)')
_WORD = re.compile(r"[^\W_]+")  # letters and digits, as unicode61 splits tokens
MAX_QUERY_CHARS = 500


def search_text(text: str) -> str:
    """What the index tokenizes: casefolded, each unspaced-script character standing alone."""
    return _UNSPACED_CHAR.sub(r" \1 ", text.casefold())


def fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def query_terms(query: str) -> list[list[str]]:
    """The query as terms, each a list of tokens that must stand together (a phrase): words
    and quoted phrases; punctuation and FTS5 operators are plain characters here."""
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidInput(f"A search is limited to {MAX_QUERY_CHARS} characters.")
    terms = []
    for quoted, bare in _TERM.findall(query):
        tokens = _WORD.findall(search_text(quoted if quoted else bare))
        if tokens:
            terms.append(tokens)
    if not terms:
        raise InvalidInput("Search for at least one word or character (punctuation alone finds nothing).")
    return terms


def match_expression(terms: list[list[str]]) -> str:
    """FTS5 syntax: every term must occur (AND); a term is a phrase of its tokens, and the last
    token of a Latin word may be the start of a longer one (paint finds painting)."""
    phrases = []
    for tokens in terms:  # tokens hold letters and digits only: nothing in them needs escaping
        prefix = "" if _UNSPACED_CHAR.fullmatch(tokens[-1]) else "*"
        phrases.append('"' + " ".join(tokens) + '"' + prefix)
    return " AND ".join(phrases)


def _accent_table() -> dict[int, str]:
    table = {}
    for code in range(0xC0, 0x250):
        base = unicodedata.normalize("NFKD", chr(code))[0].lower()
        if base != chr(code).lower() and base.isalpha():
            table[code] = base
    return table | {ord("ß"): "ss"}


_ACCENTS = _accent_table()
SNIPPET_SCAN_CHARS = 4_000  # folded character by character: a long document is cut around its match


def _scan_window(text: str, terms: list[list[str]]) -> tuple[str, int]:
    """The part of a long `text` worth folding: around the first place a term's first token
    occurs in the casefolded text (casefolding may shift offsets a little; the margin covers it)."""
    if len(text) <= SNIPPET_SCAN_CHARS:
        return text, 0
    lowered = text.lower().translate(_ACCENTS)  # C speed; one character for one, but for ß
    found = [at for at in (lowered.find(tokens[0].translate(_ACCENTS)) for tokens in terms) if at >= 0]
    start = max(0, min(found, default=0) - SNIPPET_SCAN_CHARS // 4)
    return text[start:start + SNIPPET_SCAN_CHARS], start


def snippet(text: str, terms: list[list[str]], width: int = 80, mark: tuple[str, str] = ("[", "]")) -> str:
    """A window of `text` around the first match, every match of a term marked."""
    window, offset = _scan_window(text, terms)
    if offset or len(window) < len(text):
        shown = snippet(window, terms, width, mark)
        head = "…" if offset and not shown.startswith("…") else ""
        tail = "…" if offset + len(window) < len(text) and not shown.endswith("…") else ""
        return head + shown + tail
    folded, positions = _folded_with_positions(text)
    spans = []
    for tokens in terms:
        pattern = _term_pattern(tokens)
        spans += [(positions[m.start()], positions[m.end() - 1] + 1) for m in pattern.finditer(folded)]
    spans = _merged(sorted(spans))
    if not spans:
        return _window(text, 0, width)
    start = max(0, spans[0][0] - width // 3)
    end = min(len(text), start + width)
    pieces, at = [], start
    for left, right in spans:
        if left >= end:
            break
        left, right = max(left, at), min(right, end)
        pieces += [text[at:left], mark[0], text[left:right], mark[1]]
        at = right
    pieces.append(text[at:end])
    shown = "".join(pieces).replace("\n", " ")
    return ("…" if start > 0 else "") + shown + ("…" if end < len(text) else "")


def _term_pattern(tokens: list[str]) -> re.Pattern[str]:
    parts = [re.escape(fold(token)) for token in tokens]
    joined = r"[\W_]*".join(parts)
    if _UNSPACED_CHAR.fullmatch(tokens[-1]):
        return re.compile(joined)
    return re.compile(r"(?<![^\W_])" + joined + r"[^\W_]*")


def _folded_with_positions(text: str) -> tuple[str, list[int]]:
    """`text` folded like the index folds it, and for each folded character its index in `text`."""
    folded, positions = [], []
    for index, char in enumerate(text):
        for piece in fold(char):
            folded.append(piece)
            positions.append(index)
    return "".join(folded), positions


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for left, right in spans:
        if merged and left <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(right, merged[-1][1]))
        else:
            merged.append((left, right))
    return merged


def _window(text: str, start: int, width: int) -> str:
    shown = text[start:start + width].replace("\n", " ")
    return shown + ("…" if start + width < len(text) else "")
