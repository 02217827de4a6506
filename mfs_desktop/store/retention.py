"""Retention: every kind of stored data has a way out (seed 003, section 3.7 and 7.7).

- trash: a deleted conversation is kept 7 days, then purged for real;
- attachment snapshots: kept while any message references them, plus 48 hours of grace;
- ledger rows: kept 180 days, oldest first out.
The transcript itself is never cleaned automatically; only the user deletes it.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from mfs_desktop.store.attachments import AttachmentStore
from mfs_desktop.store.database import Database
from mfs_desktop.store.kv_states import sweep
from mfs_desktop.store.transcript import TranscriptStore

log = logging.getLogger(__name__)

DAY = 86_400.0
TRASH_DAYS = 7
ATTACHMENT_GRACE_HOURS = 48
LEDGER_DAYS = 180


@dataclass(frozen=True)
class RetentionReport:
    conversations_purged: int
    attachments_purged: int
    ledger_rows_purged: int


def apply_retention(database: Database, *, now: float | None = None) -> RetentionReport:
    stamp = time.time() if now is None else now
    transcript = TranscriptStore(database)
    purged = transcript.purge(transcript.trashed_before(stamp - TRASH_DAYS * DAY))
    attachments = AttachmentStore(database).purge_unreferenced(stamp - ATTACHMENT_GRACE_HOURS * 3600.0)
    ledger = database.write(lambda connection: connection.execute(
        "DELETE FROM ledger WHERE created_at < ?", (stamp - LEDGER_DAYS * DAY,)).rowcount)
    report = RetentionReport(purged, attachments, ledger)
    sweep(database)  # saved caches of conversations trashed or purged since
    if purged or attachments or ledger:
        log.info("retention: %d conversations, %d attachments, %d ledger rows purged", purged, attachments, ledger)
    return report


def empty_trash(database: Database) -> int:
    transcript = TranscriptStore(database)
    return transcript.purge([summary.id for summary in transcript.list_conversations(trashed=True)])
