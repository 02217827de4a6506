"""Language-aware units: sentences and clauses in Chinese, Japanese and Latin scripts, the
facts cut from them, the words salience counts, and the standing-instruction classifier."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mfs_desktop.compaction.binding import binding_class
from mfs_desktop.compaction.facts import extract_facts
from mfs_desktop.compaction.salience import content_words
from mfs_desktop.compaction.text_units import sentences
from tests.conftest import REPO


def test_sentences_split_on_cjk_stops_without_spaces_and_on_latin_stops_with_them() -> None:
    assert list(sentences("我明天去北京。你呢？好的!明天见")) == ["我明天去北京。", "你呢？", "好的!", "明天见"]
    assert list(sentences("「東京に行く」と言った。次は大阪です")) == ["「東京に行く」と言った。", "次は大阪です"]
    assert list(sentences("It costs 5,000 at 9:40. Version 3.12 works! Really?")) == [
        "It costs 5,000 at 9:40.", "Version 3.12 works!", "Really?"]
    assert list(sentences("1. first item\n- second item\n3.5 GB free")) == ["first item", "second item", "3.5 GB free"]


@pytest.mark.parametrize(
    ("text", "kept", "left"),
    [
        ("我的航班号是CA1837，明天早上出发，记得提醒我带护照", "我的航班号是CA1837", "记得提醒我带护照"),
        (
            "运行pip install -r requirements.txt时报错了，不知道为什么",
            "运行pip install -r requirements.txt时报错了",
            "不知道为什么",
        ),
        ("备份都在/srv/backup里面，别的地方没有", "备份都在/srv/backup里面", "别的地方没有"),
        ("Die Miete beträgt 1.240 Euro, das ist viel, finde ich", "Die Miete beträgt 1.240 Euro", "das ist viel"),
        ("Thanks so much, my flight is BA0287, see you soon", "my flight is BA0287", "see you soon"),
        ("公司的VPN地址是vpn.example-corp.cn，挺好记的", "公司的VPN地址是vpn.example-corp.cn", "挺好记的"),
    ],
)
def test_a_fact_glued_to_its_text_is_kept_with_its_own_clause_and_not_the_rest(text: str, kept: str, left: str) -> None:
    facts = [fact.text for fact in extract_facts([(1, text, "user")])]
    assert facts == [kept], facts
    assert left not in facts[0]


def test_every_clause_of_a_sentence_holding_a_fact_keeps_the_sentence_whole() -> None:
    assert [f.text for f in extract_facts([(1, "On May 8, 2023, I ran 5 km.", "user")])] == [
        "On May 8, 2023, I ran 5 km."
    ]


def test_salience_reads_chinese_by_bigrams_and_every_language_past_its_stop_list() -> None:
    assert {"北京", "今天", "张伟"} <= content_words("我今天去了北京，见到了张伟。")
    assert "我们" not in content_words("我们今天去了北京") and "的" not in content_words("我的书")
    assert content_words("Danke, das ist wirklich super!") == frozenset()
    assert content_words("Merci, c'est vraiment génial !") == frozenset()
    assert "münchen" in content_words("Ich war gestern in München")


@pytest.mark.parametrize("labelled", ["standing_instructions.jsonl", "standing_instructions_heldout.jsonl",
                                      "standing_instructions_heldout2.jsonl", "standing_instructions_heldout3.jsonl"])
def test_the_instruction_benchmark_meets_its_targets_in_every_language(labelled: str) -> None:
    """scripts/bench_instructions.py over each labelled set (the three held-out sets were written
    apart from the classifier): recall ≥ 0.9 and precision ≥ 0.85 per language (English,
    Chinese, German, French, Spanish, Japanese)."""
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "bench_instructions.py"),
                           str(REPO / "tests" / "data" / labelled)], capture_output=True, text=True, check=True)
    languages = json.loads(done.stdout)["languages"]
    assert {"en", "zh", "de", "fr", "es", "ja"} <= set(languages)
    for lang, score in languages.items():
        assert score["sentences"] >= 50 or lang == "all", lang
        assert score["recall"] >= 0.9 and score["precision"] >= 0.85, (lang, score)


@pytest.mark.parametrize(("sentence", "expected"), [
    ("Al servidor de pruebas llámalo 'sandbox' de ahora en adelante.", 0),  # the stress mark of a glued imperative
    ("回复控制在200字以内", 0),  # topic first, then the limit
    ("我吃素，推荐菜谱的时候别放肉", 0),  # an order after its when-clause
    ("I'm vegetarian, so no meat in any recipe you suggest", 0),
    ("La ruta correcta es /var/www/html, no /home/user/www", 1),
    ("备份都放在/srv/backup/photos里面了，别的目录没有", None),  # 别的 is "other", not "don't"
    ("以后的事以后再说吧", None),  # 以后再 is "later", not "from now on"
    ("这次就别解释了，直接给我答案", None),  # one answer's scope
    ("Ab jetzt wird's endlich wärmer draußen", None),  # a lasting scope with nothing to do
    ("The sign at the pool says no running, always walk", None),
    ("Keep it short when I'm at work.", 0),
    ("Du kannst mich ruhig duzen.", 0),  # leave to use "du": naming by permission
    ("Mich duzen alle hier", None),  # how others address the speaker
    # a future occasion or whatever comes binds like "when" and "any": found as the planted run
    # of bench_peers lost two such wishes in its compacted history
    ("Spell out acronyms the first time you use them.", 0),
    ("Écris les sigles en entier la première fois.", 0),
    ("Ask me first before you buy anything.", 0),
    ("Check with me before you plan something on Sundays.", 0),  # a habit of the calendar
    ("週末は予定を入れないでください", 0),
    ("That was the first time anyone called me brave.", None),  # told, not asked
    ("Anything is possible if you believe.", None),
    ("我第一次去北京是在2019年", None),
    ("I went hiking on weekends as a kid.", None),
])
def test_binding_reads_structure_in_everyday_phrasing(sentence: str, expected: int | None) -> None:
    assert binding_class(sentence) == expected
