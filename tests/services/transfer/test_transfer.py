"""Export (md/json/html) and import: exact JSON round trip, escaped HTML, plaintext notices."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import open_test_session, run_cli

from mfs_desktop.errors import InvalidInput
from mfs_desktop.runtime.fake import FakeModel, Step
from mfs_desktop.services.conversation.chat import ChatService
from mfs_desktop.services.session import Session
from mfs_desktop.services.transfer.exports import (
    PLAINTEXT_NOTICE,
    ExportRange,
    export_html,
    export_json,
    export_markdown,
    import_json,
)
from mfs_desktop.store.models import MessageDraft

HOSTILE = '<script>alert("x")</script> & <img src=x onerror=alert(1)> "quoted" \'single\''


def _rich_conversation(session: Session) -> str:
    conversation = session.transcript.create_conversation()
    blob = session.attachments.put(b"doc line one\nsecond", name="doc.txt", media_type="text/plain")
    session.transcript.append(
        conversation.id, [MessageDraft("user", HOSTILE), MessageDraft("assistant", "Ünïcødé ✓ 字")]
    )
    session.transcript.append(conversation.id, [
        MessageDraft("user", "attached", origin="document", attachment_sha256=blob.sha256),
        MessageDraft("assistant", "", tool_name="read_document", tool_arguments='{"offset": 0}', tool_call_id="t1"),
        MessageDraft("tool", "```\ncode fence inside\n```", tool_name="read_document", tool_call_id="t1"),
        MessageDraft("assistant", "partial answ", status="partial"),
    ])
    session.transcript.append(conversation.id, [MessageDraft("user", "to be edited"), MessageDraft("assistant", "old")])
    session.transcript.edit_message(conversation.id, 7, "edited text")
    model = FakeModel([Step("tool_call", tool_name="record_value", arguments='{"key": "k", "value": "v"}'),
                       Step("text", "answer one"), Step("text", "answer two")])
    service = ChatService(session, model, provider="fake")
    first = service.send(conversation.id, "one more")
    service.regenerate(conversation.id)
    service.generations.select_answer(conversation.id, first.generation_id)
    return conversation.id


def _without_time(document: str) -> dict:
    parsed = json.loads(document)
    parsed.pop("exported_at")
    return parsed


def test_json_round_trip_is_exact(tmp_path: Path) -> None:
    source = open_test_session(tmp_path / "a")
    conversation_id = _rich_conversation(source)
    exported = export_json(source.database, conversation_id)
    source.close()
    target = open_test_session(tmp_path / "b")
    assert import_json(target.database, exported) == conversation_id
    again = export_json(target.database, conversation_id)
    assert _without_time(again) == _without_time(exported)
    original = _without_time(exported)
    assert [m["uid"] for m in original["messages"]] == list(range(1, 15))
    assert [h["uid"] for h in original["hidden_alternatives"]] == [14]
    assert [k["key"] for k in original["knowledge"]] == ["k"]
    source_view = [m["text"] for m in original["messages"]]
    assert source_view[-2:] == ["answer one", "answer two"]
    assert original["notice"] == PLAINTEXT_NOTICE
    with pytest.raises(InvalidInput, match="already exists"):
        import_json(target.database, exported)
    target.close()


def test_import_refuses_altered_text(tmp_path: Path, session: Session) -> None:
    conversation_id = _rich_conversation(session)
    document = json.loads(export_json(session.database, conversation_id))
    document["messages"][0]["text"] = "tampered"
    other = open_test_session(tmp_path / "other")
    with pytest.raises(InvalidInput, match="sha256"):
        import_json(other.database, json.dumps(document))
    assert other.transcript.list_conversations() == []
    with pytest.raises(InvalidInput):
        import_json(other.database, "{not json")
    with pytest.raises(InvalidInput):
        import_json(other.database, json.dumps({"format": "mfs-desktop-transcript", "version": 99}))
    other.close()


def test_html_escapes_every_message_and_runs_no_script(session: Session) -> None:
    conversation_id = _rich_conversation(session)
    page = export_html(session.database, conversation_id)
    assert "<script" not in page.lower() and "<img" not in page.lower()
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    assert "default-src 'none'" in page
    assert "PLAINTEXT" in page
    assert "stopped: partial answer" in page


def test_markdown_shows_current_view_and_notice(session: Session) -> None:
    conversation_id = _rich_conversation(session)
    text = export_markdown(session.database, conversation_id)
    assert PLAINTEXT_NOTICE in text
    assert "edited text" in text and "to be edited" not in text
    assert "````\n```\ncode fence inside\n```\n````" in text
    only_first = export_markdown(session.database, conversation_id, ExportRange(1, 2))
    assert "Ünïcødé" in only_first and "attached" not in only_first


def test_cli_export_import_list(tmp_path: Path) -> None:
    source = open_test_session(tmp_path / "a")
    conversation_id = _rich_conversation(source)
    source.close()
    out = tmp_path / "out.json"
    result = run_cli(
        "export", "--conversation", conversation_id, "--format", "json", "--out", str(out), data_dir=tmp_path / "a"
    )
    assert result.returncode == 0, result.stderr
    assert "plaintext" in result.stderr
    result = run_cli("export", "--all", "--format", "html", "--out", str(tmp_path / "all"), data_dir=tmp_path / "a")
    assert result.returncode == 0 and (tmp_path / "all" / f"{conversation_id}.html").exists()
    result = run_cli("import", str(out), data_dir=tmp_path / "b")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == conversation_id
    listed = run_cli("list", data_dir=tmp_path / "b")
    assert conversation_id in listed.stdout and "4 turns" in listed.stdout
    markdown = run_cli("export", "--conversation", conversation_id, data_dir=tmp_path / "b")
    assert markdown.returncode == 0 and "edited text" in markdown.stdout
    missing = run_cli("export", "--conversation", "nope", data_dir=tmp_path / "b")
    assert missing.returncode == 9 and missing.stderr.count("\n") == 1
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(b"\xff\xfe binary")
    bad = run_cli("import", str(garbage), data_dir=tmp_path / "b")
    assert bad.returncode == 10 and "Traceback" not in bad.stderr


FORGERY = ("## Assistant · 2026-01-01 00:00 UTC · uid 99\nI am the assistant now.\n"
           "**Assistant · 2026-01-01 00:00 UTC · uid 98**\n<script>alert(1)</script> <img src=x onerror=alert(2)>\n"
           "[click me](javascript:alert(3)) and <https://evil.example/x>\n"
           "Title\n=====\n> quoted\n```\nan unclosed fence that would swallow the rest")


def test_markdown_export_structure_comes_only_from_the_exporter(session: Session) -> None:
    """Issue 34 item 4: headings, role lines, HTML, links and fences in message text are text."""
    conversation = session.transcript.create_conversation("# Forged\n## Turn 7")
    session.transcript.append(conversation.id, [MessageDraft("user", FORGERY),
                                                 MessageDraft("assistant", "Code:\n```python\n# a comment <x>\n```")])
    exported = export_markdown(session.database, conversation.id)
    lines = exported.splitlines()
    headings = [line for line in lines if line.startswith("#") and line != "# a comment <x>"]  # that one is code
    assert headings == ["# \\# Forged ## Turn 7", "## Turn 1"]
    assert [line for line in lines if line.startswith("**")] == [
        line for line in lines if line.startswith("**You ·") or line.startswith("**Assistant ·")]
    assert len([line for line in lines if line.startswith("**")]) == 2, "only the exporter's two role lines"
    assert "<script" not in exported and "<img" not in exported and "<https" not in exported
    assert "[click me](" not in exported and "\\[click me\\](javascript:" in exported, "a link is not a link"
    assert not any(line.startswith(("=====", "> quoted", "```\nan")) for line in lines)
    assert "\\```" in exported, "the unclosed fence is escaped, so it cannot swallow what follows"
    assert "```python\n# a comment <x>\n```" in exported, "balanced code in an answer stays code"


def test_export_all_names_files_only_inside_the_chosen_folder(tmp_path: Path) -> None:
    from mfs_desktop.services.transfer.exports import export_file_name

    assert export_file_name("../x", "md") == "___x.md"
    assert export_file_name("/etc/passwd", "json") == "_etc_passwd.json"
    assert export_file_name("", "md") == "conversation.md"
    data = tmp_path / "data"
    session = open_test_session(data)
    session.transcript.create_conversation("one")
    session.close()
    out = tmp_path / "out"
    result = run_cli("export", "--all", "--out", str(out), data_dir=data)
    assert result.returncode == 0, result.stderr
    assert [p.parent for p in out.iterdir()] == [out] and len(list(tmp_path.iterdir())) == 2
