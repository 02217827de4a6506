"""How much a sentence tells, for the parts of the engine that choose sentences without a
model: the extractive guide, the user-quote track's fill and the deterministic merge.

A word weighs by its rarity in the range being compressed (log of sentences ÷ sentences
holding it), so "awesome" said forty times weighs little and "Sweden" said once weighs much.
Choosing is greedy by new weight per square root of tokens (per token, short exclamations
win; per sentence, long ones do): once a chosen sentence holds a word, the word counts a
third as much again, so the picks cover different things instead of restating one.

Words in any script: Chinese and Japanese, written without spaces, by character bigrams (a
run of Han or kana is not one word), other scripts by Unicode words; stop lists in
`stopwords`. docs/defaults.md has the measurements behind the weights.
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter as Tally
from collections.abc import Iterator, Sequence

from mfs_desktop.compaction.stopwords import CJK_CHARACTERS, CJK_WORDS, LATIN

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WORD = re.compile(rf"\d[\d.,:/%-]*|[{_CJK}]+|[^\W\d_{_CJK}][^\W_{_CJK}'’-]*(?:['’-][^\W_{_CJK}]+)*")
_CJK_RUN = re.compile(f"[{_CJK}]")
_ELISION = re.compile(r"^(c|d|j|l|m|n|s|t|qu)['’](?=\w)")  # French "c'est", "l'hôtel": the word after it
_SPEAKERS = frozenset(("user", "assistant"))  # the extractive guide labels every sentence with its speaker
QUESTION_WEIGHT = 0.5  # a question mostly asks what the answer after it tells
REPEAT_WEIGHT = 1 / 3


def _cjk_terms(run: str) -> Iterator[str]:
    """A run of Han or kana as its bigrams, split first at particles and pronouns, so "我今天去了
    北京" gives 今天, 天去 and 北京."""
    piece = ""
    for character in [*run, ""]:
        if character and character not in CJK_CHARACTERS:
            piece += character
            continue
        if len(piece) == 1:
            yield piece
        for index in range(len(piece) - 1):
            if piece[index:index + 2] not in CJK_WORDS:
                yield piece[index:index + 2]
        piece = ""


def content_words(text: str) -> frozenset[str]:
    """The words that carry what a sentence says: numbers, and words past the stop lists. A
    number or a capitalised word after the first (a name, a title) enters twice, as itself and
    marked, so it weighs double: names and numbers are what people ask back for."""
    words: set[str] = set()
    for position, raw in enumerate(_WORD.findall(text)):
        if _CJK_RUN.match(raw):
            words.update(_cjk_terms(raw))
            continue
        word = _ELISION.sub("", raw.casefold().rstrip("'’-"))
        if not (word[:1].isdigit() or (len(word) > 2 and word not in LATIN and word not in _SPEAKERS)):
            continue
        words.add(word)
        if word[:1].isdigit() or (position > 0 and raw[:1].isupper()):
            words.add(word + "#")
    return frozenset(words)


def pick_salient(texts: Sequence[str], costs: Sequence[int], budget: int, *, at_least_one: bool = False) -> list[int]:
    """Indexes of `texts` to keep within `budget` tokens (each text costs `costs[i]`), in their
    given order. With `at_least_one`, the most telling text is kept even over the budget, so a
    tiny target still yields a guide."""
    bags = [sorted(content_words(t)) for t in texts]  # sorted: a float sum in set order differs between runs
    seen = Tally(w for bag in bags for w in bag)
    weight = {w: math.log(1 + len(texts) / n) for w, n in seen.items()}

    def gain(i: int) -> float:
        factor = QUESTION_WEIGHT if texts[i].rstrip().endswith("?") else 1.0
        return factor * sum(weight[w] for w in bags[i]) / math.sqrt(max(costs[i], 1))

    # lazy greedy: a text's gain only falls as words get covered, so a stale gain is an upper bound
    heap = [(-gain(i), i) for i in range(len(texts)) if bags[i]]
    heapq.heapify(heap)
    chosen: list[int] = []
    used = 0
    while heap:
        _, i = heapq.heappop(heap)
        fresh = gain(i)
        if heap and fresh < -heap[0][0]:
            heapq.heappush(heap, (-fresh, i))
            continue
        if used + costs[i] > budget and not (at_least_one and not chosen):
            continue
        chosen.append(i)
        used += costs[i]
        for w in bags[i]:
            weight[w] *= REPEAT_WEIGHT
    return sorted(chosen)
