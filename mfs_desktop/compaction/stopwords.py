"""Words that say little on their own, per language, for the salience word model. Lists are
short and hand-made: function words, fillers and chat reactions people write in every talk.
Chinese and Japanese are read by character bigrams, so their lists hold single characters
(particles, pronouns) and the two-character function words a bigram would otherwise count."""

from __future__ import annotations

ENGLISH = """
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
feel feeling felt guess mean going want wanted say said tell told absolutely definitely especially
"""
GERMAN = """
aber alle allem allen aller alles als also am an ans auch auf aus bei beim bin bis bist da dabei damit dann das dass
dein deine dem den denn der des dich die dies diese diesem diesen dieser dieses dir doch dort du durch ein eine
einem einen einer eines er es etwas euch euer für gegen gewesen hab habe haben hat hatte hätte hier hin ich ihm ihn
ihnen ihr ihre im immer in ins ist ja jetzt kann kein keine können mal man mein meine mich mir mit muss nach nicht
nichts noch nun nur ob oder ohne schon sehr sein seine sich sie sind so sollte über um und uns unser unter viel vom
von vor war waren warum was weil wenn wer werden wie wieder wir wird wirklich wo wurde zu zum zur
hallo danke bitte super toll cool gut genau okay klar echt mega schön prima
welche welcher welches welchen welchem nochmal damals eigentlich
"""
FRENCH = """
à ai aie ainsi alors as au aucun aussi autre aux avec avoir avez avons bien c ça car ce cela celle celui ces cet
cette chez comme comment d dans de des donc dont du elle elles en encore est et été être eu fait faire il ils j je
l la le les leur leurs lui m ma mais me même mes moi mon n ne ni nos notre nous on ont ou où par pas peu plus pour
pourquoi qu quand que quel quelle qui s sa sans se ses si son sont sur t ta te tes toi ton tous tout toute tres très
tu un une vos votre vous vraiment y
salut bonjour merci super génial cool bon bien oui non ok voilà
"""
SPANISH = """
a al algo algunos ante antes así aunque bien cada como con contra cual cuando de del desde donde dos el ella ellas
ellos en entre era es esa ese eso esta está estaba estar este esto estos fue ha había hay hace hasta la las le les
lo los más me mi mis mucho muy nada ni no nos nosotros o otra otro para pero poco por porque que qué quien se ser si
sí sin sobre son su sus también tan te tengo ti tiene todo todos tu tú un una uno unos usted y ya yo
hola gracias genial vale bueno claro súper guay oye
"""
# single characters: particles, pronouns, the commonest verbs and adverbs
CHINESE_CHARACTERS = "的了是我你他她它们在有和就不也都这那个吧呢啊吗嘛哦呀哈很还又被把给让着过得地么要会能说好对"
CHINESE_WORDS = """
我们 你们 他们 她们 什么 怎么 这个 那个 这些 那些 因为 所以 但是 可是 可以 没有 就是 还是 觉得 知道 真的 非常 一下 一个
现在 然后 如果 已经 一些 自己 这样 那样 时候 其实 而且 或者 不是 不过 这么 那么 哈哈 谢谢 好的 是的 嗯嗯 应该 一直
"""
JAPANESE_CHARACTERS = "のはがをにでともへやかなねよだですますしたっいるうえおこそあ"
JAPANESE_WORDS = (
    "です ます した して この その あの これ それ あれ ない ある いる から まで けど でも とても ありがとう"
)

LATIN = frozenset(" ".join((ENGLISH, GERMAN, FRENCH, SPANISH)).split())
CJK_CHARACTERS = frozenset(CHINESE_CHARACTERS + JAPANESE_CHARACTERS)
CJK_WORDS = frozenset((CHINESE_WORDS + " " + JAPANESE_WORDS).split())
