#!/usr/bin/env python3
"""Memory in the user's own language, printed as JSON: generated long conversations in
Chinese, German and English — facts glued to their text (no spaces around them in Chinese),
standing requirements in everyday phrasing, everyday chat between them — replayed through the
real services with the deterministic compactor at each window; per language, the share of
planted facts and of requirements that stand verbatim in the final send view.

Usage: scripts/bench_memory.py [--windows 4096 8192] [--turns 320] [--seed 7] [--languages zh de en]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mfs_desktop.compaction.compactor import ExtractiveCompactor  # noqa: E402
from mfs_desktop.runtime.embedded import EmbeddedModel  # noqa: E402
from mfs_desktop.runtime.estimate import estimate_text_tokens  # noqa: E402
from mfs_desktop.runtime.model_files import default_model_path  # noqa: E402
from mfs_desktop.services.conversation.chat import ChatService  # noqa: E402
from mfs_desktop.services.conversation.replay import replay_locomo  # noqa: E402
from mfs_desktop.services.session import open_session  # noqa: E402
from mfs_desktop.services.unlock import DataDir  # noqa: E402

# (the sentence the user writes, the part of it that must survive verbatim)
FACTS = {
    "zh": [
        ("我的航班号是CA1837，下周二早上出发，到时候提醒我一下就好", "CA1837"),
        ("备份都放在/srv/backup/photos里面了，别的目录没有", "/srv/backup/photos"),
        ("昨天部署的时候报错ECONNRESET，重试了三次才好", "ECONNRESET"),
        ("新家的门禁密码是4827#，记一下吧", "4827#"),
        ("我用pip install -r requirements.txt装的依赖，没出问题", "pip install -r requirements.txt"),
        ("房租每个月3650元，押一付三", "3650元"),
        ("公司的VPN地址是vpn.example-corp.cn，端口8443", "vpn.example-corp.cn"),
        ("孩子的疫苗约在5月17号下午两点", "5月17号"),
        ("那台服务器的IP是10.24.7.113，只能内网访问", "10.24.7.113"),
        ("我的体重现在是68.5公斤，比上个月轻了一点", "68.5公斤"),
        ("配置文件是config/prod.yaml，改之前先问我", "config/prod.yaml"),
        ("上次体检的血压是128/82，医生说还行", "128/82"),
        ("快递单号SF1402938475还没更新", "SF1402938475"),
        ("跑步机的型号是KS-F17，买的时候花了2199", "KS-F17"),
        ("数据库连接一直超时，错误码是08006", "08006"),
        ("我女儿的学号是20231458，开学要用", "20231458"),
        ("会议室订在B座1203，周四上午", "B座1203"),
        ("日志在~/logs/app-2024.log里，太大了打不开", "~/logs/app-2024.log"),
        ("新买的硬盘是4TB的，用git clone把仓库拉下来了", "4TB"),
        ("我妈的生日是农历八月十二，公历今年是9月14日", "9月14日"),
    ],
    "de": [
        ("Meine Flugnummer ist LH2417, Abflug am Dienstag früh", "LH2417"),
        ("Die Backups liegen unter /srv/backup/fotos, sonst nirgends", "/srv/backup/fotos"),
        ("Beim Deployment kam der Fehler ECONNRESET, erst beim dritten Versuch ging es", "ECONNRESET"),
        ("Der Türcode für die neue Wohnung ist 4827#", "4827#"),
        ("Ich habe die Pakete mit pip install -r requirements.txt installiert", "pip install -r requirements.txt"),
        ("Die Miete beträgt 1.240 Euro warm im Monat", "1.240 Euro"),
        ("Das VPN erreicht man unter vpn.beispiel-firma.de, Port 8443", "vpn.beispiel-firma.de"),
        ("Der Impftermin für die Kleine ist am 17.05. um 14 Uhr", "17.05."),
        ("Der Server hat die IP 10.24.7.113 und ist nur intern erreichbar", "10.24.7.113"),
        ("Ich wiege gerade 68,5 kg, etwas weniger als letzten Monat", "68,5 kg"),
        ("Die Konfiguration steht in config/prod.yaml, bitte vorher fragen", "config/prod.yaml"),
        ("Mein Blutdruck beim Check-up war 128/82", "128/82"),
        ("Die Sendungsnummer 00340434161094022115 hat sich noch nicht bewegt", "00340434161094022115"),
        ("Das Laufband heißt KS-F17 und hat 899 Euro gekostet", "KS-F17"),
        ("Die Datenbank meldet immer wieder Timeout mit Code 08006", "08006"),
        ("Die Schülernummer meiner Tochter ist 20231458", "20231458"),
        ("Der Besprechungsraum ist B-1203, am Donnerstagvormittag", "B-1203"),
        ("Das Log liegt in ~/logs/app-2024.log und ist riesig", "~/logs/app-2024.log"),
        ("Die neue Platte hat 4 TB, das Repo habe ich mit git clone geholt", "4 TB"),
        ("Meine Steuer-ID ist 12 345 678 901, falls du sie brauchst", "12 345 678 901"),
    ],
    "en": [
        ("My flight number is BA0287, leaving early Tuesday, just so you know", "BA0287"),
        ("The backups are under /srv/backup/photos and nowhere else", "/srv/backup/photos"),
        ("The deploy failed with ECONNRESET yesterday, it only worked on the third retry", "ECONNRESET"),
        ("The door code at the new flat is 4827#", "4827#"),
        (
            "I installed everything with pip install -r requirements.txt and it went fine",
            "pip install -r requirements.txt",
        ),
        ("Rent is $1,950 a month, due on the first", "$1,950"),
        ("The VPN lives at vpn.example-corp.com on port 8443", "vpn.example-corp.com"),
        ("The kid's vaccine appointment is May 17 at 2pm", "May 17 at 2pm"),
        ("That box is at 10.24.7.113 and only reachable inside", "10.24.7.113"),
        ("I'm at 151 lb now, a bit down from last month", "151 lb"),
        ("The config is config/prod.yaml, ask me before touching it", "config/prod.yaml"),
        ("My blood pressure at the check-up was 128/82", "128/82"),
        ("Tracking number 1Z999AA10123456784 hasn't moved in days", "1Z999AA10123456784"),
        ("The treadmill is a KS-F17, it cost me $899", "KS-F17"),
        ("The database keeps timing out with code 08006", "08006"),
        ("My daughter's student number is 20231458", "20231458"),
        ("The meeting room is B-1203, Thursday morning", "B-1203"),
        ("The log is ~/logs/app-2024.log and it's huge", "~/logs/app-2024.log"),
        ("The new disk is 4 TB, I pulled the repo with git clone", "4 TB"),
        ("Our Wi-Fi password is maple-7731-river", "maple-7731-river"),
    ],
}
REQUIREMENTS = {
    "zh": [
        "以后所有脚本一律用 LF 换行",
        "记住，周五不要给我安排会议",
        "回答尽量简短，别超过三段",
        "别再给我推荐付费软件了",
        "叫我小林就行",
        "时间都用24小时制写",
        "代码注释请用中文",
        "不要在回答里用表格",
        "我不吃香菜，推荐菜谱的时候注意一下",
        "以后单位一律用公制",
        "我们项目用的是 Vue 3，不是 React，别搞混了",
        "每次给命令之前先解释它会做什么",
    ],
    "de": [
        "Schreib mir ab jetzt bitte immer auf Deutsch",
        "Keine Tabellen in deinen Antworten, bitte",
        "Sag einfach Jonas zu mir",
        "Halte die Antworten kurz, höchstens drei Absätze",
        "Bitte immer metrische Einheiten verwenden",
        "Erklär jeden Befehl, bevor du ihn mir gibst",
        "Ich esse kein Fleisch, denk bei Rezepten daran",
        "Wir nutzen PostgreSQL, nicht MySQL",
        "Schlag mir keine kostenpflichtigen Tools vor",
        "Uhrzeiten bitte im 24-Stunden-Format",
        "Duz mich ruhig",
        "Nie ohne Rückfrage Dateien löschen",
    ],
    "en": [
        "Stick to metric units with me",
        "It's Sam to you, not Samuel",
        "No emojis please",
        "Keep your answers under three paragraphs",
        "Always explain a command before you give it to me",
        "I'd rather you didn't use bullet points",
        "Don't recommend paid tools",
        "Write times in 24-hour format",
        "I'm vegetarian, so no meat in any recipe you suggest",
        "We're on Python 3.12, not 3.8, keep that in mind",
        "Call me Sam",
        "Never delete files without asking me first",
    ],
}
CHAT = {
    "zh": (["今天天气不错，我们去公园散步了", "晚上做了红烧肉，孩子们很喜欢", "最近在看一部很长的电视剧",
            "周末想去爬山，不知道会不会下雨", "工作有点忙，但是还好", "昨天和老朋友吃了顿饭，聊了很久",
            "猫今天又把花瓶打翻了", "最近睡得不太好，总是醒", "下午喝了杯咖啡，精神好多了",
            "我在学做面包，第一次有点失败", "今天走了八千多步", "楼下新开了一家面馆，味道一般"],
           ["听起来不错！", "好的，明白了。", "辛苦了，注意休息。", "哈哈，真有意思。", "希望一切顺利。"]),
    "de": (["Heute war das Wetter schön, wir waren im Park", "Abends gab es Gulasch, die Kinder fanden es super",
            "Ich schaue gerade eine sehr lange Serie", "Am Wochenende will ich wandern, hoffentlich regnet es nicht",
            "Die Arbeit ist gerade stressig, aber es geht", "Gestern war ich mit einem alten Freund essen",
            "Die Katze hat schon wieder die Vase umgeworfen", "Ich schlafe in letzter Zeit schlecht",
            "Nachmittags ein Kaffee und schon geht es besser", "Ich lerne Brot backen, das erste war ein Reinfall",
            "Heute bin ich über achttausend Schritte gelaufen", "Unten hat ein neues Nudellokal aufgemacht"],
           ["Klingt gut!", "Alles klar.", "Gönn dir eine Pause.", "Haha, schön.", "Hoffentlich klappt alles."]),
    "en": (["The weather was lovely today, we walked in the park", "Made a stew tonight, the kids loved it",
            "I'm watching a really long series at the moment", "Want to go hiking this weekend if it doesn't rain",
            "Work is busy but fine", "Had dinner with an old friend yesterday, we talked for ages",
            "The cat knocked the vase over again", "Haven't been sleeping well lately",
            "An afternoon coffee made all the difference", "I'm learning to bake bread, the first loaf flopped",
            "Walked over eight thousand steps today", "A new noodle place opened downstairs, it's okay"],
           ["Sounds nice!", "Got it.", "Take a break when you can.", "Ha, lovely.", "Hope it all goes well."]),
}
ACKNOWLEDGE = {"zh": "好的，我记住了。", "de": "Alles klar, merke ich mir.", "en": "Noted, I'll keep that in mind."}


def generate(language: str, turns: int, seed: int) -> tuple[dict, list[str], list[str]]:
    """A LoCoMo-shaped file (user first), the fact strings and the requirement sentences."""
    rng = random.Random(f"{seed}-{language}")
    planted = FACTS[language] + [(text, text) for text in REQUIREMENTS[language]]
    slots = rng.sample(range(turns * 3 // 4), len(planted))  # all told well before the end
    by_turn = dict(zip(slots, planted, strict=False))
    chat, replies = CHAT[language]
    document: dict = {"speaker_a": "user", "speaker_b": "assistant"}
    per_session, session = 20, []
    for turn in range(turns):
        text = by_turn[turn][0] if turn in by_turn else rng.choice(chat)
        if turn not in by_turn and rng.random() < 0.4:  # chat also runs on, clause after clause
            text += ("，" if language == "zh" else ", ") + rng.choice(chat)
        reply = ACKNOWLEDGE[language] if turn in by_turn else rng.choice(replies)
        session += [{"speaker": "user", "dia_id": f"{turn}a", "text": text},
                    {"speaker": "assistant", "dia_id": f"{turn}b", "text": reply}]
        if len(session) == 2 * per_session or turn == turns - 1:
            number = len([k for k in document if k.endswith("_date_time")]) + 1
            document[f"session_{number}_date_time"] = f"10:00 am on {number} May, 2024" if number <= 31 \
                else f"10:00 am on {number - 31} June, 2024"
            document[f"session_{number}"] = session
            session = []
    return document, [key for _, key in FACTS[language]], list(REQUIREMENTS[language])


def run(language: str, window: int, turns: int, seed: int, scratch: Path) -> dict:
    document, facts, requirements = generate(language, turns, seed)
    path = scratch / f"memory-{language}.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    session = open_session(DataDir(scratch / f"{language}-{window}-{time.monotonic_ns()}"), lambda new: "bench",
                           use_keychain=False, scrypt_n=2**12)
    tokenizer = EmbeddedModel(default_model_path(), n_ctx=window, tokenizer_only=True)
    service = ChatService(session, tokenizer, provider="replay", window=window,
                          compactor_factory=lambda: ExtractiveCompactor(estimate_text_tokens))
    try:
        report = replay_locomo(service, path, tokenizer)
        view, _ = service.view(report["conversation_id"])
        text = "\n".join(m.content for m in view.messages)
        kept_facts = [f for f in facts if f in text]
        kept_requirements = [r for r in requirements if r in text]
        return {
            "language": language,
            "window": window,
            "turns": report["turns"],
            "facts": round(len(kept_facts) / len(facts), 3),
            "requirements": round(len(kept_requirements) / len(requirements), 3),
            "facts_missing": [f for f in facts if f not in kept_facts],
            "requirements_missing": [r for r in requirements if r not in kept_requirements],
            "coverage_ok_every_turn": report["coverage_ok_every_turn"],
            "max_payload_ratio": report["max_payload_ratio"],
            "reuse_of_ceiling_without_event": report["reuse_of_ceiling_without_event"],
            "segments": report["segments"],
            "seconds": report["seconds"],
        }
    finally:
        service.close()
        session.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--windows", type=int, nargs="+", default=[4096, 8192])
    parser.add_argument("--turns", type=int, default=320)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--languages", nargs="+", default=["zh", "de", "en"], choices=sorted(FACTS))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        runs = [run(language, window, args.turns, args.seed, Path(scratch))
                for window in args.windows for language in args.languages]
    print(json.dumps({"benchmark": "memory", "compactor": "extractive (deterministic)", "turns": args.turns,
                      "seed": args.seed, "runs": runs}, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
