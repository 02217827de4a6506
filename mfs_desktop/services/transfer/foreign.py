"""Conversations from other apps' data exports: ChatGPT's and Claude's `conversations.json`,
as the file or inside the export's zip.

What was said is taken in the order shown, with its times: the user's and the assistant's
words, the model's thinking in a field of its own, tool calls and results as tool messages,
attached text as documents, images and files as markers where they stood (readers in
foreign_chatgpt.py and foreign_claude.py). Whatever is kept apart, changed or left out is
counted, and the preview says so in words; nothing is lost silently. Nothing is written until
the whole file has been read and checked; then everything goes in one transaction, and a
conversation imported before (same source and id) is left as it is.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mfs_desktop.errors import InvalidInput
from mfs_desktop.services.transfer.chatgpt import chatgpt_messages
from mfs_desktop.services.transfer.claude import claude_messages
from mfs_desktop.services.transfer.foreign_common import NOTES, PART_NOTE, ROLE_NOTE, clean, note
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
    counts: dict[str, int] = field(default_factory=dict)  # kind (foreign_common.NOTES) -> how many

    def preview(self, translate: Callable[[str], str] = str) -> str:
        """What the export holds, keeps apart and leaves out; the window passes its `tr`, the CLI prints English."""
        messages = sum(len(c.messages) for c in self.conversations)
        held = translate(QT_TRANSLATE_NOOP("", "{app} export: {conversations:,} conversations, {messages:,} messages"))
        line = held.format(app=APP_NAMES[self.app], conversations=len(self.conversations), messages=messages)
        notes = ", ".join(_worded(kind, count, translate) for kind, count in _in_reading_order(self.counts))
        return line + (translate(QT_TRANSLATE_NOOP("", " ({notes})")).format(notes=notes) if notes else "")


def _in_reading_order(counts: dict[str, int]) -> list[tuple[str, int]]:
    known = [(kind, counts[kind]) for kind in NOTES if counts.get(kind)]
    named = sorted((kind, count) for kind, count in counts.items() if kind not in NOTES and count)
    return known + named


def _worded(kind: str, count: int, translate: Callable[[str], str]) -> str:
    prefix, _, name = kind.partition(":")
    one, many = NOTES.get(kind) or (PART_NOTE if prefix == "part" else ROLE_NOTE)
    return translate(one if count == 1 else many).format(count=count, name=name or "?")


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
    assert isinstance(document, list)  # detect_app said so
    counts: dict[str, int] = {}
    reader = chatgpt_messages if app == "chatgpt" else claude_messages
    conversations = []
    for index, item in enumerate(document):
        if not isinstance(item, dict):
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Conversation {number} of the export is not an object; "
                                                            "nothing was imported."), number=index + 1)
        try:
            conversation = _finish(*reader(item, counts), counts)
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError, RecursionError) as error:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Conversation {number} of the export is malformed "
                                                            "({kind}: {detail}); nothing was imported."),
                                      number=index + 1, kind=type(error).__name__,
                                      detail=clean(str(error)[:80], {})) from None
        if conversation is not None:
            conversations.append(conversation)
        else:
            note(counts, "empty_conversations")
    return ForeignExport(app, tuple(conversations), counts)


def _finish(source_id: str, title: str, created_at: float, messages: list[ImportedMessage],
            counts: dict[str, int]) -> ForeignConversation | None:
    first_user = next((index for index, message in enumerate(messages) if message.role == "user"), len(messages))
    note(counts, "before_first", first_user)  # a transcript starts with the user (a custom GPT's greeting)
    if first_user == len(messages):
        return None
    return ForeignConversation(source_id, title.strip()[:200], created_at, tuple(messages[first_user:]))


def import_foreign(database: Database, export: ForeignExport) -> tuple[list[str], int]:
    """Write the export's conversations in one transaction; (new ids, how many were here already)."""
    return import_plain_conversations(database, export.app, [
        (c.source_id, c.title, c.created_at, list(c.messages)) for c in export.conversations])
