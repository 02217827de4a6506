"""Export to Markdown, JSON and HTML; import JSON back exactly.

Exports are plaintext by the user's explicit choice, and every format says so.
"""

from __future__ import annotations

import base64
import dataclasses
import errno
import hashlib
import html
import json
import os
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from mfs_desktop import __version__
from mfs_desktop.errors import DiskFull, InvalidInput, StorageAccess
from mfs_desktop.services.transfer.checks import MAX_IMPORT_BYTES, checked_list, checked_record, checked_value
from mfs_desktop.store.attachments import AttachmentBlob, AttachmentStore
from mfs_desktop.store.database import Database
from mfs_desktop.store.models import Conversation, Message, Retraction, sha256_text
from mfs_desktop.store.transcript import TranscriptStore
from mfs_desktop.store.transcript_import import import_conversation
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

EXPORT_FORMAT = "mfs-desktop-transcript"
EXPORT_VERSION = 1
FORMATS = ("md", "json", "html")
PLAINTEXT_NOTICE = (
    "This export is PLAINTEXT: unlike the MFS Desktop database it is not encrypted, "
    "and anyone who can read this file can read the conversation."
)
ROLE_LABEL = {"user": "You", "assistant": "Assistant", "tool": "Tool"}


@dataclass(frozen=True)
class ExportRange:
    uid_from: int = 1
    uid_to: int | None = None


def _stamp(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, tz=UTC).strftime("%Y-%m-%d %H:%M UTC")


def _message_heading(message: Message) -> str:
    parts = [ROLE_LABEL[message.role], _stamp(message.created_at), f"uid {message.uid}"]
    if message.tool_name:
        parts.append(f"tool {message.tool_name}")
    if message.origin in ("edited", "quoted_ai", "quoted_ai_annotated", "document"):
        parts.append(message.origin.replace("_", " "))
    if message.status == "partial":
        parts.append("stopped: partial answer")
    return " · ".join(parts)


def export_markdown(database: Database, conversation_id: str, span: ExportRange = ExportRange()) -> str:
    transcript = TranscriptStore(database)
    conversation = transcript.conversation(conversation_id)
    title = markdown_escaped(" ".join((conversation.title or "Untitled conversation").splitlines()))
    lines = [
        f"# {title}",
        "",
        f"> {PLAINTEXT_NOTICE}",
        f"> Exported from MFS Desktop {__version__} on {_stamp(time.time())}; conversation `{conversation.id}`.",
        "",
    ]
    turn = None
    for message in transcript.messages(conversation_id, uid_from=span.uid_from, uid_to=span.uid_to):
        if message.turn_ordinal != turn:
            turn = message.turn_ordinal
            lines += [f"## Turn {turn}", ""]
        lines += [f"**{_message_heading(message)}**", ""]
        if message.tool_arguments:
            lines += ["```json", message.tool_arguments, "```", ""]
        if message.thinking:  # collapsed where Markdown is rendered; the answer below is what was said
            lines += ["<details><summary>Thinking</summary>", "", _fenced(message.thinking), "", "</details>", ""]
        lines += [_fenced(message.text) if message.role == "tool" else markdown_escaped(message.text), ""]
    return "\n".join(lines)


_FENCE = re.compile(r" {0,3}(```|~~~)")
_BLOCK_START = re.compile(r" {0,3}(#|>|\*\*|=+\s*$|-{2,}\s*$)")


def markdown_escaped(text: str) -> str:
    """Message text inside a Markdown export: the export's structure (title, turns, role
    lines) comes only from the exporter. Outside code fences, a line that would open a heading,
    a quote or a bold role line is escaped, HTML is not HTML and a link is not a link; balanced
    fences (an answer's code) stay code, and an unbalanced one cannot swallow what follows."""
    lines = text.split("\n")
    balanced = sum(1 for line in lines if _FENCE.match(line)) % 2 == 0
    out, in_code = [], False
    for line in lines:
        if balanced and _FENCE.match(line):
            in_code = not in_code
            out.append(line)
            continue
        if in_code:
            out.append(line)
            continue
        line = line.replace("<", "&lt;").replace("[", "\\[").replace("]", "\\]")
        if _BLOCK_START.match(line) or _FENCE.match(line):
            line = line.lstrip(" ")
            line = "\\*\\*" + line[2:] if line.startswith("**") else "\\" + line
        out.append(line)
    return "\n".join(out)


def _fenced(text: str) -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}\n{text}\n{fence}"


_HTML_STYLE = """
body{font:15px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d2430;
background:#fafbfc}
.notice{background:#fff4d6;border:1px solid #e8c872;padding:.6rem .9rem;border-radius:6px}
.msg{border-radius:8px;padding:.6rem .9rem;margin:.8rem 0;background:#fff;border:1px solid #dde2ea}
.user{background:#eaf2ff;border-color:#c4d8f7}.tool{background:#f3f3f3;font-family:monospace}
.meta{font-size:12px;color:#5b6575;margin-bottom:.3rem}.text{white-space:pre-wrap;overflow-wrap:anywhere}
"""


def export_html(database: Database, conversation_id: str, span: ExportRange = ExportRange()) -> str:
    """One self-contained page; every piece of stored text is escaped, and the page may run no script."""
    transcript = TranscriptStore(database)
    conversation = transcript.conversation(conversation_id)
    title = html.escape(conversation.title or "Untitled conversation")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        f"<title>{title}</title><style>{_HTML_STYLE}</style></head><body>",
        f"<h1>{title}</h1>",
        f'<p class="notice">{html.escape(PLAINTEXT_NOTICE)}</p>',
        f'<p class="meta">Exported from MFS Desktop {html.escape(__version__)} on {_stamp(time.time())}; '
        f"conversation {html.escape(conversation.id)}.</p>",
    ]
    for message in transcript.messages(conversation_id, uid_from=span.uid_from, uid_to=span.uid_to):
        body = html.escape(message.text)
        if message.tool_arguments:
            body = f"{html.escape(message.tool_arguments)}\n{body}"
        if message.thinking:
            thought = html.escape(message.thinking)
            body = f'<details class="thinking"><summary>Thinking</summary>{thought}</details>{body}'
        parts.append(
            f'<div class="msg {html.escape(message.role)}" id="uid-{message.uid}">'
            f'<div class="meta">{html.escape(_message_heading(message))}</div>'
            f'<div class="text">{body}</div></div>'
        )
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def export_json(database: Database, conversation_id: str) -> str:
    """Everything stored for the conversation's transcript, retracted originals included."""
    transcript = TranscriptStore(database)
    conversation = transcript.conversation(conversation_id)
    messages = transcript.messages(conversation_id, include_retracted=True)
    attachments = AttachmentStore(database)
    blobs = sorted({m.attachment_sha256 for m in messages if m.attachment_sha256})
    document = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "notice": PLAINTEXT_NOTICE,
        "app_version": __version__,
        "exported_at": time.time(),
        "conversation": {
            k: v for k, v in dataclasses.asdict(conversation).items() if k not in ("trashed_at", "block_version")
        },
        "messages": [dataclasses.asdict(m) for m in messages],
        "retractions": [dataclasses.asdict(r) for r in transcript.retractions(conversation_id)],
        "hidden_alternatives": [
            {"uid": uid, "generation_id": g} for uid, g in transcript.hidden_alternatives(conversation_id)
        ],
        "knowledge": [
            {"key": k, "value": v, "source_uid": uid, "updated_at": t}
            for k, v, uid, t in transcript.knowledge(conversation_id)
        ],
        "attachments": [
            {
                **dataclasses.asdict(attachments.info(sha)),
                "data": base64.b64encode(attachments.data(sha)).decode("ascii"),
            }
            for sha in blobs
        ],
    }
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def export_text(database: Database, conversation_id: str, fmt: str, span: ExportRange = ExportRange()) -> str:
    if fmt == "md":
        return export_markdown(database, conversation_id, span)
    if fmt == "html":
        return export_html(database, conversation_id, span)
    if fmt == "json":
        if span != ExportRange():
            raise InvalidInput("A JSON export is always the whole conversation (it is what `import` reads back).")
        return export_json(database, conversation_id)
    raise InvalidInput(f"Unknown export format {fmt!r}; use one of {', '.join(FORMATS)}.")


_CANNOT_READ = QT_TRANSLATE_NOOP("", "Cannot read {path}: {error}.")


def read_import_file(path: Path) -> str:
    try:
        if path.stat().st_size > MAX_IMPORT_BYTES:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{path} is over {limit} MB: not an MFS Desktop export; "
                                                            "nothing was imported."),
                                      path=path, limit=MAX_IMPORT_BYTES // 2**20)
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput.worded(_CANNOT_READ, path=path, error=exc) from None


def import_json(database: Database, text: str) -> str:
    """Import a JSON export; returns the conversation id. Refuses anything that does not
    verify, with a plain message, before anything is stored; the import is one transaction."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Not a JSON export: {problem} at line {line}."),
                                  problem=exc.msg, line=exc.lineno) from None
    except RecursionError:
        raise InvalidInput(QT_TRANSLATE_NOOP("", "Not a JSON export: it is nested too deeply.")) from None
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise InvalidInput(QT_TRANSLATE_NOOP("", "Not an MFS Desktop transcript export."))
    if document.get("version") != EXPORT_VERSION:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Export version {version!r} is not one this MFS Desktop reads "
                                                        "({supported})."),
                                  version=str(document.get("version"))[:20], supported=EXPORT_VERSION)
    conversation = checked_record(Conversation, document.get("conversation"), "conversation", block_version=0,
                                  trashed_at=None)
    messages = [checked_record(Message, item, f"message {index + 1}")
                for index, item in enumerate(checked_list(document, "messages"))]
    retractions = [checked_record(Retraction, item, f"retraction {index + 1}")
                   for index, item in enumerate(checked_list(document, "retractions"))]
    hidden = [_hidden_alternative(item, index) for index, item in
              enumerate(checked_list(document, "hidden_alternatives", required=False))]
    knowledge = [_knowledge_row(item, index) for index, item in
                 enumerate(checked_list(document, "knowledge", required=False))]
    blobs = [_attachment(item, index) for index, item in enumerate(checked_list(document, "attachments"))]
    _verify_messages(conversation, messages)
    for retraction in retractions:
        if retraction.conversation_id != conversation.id:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Retraction of message {uid} belongs to another "
                                                            "conversation."), uid=retraction.uid)
    import_conversation(database, conversation, messages, retractions, hidden, knowledge, blobs)
    return conversation.id


def _fields(item: object, where: str, kinds: dict[str, str]) -> dict:
    if not isinstance(item, dict) or not set(kinds) <= set(item):
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The export's {where} is not an object with {fields}."),
                                  where=where, fields=", ".join(kinds))
    return {key: checked_value(item[key], kind, f"{where}'s {key}") for key, kind in kinds.items()}


def _hidden_alternative(item: object, index: int) -> tuple[int, str]:
    row = _fields(item, f"hidden alternative {index + 1}", {"uid": "int", "generation_id": "str"})
    return row["uid"], row["generation_id"]


def _knowledge_row(item: object, index: int) -> tuple[str, str, int | None, float]:
    row = _fields(item, f"knowledge entry {index + 1}",
                  {"key": "str", "value": "str", "source_uid": "int | None", "updated_at": "float"})
    return row["key"], row["value"], row["source_uid"], float(row["updated_at"])


def _attachment(item: object, index: int) -> AttachmentBlob:
    where = f"attachment {index + 1}"
    row = _fields(item, where, {"sha256": "str", "name": "str", "media_type": "str", "created_at": "float",
                                "data": "str"})
    try:
        data = base64.b64decode(row["data"], validate=True)
    except ValueError:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The export's {where} data is not base64."),
                                  where=where) from None
    if hashlib.sha256(data).hexdigest() != row["sha256"]:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Attachment {sha256}… does not match its content."),
                                  sha256=row["sha256"][:12])
    return AttachmentBlob(data, row["name"], row["media_type"], float(row["created_at"]))


def _verify_messages(conversation: Conversation, messages: Iterable[Message]) -> None:
    previous = 0
    for message in messages:
        if message.conversation_id != conversation.id:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Message {uid} belongs to another conversation."),
                                      uid=message.uid)
        if message.uid <= previous:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Message uids are not increasing at {uid}."),
                                      uid=message.uid)
        if sha256_text(message.text) != message.text_sha256:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Message {uid}'s text does not match its sha256; the "
                                                            "export was altered."), uid=message.uid)
        previous = message.uid


def turn_span(database: Database, conversation_id: str, first_turn: int, last_turn: int) -> ExportRange:
    """The uid range of turns first_turn..last_turn of the current view."""
    row = database.connection().execute(
        "SELECT min(uid), max(uid) FROM messages WHERE conversation_id = ? AND turn_ordinal BETWEEN ? AND ?",
        (conversation_id, first_turn, last_turn)).fetchone()
    if row is None or row[0] is None:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "There are no turns {first}–{last} in this conversation."),
                                  first=first_turn, last=last_turn)
    return ExportRange(row[0], row[1])


def write_export(path: Path, text: str) -> None:
    """A plaintext export, readable by this user only (0600). A regular file is written beside
    its target and moved into place, so a full disk never leaves half an export under the
    real name; a device (`/dev/stdout`) is written directly."""
    data = text.encode("utf-8")
    direct = path.exists() and not path.is_file()
    partial = path if direct else path.with_name(path.name + ".part")
    try:
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(data)
                handle.flush()
                if not direct:
                    os.fsync(handle.fileno())
        except BaseException:
            if not direct:
                partial.unlink(missing_ok=True)
            raise
        if not direct:
            os.replace(partial, path)
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise DiskFull.worded(QT_TRANSLATE_NOOP("", "The disk holding {folder} is full: the export {path} was not "
                                                        "written. Free some space and export again."),
                                  folder=path.parent, path=path) from None
        raise StorageAccess.worded(QT_TRANSLATE_NOOP("", "The export {path} cannot be written: {error}. Choose another "
                                                         "place."), path=path, error=exc.strerror or exc) from None


def export_file_name(conversation_id: str, fmt: str) -> str:
    """A file name from a stored id that can only name a file inside the chosen folder."""
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", conversation_id)[:64] or "conversation"
    return f"{safe}.{fmt}"


def make_export_folder(path: Path) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        raise StorageAccess(f"The export folder {path} cannot be created: {exc.strerror or exc}.") from None
