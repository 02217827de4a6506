"""A message on its way in: refused while the composer still holds it, or stored before any
model work that must precede its turn (issue 33) — finishing an interrupted answer, loading the
model — so that from then on a kill cannot lose it."""

from __future__ import annotations

from mfs_desktop.errors import InvalidInput
from mfs_desktop.profile import ContextProfile
from mfs_desktop.runtime.estimate import estimate_text_tokens
from mfs_desktop.services.conversation.owner import this_process
from mfs_desktop.services.session import Session
from mfs_desktop.store.models import MessageDraft
from mfs_desktop.store.outbox import Outbox
from mfs_desktop.translatable import QT_TRANSLATE_NOOP


def refuse_unsendable(text: str, profile: ContextProfile) -> None:
    """Refused before anything is stored: the composer keeps the text."""
    if not text.strip():
        raise InvalidInput(QT_TRANSLATE_NOOP("", "The message is empty."))
    if "\x00" in text:
        raise InvalidInput(QT_TRANSLATE_NOOP("", "The message holds NUL characters: it looks like binary data, not "
                                                 "text. Attach the file as a document instead."))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: invalid UTF-8 on a command line, or a broken paste
        raise InvalidInput(QT_TRANSLATE_NOOP("", "The message is not valid text (it holds bytes that are not UTF-8); "
                                                 "nothing was stored.")) from None
    limit = profile.tokens(profile.message_max)
    # Characters first: tokenizing megabytes only to refuse them would stall the worker.
    tokens = limit * 16 if len(text) > limit * 16 else estimate_text_tokens(text)
    if tokens > limit:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The message is too long for this model's window: about "
                                                        "{tokens:,} tokens, at most {limit:,} (half of the "
                                                        "{window:,}-token window). Shorten it or split it."),
                                  tokens=tokens, limit=limit, window=profile.window)


def queue_message(session: Session, conversation_id: str, text: str, profile: ContextProfile, *, origin: str = "",
                  quoted_uid: int | None = None, attachment_sha256: str | None = None) -> None:
    """Store the user's message before any model work that precedes its turn (finishing an
    interrupted answer, loading the model): from here on a kill cannot lose it (issue 33)."""
    refuse_unsendable(text, profile)
    session.transcript.conversation(conversation_id)  # a plain error for an unknown or deleted one
    Outbox(session.database).put(conversation_id, MessageDraft(
        "user", text, origin=origin, quoted_uid=quoted_uid, attachment_sha256=attachment_sha256), this_process())
