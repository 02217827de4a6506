"""Conversations from other apps' data exports: ChatGPT's and Claude's `conversations.json`,
as the file or inside the export's zip.

Only what was said is taken: the user's and the assistant's text, in the order shown, with
its times. ChatGPT keeps every branch of an edited conversation; the one on screen (from
`current_node` up to the root) is imported. System and tool messages, images and hidden
context are counted as skipped, never silently dropped. Nothing is written until the whole
file has been read and checked; then everything goes in one transaction, and a conversation
imported before (same source and id) is left as it is.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from mfs_desktop.errors import InvalidInput
from mfs_desktop.store.database import Database
from mfs_desktop.store.transcript_import import ImportedMessage, import_plain_conversations
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

MAX_EXPORT_BYTES = 1 << 30  # a heavy ChatGPT user's conversations.json reaches some hundred MB
ZIP_MEMBER = "conversations.json"
_CANNOT_READ = QT_TRANSLATE_NOOP("", "Cannot read {path}: {error}.")


@dataclass(frozen=True)
class ForeignConversation:
    source_id: str
    title: str
    created_at: float
    messages: tuple[ImportedMessage, ...]


@dataclass(frozen=True)
class ForeignExport:
    app: str  # "chatgpt" | "claude"
    conversations: tuple[ForeignConversation, ...]
    skipped: dict[str, int] = field(default_factory=dict)  # why -> how many messages

    def preview(self, translate: Callable[[str], str] = str) -> str:
        """What the export holds and leaves out; the window passes its `tr`, the CLI prints English."""
        messages = sum(len(c.messages) for c in self.conversations)
        each = translate(QT_TRANSLATE_NOOP("", "{count:,} {reason}"))
        skipped = ", ".join(each.format(count=count, reason=translate(why))
                            for why, count in sorted(self.skipped.items()) if count)
        held = translate(QT_TRANSLATE_NOOP("", "{app} export: {conversations:,} conversations, {messages:,} messages"))
        line = held.format(app=APP_NAMES[self.app], conversations=len(self.conversations), messages=messages)
        return line + (translate(QT_TRANSLATE_NOOP("", " (left out: {skipped})")).format(skipped=skipped)
                       if skipped else "")


APP_NAMES = {"chatgpt": "ChatGPT", "claude": "Claude"}


def is_foreign_export(path: Path) -> bool:
    """Another app's export is a zip or a JSON list; an MFS Desktop export is a JSON object."""
    try:
        if zipfile.is_zipfile(path):
            return True
        with open(path, "rb") as handle:
            start = handle.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError as error:
        raise InvalidInput.worded(_CANNOT_READ, path=path, error=error.strerror or error) from None
    return start.startswith(b"[")


def read_export_document(path: Path) -> object:
    """The parsed conversations.json of `path` (the file itself, or the export's zip)."""
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                member = next((i for i in archive.infolist() if Path(i.filename).name == ZIP_MEMBER), None)
                if member is None:
                    raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{path} is a zip without a {member}: not a "
                                                                    "ChatGPT or Claude export."),
                                              path=path, member=ZIP_MEMBER)
                if member.file_size > MAX_EXPORT_BYTES:
                    raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{member} in {path} is over {limit:,} MB."),
                                              member=ZIP_MEMBER, path=path, limit=MAX_EXPORT_BYTES >> 20)
                raw = archive.read(member)
        else:
            if path.stat().st_size > MAX_EXPORT_BYTES:
                raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{path} is over {limit:,} MB."), path=path,
                                          limit=MAX_EXPORT_BYTES >> 20)
            raw = path.read_bytes()
        return json.loads(raw.decode("utf-8"))
    except (OSError, zipfile.BadZipFile) as error:
        raise InvalidInput.worded(_CANNOT_READ, path=path, error=error) from None
    except UnicodeDecodeError:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{path} is not UTF-8 text: not a ChatGPT or Claude export."),
                                  path=path) from None
    except json.JSONDecodeError as error:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{path} is not valid JSON ({problem} at line {line}); "
                                                        "nothing was imported."),
                                  path=path, problem=error.msg, line=error.lineno) from None
    except RecursionError:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{path} is nested too deeply to be an export; nothing was "
                                                        "imported."), path=path) from None


def detect_app(document: object) -> str | None:
    if not isinstance(document, list) or not document or not isinstance(document[0], dict):
        return None
    first = document[0]
    if "mapping" in first:
        return "chatgpt"
    if "chat_messages" in first:
        return "claude"
    return None


def read_foreign_export(document: object) -> ForeignExport:
    app = detect_app(document)
    if app is None:
        raise InvalidInput(QT_TRANSLATE_NOOP("", "Not a ChatGPT or Claude export (a list of conversations with "
                                                 "`mapping` or `chat_messages`)."))
    skipped: dict[str, int] = {}
    reader: Callable[[dict, dict[str, int]], ForeignConversation | None] = (
        _chatgpt_conversation if app == "chatgpt" else _claude_conversation)
    conversations = []
    for index, item in enumerate(document):  # type: ignore[arg-type]
        if not isinstance(item, dict):
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Conversation {number} of the export is not an object; "
                                                            "nothing was imported."), number=index + 1)
        try:
            conversation = reader(item, skipped)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Conversation {number} of the export is malformed "
                                                            "({kind}: {detail}); nothing was imported."),
                                      number=index + 1, kind=type(error).__name__, detail=str(error)[:80]) from None
        if conversation is not None:
            conversations.append(conversation)
        else:
            _count(skipped, QT_TRANSLATE_NOOP("", "empty conversations"))
    return ForeignExport(app, tuple(conversations), skipped)


_FILES = QT_TRANSLATE_NOOP("", "images and files")
# The roles an export may hold besides the two imported; another is named as it is written.
_ROLES = {"system": QT_TRANSLATE_NOOP("", "system messages"), "tool": QT_TRANSLATE_NOOP("", "tool messages"),
          "": QT_TRANSLATE_NOOP("", "unknown messages")}


def _role_messages(role: object) -> str:
    return _ROLES.get(str(role or ""), f"{role} messages")


def _count(skipped: dict[str, int], why: str) -> None:
    skipped[why] = skipped.get(why, 0) + 1


def _clean(text: str, skipped: dict[str, int]) -> str:
    if "\x00" in text:  # the transcript refuses NUL; shown as the replacement character instead
        _count(skipped, QT_TRANSLATE_NOOP("", "NUL characters replaced"))
        return text.replace("\x00", "\ufffd")
    return text


def _finish(source_id: str, title: str, created_at: float, messages: list[ImportedMessage],
            skipped: dict[str, int]) -> ForeignConversation | None:
    while messages and messages[0].role != "user":  # a transcript starts with the user
        messages.pop(0)
        _count(skipped, QT_TRANSLATE_NOOP("", "assistant messages before the first user message"))
    if not messages:
        return None
    return ForeignConversation(source_id, title.strip()[:200], created_at, tuple(messages))


def _chatgpt_conversation(item: dict, skipped: dict[str, int]) -> ForeignConversation | None:
    mapping = item["mapping"]
    if not isinstance(mapping, dict):
        raise TypeError("its mapping is not an object")
    node = item.get("current_node")
    path: list[dict] = []
    seen: set[str] = set()
    while node is not None and node in mapping and node not in seen:  # from the shown leaf to the root
        seen.add(node)
        path.append(mapping[node])
        node = mapping[node].get("parent")
    messages: list[ImportedMessage] = []
    created = float(item.get("create_time") or 0.0)
    for entry in reversed(path):
        message = entry.get("message")
        if not message:
            continue
        role = (message.get("author") or {}).get("role")
        content = message.get("content") or {}
        hidden = (message.get("metadata") or {}).get("is_visually_hidden_from_conversation")
        if role not in ("user", "assistant") or hidden:
            _count(skipped, _role_messages(role) if not hidden else QT_TRANSLATE_NOOP("", "hidden messages"))
            continue
        text = _chatgpt_text(content, skipped)
        if not text.strip():
            continue
        messages.append(ImportedMessage(role, _clean(text, skipped), float(message.get("create_time") or created)))
    source = str(item.get("conversation_id") or item.get("id") or f"{created}-{item.get('title', '')}")
    return _finish(source, str(item.get("title") or ""), created, messages, skipped)


def _chatgpt_text(content: dict, skipped: dict[str, int]) -> str:
    kind = content.get("content_type")
    if kind == "code":
        return "```\n" + str(content.get("text", "")) + "\n```"
    if kind not in ("text", "multimodal_text"):
        _count(skipped, f"{kind} parts" if kind else QT_TRANSLATE_NOOP("", "unknown parts"))
        return ""
    pieces = []
    for part in content.get("parts") or []:
        if isinstance(part, str):
            pieces.append(part)
        else:
            _count(skipped, _FILES)
    return "\n".join(pieces)


def _claude_time(text: object) -> float:
    if not isinstance(text, str) or not text:
        return 0.0
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def _claude_conversation(item: dict, skipped: dict[str, int]) -> ForeignConversation | None:
    created = _claude_time(item.get("created_at"))
    messages: list[ImportedMessage] = []
    if not isinstance(item["chat_messages"], list):
        raise TypeError("its chat_messages is not a list")
    for message in item["chat_messages"]:
        role = {"human": "user", "assistant": "assistant"}.get(message.get("sender"))
        if role is None:
            _count(skipped, _role_messages(message.get("sender")))
            continue
        text = message.get("text") or "\n".join(
            part.get("text", "") for part in message.get("content") or [] if part.get("type") == "text")
        if message.get("attachments") or message.get("files"):
            _count(skipped, _FILES)
        if not str(text).strip():
            continue
        messages.append(ImportedMessage(role, _clean(str(text), skipped),
                                        _claude_time(message.get("created_at")) or created))
    return _finish(str(item.get("uuid") or created), str(item.get("name") or ""), created, messages, skipped)


def import_foreign(database: Database, export: ForeignExport) -> tuple[list[str], int]:
    """Write the export's conversations in one transaction; (new ids, how many were here already)."""
    return import_plain_conversations(database, export.app, [
        (c.source_id, c.title, c.created_at, list(c.messages)) for c in export.conversations])
