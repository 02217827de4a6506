"""The composer's three channels (seed 003 section 7.5): the channel, not a guess, decides the
message's origin for the user-quote track — own words, a quoted assistant message (with or
without the user's annotation), or a document kept as a snapshot in the encrypted database."""

from __future__ import annotations

from dataclasses import dataclass

from mfs_desktop.errors import InvalidInput
from mfs_desktop.services.conversation.documents import document_text
from mfs_desktop.store.attachments import AttachmentStore
from mfs_desktop.store.database import Database
from mfs_desktop.store.transcript import TranscriptStore
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

PASTE_AS_DOCUMENT_CHARS = 1_500  # seed 003 §7.5: a longer paste is offered as a document


@dataclass(frozen=True)
class Outgoing:
    text: str
    origin: str  # own | quoted_ai | quoted_ai_annotated | document
    quoted_uid: int | None = None
    attachment_sha256: str | None = None


def own_words(text: str) -> Outgoing:
    return Outgoing(text, "own")


def quoting(transcript: TranscriptStore, conversation_id: str, uid: int, annotation: str = "") -> Outgoing:
    """The quoted answer travels with the message, so the model sees what is meant."""
    quoted = next((m for m in transcript.messages(conversation_id, uid_from=uid, uid_to=uid)), None)
    if quoted is None or quoted.role != "assistant":
        raise InvalidInput(QT_TRANSLATE_NOOP("", "Only an assistant message of this conversation can be quoted."))
    block = "\n".join(f"> {line}" for line in quoted.text.splitlines() or [""])
    annotation = annotation.strip()
    return Outgoing(f"{block}\n\n{annotation}" if annotation else block,
                    "quoted_ai_annotated" if annotation else "quoted_ai", quoted_uid=uid)


def attach_document(database: Database, data: bytes, name: str) -> Outgoing:
    """Snapshot the document (content-addressed, encrypted) and make the message that carries it."""
    document = document_text(data, name)
    snapshot = AttachmentStore(database).put(data, name=name, media_type=document.media_type)
    return Outgoing(f"[document: {name}]\n{document.text}", "document", attachment_sha256=snapshot.sha256)


def paste_as_document(database: Database, text: str) -> Outgoing:
    return attach_document(database, text.encode("utf-8"), "pasted text")
