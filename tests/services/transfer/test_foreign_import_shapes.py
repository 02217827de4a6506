"""Issue 46 item 4: foreign imports lose nothing silently. One test per defect the hostile-user
audit found on real exports; each names its case. tests/test_foreign_real_exports.py runs the
same rules over exports published in public repositories."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from mfs_desktop.services.session import Session
from mfs_desktop.services.transfer.foreign import ForeignExport, import_foreign, read_foreign_export
from tests.conftest import open_test_session, run_cli

T0 = 1_700_000_000.0


def _message(role: str, content: dict, when: float | None = T0, **extra: object) -> dict:
    return {"id": extra.pop("id", f"m-{role}-{when}"), "author": {"role": role, "name": extra.pop("name", None)},
            "create_time": when, "content": content, "metadata": extra.pop("metadata", {}),
            "recipient": extra.pop("recipient", "all"), **extra}


def _text(text: str) -> dict:
    return {"content_type": "text", "parts": [text]}


def _chatgpt(*messages: dict, current: str | None = "last", conversation_id: str = "c1", title: str = "t") -> dict:
    """A linear ChatGPT conversation; `current` "last" points at the last node, None leaves it out."""
    mapping = {"root": {"id": "root", "message": None, "parent": None, "children": []}}
    parent = "root"
    for index, message in enumerate(messages):
        node = f"n{index}"
        mapping[node] = {"id": node, "message": message, "parent": parent, "children": []}
        mapping[parent]["children"].append(node)
        parent = node
    item: dict = {"title": title, "create_time": T0, "conversation_id": conversation_id, "mapping": mapping}
    if current == "last":
        item["current_node"] = parent
    elif current is not None:
        item["current_node"] = current
    return item


def _imported(session: Session, export: ForeignExport) -> list[tuple[str, str, str | None, str | None]]:
    """(role, text, tool name, thinking) of every stored message of every imported conversation."""
    created, _ = import_foreign(session.database, export)
    rows: list[tuple[str, str, str | None, str | None]] = []
    for conversation_id in created:
        rows += session.database.connection().execute(
            "SELECT role, text, tool_name, thinking FROM messages WHERE conversation_id = ? ORDER BY uid",
            (conversation_id,)).fetchall()
    return [tuple(row) for row in rows]  # type: ignore[misc]


def test_an_export_without_current_node_imports_every_conversation(tmp_path: Path) -> None:
    """Case "a ChatGPT export without current_node imports 0 of 5 conversations and exits 0"."""
    document = [_chatgpt(_message("user", _text(f"question {n}")), _message("assistant", _text(f"answer {n}")),
                         current=None, conversation_id=f"c{n}") for n in range(5)]
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(document), "utf-8")
    done = run_cli("import", str(path), "--yes", data_dir=tmp_path / "data")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.split()) == 5 and "ChatGPT export: 5 conversations, 10 messages" in done.stderr


def test_without_a_usable_current_node_the_newest_leaf_is_shown() -> None:
    """Same case: `current_node` missing or pointing nowhere → the newest leaf (ties: the last in the mapping)."""
    item = _chatgpt(_message("user", _text("q")), current="gone")
    item["mapping"]["old"] = {"id": "old", "parent": "n0", "children": [],
                              "message": _message("assistant", _text("older answer"), T0 + 5)}
    item["mapping"]["new"] = {"id": "new", "parent": "n0", "children": [],
                              "message": _message("assistant", _text("newer answer"), T0 + 9)}
    item["mapping"]["tie"] = {"id": "tie", "parent": "n0", "children": [],
                              "message": _message("assistant", _text("same time, later in the mapping"), T0 + 9)}
    (conversation,) = read_foreign_export([item]).conversations
    assert [m.text for m in conversation.messages] == ["q", "same time, later in the mapping"]
    del item["mapping"]["tie"]
    (conversation,) = read_foreign_export([item]).conversations
    assert [m.text for m in conversation.messages] == ["q", "newer answer"]


def test_text_parts_in_any_shape_are_text() -> None:
    """Case "text parts given as objects are dropped as images and files"."""
    item = _chatgpt(
        _message("user", {"content_type": "multimodal_text",
                          "parts": [{"content_type": "text", "text": "first"}, "second",
                                    {"content_type": "image_asset_pointer", "asset_pointer": "sediment://file_1"},
                                    {"parts": ["nested", {"text": "deeper"}]}]}),
        _message("assistant", {"content_type": "text", "parts": [{"content_type": "text", "text": "an answer"}]}))
    export = read_foreign_export([item])
    (conversation,) = export.conversations
    assert [m.text for m in conversation.messages] == ["first\nsecond\n[image]\nnested\ndeeper", "an answer"]
    assert export.preview() == "ChatGPT export: 1 conversations, 2 messages (1 image as a marker)"


def test_an_image_only_or_spoken_question_keeps_its_conversation() -> None:
    """Case "an image-only or voice question drops its whole conversation; voice transcriptions thrown away"."""
    attachment = {"id": "file_9", "name": "receipt.png", "mime_type": "image/png"}
    image_only = _chatgpt(
        _message("user", {"content_type": "multimodal_text",
                          "parts": [{"content_type": "image_asset_pointer", "asset_pointer": "sediment://file_9"}]},
                 metadata={"attachments": [attachment, {"id": "file_8", "name": "plan.pdf"}]}),
        _message("assistant", _text("That receipt totals 12 €.")), conversation_id="image")
    spoken = _chatgpt(
        _message("user", {"content_type": "multimodal_text", "parts": [
            {"content_type": "audio_transcription", "text": "Wie spät ist es?", "direction": "in"},
            {"content_type": "real_time_user_audio_video_asset_pointer", "audio_asset_pointer": {}}]}),
        _message("assistant", {"content_type": "multimodal_text", "parts": [
            {"content_type": "audio_transcription", "text": "Kurz nach drei.", "direction": "out"},
            {"content_type": "audio_asset_pointer", "asset_pointer": "sediment://file_a"}]}),
        conversation_id="voice")
    export = read_foreign_export([image_only, spoken])
    assert [[m.text for m in c.messages] for c in export.conversations] == [
        ["[image: receipt.png]\n[file: plan.pdf]", "That receipt totals 12 €."],
        ["Wie spät ist es?", "Kurz nach drei."]]
    assert export.preview() == ("ChatGPT export: 2 conversations, 4 messages (2 voice messages kept as their "
                                "transcripts, 1 image as a marker, 1 file as a marker)")


def test_tool_payloads_become_tool_messages_never_the_assistants_words(session: Session) -> None:
    """Case "the assistant's tool payloads are imported as if the assistant said them"; hidden and
    system messages are skipped with a count."""
    item = _chatgpt(
        _message("system", _text("You are ChatGPT."), None),
        _message("user", {"content_type": "user_editable_context", "user_instructions": "be brief"}, None,
                 metadata={"is_visually_hidden_from_conversation": True}),
        _message("user", _text("Wetter in Köln, und merk dir: ich mag Regen.")),
        _message("assistant", {"content_type": "code", "language": "unknown",
                               "text": '{"search_query": [{"q": "Wetter Köln"}]}'}, recipient="web.run"),
        _message("tool", {"content_type": "text", "parts": ["12 °C, Regen"]}, name="web.run"),
        _message("assistant", {"content_type": "text", "parts": ["User likes rain."]}, recipient="bio"),
        _message("tool", _text("Model set context updated."), name="bio"),
        _message("assistant", {"content_type": "code", "text": "print(12 * 9 / 5 + 32)"}, recipient="python"),
        _message("tool", {"content_type": "execution_output", "text": "53.6"}, name="python"),
        _message("assistant", {"content_type": "text", "parts": ['{"prompt": "rainy Cologne"}']},
                 recipient="dalle.text2im"),
        _message("assistant", _text("12 °C und Regen, also 53,6 °F."), T0 + 1))
    export = read_foreign_export([item])
    rows = _imported(session, export)
    assert [(role, tool) for role, _, tool, _ in rows] == [
        ("user", None), ("assistant", "web.run"), ("tool", "web.run"), ("assistant", "bio"), ("tool", "bio"),
        ("assistant", "python"), ("tool", "python"), ("assistant", "dalle.text2im"), ("tool", "dalle.text2im"),
        ("assistant", None)]
    spoken = [text for role, text, tool, _ in rows if role == "assistant" and tool is None]
    assert spoken == ["12 °C und Regen, also 53,6 °F."]  # no query, memory note, code cell or prompt
    assert [text for role, text, _, _ in rows if role == "tool"] == [
        "12 °C, Regen", "Model set context updated.", "53.6", ""]  # the image call had no result: an empty one
    arguments = session.database.connection().execute(
        "SELECT tool_arguments FROM messages WHERE tool_name = 'python' AND role = 'assistant'").fetchone()[0]
    assert json.loads(arguments) == {"code": "print(12 * 9 / 5 + 32)"}
    assert export.preview() == ("ChatGPT export: 1 conversations, 10 messages (4 tool calls kept as tool messages, "
                                "3 tool results kept as tool messages, 1 hidden system message skipped, "
                                "1 hidden message skipped)")


def test_citation_markers_are_removed_and_counted() -> None:
    """Case "citation markers stay as private-use characters"."""
    answer = ("Köln liegt am Rhein \ue200cite\ue202turn0search1\ue201. \ue200entity\ue202[\"city\",\"Bonn\"]\ue201 "
              "auch\ue200filecite\ue202turn0file0\ue201!\ue203")
    export = read_foreign_export([_chatgpt(_message("user", _text("Wo?")), _message("assistant", _text(answer)))])
    assert export.conversations[0].messages[1].text == "Köln liegt am Rhein. Bonn auch!"
    assert export.preview().endswith("(2 citation markers removed, 1 stray private-use character removed)")


def test_thinking_is_kept_apart_from_the_answer(session: Session) -> None:
    """Case "ChatGPT thoughts / reasoning_recap glued to the answer": a field of its own."""
    item = _chatgpt(
        _message("user", _text("Define anneal.")),
        _message("assistant", {"content_type": "thoughts", "thoughts": [
            {"summary": "Defining anneal", "content": "Heat, then cool slowly.", "chunks": [], "finished": True}]}),
        _message("assistant", {"content_type": "reasoning_recap", "content": "Thought for 15s"}),
        _message("assistant", _text("To anneal is to heat and cool slowly."), channel="final"))
    export = read_foreign_export([item])
    assert _imported(session, export) == [
        ("user", "Define anneal.", None, None),
        ("assistant", "To anneal is to heat and cool slowly.", None,
         "Defining anneal\nHeat, then cool slowly.\n\nThought for 15s")]
    assert "2 thinking passages kept apart" in export.preview()


def test_claude_content_blocks_come_before_the_flat_text(session: Session) -> None:
    """Case "Claude: the flat text glues thinking to the answer and imports 'not supported' placeholders"."""
    flat = "I thought hard.The answer is 4.\n```\nThis block is not supported on your device yet.\n```\nDone."
    item = {"uuid": "k1", "name": "Sums", "created_at": "2025-01-02T03:04:05Z", "chat_messages": [
        {"sender": "human", "text": "2+2?", "content": [{"type": "text", "text": "2+2?"}],
         "created_at": "2025-01-02T03:04:05Z"},
        {"sender": "assistant", "text": flat, "created_at": "2025-01-02T03:04:09Z", "content": [
            {"type": "thinking", "thinking": "I thought hard."},
            {"type": "text", "text": "The answer is 4."},
            {"type": "tool_use", "id": "tu1", "name": "repl", "input": {"code": "2+2"}},
            {"type": "tool_result", "tool_use_id": "tu1", "name": "repl", "content": [{"type": "text", "text": "4"}]},
            {"type": "tool_use", "name": "artifacts",
             "input": {"id": "a", "type": "application/vnd.ant.code", "language": "python", "title": "Sum",
                       "command": "create", "content": "print(2 + 2)"}},
            {"type": "tool_result", "name": "artifacts", "content": [{"type": "text", "text": "OK"}]},
            {"type": "text", "text": "Done.\n```\nThis block is not supported on your device yet.\n```"}]},
        {"sender": "human", "text": "old export: no blocks", "created_at": 1735787050},
        {"sender": "assistant", "text": "answered in flat text only", "content": [],
         "created_at": 1735787051000}]}
    export = read_foreign_export([item])
    assert _imported(session, export) == [
        ("user", "2+2?", None, None),
        ("assistant", "The answer is 4.", None, "I thought hard."),
        ("assistant", "", "repl", None), ("tool", "4", "repl", None),
        ("assistant", "**Sum**\n```python\nprint(2 + 2)\n```\n\nDone.", None, None),
        ("user", "old export: no blocks", None, None), ("assistant", "answered in flat text only", None, None)]
    assert export.preview() == (
        "Claude export: 1 conversations, 7 messages (1 tool call kept as a tool message, 1 tool result kept as a "
        "tool message, 1 thinking passage kept apart, 1 artifact kept as code, 1 “not supported on your device” "
        "placeholder dropped, 1 artifact confirmation skipped)")


def test_claude_attachments_keep_their_text_as_a_document(session: Session) -> None:
    """Case "Claude attachments' extracted_content (text the user pasted) is dropped"."""
    item = {"uuid": "k2", "name": "", "created_at": "2025-01-02T03:04:05+01:00", "chat_messages": [
        {"sender": "human", "text": "Summarise this.", "created_at": "2025-01-02T03:04:05+01:00",
         "attachments": [{"file_name": "notes.txt", "file_type": "txt", "extracted_content": "Line one.\nLine two."},
                         {"file_name": "scan.pdf", "file_type": "pdf", "extracted_content": ""}],
         "files": [{"file_name": "notes.txt"}, {"file_name": "photo.jpg", "file_kind": "image"}]},
        {"sender": "assistant", "text": "Two lines.", "created_at": "2025-01-02T03:05:05+01:00"}]}
    export = read_foreign_export([item])
    created, _ = import_foreign(session.database, export)
    first = session.transcript.messages(created[0])[0]
    assert first.origin == "document" and first.text == (
        "Summarise this.\n\n[document: notes.txt]\nLine one.\nLine two.\n\n[file: scan.pdf]\n\n[image: photo.jpg]")
    assert session.attachments.data(first.attachment_sha256) == b"Line one.\nLine two."
    assert session.attachments.info(first.attachment_sha256).name == "notes.txt"
    assert first.created_at == datetime(2025, 1, 2, 2, 4, 5, tzinfo=UTC).timestamp()
    assert export.preview().endswith("(1 attached text kept as a document, 1 image as a marker, 1 file as a marker)")


@pytest.mark.parametrize("stamp, expected", [
    (1_735_787_045, 1_735_787_045.0), (1_735_787_045.5, 1_735_787_045.5), (1_735_787_045_123, 1_735_787_045.123),
    ("2025-01-02T03:04:05Z", 1_735_787_045.0), ("2025-01-02T04:04:05+01:00", 1_735_787_045.0),
    ("2025-01-02T03:04:05.000000Z", 1_735_787_045.0), ("1735787045", 1_735_787_045.0),
])
def test_numeric_and_string_times_both_hold(stamp: object, expected: float) -> None:
    """Case "numeric timestamps become 1970" (epoch seconds, milliseconds, ISO 8601 with Z or an offset)."""
    claude = read_foreign_export([{"uuid": "k", "created_at": stamp, "chat_messages": [
        {"sender": "human", "text": "hi", "created_at": stamp}]}])
    chatgpt = read_foreign_export([_chatgpt(_message("user", _text("hi"), stamp))])  # type: ignore[arg-type]
    for export in (claude, chatgpt):
        assert export.conversations[0].messages[0].created_at == pytest.approx(expected)
    assert claude.conversations[0].created_at == pytest.approx(expected)


def test_an_undated_export_is_not_dated_1970() -> None:
    """Same case: no time anywhere → the time of the import, never 0."""
    item = _chatgpt(_message("user", _text("hi"), None))
    del item["create_time"]
    (conversation,) = read_foreign_export([item]).conversations
    assert conversation.created_at > T0 and conversation.messages[0].created_at > T0


def test_a_lone_surrogate_is_replaced_not_fatal(tmp_path: Path) -> None:
    """Case "one lone UTF-16 surrogate ends in exit 70 and nothing imported"."""
    path = tmp_path / "conversations.json"
    text = json.dumps([_chatgpt(_message("user", _text("smile X")), _message("assistant", _text("ok X")),
                                title="ti X")], ensure_ascii=True)
    path.write_text(text.replace("X", "\\ud83d"), "utf-8")
    data = tmp_path / "data"
    done = run_cli("import", str(path), "--yes", data_dir=data)
    assert done.returncode == 0, done.stderr
    assert "(3 lone surrogates replaced)" in done.stderr
    session = open_test_session(data)
    (summary,) = session.transcript.list_conversations()
    texts = [m.text for m in session.transcript.messages(summary.id)]
    session.close()
    assert summary.title == "ti \ufffd" and texts == ["smile \ufffd", "ok \ufffd"]


def test_the_preview_words_every_count_in_the_singular_and_plural() -> None:
    """The preview counts everything kept apart or skipped, in words; a kind the export names itself as written."""
    export = ForeignExport("claude", (), {"tool_calls": 3, "thinking": 12, "images": 2, "system": 1,
                                          "surrogates": 4, "part:voice_note": 1, "role:critic": 2})
    assert export.preview() == (
        "Claude export: 0 conversations, 0 messages (3 tool calls kept as tool messages, 12 thinking passages kept "
        "apart, 2 images as markers, 4 lone surrogates replaced, 1 hidden system message skipped, 1 “voice_note” "
        "part skipped, 2 messages from “critic” skipped)")
    assert ForeignExport("chatgpt", ()).preview() == "ChatGPT export: 0 conversations, 0 messages"


def test_thinking_has_a_column_of_its_own(session: Session) -> None:
    """The store keeps thinking apart (migration 0018): NULL where there was none."""
    columns = {row[1]: row[2] for row in session.database.connection().execute("PRAGMA table_info(messages)")}
    assert columns["thinking"] == "TEXT"
