"""How much a sentence tells, for the parts of the engine that choose sentences without a
model: the extractive guide, the user-quote track's fill and the deterministic merge.

A word weighs by its rarity in the range being compressed (log of sentences ÷ sentences
holding it), so "awesome" said forty times weighs little and "Sweden" said once weighs much.
Choosing is greedy by new weight per square root of tokens (per token, short exclamations
won; per sentence, long ones did; on the LoCoMo sessions each compressed alone, the root kept
the most answers): once a chosen sentence holds a word, the word counts a third as much
again, so the picks cover different things instead of restating one.
Each LoCoMo session compressed alone into one segment (ten conversations, 1,530 questions):
the segments held the answer, as whole words, of 216 at 4,096 and 241 at 8,192, against 202
and 219 when the guide ranked by names, digits and length and the quotes filled newest first
(with "Keep it up!" and "Wow, that looks great!").
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter as Tally
from collections.abc import Sequence

_WORD = re.compile(r"\d[\d.,:/%-]*|[^\W\d_][\w'’-]*")
_STOPWORDS = frozenset("""
a about above after again against all almost also although always am an and another any anything are around as at
back be because been before being below between both but by can could did do does doing done down during each
either else even ever every few for from further get gets getting got had has have having he her here hers herself
him himself his how however i if in into is it its itself just keep kind know last let like lot lots made make
many may maybe me might mine more most much must my myself never next no nor not now of off often oh ok okay on
once one only or other our ours ourselves out over own pretty quite rather really same see she should since so
some something still such sure than that the their theirs them themselves then there these they thing things
think this those though through to too under until up upon us very was way we well were what when where which
while who whom whose why will with within without would yes yet you your yours yourself yourselves
hey hi hello wow awesome amazing great cool nice thanks thank glad yeah yep yup totally super sounds sound good
fun stuff happy love loved lovely wonderful fantastic incredible beautiful right exactly haha lol omg gonna wanna
feel feeling felt guess mean going want wanted say said tell told thing also absolutely definitely especially
user assistant
""".split())  # the last line: the extractive guide labels every sentence with its speaker
QUESTION_WEIGHT = 0.5  # a question mostly asks what the answer after it tells
REPEAT_WEIGHT = 1 / 3


def content_words(text: str) -> frozenset[str]:
    """The words that carry what a sentence says: numbers, and words past the stop list. A
    number or a capitalised word after the first (a name, a title) enters twice, as itself and
    marked, so it weighs double: on LoCoMo most answers are names, titles and numbers."""
    words: set[str] = set()
    for position, raw in enumerate(_WORD.findall(text)):
        word = raw.lower().rstrip("'’-")
        if not (word[:1].isdigit() or (len(word) > 2 and word not in _STOPWORDS)):
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
