"""Sentences that bind the assistant for the rest of a conversation — requests, constraints,
preferences, corrections, naming — recognised by their structure in the languages our users
write (English, Chinese, German, French, Spanish, Japanese), without a model.

A standing instruction is a directive (an imperative, a negative imperative, "please", a
modal aimed at "you", "I want you to …") that holds beyond this one answer: it says so
("from now on", "以后", "ab jetzt", "désormais", "de ahora en adelante", "これから"), it rules
always or never, it is about how to answer (language, length, format, units, tone) or how to
treat the user (what to call them, what to leave out), or it asks to be remembered. The same
words in a story, a question, a plan of the speaker's own, or a stock phrase of comfort
("Never give up!", "别担心", "Keine Sorge") bind nothing. tests/data/standing_instructions.jsonl
is the labelled set; scripts/bench_instructions.py prints precision and recall per language.
"""

from __future__ import annotations

import re
import unicodedata


def _latin(*alternatives: str) -> str:
    """Words bounded by letters, so "please" is found in "pls please" but not in "pleased"."""
    return r"(?<![^\W\d_])(?:" + "|".join(alternatives) + r")(?![^\W\d_])"


# Stock phrases of comfort, cheer, thanks and courtesy: directive in form, binding nothing.
_COURTESY = re.compile("(?i)" + _latin(
    r"don'?t (worry|mention it|mind( me)?|overthink( it)?|be (sorry|silly|shy|sad))", r"do not worry", r"never (give up|stop \w+ing|mind)",
    r"no (worries|problem)", r"^\W*keep (it up|going|smiling|up the good work|on \w+ing|\w+ing)", r"take care",
    r"have (fun|a (good|great|nice) \w+)", r"good luck", r"stay (safe|strong|positive|tuned)", r"cheer up",
    r"keine sorgen?", r"mach dir keine sorgen", r"nur mut", r"gib nicht auf", r"gib niemals auf", r"viel (spaß|glück|erfolg)",
    r"pass auf dich auf", r"kein problem", r"mach dir keinen? (stress|gedanken|kopf)", r"bitte ?schön", r"gern geschehen", r"lass den kopf nicht hängen",
    r"ne t'inquiète pas", r"ne vous inquiétez pas", r"t'inquiète", r"pas de souci", r"de rien", r"bon courage",
    r"n'abandonne jamais", r"amuse-toi bien", r"prends soin de toi", r"bonne chance", r"ne lâche rien",
    r"no te preocupes", r"no se preocupe", r"no hay problema", r"de nada", r"ánimo", r"nunca te rindas",
    r"cuídate", r"que te diviertas", r"buena suerte", r"no pasa nada", r"let me know",
    r"\w+ (yourself|dich selbst|toi-même|ti mism[oa])", r"lass dich nicht \w+", r"nunca dejes de \w+",
    r"don'?t let (anyone|anybody|them|it) \w+", r"mach dir nichts draus", r"ne te décourage pas", r"no te desanimes",
    r"thanks?( you)?", r"danke", r"merci(?! de)", r"gracias",
    r"ne (t'arrête|cesse) jamais de \w+", r"hör nie auf, ?zu \w+", r"never say never", r"sag niemals nie", r"nunca digas nunca",
    r"jamais deux sans trois", r"as (they|people) say", r"wie man (so )?sagt", r"comme on dit", r"como (dicen|se dice)",
) + "|(别|不要)(太)?(灰心|难过|伤心|泄气|气馁|在意|自责)|谢谢|感谢|多谢|ありがとう|俗话说|常言道|别担心|不要担心|别想太多|别多想|你别说|别提了|别客气|不客气|别着急|别怕|加油|不用谢|没关系|保重|慢慢来|别放弃|不要放弃|"
    "心配しないで|落ち込まないで|気にしないで|頑張って|がんばって|大丈夫|どういたしまして|諦めないで|あきらめないで|お大事に|無理しないで")

# A scope that says the directive holds from here on, whatever follows it.
_LASTING = re.compile("(?i)" + _latin(
    r"from now on", r"going forward", r"from here on( out)?", r"for the rest of (the|this|our) \w+", r"in (the )?future",
    r"for (all )?future \w+", r"in this (chat|conversation|thread)", r"ab (jetzt|sofort|heute)", r"von (nun|jetzt) an", r"künftig", r"in zukunft",
    r"im weiteren verlauf", r"für alle weiteren \w+", r"désormais", r"dorénavant", r"à partir de maintenant",
    r"à l'avenir", r"pour la suite", r"pour le reste de", r"de ahora en adelante", r"a partir de ahora",
    r"desde ahora", r"de aquí en adelante", r"en adelante", r"durante el resto", r"en lo sucesivo",
) + "|以后(?!再|的)|今后|接下来(?!我)|这段时间|(这个|本次|这次)(对话|会话|聊天)(里|中)|从下次(开始|起)|下次(开始|起)|往后|从现在(起|开始)|从今天(起|开始)|后面都|之后都|接下来都|"
    "これから|今後|以後|以降|今から|このあと|この後|次から|今度から")
# A scope that makes a directive a rule: always, never, every time, whenever.
_RULE = re.compile("(?i)" + _latin(
    r"always", r"never", r"every( \w+)?", r"each( \w+)?", r"whenever", r"any ?time", r"all (your|of your|the) \w+",
    r"any \w+", r"ever", r"constantly", r"all the time", r"ständig", r"dauernd", r"tout le temps",
    r"todo el tiempo", r"systematically", r"systematisch", r"systématiquement", r"sistemáticamente",
    r"when(ever)?", r"if", r"if (you|i)", r"immer", r"nie", r"niemals", r"jede[rsmn]?( \w+)?",
    r"grundsätzlich", r"wenn (du|ich)", r"toujours", r"jamais", r"chaque( \w+)?", r"quand (tu|je)", r"si (tu|je)",
    r"siempre", r"nunca", r"jamás", r"cada( \w+)?", r"cuando", r"si (me|te)", r"cualquier(a)?", r"n'importe (quel|quelle|quoi)",
    r"irgendein\w*", r"(bei|in|für|zu) allen?", r"alle (\w+ )?(antworten|vorschläge|beispiele|rezepte)", r"tou(te)?s les",
    r"à chaque", r"tod[oa]s l[oa]s", r"en tod[oa]s",
    # whatever comes: "anything/anyone", and a future occasion, like "when" ("the first time you …")
    r"any(thing|one|body|where)", r"the first time", r"beim ersten mal", r"das erste mal", r"la première fois",
    r"la primera vez", r"quoi que ce soit", r"nadie",
    # a habit of the calendar: plural days, weekends, every working day
    r"on (week ?ends|weekdays|workdays|(mon|tues|wednes|thurs|fri|satur|sun)days)", r"at (the )?weekends?",
    r"am wochenende", r"an wochenenden", r"wochenends", r"werktags", r"(mon|diens|donners|frei|sonn)tags", r"samstags",
    r"le week-end", r"les week-ends", r"los fines de semana", r"los (lunes|martes|miércoles|jueves|viernes|sábados|domingos)",
) + "|一律|每次|每回|总是|始终|永远|所有|任何|都要|都用|都加|的时候|如果|第一次|周末|工作日|"
    "老是|いちいち|その都度|たびに|度に|毎度|たら[、，,]|いつも|常に|必ず|毎回|ずっと|絶対|ときは|時は|場合は|初めて|週末|平日")
# About how to answer or how to treat the user: a rule of the exchange, not a task.
_MANNER = re.compile("(?i)" + _latin(
    r"answers?", r"repl(y|ies)", r"responses?", r"words", r"sentences?", r"paragraphs?", r"bullet( points)?",
    r"lists?", r"tables?", r"markdown", r"headings?", r"emojis?", r"format(ting)?", r"tone", r"units?", r"metric",
    r"imperial", r"celsius", r"fahrenheit", r"language", r"english", r"chinese", r"german", r"french", r"spanish",
    r"japanese", r"formal(ly)?", r"informal(ly)?", r"casual(ly)?", r"short(er)?", r"brief(er)?", r"concise", r"code",
    r"scripts?", r"examples?", r"sources?", r"jargon", r"pronouns?", r"pronomen", r"pronoms?", r"pronombres?", r"with me", r"to me", r"for me", r"my name",
    r"feedback", r"blunt(ly)?", r"honest(ly)?", r"kritik", r"direkt", r"ehrlich", r"critiques?", r"franc(he)?(ment)?",
    r"críticas?", r"directo", r"sincer[oa]", r"antwort(en)?", r"sätze?", r"wörter", r"stichpunkte", r"tabellen?", r"einheiten", r"metrisch\w*", r"sprache",
    r"deutsch", r"englisch", r"kurz", r"knapp", r"förmlich", r"duzen", r"siezen", r"mit mir", r"zu mir", r"bei mir",
    r"skripte?n?", r"réponses?", r"phrases?", r"mots", r"listes?", r"unités", r"métrique", r"langue", r"français",
    r"anglais", r"courte?s?", r"avec moi", r"respuestas?", r"frases", r"palabras", r"unidades", r"métrico", r"idioma",
    r"español", r"inglés", r"cort[oa]s?", r"conmigo", r"de usted", r"de tú",
) + "|回答|回复|答案|语言|中文|英文|英语|格式|单位|公制|简短|简洁|字以内|列表|表格|代码|脚本|换行|注释|称呼|代词|跟我|对我|"
    "返事|答え|日本語|英語|敬語|タメ口|単位|箇条書き|短く|簡潔|表記|スクリプト|コード|レシピ")
_PLEASE = re.compile("(?i)" + _latin(r"please", r"pls", r"plz", r"kindly", r"bitte", r"s'il te pla[iî]t",
                                      r"s'il vous pla[iî]t", r"stp", r"svp", r"por favor", r"porfa", r"merci de")
                     + "|你.{0,30}(吧|好吗|好不好|行吗)\\W*$|请|麻烦(你|您)|^麻烦|麻烦(都|帮|给|把|再|多|用|写|加|附|在)|拜托|ください|下さい|お願い")
# A directive aimed at "you", anywhere in the sentence.
_MODAL_YOU = re.compile("(?i)" + _latin(
    r"you (must|should|need to|have to|are to|ought to|better)(?=\W+\w)", r"i (want|need|'d like|would like) you to",
    r"i'?d (rather|prefer) (you|that you|if you)", r"(?<!i'll )(?<!i will )(make|be) sure (you|to|that)",
    r"(?<!\bto )(?<!\bi )(?<!\bwe )remember (to|that)", r"don'?t forget", r"keep (that |this )?in mind", r"bear in mind",
    r"(du|sie) (sollst|solltest|musst|müssen|sollen|sollten|darfst|dürfen)", r"ich (möchte|will|hätte gern|hätte lieber),? dass (du|sie)",
    r"denk(en sie)?( \w+){0,4} daran", r"vergiss (das )?nicht", r"vergessen sie nicht", r"merk (dir|es dir)", r"merken sie sich",
    r"tu (ne )?(dois|devrais)", r"vous (ne )?(devez|devriez)", r"je (veux|voudrais|préférerais|préfère|souhaite|aimerais) (mieux )?que (tu|vous)",
    r"j'aimerais (mieux )?que (tu|vous)", r"n'oublie pas", r"n'oubliez pas", r"souviens-toi", r"rappelle-toi", r"retiens",
    r"garde (ça|cela|le) en tête", r"(debes|deberías|tienes que)", r"quiero que", r"me gustaría que", r"prefiero que",
    r"no olvides", r"ten(lo)? en cuenta", r"tenlo presente", r"acuérdate",
) + "|记住(?!了)|记得(?!了|去年|以前|小时候|当时|那时|上次)|别忘了|不要忘记|千万|务必|一定要|必须|你(以后|今后|每次)?.{0,3}(要|不要|别|得|应该|必须|需要|不许|不能)|"
    "我希望你|我想让你|我要你|我需要你|注意一下|你就(帮我|给我|要|用|把)|"
    "てほしい|て欲しい|てもらいたい|ように(して|お願い)|覚えて(?!おか)|忘れないで|なさい")
# A clause that opens with an order: a verb first (the imperative of every Latin language
# here), a negative imperative, or a naming.
_VERB_FIRST = "|".join((
    r"use", r"write", r"answer", r"reply", r"respond", r"keep", r"stick", r"give", r"show", r"explain", r"include",
    r"add", r"mention", r"put", r"start", r"begin", r"end", r"sign", r"speak", r"talk", r"switch", r"translate",
    r"skip", r"limit", r"cite", r"work with", r"go", r"stay", r"assume", r"treat", r"remind", r"ask", r"check", r"format", r"spell", r"list",
    r"call", r"address", r"refer", r"be", r"make", r"tell", r"send", r"leave", r"double-check", r"remember", r"note",
    r"prefix", r"open", r"close", r"say", r"mark", r"wrap", r"split", r"drop", r"default to", r"correct", r"point out",
    r"flag", r"verify", r"review", r"summarize", r"suggest", r"warn", r"convert", r"quote", r"label", r"number",
    r"verwende", r"benutze?", r"nutze?", r"schreib(e)?", r"antworte", r"beantworte", r"halte?", r"gib", r"lass",
    r"sprich", r"sag", r"nenn(e)?", r"achte", r"erinnere", r"frag(e)?", r"sei", r"zeig(e)?", r"erklär(e)?", r"rechne",
    r"bleib(e)?", r"schlag(e)?", r"empfiehl", r"fang(e)?", r"beginne?", r"fass(e)?", r"mach(e)?", r"nimm", r"setz(e)?", r"füg(e)?", r"übersetze?",
    r"formuliere", r"denk(e)?", r"merk(e)?", r"red(e)?", r"duz(e)?", r"schreiben sie", r"antworten sie", r"verwenden sie",
    r"prüfe?", r"korrigiere", r"begrenze", r"geh", r"weise", r"markiere", r"warne", r"liste", r"nummeriere",
    r"utilise", r"écris", r"limite", r"va", r"passe", r"réponds", r"garde", r"parle", r"donne", r"mets", r"dis", r"sois", r"tutoie", r"vouvoie",
    r"explique", r"reste", r"fais", r"rappelle", r"appelle", r"demande", r"commence", r"ajoute", r"inclus", r"évite",
    r"arrête", r"montre", r"continue", r"traite", r"préviens", r"note", r"termine", r"répondez", r"utilisez",
    r"écrivez", r"parlez", r"vérifie", r"corrige", r"signale", r"indique", r"précise", r"propose",
    r"résume", r"traduis", r"relis", r"usa", r"utiliza", r"limita", r"ve", r"verifica", r"revisa", r"indica", r"señala",
    r"cita", r"resume", r"traduce", r"propón", r"avísame", r"escribe", r"responde", r"contesta", r"habla", r"mantén", r"da",
    r"di", r"pon", r"deja", r"sé", r"trata", r"tutea", r"explica", r"recuerda", r"pregunta", r"sigue", r"escriba",
    r"responda", r"empieza", r"comienza", r"incluye", r"añade", r"evita", r"avisa", r"muestra", r"quédate", r"llama",
    r"termina", r"usen?",
))
_ENCLITIC = r"(-?(me|moi|le|la|les|lo|los|nos|te|toi|melo|mela|selo))?"


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


_GLUED = "(me|nos|lo|la|le|les|selo|melo|mela|te|noslo)"
_GLUED_VERB = "(" + _fold(_VERB_FIRST) + ")" + _GLUED
_GLUED_ORDER = re.compile("(?i)^\\W*((por favor|porfa)\\W+)?" + _GLUED_VERB + "(?![^\\W\\d_])")
# anywhere in the sentence, the written stress that the glued pronoun moves is the mark: "Al servidor llámalo …"
_STRESSED_GLUED = re.compile("(?i)(?<![^\\W\\d_])[^\\W\\d_]*[áéíóú][^\\W\\d_]*" + _GLUED + "(?![^\\W\\d_])")
_GLUED_WORD = re.compile("(?i)" + _GLUED_VERB)


def _glued_imperative(text: str) -> bool:
    return any(_GLUED_WORD.fullmatch(_fold(m.group(0))) for m in _STRESSED_GLUED.finditer(text))
# "Never saw this coming", "Always good to hear", "Don't feel like …": a remark, not an order
_REMARK = (r"(?!\W+(up|good|great|nice|fun|happy|glad|here|there|so|too|been|was|were|had|saw|knew|thought|felt|"
           r"went|heard|tried|feel like|know|worry|seen|sure|easy|a|an|idea|clue|wonder|way|doubt|problem|worries|matter|kidding|"
           r"thanks|really|big deal|pressure|rush|offense|ahnung|sorge|idee|zeit|lust|ursache|stress|"
           r"idée|souci|problème|problema|pasa|hay|again|wieder|blague|zweifel|duda|cesse)(?![^\W\d_]))")
_ORDER = re.compile(
    "(?i)^\\W*((please|bitte|por favor|s'il te plaît)\\W+)?(just |simply |einfach |juste |solo )?("
    + "(" + _VERB_FIRST + ")" + _ENCLITIC + r"(?![^\W\d_])"
    + r"|(don'?t|do not|never|always|no more|stop|avoid|quit|nicht|nie|niemals|kein(e|en)?|hör auf|vermeide|ne|"
      r"arrête|évite|jamais|pas de|nada de|deja de|evita)(?![^\W\d_])" + _REMARK
    + r"|n'|pas d'|(sin|sans|ohne|without)" + _REMARK + r"\s+[^\W\d_]{3,}|(nunca|jamás)(?!\s+[^\W\d_]+o(?![^\W\d_]))|no (\w+, )?ever|no \w+( \w+)?,? (please|pls|ever)"
    + r"|(no|aucune?|ningún|ninguna)" + _REMARK + r"\s+[^\W\d_]{3,}"
    + r"|((no|not) more than|at most|höchstens|maximal|nicht mehr als|pas plus de|au maximum|au plus|no más de|como máximo"
      r"|a lo sumo)(?![^\W\d_])|pas plus d'"
    + r"|no (me |te |le |nos |lo |la |les )?[^\W\d_]+(es|as|os)(?![^\W\d_])"
    + r")|^\W*(以后|今后|往后|从现在起|从今天起|之后|后面)?[，,]?\s*(别(?![的人处])|不要|不许|不准|不用|禁止|甭|勿|少(?![年女数])|多(?![少久大么])|先(?![生前])|用(?![户处途法])|给我|把|请(?![问假客]))"
    + r"|不许|不准|禁止"
    + r"|^[^，,。]{1,20}(的时候|时候|时|之前|之后)[，,]?\s*(你)?(就)?(别|不要|请|要|都|先|用|记得|帮我|给我)"
    + r"|^\W*(你(就|都|也))?(帮我|给我)"
    + r"|(て|で)(ね|よ|ください|下さい|くれ|ほしい|ちょうだい)?\W*$|ないで|と呼んで|にして|こと\W*$")
# What to call the user: it holds until they say otherwise.
_NAMING = re.compile(
    "(?i)^\\W*((please|bitte|por favor|s'il te pla[iî]t|s'il vous pla[iî]t)\\W+)?("
    + "|".join((
        r"(you can |you may )?(just |simply )?call me", r"(du kannst |sie können )?mich \w+( \w+)? nennen",
        r"nenn(e|en sie)? mich", r"(tu peux |vous pouvez )?m'appeler", r"appel(le|ez)[- ]moi",
        r"(puedes |puede )?llamarme", r"llám[ae]me", r"(你(可以|就)?)?(叫|称呼|喊)我", r"duz(e)? mich", r"siez(e)? mich",
        r"tutoie-moi", r"vouvoie-moi", r"tutéame",
        r"(du kannst|sie können|ihr könnt) mich (ruhig |gern(e)? |einfach )?(duzen|siezen)", r"(tu peux|vous pouvez) me (tutoyer|vouvoyer)",
        r"(puedes|puede) (tutearme|hablarme de (tú|usted))", r"háblame de (tú|usted)"))
    + ")|" + "|".join((
        r"i'?ll call you", r"i'?m going to call you", r"ich nenne dich", r"je vais t'appeler", r"te voy a llamar",
        r"te llamaré", r"(って|と)呼んで", r"(タメ口|敬語)で(話して|いい)", r"叫你", r"君のことを.{0,8}呼ぶ",
        r"let'?s call", r"we'?ll call (it|this|that|them|the)", r"(wir )?nennen (wir )?(es|das|ihn|sie|die|den)",
        r"on va (l'|les |le |la )?appeler", r"appelons", r"vamos a llamar(lo|la|le|les)?", r"llamemos",
        r"把.{1,20}(统一)?(称为|称作|叫做|叫作|叫成)", r"就叫(它|这个|那个)", r"と呼ぶことに", r"と呼ぼう", r"と呼びましょう",
        r"(ab jetzt|ab sofort|von nun an|künftig) heißt du", r"dein name ist (ab )?jetzt", r"your name is now",
        r"(désormais|dorénavant),? tu t'appelles", r"(a partir de )?ahora te llamas", r"以后你(就)?叫",
        r"let'?s (just )?(call|name|refer to)", r"refer to .{1,40} as", r"address me as", r"dirígete a mí como",
        r"nennen wir", r"dich .{1,20} nennen", r"bist du ab (jetzt|sofort)", r"on (l'|les? |la )?appellera", r"m'appeler",
        r"(lo|la|los|las) llamamos", r"(以后|今后|就)?(简称|统称)", r"lass(t)? uns .{1,40}nennen", r"呼び方は", r"呼び名は",
        r"llamémos(lo|la|los|las)", r"(と|って)呼ぶ(ね|よ|から|こと)", r"(以后|今后|从现在起|从今天起)[，,]?(你)?(就)?(叫|称呼|喊)我",
        r"你的名字(就)?(叫|是)", r"你就叫",
        r"my (first )?name'?s", r"my (first )?name is", r"mon (pré)?nom,? c'est", r"mon (pré)?nom est", r"je m'appelle",
        r"mein (vor)?name ist", r"ich heiße", r"me llamo", r"mi nombre es", r"我叫(?![他她你了人])", r"我的名字(是|叫)",
        r"私の名前は", r"と申します")))
_DEICTIC = re.compile("(?i)" + _latin(
    r"this", r"that", r"these", r"those", r"here", r"dies(e|es|en|er)?", r"den text", r"cette?", r"ceci", r"esto",
    r"est[ea]", r"es[eao]", r"below", r"above", r"following", r"attached", r"ce", r"ci-dessous", r"ci-dessus",
    r"folgenden?", r"unten", r"oben", r"siguiente", r"abajo",
) + "|这一?(个|段|篇|句|些|份|张)|这里|下面|上面|以下|これ|この(?!あと|後)|それ|その(?!都度)")
_QUESTION = re.compile("(?i)[?？]\\W*$|^\\W*(" + "|".join((
    r"(can|could|would|will|should|do|does|did|is|are|was|have|has|shall|may)\s+(you|i|we|it|they|he|she|this|that|there)",
    r"(what|why|how|when|where|who)",
    r"(kannst|könntest|sollte|soll|muss|ist|sind|hast|wie|warum|wann|wo)", r"(est-ce|peux-tu|pourrais-tu|dois-je)",
    r"(puedes|podrías|debo|qué|cómo|cuándo|dónde|por qué)",
)) + r")(?![^\W\d_])|[吗呢]\W*$|是不是|有没有|要不要|能不能|可不可以|行不行|会不会|ですか\W*$|ますか\W*$|かな\W*$")
_ASKS_HABIT = re.compile(r"(?i)^\W*((do|does|did|are|have|has) you|(?!kannst|könntest)[^\W\d_]+st du)(?![^\W\d_])")
_POLITE_ASK = re.compile("(?i)" + _latin(r"(can|could|would) you(?! never)(?! not)", r"will you please", r"(kannst|könntest) du", r"könnten sie",
                                          r"tu (peux|pourrais)", r"vous (pouvez|pourriez)",
                                          r"(peux|pourrais)-tu", r"pourriez-vous", r"(puedes|podrías)")
                         + "|你(能|可以)|能不能|可不可以|好吗|好不好|行吗|可以吗|てくれ(ます|ません)か|てもらえ(ます|ません)か")
# Someone else's words, habits or story: "My mom always told me to …", "同事们都叫我…".
_REPORTED = re.compile("(?i)^\\W*(my|his|her|their|our|mein(e)?|mon|ma|mes|mi|mis|he|she|they|er|sie|il|elle|ils|él|ella|"
                       "ellos)\\s+(\\w+\\s+){0,3}(says?|said|told|tells|used to|always|never|sagt|sagte|gesagt|meinte|dit|disait|"
                       "a dit|dice|dijo|decía)(?![^\\W\\d_])|^\\W*[^你我\\s]{1,4}说(过)?"
                       "|^\\W*(我们?(妈|爸|妈妈|爸爸|朋友|同事|老师|老板)|他|她|他们|同事们|大家|朋友们).{0,12}(叫|说|让|总是|一直)"
                       "|(总|常|老|一直)说|^\\W*[^你我请别不要多少用每以，,。\\s][^，,。\\s]{0,9}?说(过|了)?[：:，,]"
                       "|贴着|写着|挂着|标着|貼り紙|張り紙|看板|(?<![^\\W\\d_])(a sign|ein schild|un panneau|une affiche|un cartel|un letrero|"
                       "note to self|memo an mich|pense-bête|nota para mí|verkündet|angekündigt|announced|a annoncé|anunció|ha dicho)(?![^\\W\\d_])"
                       "|提醒自己|自分用メモ"
                       "|と(言|い)(っ|わ|う)|って(言|い)(っ|わ|う)|と言われ|^\\W*(母|父|友達|先生)(は|が)|^\\W*うちの[^、。]{0,12}では"
                       # a place's rules: "Im Büro gilt …", "Au boulot, le règlement dit …"
                       "|^\\W*(我们|我)(公司|家|单位|学校)(里)?(规定|不让|不许|禁止)|^\\W*(at (my|our) (work|company|office|school|place|house)|at (work|school)|bei uns|"
                       "im büro|in der schule|bei der arbeit|auf der arbeit|au (boulot|bureau|travail)|à l'école|"
                       "en el (trabajo|colegio)|chez nous|en (mi|nuestra) (casa|empresa|oficina))(?![^\\W\\d_])"
                       # words someone else said: "the sign says no running", "Unser Chef hat gesagt"
                       "|(?<![^\\W\\d_])(?<!\\bi )(?<!\\byou )(?<!\\bas )(says|said|keeps? (telling|saying)|told (me|us)|tells (me|us)|"
                       "hat gesagt|haben gesagt|sagt|meinte|(?<!ai )dit|disait|dice|dijo|decía|el reglamento|le règlement)"
                       "(?![^\\W\\d_])|规定|规矩|ルール|規則|校則")
# The speaker's own plan or wish for themselves: "I should start running again".
_PLAN = re.compile("(?i)" + _latin(r"i ((only|really|just|also|probably|definitely|still) )?(should|will|'ll|am going to|want to|plan to|hope to|need to)",
                                    r"i'm ((only|really|just|also|probably|definitely) )?(going|planning) to",
                                    r"we (should|will|'ll)", r"ich (sollte|werde|will|muss)", r"je (vais|devrais|veux)",
                                    r"(voy a|quiero|debería|tengo que)")
                   + "|我(以后|将来|今后)?(想|要|打算|准备|会|得|应该|先去)|つもり|予定|(?<!ありが)(?<!めで)たい|ないとな|ことにして(る|いる)|ことに(した|しました|する|します)|ようにし(ます|よう)|なきゃ|なくちゃ|ないと\\W*$|我.{0,4}一定|と思(う|い|っ)|"
                   "(て|で)い?る\\W*$|られて|ばれて")
# the speaker as the one who acts, anywhere: "Ab sofort schreibe ich …"
_SPEAKER = _latin(r"i", r"we", r"ich", r"wir", r"je", r"j'\w+", r"nous", r"yo", r"nosotros")  # "i" also opens "i'm", "i'll"
_SELF = re.compile("(?i)" + _SPEAKER)
_FIRST_PERSON = re.compile("(?i)^\\W*(" + _SPEAKER + "|我|我们|私|僕|俺)")
# Naming and corrections: what to call someone or something, instead of what.
_CORRECTION = re.compile(
    "(?i)(,\\s*(not|nicht|pas|no)|[^\\W\\d_](?<!\\bis)(?<!'s)(?<!\\bare)(?<!\\bam)(?<!'m)(?<!'re)(?<!\\bdo)(?<!\\bdoes)(?<!\\bdid)(?<!\\bwas)"
    "(?<!\\bcould)(?<!\\bwould)(?<!\\bcan)(?<!\\bwill)\\s+not)\\s+"
    "(?!only\\b|nur\\b|seulement\\b|solo\\b|sure\\b|sicher\\b|always\\b|immer\\b)[\"'„“”«»「『]?\\s*([^\\W_]|[/~.])"
    "|" + _latin(r"not (?!only)(\w+ ){1,4}but", r"nicht \w+( \w+)?,? sondern", r"pas \w+( \w+)?,? mais",
                 r"no \w+( \w+)?,? sino", r"you keep (saying|calling|writing)", r"it'?s \w+( \w+)? to you", r"i go by",
                 r"^\W*((small|quick|one|a|petite|kleine|pequeña|une) )?(correction|korrektur|berichtigung|corrección)",
                 r"(i'?m|i am) (not|no longer) an? \w+", r"by mistake", r"mistakenly", r"i meant", r"versehentlich",
                 r"ich meinte", r"je voulais dire", r"par erreur", r"quise decir", r"por error", r"ich bin (kein(e)?|nicht mehr)", r"je ne suis (pas|plus) (un|une)",
                 r"(ya )?no soy (un|una)")
    + r"|不是.{1,16}[，,\s]*(而)?是|是.{1,20}[，,\s]*不(是|在|叫|用)|叫.{1,8}[，,\s]*不(是|叫)|[^不\s]在.{1,6}不在"
    + r"|(一直|总是|老是)把.{1,12}(写成|叫成|说成|当成|记成)|^\W*(更正|纠正)一下|你(记|搞)错了"
    + r"|^\W*(不对|错了|不是的)[，,]|[，,]\s*不是[^，,。？?]{1,12}([，,。！!]|$)|(说|写|打)错了|間違え|^\W*我(已经)?不是"
    + r"|じゃなくて|じゃない|ではなく|でなく|ではありません|じゃありません|^\W*訂正")
_PREFERENCE = re.compile("(?i)" + _latin(
    r"i'?d rather", r"i would rather", r"i (much )?prefer", r"i'?d prefer", r"i would prefer", r"i like .{1,40} (better|more)",
    r"i'?d like", r"i would like", r"(?<!if )(?<!when )i (want|need) (?!to\b|(my|our|his|her|their|it|them|him|us|her) )\w+",
    r"stick (to|with)", r"is a must for me", r"(i|we) only", r"only (answer|reply|use|write|respond|speak|give)",
    r"(?<!\bi )(?<!\bwe )should(?!\s*(\W*$|(help|be|have)\b))", r"instead", r"rather than",
    r"ich (bevorzuge|mag es lieber|möchte lieber|hätte (lieber|gerne?))", r"lieber", r"je préfère", r"je préférerais",
    r"je voudrais", r"me gustaría", r"quisiera",
    r"j'aime mieux", r"j'aimerais mieux", r"plutôt", r"prefiero", r"preferiría", r"me gusta más", r"me resulta más",
    r"mejor", r"me gustan? más", r"(works?|is|are) better for me", r"better for me than", r"easier for me",
    r"(finde|fände) ich \w+er", r"ist mir lieber", r"me conviene más", r"me va mejor", r"me convient mieux",
) + "|我(更|比较|还是)?(喜欢|偏好|倾向|希望)|我(更|比较)习惯|できれば|(更|比较)适合我|对我来说更|できるだけ|なるべく|宁愿|宁可|最好|尽量|就好|就行|为好|比较好|好みです|"
    "と助かります|とありがたい|にしてほしい|が好き|とうれしい|と嬉しい|(方|ほう)が(いい|好み|ありがたい|助か)")


_NEGATIVE = re.compile(r"(?i)^\W*(don'?t|do not|never|avoid|stop|quit|hör auf|arrête|deja de|evita|évite|vermeide|aucune?|"
                       r"nada de|pas de|pas d'|kein(e|en)? |别(?![的人处])|不要|不许|不准|禁止|no |nie|ne |n'|"
                       r"nunca|jamás|jamais)|不许|不准|禁止|ないで")


_NEGATION = re.compile("(?i)" + _latin(r"kein\w*", r"nie", r"niemals", r"never", r"jamais", r"nunca", r"no more", r"nichts", r"rien",
                                         r"nothing", r"nada"))
# a rule over every later case, where Chinese needs no verb form for an order
_CJK_RULE = re.compile(r"一律|都(别|不要|不能|只)|(每次|每当|每回)[^，,。]{1,20}(的时候|时)|(每次|每回).{0,20}(先|都|要|请|别|不要)|所有.{0,12}都|任何.{0,8}都|都(要|用|加|写|按)|毎回.{0,20}(て|で)")
_CJK_TOPIC_ORDER = re.compile(r"^\W*[^\W\d_我你他她们]{1,8}?(不要|不许|不准|不能|别(?![的人处说])|控制在|限制在|保持在|不超过|只能|不允许)")
# a scope of one answer: "这次就别解释了", "just this once"
_ONCE = re.compile("(?i)" + _latin(r"this time", r"just this once", r"for now", r"for this (one|answer|question)", r"diesmal",
                                    r"dieses mal", r"cette fois", r"pour cette (fois|réponse)", r"esta vez", r"por esta vez")
                   + "|这次|这一次|这回|今回|(この|その).{0,8}だけ")
_CJK_SUBJECT = re.compile(r"(^|[，,。\s])([^，,。我你给跟对帮叫让和向替为]{0,8}?)[，,]?(?<![给跟对帮叫让和向替为])(我|他|她|我们|他们|大家|孩子|老师|私|僕|俺|彼|彼女)(?!的)")
# "每次我问你…的时候" sets the case; who acts is the subject after it
_CJK_WHEN = re.compile(r"(每次|每当|每回|当|如果|要是)[^，,。]{0,20}?(的时候|时|之前|之后|的话)[，,]?")


def _cjk_subject(text: str) -> bool:
    return bool(_CJK_SUBJECT.search(_CJK_WHEN.sub("，", text)))


def _cjk_order(clause: str) -> bool:
    """Chinese and Japanese need no verb form for an order ("每次给命令之前先解释", "回复不要超过200字");
    a clause of its own, since the message around it often says who the user is ("我在手机上看")."""
    ruled = _CJK_RULE.search(clause) or _CJK_TOPIC_ORDER.search(clause) and (_RULE.search(clause) or _MANNER.search(clause)
                                                                            or _LASTING.search(clause)) \
        or _LASTING.search(clause) and _MANNER.search(clause)
    return bool(ruled) and not _cjk_subject(clause) and not _PLAN.search(clause)


def _normal(sentence: str) -> str:
    text = unicodedata.normalize("NFKC", sentence).replace("’", "'").strip()
    return _OPENERS.sub("", text)


_OPENERS = re.compile(r"(?i)^\W*((哈哈+|and|so|but|also|oh|ok|okay|hey|btw|und|et|alors|y|pues|oye|nein|non|deshalb|daher|"
                      r"donc|así que|entonces|por eso|还有|另外|对了|那|嗯|所以|因此|あと|それと|ところで|だから|なので)(?![^\W\d_])\W*)+")
_CLAUSE = re.compile(r"[,;:，；：、。！？]\s*|\s[-–—]\s|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")


def asks(sentence: str) -> bool:
    """Whether a sentence is a question (a mark, or an asking word or particle)."""
    return bool(_QUESTION.search(_normal(sentence)))


def binding_class(sentence: str) -> int | None:
    """0 for a standing requirement (a directive that holds beyond this answer), 1 for a
    preference, wish or correction, None for neither."""
    text = _normal(sentence)
    if len(text) < 2 or _COURTESY.search(text) and not _MANNER.search(text):
        return None
    lasting, rule, manner = _LASTING.search(text), _RULE.search(text), _MANNER.search(text)
    if _NAMING.search(text):
        return 0
    if _ONCE.search(text) and not lasting:
        return None
    if _QUESTION.search(text):  # binds only as a polite request of a rule: "Could you always …?"
        return 0 if _POLITE_ASK.search(text) and not _ASKS_HABIT.search(text) and (lasting or rule or manner) \
            and not _DEICTIC.search(text) else None
    if _REPORTED.search(text):
        return None
    clauses = [_normal(part) for part in _CLAUSE.split(text) if part.strip()]
    ordered = any((_ORDER.search(clause) or _GLUED_ORDER.search(_fold(clause)) or _glued_imperative(clause))
                  and not _FIRST_PERSON.search(clause) for clause in clauses)
    modal = _MODAL_YOU.search(text)
    one_item = _DEICTIC.search(text) and not (lasting or rule)
    if (ordered or modal or _PLEASE.search(text)) and (lasting or rule or manner or modal) and not one_item:
        return 0
    if ordered and any(_NEGATIVE.search(c) or _NEGATION.search(c) for c in clauses) and not one_item:
        return 0
    if any(_cjk_order(clause) for clause in clauses):
        return 0
    if _CORRECTION.search(text):
        return 1
    plan = _PLAN.search(text)
    if lasting and (rule or manner or _PLEASE.search(text)) and not (plan or _SELF.search(text) or _cjk_subject(text)):
        return 0
    if _PREFERENCE.search(text) and not plan:
        return 1
    return None
