"""The encrypted canonical transcript (SQLCipher) and its repositories. No Qt here."""

from mfs_desktop.store.attachments import AttachmentStore
from mfs_desktop.store.database import LATEST_VERSION, Database
from mfs_desktop.store.models import Conversation, ConversationSummary, Message, MessageDraft, Retraction
from mfs_desktop.store.transcript import TranscriptStore

__all__ = [
    "LATEST_VERSION",
    "AttachmentStore",
    "Conversation",
    "ConversationSummary",
    "Database",
    "Message",
    "MessageDraft",
    "Retraction",
    "TranscriptStore",
]
