"""The fact track: verbatim lines with numbers, paths, commands, URLs and error strings,
extracted without a model (seed 003 section 4.5). Facts are authoritative; prose only guides.

Extraction is per clause (`text_units`), so a number inside a long paragraph, or glued to
Chinese text, survives without the words around it.
Priority when over budget: errors, commands and paths before URLs before bare numbers; within
a class, what the user and the tools said before what the assistant wrote (the assistant's
numbers are mostly derived from theirs).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from mfs_desktop.compaction.text_units import clause_spans, sentences

HEAD, TAIL = 150, 50  # a long line keeps its head and tail around " … "

# Latin words are bounded by Latin letters, not by \b: Chinese characters count as word
# characters, so "运行pip install时报错" has no \b before "pip".
_L, _R = r"(?<![A-Za-z0-9_])", r"(?![A-Za-z0-9_])"
_ERROR = re.compile(
    rf"(?i){_L}(error|exception|traceback|failed|failure|fatal|panic|denied|not found|errno|segmentation fault|"
    rf"exit code|refused|timeout|timed out|fehler|fehlgeschlagen|abgestürzt|verweigert|erreur|échec|échoué|refusé|"
    rf"fallo|falló|excepción|denegado){_R}|{_L}[A-Z][a-zA-Z]+(Error|Exception){_R}"
    r"|报错|错误|失败|异常|崩溃|超时|エラー|失敗|例外|タイムアウト")
_PROGRAM = (r"(sudo|pip3?|apt(-get)?|git|npm|make|cargo|python3?|docker|kubectl|curl|wget|ssh|systemctl|chmod|mkdir|"
            r"cd|ls|rm|cp|mv|export)")
# A command is in backticks, after a shell prompt, opens its clause in lower case, or carries
# a flag: "make" or "curl" inside a sentence is prose ("make a difference", "I curl up").
_COMMAND = re.compile(r"`[^`\n]+`|(^|\s)\$ \S|^" + _PROGRAM + r" \S|" + _L + _PROGRAM + r" (\S+ ){0,4}--?[A-Za-z]")
_PATH = re.compile(rf"(?<![A-Za-z0-9_.])(~|\.{{1,2}})?/[\w.\-]+(/[\w.\-]+)+|{_L}[A-Za-z]:\\[\w\\.\-]+|"
                   r"(?<![A-Za-z0-9_\-])[A-Za-z0-9_\-]+\.(py|js|ts|json|yaml|yml|toml|md|txt|csv|sql|sh|conf|cfg|ini|log|"
                   rf"rs|go|c|h|cpp|java|html|css){_R}")
_URL = re.compile(r"https?://[^\s，。；、）)」』]+|(?<![A-Za-z0-9_.@-])[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.(com|net|org|io|dev|app|ai|"
                  r"co|me|info|eu|uk|de|fr|es|it|nl|ch|at|cn|jp|kr|tw|hk|ru|br|in|local|lan|internal)(?![A-Za-z0-9-])")
_NUMBER = re.compile(r"\d")
_HEART = re.compile(r"(?<!\w)<3+(?![\d.])")  # "Thanks! <3" holds no number

PRIORITY = {"error": 0, "command": 0, "path": 0, "url": 1, "number": 2}
ROLE_PRIORITY = {"user": 0, "tool": 0, "assistant": 1}


@dataclass(frozen=True)
class Fact:
    uid: int
    kind: str
    text: str
    role: str = "user"

    def render(self) -> str:
        return f"[uid {self.uid}] {self.text}"


def fact_text(line: str) -> str:
    """A rendered fact line's sentence, without its uid (the inverse of `Fact.render`)."""
    return line.split("] ", 1)[-1]


def clip(line: str) -> str:
    """A long line keeps its head and tail around ' … '."""
    line = line.strip()
    return line if len(line) <= HEAD + TAIL + 3 else f"{line[:HEAD]} … {line[-TAIL:]}"


def classify(line: str) -> str | None:
    if _ERROR.search(line):
        return "error"
    if _COMMAND.search(line):
        return "command"
    if _PATH.search(line):
        return "path"
    if _URL.search(line):
        return "url"
    if _NUMBER.search(_HEART.sub("", line)):
        return "number"
    return None


def fact_pieces(text: str) -> Iterator[tuple[str, str]]:
    """(kind, text) of every fact in `text`: per sentence, each run of adjacent clauses that
    hold a fact, cut verbatim from the sentence. A fact is kept with the clause that holds it,
    not with the paragraph or the message around it, in any script."""
    for sentence in sentences(text):
        spans = clause_spans(sentence)
        kinds = [classify(sentence[a:b]) for a, b in spans]
        if len(spans) > 1 and all(kinds):  # every clause tells: the sentence whole, with its stop
            yield _first_kind(kinds), sentence
            continue
        run: list[int] = []
        for index, kind in enumerate([*kinds, None]):
            if kind:
                run.append(index)
            elif run:
                yield _first_kind([kinds[i] for i in run]), sentence[spans[run[0]][0]:spans[run[-1]][1]]
                run = []


def _first_kind(kinds: list[str | None]) -> str:
    return min((k for k in kinds if k), key=PRIORITY.__getitem__)


def extract_facts(messages: Iterable[tuple[int, str, str]]) -> list[Fact]:
    """Every fact line of (uid, text, role) triples, in transcript order, without duplicates."""
    seen: set[str] = set()
    facts = []
    for uid, text, role in messages:
        for kind, piece in fact_pieces(text):
            clipped = clip(piece)
            if clipped not in seen:
                seen.add(clipped)
                facts.append(Fact(uid, kind, clipped, role))
    return facts


def within_budget(facts: list[Fact], max_lines: int, max_tokens: int, count) -> tuple[list[Fact], int]:
    """Keep the highest-priority facts (then oldest first) within both budgets, in transcript
    order; return them and how many were dropped."""
    ranked = sorted(range(len(facts)), key=lambda i: (PRIORITY[facts[i].kind], ROLE_PRIORITY.get(facts[i].role, 0), i))
    kept: set[int] = set()
    used = 0
    for index in ranked:
        cost = count(facts[index].render())
        if len(kept) >= max_lines or used + cost > max_tokens:
            continue
        kept.add(index)
        used += cost
    return [facts[i] for i in sorted(kept)], len(facts) - len(kept)
