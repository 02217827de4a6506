"""Issue 46 item 4 against real exports published in public repositories (sources in
tests/data/foreign_exports/README.md): every conversation with an answer is imported, every
message's words are there, thinking is apart, tool payloads are never the assistant's words,
and the preview counts what it kept apart or left out."""

from __future__ import annotations

import json
from pathlib import Path

from mfs_desktop.services.session import Session
from mfs_desktop.services.transfer.foreign import import_foreign, read_foreign_export
from tests.conftest import REPO, run_cli

EXPORTS = REPO / "tests" / "data" / "foreign_exports"


def _load(name: str) -> list:
    return json.loads((EXPORTS / name).read_text("utf-8"))


def _stored(session: Session, conversation_id: str) -> list[tuple]:
    return session.database.connection().execute(
        "SELECT role, text, tool_name, tool_arguments, thinking, origin, attachment_sha256 FROM messages "
        "WHERE conversation_id = ? ORDER BY uid", (conversation_id,)).fetchall()


def _branch(item: dict) -> list[dict]:
    mapping, node, path = item["mapping"], item["current_node"], []
    while node:
        path.append(mapping[node])
        node = mapping[node]["parent"]
    return [n["message"] for n in reversed(path) if n["message"]]


def test_a_code_interpreter_conversation_keeps_its_cells_and_outputs_as_tool_messages(session: Session) -> None:
    document = _load("chatgpt_code_interpreter.json")
    export = read_foreign_export(document)
    assert export.preview() == ("ChatGPT export: 1 conversations, 15 messages (4 tool calls kept as tool messages, "
                                "4 tool results kept as tool messages)")  # the hidden system nodes are empty
    (conversation_id,), _ = import_foreign(session.database, export)
    rows = _stored(session, conversation_id)
    said = [m for m in _branch(document[0]) if m["author"]["role"] in ("user", "assistant")
            and m["recipient"] == "all" and not m["metadata"].get("is_visually_hidden_from_conversation")]
    assert [(r[0], r[1]) for r in rows if r[0] != "tool" and not r[2]] == [
        (m["author"]["role"], m["content"]["parts"][0]) for m in said]  # every word, in order
    cells = [m["content"]["text"] for m in _branch(document[0]) if m["recipient"] == "python"]
    outputs = [m["content"]["text"] for m in _branch(document[0]) if m["author"]["role"] == "tool"]
    assert [json.loads(r[3])["code"] for r in rows if r[2] == "python" and r[0] == "assistant"] == cells
    assert [r[1] for r in rows if r[0] == "tool"] == outputs
    assert all(r[1] == "" for r in rows if r[0] == "assistant" and r[2])  # a call carries no words
    for cell in cells:  # no code cell is in anything the assistant said
        assert not any(cell in r[1] for r in rows if r[0] == "assistant")


def test_the_code_interpreter_conversation_without_current_node_is_the_same(session: Session) -> None:
    document = _load("chatgpt_code_interpreter.json")
    expected = [m.text for m in read_foreign_export(document).conversations[0].messages]
    del document[0]["current_node"]
    (conversation,) = read_foreign_export(document).conversations
    assert [m.text for m in conversation.messages] == expected


def test_five_conversations_without_current_node_all_arrive(tmp_path: Path) -> None:
    data = tmp_path / "data"
    done = run_cli("import", str(EXPORTS / "chatgpt_without_current_node.json"), "--yes", data_dir=data)
    assert done.returncode == 0, done.stderr
    assert "ChatGPT export: 5 conversations, 10 messages" in done.stderr and len(done.stdout.split()) == 5
    document = _load("chatgpt_without_current_node.json")
    export = read_foreign_export(document)
    for item, conversation in zip(document, export.conversations, strict=True):
        parts = [node["message"]["content"]["parts"][0] for node in item["mapping"].values() if node["message"]]
        assert [m.text for m in conversation.messages] == parts
        assert conversation.created_at == item["create_time"]  # undated messages take the conversation's time
        assert all(m.created_at == item["create_time"] for m in conversation.messages)


def test_claude_thinking_stays_out_of_the_answer(session: Session) -> None:
    document = _load("claude_thinking.json")
    export = read_foreign_export(document)
    assert export.preview() == "Claude export: 1 conversations, 2 messages (1 thinking passage kept apart)"
    (conversation_id,), _ = import_foreign(session.database, export)
    (question, answer) = _stored(session, conversation_id)
    blocks = {block["type"]: block for block in document[0]["chat_messages"][1]["content"]}
    assert question[:2] == ("user", document[0]["chat_messages"][0]["content"][0]["text"])
    assert answer[:2] == ("assistant", blocks["text"]["text"]) and answer[4] == blocks["thinking"]["thinking"]
    assert blocks["thinking"]["thinking"] not in answer[1]  # the flat text glues them; the import does not


def test_claude_artifacts_and_an_attached_pdf_survive(session: Session) -> None:
    document = _load("claude_artifacts_attachment.json")
    export = read_foreign_export(document)
    assert export.preview() == ("Claude export: 1 conversations, 5 messages (3 artifacts kept as code, 1 attached "
                                "text kept as a document, 2 artifact confirmations skipped)")
    (conversation_id,), _ = import_foreign(session.database, export)
    rows = _stored(session, conversation_id)
    messages = document[0]["chat_messages"]
    assert [r[0] for r in rows] == ["user" if m["sender"] == "human" else "assistant" for m in messages]
    attachment = messages[0]["attachments"][0]
    assert rows[0][5] == "document" and attachment["extracted_content"] in rows[0][1]
    assert session.attachments.data(rows[0][6]).decode("utf-8") == attachment["extracted_content"]
    for message, row in zip(messages, rows, strict=True):
        for block in message["content"]:
            if block["type"] == "text" and block["text"].strip():
                assert block["text"].strip() in row[1]  # every word
            if block["type"] == "tool_use":
                assert block["input"]["content"] in row[1]  # the artifact Claude wrote, in its answer
                assert "title" not in block["input"] or f"**{block['input']['title']}**" in row[1]
    assert not any("supported on mobile" in r[1] or "not supported on your device" in r[1] for r in rows)
