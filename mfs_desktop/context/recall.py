"""Recall at question time (DESIGN section 7, zone 6; issue 45).

Compaction decides what stays in view before anyone asks; recall answers the question actually
asked. The new user message is read as terms — words past the stop lists, a longer word by its
first five letters so "painting" meets "painted" (truncation stemming: language-independent,
close to a stemmer in IR measurements), Chinese and Japanese by character bigrams — and the
conversation's messages that are *not* in the view are ranked on the encrypted FTS5 index.

How much a match tells: a term held by `df` of the conversation's `N` messages weighs
ln(N ÷ df). History answers what a sentence of the message *asks* (the rest of a long message
is talk). A message comes back when the asked terms it holds weigh at least ln(N ÷ 3) — were
words independent, they would meet by chance in no more messages than the three recall brings
back — and the best of them matches better than every raw turn the request already carries
(else the talk is on that subject now, and the view answers it). A word said once weighs ln(N)
and is enough alone; a name said in every session weighs next to nothing. N and df are the
conversation's own: nothing is fixed to a language or a benchmark (docs/defaults.md has the
measurements).

An earlier instruction of the user comes back for any message that touches it: its binding
sentences, with the user's messages as the pool. A question whose own terms cannot reach the
bar ("and which city?") right after a question that recalled history follows it up: the last
exchange's terms join at half weight. The best three come back oldest first, verbatim, the best
with the other half of its question/answer pair when there is room; a long message is cut to its
sentences that hold the terms. A message whose matching sentences the compressed history
already quotes word for word is not brought twice.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from mfs_desktop.compaction.binding import asks, binding_class
from mfs_desktop.compaction.stopwords import CJK_CHARACTERS, CJK_WORDS, LATIN
from mfs_desktop.compaction.text_units import sentences
from mfs_desktop.runtime.neutral import neutralize
from mfs_desktop.store.database import Database
from mfs_desktop.store.models import Message
from mfs_desktop.store.recall_search import RecallRecord, phrase_frequencies, ranked_history
from mfs_desktop.store.search_text import fold
from mfs_desktop.store.segment_records import day_label, spoken_date

STEM = 5  # truncation stemming: a longer word matches by its first five letters
FOLLOW_UP_WEIGHT = 0.5  # the last exchange says what a short follow-up is about, less than its own words
RELATIVE_FLOOR = 0.5  # hits within this share of the best one's weight come back with it
MOST_HITS = 3  # "the best few": a question's evidence is one to three messages (LoCoMo's multi-hop: 2–4)
MAX_TERMS = 24  # a pasted page asks nothing specific: its rarest terms are enough
TERM_LOOKUPS = 4 * MAX_TERMS  # terms counted on the index per message, before the rarest are kept
RECALL_HEADER = "[recalled word for word from earlier in this conversation: #number · date · speaker]"
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_PIECE = re.compile(rf"[{_CJK}]+|[^\W_{_CJK}]+")


@dataclass(frozen=True)
class Term:
    phrase: str  # as FTS5 reads it
    shown: str  # as a person reads it (the recall's "why")
    pattern: re.Pattern[str]  # finds it in folded text
    weight: float = 1.0


@dataclass(frozen=True)
class RecallHit:
    uid: int
    role: str
    created_at: float
    terms: tuple[str, ...]
    score: float

    def as_dict(self) -> dict:
        return {"uid": self.uid, "role": self.role, "created_at": self.created_at, "terms": list(self.terms),
                "score": round(self.score, 3)}


@dataclass(frozen=True)
class Recall:
    """What zone 6 carries for one user message."""

    block: str
    hits: tuple[RecallHit, ...]
    tokens: int

    def record(self, user_uid: int, now: float) -> RecallRecord:
        return RecallRecord(user_uid, self.block, tuple(h.as_dict() for h in self.hits), self.tokens, now)


NOTHING = Recall("", (), 0)


def _bigrams(run: str) -> list[str]:
    """A run of Han or kana as its overlapping bigrams (the usual reading of CJK text for
    search), but those of two particles or a function word; a lone character stands alone.
    Not split at particles first: 过 and 着 are particles and also the first halves of 过敏 and
    着急."""
    if len(run) == 1:
        return [] if run in CJK_CHARACTERS else [run]
    grams = (run[i:i + 2] for i in range(len(run) - 1))
    return [g for g in grams if not (g[0] in CJK_CHARACTERS and g[1] in CJK_CHARACTERS) and g not in CJK_WORDS]


def question_terms(text: str, weight: float = 1.0) -> list[Term]:
    """The terms of `text` worth looking for, in order, each once."""
    terms: dict[str, Term] = {}
    for piece in _PIECE.findall(text.casefold()):
        if re.match(f"[{_CJK}]", piece):
            for gram in _bigrams(piece):
                phrase = '"' + " ".join(gram) + '"'
                terms.setdefault(phrase, Term(phrase, gram, re.compile(re.escape(fold(gram))), weight))
            continue
        if piece in LATIN or (len(piece) < 3 and not piece.isdigit()):
            continue
        word = fold(piece)
        if word.isdigit():
            phrase, pattern = f'"{word}"', re.compile(rf"(?<![^\W_]){word}(?![^\W_])")
        else:
            stem = word[:STEM]
            phrase, pattern = f'"{stem}"*', re.compile(rf"(?<![^\W_]){re.escape(stem)}")
        terms.setdefault(phrase, Term(phrase, piece, pattern, weight))
    return list(terms.values())


@dataclass(frozen=True)
class RecallRequest:
    """What the recall step needs from the assembly: the question, what it may bring back, and
    what the conversation holds."""

    question: str
    last_exchange: Sequence[str]
    eligible: Mapping[int, Message]  # uid → message: not in the view, not already recalled
    in_view: Sequence[str]  # what the request already carries, but the question and the last exchange
    follows_recall: bool  # the last user message brought history back: a short question may follow it up
    shown: str  # the compressed history as sent: a sentence its quote track holds needs no recall
    messages: int  # the conversation's messages (N)
    user_messages: int  # of them, the user's
    budget: int  # tokens
    count: Callable[[str], int]


def recall(database: Database, conversation_id: str, request: RecallRequest) -> Recall:
    """The best few eligible originals for the question within the budget, or NOTHING."""
    if not request.eligible or request.budget <= 0 or request.messages < 2:
        return NOTHING
    bar = math.log(request.messages)
    # History answers what a sentence of the message asks; the rest of a long message is talk.
    asked = " ".join(sentence for sentence in sentences(request.question) if asks(sentence))
    asked_phrases = {t.phrase for t in question_terms(asked)}
    # One index count per term: a pasted page would cost thousands, so its asked terms and then
    # its first others are looked up, a bounded number.
    candidates = sorted(question_terms(request.question), key=lambda t: t.phrase not in asked_phrases)
    terms = _weighted(database, conversation_id, candidates[:TERM_LOOKUPS], request.messages)
    asking = [t for t in terms if t.phrase in asked_phrases]
    # Terms held by no more messages than recall brings back are not met by chance: those
    # messages are the answer's candidates.
    history_bar = bar - math.log(MOST_HITS)
    if asked and sum(t.weight for t in asking) < bar:
        # "Tomasz recommended a book … What was it called?": the question leans on the sentences
        # before it, which count at the stricter bar (they are talk as often as context)
        asking, history_bar = terms, bar
    in_view = [*request.in_view, *request.last_exchange]
    if asked and request.follows_recall and sum(t.weight for t in asking) < bar:  # "and what about her?"
        seen = {t.phrase for t in terms}
        extra = _weighted(database, conversation_id, [t for text in request.last_exchange
                                                      for t in question_terms(text, FOLLOW_UP_WEIGHT)
                                                      if t.phrase not in seen], request.messages)
        terms, asking = terms + extra, asking + extra
        in_view = list(request.in_view)  # the exchange it follows up on matches by construction
    if not terms:
        return NOTHING
    scored = []
    needed = _needed(terms, min(history_bar, math.log(request.user_messages)))
    for uid, bm25 in ranked_history(database, conversation_id, [t.phrase for t in needed], max(request.eligible)):
        message = request.eligible.get(uid)
        if message is None or _shown(message.text, terms, request.shown):
            continue
        matched = _matched(message.text, asking)
        score = sum(t.weight for t in matched)
        if score >= history_bar:
            scored.append((score, bm25, message, matched, asking))
        elif message.role == "user" and (binding := _binds(message.text, terms)) >= math.log(request.user_messages):
            scored.append((binding, bm25, message, _matched(message.text, terms), terms))
    if not scored:
        return NOTHING
    scored.sort(key=lambda entry: (-entry[0], -entry[1], entry[2].uid))
    # What the view already answers as well needs no recall: the talk is on that subject now.
    best, *_, searched = scored[0]
    if best <= max((_matched_weight(text, searched) for text in in_view), default=0.0):
        return NOTHING
    floor = scored[0][0] * RELATIVE_FLOOR
    return _fill([s for s in scored if s[0] >= floor][:MOST_HITS], request)


def _shown(text: str, terms: Sequence[Term], shown: str) -> bool:
    """Whether every sentence of `text` that holds a term already stands word for word in `shown`."""
    holding = [sentence for sentence in sentences(text) if _matched(sentence, terms)]
    return bool(holding) and all(sentence in shown for sentence in holding)


def _needed(terms: Sequence[Term], bar: float) -> list[Term]:
    """The terms a message must hold one of to reach `bar` (MaxScore pruning): the rarest, until
    the rest together weigh less than the bar. Common words then only score candidates found
    by rarer ones, and the index never ranks every message that says "today"."""
    ranked = sorted(terms, key=lambda t: -t.weight)
    rest = sum(t.weight for t in ranked)
    needed = []
    for term in ranked:
        if rest < bar:
            break
        needed.append(term)
        rest -= term.weight
    return needed


def _binds(text: str, terms: Sequence[Term]) -> float:
    """The matched weight of the sentences of `text` that bind the assistant (an instruction the
    user gave earlier), 0 when none does: an instruction comes back for a request that touches it."""
    weights = ((sentence, _matched_weight(sentence, terms)) for sentence in sentences(text))
    return sum(weight for sentence, weight in weights if weight > 0 and binding_class(sentence) is not None)


def _matched(text: str, terms: Sequence[Term]) -> list[Term]:
    folded = fold(text)
    return [t for t in terms if t.pattern.search(folded)]


def _matched_weight(text: str, terms: Sequence[Term]) -> float:
    return sum(t.weight for t in _matched(text, terms))


def _weighted(database: Database, conversation_id: str, terms: list[Term], messages: int) -> list[Term]:
    """Terms the conversation holds, weighted ln(N ÷ df) (times their own weight), the rarest first."""
    if not terms:
        return []
    frequencies = phrase_frequencies(database, conversation_id, [t.phrase for t in terms])
    weighted = [Term(t.phrase, t.shown, t.pattern, t.weight * math.log(messages / frequencies[t.phrase]))
                for t in terms if 0 < frequencies[t.phrase] < messages]
    return sorted(weighted, key=lambda t: -t.weight)[:MAX_TERMS]


def _fill(scored: list, request: RecallRequest) -> Recall:
    """Hits by rank while they fit, the best with the other half of its question/answer pair
    when there is room; rendered oldest first."""
    chosen: dict[int, tuple[str, RecallHit]] = {}  # uid → its line as sent, and why
    used = request.count(RECALL_HEADER)
    cap = max(1, request.budget // 2)  # one long message leaves room for another
    for rank, (score, _, message, matched, _) in enumerate(scored):
        hit = RecallHit(message.uid, message.role, message.created_at, tuple(t.shown for t in matched), score)
        # the best hit's pair only: in chat nearly every message is half of one, and each
        # partner is prefilled like a hit
        for part in [message, *(_pair_of(message, request.eligible) if rank == 0 else [])]:
            if part.uid in chosen:
                continue
            line = _line(part, matched, cap, request.count)
            cost = request.count(line)
            if used + cost > request.budget:
                break
            chosen[part.uid] = (line, hit if part is message else RecallHit(part.uid, part.role, part.created_at,
                                                                            (), 0.0))
            used += cost
    if not chosen:
        return NOTHING
    block = "\n".join([RECALL_HEADER, *(line for _, (line, _) in sorted(chosen.items()))])
    return Recall(block, tuple(hit for _, (_, hit) in sorted(chosen.items())), request.count(block))


def _pair_of(message: Message, eligible: Mapping[int, Message]) -> list[Message]:
    """The other half of a question and its answer, whoever asked: a question brings the reply
    after it, a reply to a question brings the question ("What's your cat called?" — "Mogli")."""
    if message.text.rstrip().endswith(("?", "？")):
        after = eligible.get(message.uid + 1)
        return [after] if after is not None and after.role != message.role else []
    before = eligible.get(message.uid - 1)
    if before is not None and before.role != message.role and before.text.rstrip().endswith(("?", "？")):
        return [before]
    return []


def _line(message: Message, matched: Sequence[Term], cap: int, count: Callable[[str], int]) -> str:
    head = f"[#{message.uid} · {spoken_date(day_label(message.created_at))} · {message.role}] "
    return head + neutralize(_excerpt(message.text, matched, cap - count(head), count)).replace("\n", " ")


def _excerpt(text: str, matched: Sequence[Term], cap: int, count: Callable[[str], int]) -> str:
    """`text` whole when it fits `cap` tokens, else its sentences that hold the most matched
    weight, in their order, joined by " … "."""
    if count(text) <= cap:
        return text
    parts = list(sentences(text))
    weight = [_matched_weight(p, matched) for p in parts]
    keep: list[int] = []
    used = 0
    for index in sorted(range(len(parts)), key=lambda i: (-weight[i], i)):
        cost = count(parts[index]) + 1
        if weight[index] <= 0 and keep:
            break
        if used + cost > cap:
            continue
        keep.append(index)
        used += cost
    if not keep:
        return text[:max(1, cap * 2)] + " …"
    return " … ".join(parts[i] for i in sorted(keep))
