"""ChatGPT and Claude data exports: previewed, imported whole or not at all, never twice."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from tests.conftest import open_test_session, run_cli


def _node(node_id, parent, children, role=None, text=None, when=0.0, content=None):
    message = None
    if role is not None:
        message = {"id": node_id, "author": {"role": role}, "create_time": when,
                   "content": content or {"content_type": "text", "parts": [text]}, "metadata": {}}
    return {"id": node_id, "message": message, "parent": parent, "children": children}


CHATGPT = [{
    "title": "Umzug nach München",
    "create_time": 1_700_000_000.0,
    "conversation_id": "gpt-1",
    "current_node": "a2",
    "mapping": {
        "root": _node("root", None, ["sys"]),
        "sys": _node("sys", "root", ["u1"], "system", "You are ChatGPT."),
        "u1": _node("u1", "sys", ["a1"], "user", "Wie finde ich eine Wohnung in München?", 1_700_000_010.0),
        "a1": _node("a1", "u1", ["u2", "u2b"], "assistant", "Suche früh und nutze mehrere Portale.", 1_700_000_020.0),
        "u2": _node("u2", "a1", ["a2x"], "user", "An earlier branch, edited away", 1_700_000_030.0),
        "a2x": _node("a2x", "u2", [], "assistant", "answer on the old branch", 1_700_000_031.0),
        "u2b": _node("u2b", "a1", ["a2"], "user", None, 1_700_000_040.0, {
            "content_type": "multimodal_text",
            "parts": [{"asset_pointer": "file-service://x"}, "Und was kostet die Miete?"]}),
        "a2": _node("a2", "u2b", [], "assistant", None, 1_700_000_050.0, {"content_type": "code",
                                                                          "text": "print(1800)"}),
    },
}, {
    "title": "空对话", "create_time": 1_700_100_000.0, "conversation_id": "gpt-2", "current_node": "r",
    "mapping": {"r": _node("r", None, [])},
}]

CLAUDE = [{
    "uuid": "claude-1", "name": "北京旅行", "created_at": "2024-05-01T08:00:00.000000Z",
    "updated_at": "2024-05-01T08:05:00Z",
    "chat_messages": [
        {"uuid": "m1", "sender": "human", "text": "我想去北京旅游，有什么建议？", "created_at": "2024-05-01T08:00:00Z",
         "attachments": [], "files": []},
        {"uuid": "m2", "sender": "assistant", "text": "", "created_at": "2024-05-01T08:01:00Z",
         "content": [{"type": "text", "text": "秋天去最好，记得参观故宫。"}], "attachments": [], "files": []},
        {"uuid": "m3", "sender": "human", "text": "Danke!", "created_at": "2024-05-01T08:02:00Z",
         "attachments": [{"file_name": "plan.pdf"}], "files": []},
    ],
}]


def _write(tmp_path: Path, name: str, document: object) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(document, ensure_ascii=False), "utf-8")
    return path


def test_a_chatgpt_export_is_previewed_then_imported_along_the_branch_on_screen(tmp_path: Path) -> None:
    data = tmp_path / "data"
    export = _write(tmp_path, "conversations.json", CHATGPT)
    preview = run_cli("import", str(export), "--preview", data_dir=data)
    assert preview.returncode == 0, preview.stderr
    assert ("ChatGPT export: 1 conversations, 4 messages (1 image as a marker, 1 hidden system message skipped, "
            "1 empty conversation skipped)") in preview.stderr
    refused = run_cli("import", str(export), data_dir=data)
    assert refused.returncode == 10 and "add --yes" in refused.stderr
    session = open_test_session(data)
    assert session.transcript.list_conversations() == []  # nothing written by a preview or a refusal
    session.close()

    done = run_cli("import", str(export), "--yes", data_dir=data)
    assert done.returncode == 0, done.stderr
    (conversation_id,) = done.stdout.split()
    session = open_test_session(data)
    conversation = session.transcript.conversation(conversation_id)
    messages = session.transcript.messages(conversation_id)
    session.close()
    assert conversation.title == "Umzug nach München" and conversation.created_at == 1_700_000_000.0
    assert [(m.role, m.text) for m in messages] == [
        ("user", "Wie finde ich eine Wohnung in München?"), ("assistant", "Suche früh und nutze mehrere Portale."),
        ("user", "[image]\nUnd was kostet die Miete?"), ("assistant", "```\nprint(1800)\n```")]
    assert [m.turn_ordinal for m in messages] == [1, 1, 2, 2] and messages[2].created_at == 1_700_000_040.0

    found = run_cli("search", "wohnung munchen", "--json", data_dir=data)
    assert [hit["conversation_id"] for hit in json.loads(found.stdout)] == [conversation_id]
    again = run_cli("import", str(export), "--yes", data_dir=data)
    assert again.returncode == 0 and again.stdout == "" and "1 were here already" in again.stderr


def test_a_claude_export_inside_its_zip_is_imported(tmp_path: Path) -> None:
    archive = tmp_path / "data-2024-05-02.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("users.json", "[]")
        zipped.writestr("conversations.json", json.dumps(CLAUDE, ensure_ascii=False))
    data = tmp_path / "data"
    done = run_cli("import", str(archive), "--yes", data_dir=data)
    assert done.returncode == 0, done.stderr
    assert "Claude export: 1 conversations, 3 messages (1 file as a marker)" in done.stderr
    session = open_test_session(data)
    (summary,) = session.transcript.list_conversations()
    texts = [(m.role, m.text) for m in session.transcript.messages(summary.id)]
    session.close()
    assert summary.title == "北京旅行"
    assert texts == [("user", "我想去北京旅游，有什么建议？"), ("assistant", "秋天去最好，记得参观故宫。"),
                     ("user", "Danke!\n\n[file: plan.pdf]")]


@pytest.mark.parametrize("content, message", [
    (b"\x89PNG\r\n\x1a\n\x00\x00", "Cannot read"),
    (b"[\xff\xfe]", "not UTF-8 text"),
    (b"[{\"mapping\": {}, \"current_node\": \"x\"}, 7]", "Conversation 2 of the export is not an object"),
    (b"[{\"mapping\": [1, 2], \"current_node\": \"x\"}]", "Conversation 1 of the export is malformed"),
    (b"[{\"title\": \"no messages key\"}]", "Not a ChatGPT or Claude export"),
    (b"[{\"chat_messages\": [{\"sender\": \"human\"", "is not valid JSON"),
    (b"[" * 100_000, "nested too deeply"),
])
def test_bad_exports_are_refused_plainly_with_nothing_imported(tmp_path: Path, content: bytes, message: str) -> None:
    export = tmp_path / "conversations.json"
    export.write_bytes(content)
    data = tmp_path / "data"
    result = run_cli("import", str(export), "--yes", data_dir=data)
    assert result.returncode == 10, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr
    if (data / "transcript.db").exists():
        session = open_test_session(data)
        assert session.transcript.list_conversations() == []
        session.close()


def test_a_zip_without_conversations_is_named_as_such(tmp_path: Path) -> None:
    archive = tmp_path / "photos.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("a.txt", "hello")
    result = run_cli("import", str(archive), "--yes", data_dir=tmp_path / "data")
    assert result.returncode == 10 and "without a conversations.json" in result.stderr


def test_a_half_bad_export_imports_nothing(tmp_path: Path) -> None:
    """One malformed conversation after good ones: the good ones are not imported either."""
    broken = CLAUDE + [{"uuid": "x", "chat_messages": [{"sender": "human", "text": "hi",
                                                        "created_at": "not a date"}]}]
    data = tmp_path / "data"
    result = run_cli("import", str(_write(tmp_path, "c.json", broken)), "--yes", data_dir=data)
    assert result.returncode == 10 and "Conversation 2 of the export is malformed" in result.stderr
    session = open_test_session(data)
    assert session.transcript.list_conversations() == []
    session.close()
