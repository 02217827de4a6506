"""One conversation of Claude's `conversations.json`.

A message's `content` blocks are what was said; its flat `text` is a rendering of them for
old clients (thinking glued to the answer, tools replaced by "not supported on your device"
placeholders), read only when a message has no blocks. Text blocks are the words; thinking is
kept apart; an artifact (the code or document Claude wrote) stays in the answer as a fenced
block; other tools become tool messages. What the user attached keeps its extracted text (as
a document snapshot); a file without one becomes a marker.
"""

from __future__ import annotations

import json
import re

from mfs_desktop.services.transfer.foreign_common import Counts, Transcript, clean, fenced, note, now, when
from mfs_desktop.store.attachments import AttachmentBlob
from mfs_desktop.store.transcript_import import ImportedMessage

_ROLES = {"human": "user", "assistant": "assistant"}
# what old clients show in place of a tool, an artifact or an analysis block
_PLACEHOLDER = re.compile(
    r"(?:```[ \t]*\n)?[ \t]*(?:This block is not supported on your device yet|Viewing artifacts created via the "
    r"Analysis Tool web feature preview isn[’']t yet supported on mobile)\.?[ \t]*(?:\n```)?")
_ARTIFACT_LANGUAGES = {"text/markdown": "markdown", "text/html": "html", "application/vnd.ant.react": "jsx",
                       "image/svg+xml": "svg", "application/vnd.ant.mermaid": "mermaid"}


def claude_messages(item: dict, counts: Counts) -> tuple[str, str, float, list[ImportedMessage]]:
    """(source id, title, created_at, messages) of one exported conversation."""
    chat = item["chat_messages"]
    if not isinstance(chat, list):
        raise TypeError("its chat_messages is not a list")
    created = when(item.get("created_at"))
    transcript = Transcript(counts, created or now())
    known: dict[str, dict] = {}  # artifact id -> its title and type, which a rewrite does not repeat
    for message in chat:
        if not isinstance(message, dict):
            raise TypeError("a message is not an object")
        role = _ROLES.get(message.get("sender"))  # type: ignore[arg-type]
        if role is None:
            note(counts, f"role:{message.get('sender')}")
            continue
        stamp = transcript.time(message.get("created_at"))
        if role == "user":
            _read_user(transcript, message, stamp, counts)
        else:
            _read_assistant(transcript, message, stamp, counts, known)
    messages = transcript.finish()
    created = transcript.created_at(created)
    title = str(item.get("name") or "")
    return clean(str(item.get("uuid") or created), counts), clean(title, counts), created, messages


def _blocks(message: dict) -> list[dict]:
    content = message.get("content")
    return [block for block in content if isinstance(block, dict)] if isinstance(content, list) else []


def _without_placeholders(text: str, counts: Counts) -> str:
    text, dropped = _PLACEHOLDER.subn("", text)
    note(counts, "placeholders", dropped)
    return text


def _flat_text(message: dict, counts: Counts) -> str:
    text = message.get("text")
    return _without_placeholders(text, counts) if isinstance(text, str) else ""


def _read_user(transcript: Transcript, message: dict, stamp: float, counts: Counts) -> None:
    blocks = _blocks(message)
    text = "".join(_without_placeholders(block["text"], counts) for block in blocks
                   if block.get("type") == "text" and isinstance(block.get("text"), str))
    for block in blocks:
        if block.get("type") != "text":
            note(counts, f"part:{block.get('type')}")
    if not text.strip():
        text = _flat_text(message, counts)
    pieces = [text.strip()] if text.strip() else []
    document = None
    pasted: set[str] = set()
    for attachment in message.get("attachments") or []:
        if not isinstance(attachment, dict):
            continue
        name = str(attachment.get("file_name") or "")
        extracted = attachment.get("extracted_content")
        if isinstance(extracted, str) and extracted.strip():
            extracted = clean(extracted, counts)
            # as the composer sends a document: its text in the message, the file as a snapshot
            pieces.append(f"[document: {name or 'attachment'}]\n{extracted}")
            if document is None:
                document = AttachmentBlob(extracted.encode("utf-8"), clean(name, counts), "text/plain", stamp)
            note(counts, "documents")
            pasted.add(name)
        else:
            pieces.append(_file_marker(name, attachment.get("file_type"), counts))
    for file in message.get("files") or message.get("files_v2") or []:
        if isinstance(file, dict) and str(file.get("file_name") or "") not in pasted:
            pieces.append(_file_marker(str(file.get("file_name") or ""), file.get("file_kind"), counts))
    if pieces:
        transcript.user("\n\n".join(pieces), stamp, origin="document" if document else "", document=document)


def _file_marker(name: str, kind: object, counts: Counts) -> str:
    image = kind == "image" or (isinstance(kind, str) and kind.startswith("image/"))
    note(counts, "images" if image else "files")
    return f"[{'image' if image else 'file'}{': ' + name if name else ''}]"


def _read_assistant(transcript: Transcript, message: dict, stamp: float, counts: Counts,
                    known: dict[str, dict]) -> None:
    blocks = _blocks(message)
    words: list[str] = []
    artifacts: set[str] = set()
    read_any = False

    def say() -> None:
        text = "".join(words).strip()
        words.clear()
        if text:
            transcript.assistant(text, stamp)

    for block in blocks:
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            words.append(_without_placeholders(block["text"], counts))
        elif kind == "thinking" and isinstance(block.get("thinking"), str):
            say()  # thinking before the words it led to
            transcript.think(block["thinking"])
        elif kind == "tool_use":
            artifact = _artifact(block, known)
            if artifact is not None:
                words.append(f"\n\n{artifact}\n\n")
                artifacts.update({str(block.get("id")), "artifacts"})  # a result names the call by id or by tool
                note(counts, "artifacts")
            else:
                say()
                arguments = json.dumps(block.get("input") or {}, ensure_ascii=False)
                transcript.call(str(block.get("name") or "tool"), arguments, stamp, str(block.get("id") or ""))
        elif kind == "tool_result":
            if str(block.get("tool_use_id") or block.get("name")) in artifacts:
                note(counts, "artifact_results")  # "OK": the artifact itself is in the answer
                continue
            say()
            transcript.result(str(block.get("name") or "tool"), _result_text(block.get("content")), stamp,
                              str(block.get("tool_use_id") or ""))
        else:
            note(counts, f"part:{kind}")
            continue
        read_any = True
    say()
    if not read_any:  # no blocks (an old export): the flat text is all there is
        text = _flat_text(message, counts).strip()
        if text:
            transcript.assistant(text, stamp)


def _artifact(block: dict, known: dict[str, dict]) -> str | None:
    """An artifact Claude wrote (`artifacts` tool, create or rewrite) as a fenced block under its
    title; None for any other tool, or an artifact edit that carries no full text."""
    source = block.get("input")
    if block.get("name") != "artifacts" or not isinstance(source, dict) or not isinstance(source.get("content"), str):
        return None
    source = known.setdefault(str(source.get("id")), {}) | {k: v for k, v in source.items() if v}
    known[str(source.get("id"))] = source
    language = source.get("language") or _ARTIFACT_LANGUAGES.get(str(source.get("type") or ""), "")
    return fenced(source["content"], str(language), str(source.get("title") or ""))


def _result_text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(part.get("text")) if isinstance(part, dict) and isinstance(part.get("text"), str)
                         else json.dumps(part, ensure_ascii=False) for part in content)
    return "" if content is None else json.dumps(content, ensure_ascii=False)
