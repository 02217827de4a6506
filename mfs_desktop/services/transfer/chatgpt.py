"""One conversation of ChatGPT's `conversations.json`.

ChatGPT keeps every branch of an edited or regenerated conversation in `mapping`; the one on
screen runs from `current_node` up to the root. An export without `current_node` (or with one
that points nowhere) shows its newest leaf instead, so no conversation is lost for a missing
field. Along that branch: the user's and the assistant's words (text parts in any shape, voice
transcripts, images and files as short markers where they stood), the assistant's tool calls
and the tools' results as tool messages (never as the assistant's words), thinking apart from
the answer; hidden and system context is skipped with a count.
"""

from __future__ import annotations

import json

from mfs_desktop.services.transfer.foreign_common import Counts, Transcript, clean, fenced, note, now, when
from mfs_desktop.store.transcript_import import ImportedMessage

_THINKING = ("thoughts", "reasoning_recap")
_AUDIO = ("audio_asset_pointer", "real_time_user_audio_video_asset_pointer")


def chatgpt_messages(item: dict, counts: Counts) -> tuple[str, str, float, list[ImportedMessage]]:
    """(source id, title, created_at, messages) of one exported conversation."""
    mapping = item["mapping"]
    if not isinstance(mapping, dict):
        raise TypeError("its mapping is not an object")
    created = when(item.get("create_time"))
    transcript = Transcript(counts, created or now())
    for node in _shown_branch(mapping, item.get("current_node")):
        message = node.get("message")
        if isinstance(message, dict):
            _read_message(transcript, message, counts)
    messages = transcript.finish()
    created = transcript.created_at(created)
    title = str(item.get("title") or "")
    source = str(item.get("conversation_id") or item.get("id") or f"{created}-{title}")
    return clean(source, counts), clean(title, counts), created, messages


def _shown_branch(mapping: dict, current: object) -> list[dict]:
    """The nodes from the root to `current`, or to the newest leaf when `current` is missing
    or unknown (newest by its message's time; on a tie, the last in the mapping)."""
    if not isinstance(current, str) or current not in mapping:
        current = _newest_leaf(mapping)
    path: list[dict] = []
    seen: set[str] = set()
    node_id = current
    while isinstance(node_id, str) and node_id in mapping and node_id not in seen:  # a cycle ends the walk
        seen.add(node_id)
        node = mapping[node_id]
        if not isinstance(node, dict):
            raise TypeError(f"node {node_id[:40]} is not an object")
        path.append(node)
        node_id = node.get("parent")
    return path[::-1]


def _newest_leaf(mapping: dict) -> str | None:
    parents = {node.get("parent") for node in mapping.values() if isinstance(node, dict)}
    best: tuple[float, int] | None = None
    chosen = None
    for index, (node_id, node) in enumerate(mapping.items()):
        if node_id in parents or not isinstance(node, dict):
            continue
        message = node.get("message")
        stamp = when(message.get("create_time")) if isinstance(message, dict) else None
        key = (stamp if stamp is not None else float("-inf"), index)
        if best is None or key >= best:
            best, chosen = key, node_id
    return chosen


def _read_message(transcript: Transcript, message: dict, counts: Counts) -> None:
    author = message.get("author") or {}
    content = message.get("content") or {}
    metadata = message.get("metadata") or {}
    if not isinstance(author, dict) or not isinstance(content, dict) or not isinstance(metadata, dict):
        raise TypeError("a message's author, content or metadata is not an object")
    role = author.get("role")
    kind = content.get("content_type")
    stamp = transcript.time(message.get("create_time"))
    if metadata.get("is_visually_hidden_from_conversation") or role == "system":
        if _has_content(content):  # an empty hidden node loses nothing: not counted
            note(counts, "system" if role == "system" else "hidden")
        return
    recipient = message.get("recipient") or "all"
    if role == "assistant" and (kind in _THINKING or message.get("channel") == "analysis"):
        transcript.think(_thinking_text(content, counts))
    elif role == "tool":
        transcript.result(str(author.get("name") or "tool"), _content_text(content, metadata, counts), stamp)
    elif role == "assistant" and recipient != "all":  # addressed to a tool: a call, not words to the user
        transcript.call(str(recipient), _arguments(_content_text(content, metadata, counts), kind), stamp,
                        str(message.get("id") or ""))
    elif role in ("user", "assistant"):
        text = _content_text(content, metadata, counts)
        if kind == "code" and text:
            language = content.get("language")
            text = fenced(text, language if isinstance(language, str) and language != "unknown" else "")
        if role == "user":
            text = _with_attachments(text, content, metadata, counts)
        if text.strip():
            (transcript.user if role == "user" else transcript.assistant)(text, stamp)
    elif _has_content(content):
        note(counts, f"role:{role}")


def _has_content(content: dict) -> bool:
    return any(value not in (None, "", [], [""], {}) for key, value in content.items() if key != "content_type")


def _thinking_text(content: dict, counts: Counts) -> str:
    """A thinking model's "thoughts" (a summary and the reasoning under it) or its recap line."""
    thoughts = content.get("thoughts")
    if isinstance(thoughts, list):
        passages = []
        for thought in thoughts:
            if isinstance(thought, dict):
                summary, body = thought.get("summary"), thought.get("content")
                passages.append("\n".join(str(part) for part in (summary, body) if isinstance(part, str) and part))
            elif isinstance(thought, str):
                passages.append(thought)
        return "\n\n".join(passage for passage in passages if passage)
    return _content_text(content, {}, counts)


def _content_text(content: dict, metadata: dict, counts: Counts) -> str:
    """The readable text of any content shape: parts (strings, dicts with text, nested parts,
    voice transcripts, images and files as markers), or a single text, result or content."""
    parts = content.get("parts")
    if isinstance(parts, list):
        names = _attachment_names(metadata)
        spoken = any(isinstance(part, dict) and part.get("content_type") == "audio_transcription" for part in parts)
        pieces = [_part_text(part, names, spoken, counts) for part in parts]
        return "\n".join(piece for piece in pieces if piece)
    for key in ("text", "result", "content"):
        if isinstance(content.get(key), str):
            return content[key]
    kind = content.get("content_type")
    if _has_content(content):
        note(counts, f"part:{kind}" if isinstance(kind, str) and kind else "part:?")
    return ""


def _part_text(part: object, names: dict[str, str], spoken: bool, counts: Counts) -> str:
    if isinstance(part, str):
        return part
    if not isinstance(part, dict):
        return "" if part is None else str(part)
    kind = part.get("content_type")
    if kind == "audio_transcription" and isinstance(part.get("text"), str):
        note(counts, "voice")
        return part["text"]
    if kind in _AUDIO:
        if spoken:  # the recording of words the transcript already holds
            return ""
        note(counts, "audio")
        return "[audio]"
    if isinstance(part.get("text"), str):
        return part["text"]
    if isinstance(part.get("parts"), list):
        return "\n".join(piece for piece in (_part_text(inner, names, spoken, counts) for inner in part["parts"])
                         if piece)
    pointer = part.get("asset_pointer")
    if isinstance(pointer, str) or kind == "image_asset_pointer":
        name = names.pop(_asset_id(pointer), "") if isinstance(pointer, str) else ""
        image = kind == "image_asset_pointer" or (kind is None and str(pointer).startswith("file-service://"))
        note(counts, "images" if image else "files")
        return f"[{'image' if image else 'file'}{': ' + name if name else ''}]"
    note(counts, f"part:{kind}" if isinstance(kind, str) and kind else "part:?")
    return ""


def _attachment_names(metadata: dict) -> dict[str, str]:
    """The user's uploaded files by id, so an image part is marked with its file name."""
    attachments = metadata.get("attachments")
    if not isinstance(attachments, list):
        return {}
    return {str(a.get("id")): str(a.get("name") or "") for a in attachments if isinstance(a, dict) and a.get("id")}


def _asset_id(pointer: str) -> str:
    return pointer.rpartition("://")[2]


def _with_attachments(text: str, content: dict, metadata: dict, counts: Counts) -> str:
    """Files the user attached that no part of the message shows: a marker each, after the text."""
    shown = {_asset_id(part["asset_pointer"]) for part in content.get("parts") or []
             if isinstance(part, dict) and isinstance(part.get("asset_pointer"), str)}
    markers = []
    for attachment in metadata.get("attachments") or []:
        if not isinstance(attachment, dict) or str(attachment.get("id")) in shown:
            continue
        image = str(attachment.get("mime_type") or "").startswith("image/")
        name = str(attachment.get("name") or "")
        note(counts, "images" if image else "files")
        markers.append(f"[{'image' if image else 'file'}{': ' + name if name else ''}]")
    return "\n".join(piece for piece in (text, *markers) if piece)


def _arguments(text: str, kind: object) -> str:
    """A tool call's arguments as JSON, as the app's own tool calls store them: the payload
    itself when it is a JSON object (a web search), else wrapped (a code cell, a memory note)."""
    try:
        if isinstance(json.loads(text), dict):
            return text
    except (ValueError, RecursionError):
        pass
    return json.dumps({"code" if kind == "code" else "input": text}, ensure_ascii=False)
