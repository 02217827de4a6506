"""The fact track: verbatim lines with numbers, paths, commands, URLs and error strings,
extracted without a model (seed 003 section 4.5). Facts are authoritative; prose only guides.

Extraction is per log line or sentence, so a number inside a long paragraph survives.
Priority when over budget: errors, commands and paths before URLs before bare numbers; within
a class, what the user and the tools said before what the assistant wrote (the assistant's
numbers are mostly derived from theirs).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

HEAD, TAIL = 150, 50  # a long line keeps its head and tail around " … "

_ERROR = re.compile(r"(?i)\b(error|exception|traceback|failed|failure|fatal|panic|denied|not found|errno|"
                    r"segmentation fault|exit code|refused|timeout|timed out)\b|\b[A-Z][a-zA-Z]+(Error|Exception)\b")
_PROGRAM = (r"(sudo|pip3?|apt(-get)?|git|npm|make|cargo|python3?|docker|kubectl|curl|wget|ssh|systemctl|chmod|mkdir|"
            r"cd|ls|rm|cp|mv|export)")
# A command is in backticks, after a shell prompt, opens its line in lower case, or carries a
# flag: "make" or "curl" inside an English sentence is prose (on LoCoMo, "make a difference"
# filled the fact track before a single number got in).
_COMMAND = re.compile(r"`[^`\n]+`|(^|\s)\$ \S|^" + _PROGRAM + r" \S|\b" + _PROGRAM + r" (\S+ ){0,4}--?[A-Za-z]")
_PATH = re.compile(r"(?<![\w.])(~|\.{1,2})?/[\w.\-]+(/[\w.\-]+)+|\b[A-Za-z]:\\[\w\\.\-]+|\b[\w\-]+\.(py|js|ts|json|yaml|"
                   r"yml|toml|md|txt|csv|sql|sh|conf|cfg|ini|log|rs|go|c|h|cpp|java|html|css)\b")
_URL = re.compile(r"https?://\S+")
_NUMBER = re.compile(r"\d")
_HEART = re.compile(r"(?<!\w)<3+(?![\d.])")  # "Thanks! <3" holds no number
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+")

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


def pieces(text: str) -> Iterable[str]:
    """Lines, and within a line its sentences: a fact is kept with the sentence that holds it,
    not with the paragraph around it."""
    for line in text.splitlines():
        if line.strip():
            yield from (part for part in _SENTENCE.split(line) if part.strip())


def extract_facts(messages: Iterable[tuple[int, str, str]]) -> list[Fact]:
    """Every fact line of (uid, text, role) triples, in transcript order, without duplicates."""
    seen: set[str] = set()
    facts = []
    for uid, text, role in messages:
        for piece in pieces(text):
            kind = classify(piece)
            clipped = clip(piece)
            if kind and clipped not in seen:
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
