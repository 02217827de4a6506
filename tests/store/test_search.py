"""Full-text search in the encrypted database: Chinese, Japanese, German and English text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlcipher3
from hypothesis import given, settings
from hypothesis import strategies as st

from mfs_desktop.errors import InvalidInput
from mfs_desktop.services.session import Session
from mfs_desktop.store.models import MessageDraft, sha256_text
from mfs_desktop.store.search import search_messages
from tests.conftest import open_test_session, run_cli

MESSAGES = [
    ("user", "Ich möchte nächste Woche nach München fahren; die Straße dorthin ist gesperrt."),
    ("assistant", "Dann nimm den Zug über Nürnberg, der ICE fährt stündlich."),
    ("user", "我想下个月去北京旅游，北京的秋天很美。"),
    ("assistant", "北京十月的天气很好，记得带一件外套。"),
    ("user", "東京タワーに行きました。とても高かったです。"),
    ("user", "The build fails with error ENOSPC at /var/lib/mfs/x.db after painting the UI"),
    ("assistant", "Free some disk space, then run `make clean && make` again."),
]


@pytest.fixture
def filled(session: Session) -> tuple[Session, str]:
    conversation = session.transcript.create_conversation("Reisen 旅行").id
    for role, text in MESSAGES:
        session.transcript.append(conversation, [MessageDraft(role, text)])
    return session, conversation


def _found(session: Session, query: str) -> list[str]:
    return [MESSAGES[hit.uid - 1][1][:12] for hit in search_messages(session.database, query)]


@pytest.mark.parametrize("query, expected", [
    ("münchen", [0]), ("MUNCHEN", [0]), ("strasse", [0]), ("Nurnberg", [1]),  # case, accents, ß
    ("北京", [3, 2]), ("北", [3, 2]), ("秋天", [2]), ("十月的天气", [3]),  # substrings of any length
    ("タワー", [4]), ("東京", [4]),
    ("enospc", [5]), ("/var/lib/mfs", [5]), ("paint", [5]),  # a path; a word's beginning
    ("disk space", [6]), ('"disk space"', [6]), ('"space disk"', []),  # AND; phrases keep order
    ("北京 外套", [3]), ("München Zug", []),  # every term in one message
])
def test_each_query_kind_finds_what_it_should(filled, query: str, expected: list[int]) -> None:
    session, _conversation = filled
    assert _found(session, query) == [MESSAGES[index][1][:12] for index in expected]


def test_a_hit_names_its_conversation_message_role_and_marks_the_match(filled) -> None:
    session, conversation = filled
    (hit,) = search_messages(session.database, "秋天")
    assert (hit.conversation_id, hit.uid, hit.role, hit.title) == (conversation, 3, "user", "Reisen 旅行")
    assert hit.snippet == "我想下个月去北京旅游，北京的[秋天]很美。"
    (hit,) = search_messages(session.database, "strasse")
    assert "[Straße]" in hit.snippet


@pytest.mark.parametrize("query", ['"unclosed', "AND OR NOT", "NEAR(a b", "body:x", "x*", "-münchen", "(北京"])
def test_odd_query_syntax_is_searched_as_plain_words(filled, query: str) -> None:
    session, _conversation = filled
    search_messages(session.database, query)  # answers, never raises an FTS5 syntax error


@pytest.mark.parametrize("query", ["", "   ", "***", "?!"])
def test_a_query_with_nothing_to_find_is_a_plain_refusal(filled, query: str) -> None:
    session, _conversation = filled
    with pytest.raises(InvalidInput, match="at least one word"):
        search_messages(session.database, query)


def test_trash_is_excluded_and_a_purge_drops_the_index_rows(filled) -> None:
    session, conversation = filled
    session.transcript.trash(conversation)
    assert search_messages(session.database, "北京") == []
    session.transcript.purge([conversation])
    count = session.database.connection().execute("SELECT count(*) FROM message_search").fetchone()[0]
    assert count == 0


def test_one_conversation_only(filled) -> None:
    session, conversation = filled
    other = session.transcript.create_conversation().id
    session.transcript.append(other, [MessageDraft("user", "北京烤鸭")])
    assert len(search_messages(session.database, "北京")) == 3
    assert [hit.conversation_id for hit in search_messages(session.database, "北京", other)] == [other]


def test_the_migration_indexes_an_existing_database(tmp_path: Path) -> None:
    from mfs_desktop.store.database import apply_migrations

    root = tmp_path / "old"
    session = open_test_session(root)
    key = session.database._key
    session.close()
    (root / "transcript.db").unlink()
    old = sqlcipher3.connect(str(root / "transcript.db"), isolation_level=None)
    old.execute(f"PRAGMA key = \"x'{key.hex()}'\"")
    apply_migrations(old, target=11)
    old.execute("INSERT INTO conversations (id, created_at, updated_at, lineage_id) VALUES ('c', 0, 0, 'l')")
    for uid, text in enumerate(("before the index: Zürich", "索引之前的消息"), start=1):
        old.execute("INSERT INTO messages (conversation_id, uid, turn_ordinal, role, origin, text, text_sha256, "
                    "created_at, epoch) VALUES ('c', ?, 1, 'user', 'own', ?, ?, 0, 1)", (uid, text, sha256_text(text)))
    old.close()
    reopened = open_test_session(root)
    assert [hit.uid for hit in search_messages(reopened.database, "zurich")] == [1]
    assert [hit.uid for hit in search_messages(reopened.database, "索引")] == [2]
    reopened.close()
    assert b"Zurich" not in (root / "transcript.db").read_bytes().lower()  # encrypted, index included


def test_search_on_the_command_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    made = run_cli("chat", "--provider", "fake", "--json", "Wie komme ich nach München?", data_dir=data)
    conversation = json.loads(made.stdout)["conversation_id"]
    found = run_cli("search", "munchen", "--json", data_dir=data)
    assert found.returncode == 0, found.stderr
    hits = json.loads(found.stdout)  # the scripted model may echo the word: newest first
    hit = hits[-1]
    assert hit["conversation_id"] == conversation and hit["uid"] == 1 and hit["role"] == "user"
    assert "[München]" in hit["snippet"] and {"created_at", "title"} <= set(hit)
    nothing = run_cli("search", "***", data_dir=data)
    assert nothing.returncode == 10 and "at least one word" in nothing.stderr and "Traceback" not in nothing.stderr


_CJK = st.text(st.characters(min_codepoint=0x4E00, max_codepoint=0x4E60), min_size=2, max_size=30)
_WORDS = st.lists(st.from_regex(r"[a-zäöüß]{3,9}", fullmatch=True), min_size=1, max_size=8)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(chinese=_CJK, words=_WORDS, data=st.data())
def test_any_substring_of_chinese_and_any_word_is_found(tmp_path_factory, chinese: str, words: list[str],
                                                         data) -> None:
    session = open_test_session(tmp_path_factory.mktemp("prop"))
    try:
        conversation = session.transcript.create_conversation().id
        session.transcript.append(conversation, [MessageDraft("user", chinese + " " + " ".join(words))])
        start = data.draw(st.integers(0, len(chinese) - 2))
        length = data.draw(st.integers(1, len(chinese) - start))
        assert search_messages(session.database, chinese[start:start + length])
        assert search_messages(session.database, data.draw(st.sampled_from(words)).upper())
    finally:
        session.close()


def test_a_match_deep_in_a_long_document_is_marked_without_folding_all_of_it() -> None:
    from mfs_desktop.store.search_text import query_terms, snippet

    document = "lorem ipsum dolor " * 100_000 + "Der Zürich-Bericht über die Straße" + " sit amet" * 1_000
    assert "[Zürich]" in snippet(document, query_terms("zurich"))
    assert "[Straße]" in snippet(document, query_terms("strasse"))
    assert snippet(document, query_terms("zurich")).startswith("…")
