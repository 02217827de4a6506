"""An open data directory: the unlocked database and its repositories."""

from __future__ import annotations

from dataclasses import dataclass

from mfs_desktop.services.unlock import DataDir, PassphraseSource, open_database
from mfs_desktop.store.attachments import AttachmentStore
from mfs_desktop.store.database import Database
from mfs_desktop.store.retention import RetentionReport, apply_retention
from mfs_desktop.store.transcript import TranscriptStore
from mfs_desktop.vault.vault_file import DEFAULT_SCRYPT_N


@dataclass(frozen=True)
class Session:
    data_dir: DataDir
    database: Database
    transcript: TranscriptStore
    attachments: AttachmentStore
    retention: RetentionReport

    def close(self) -> None:
        self.database.close()


def open_session(
    data_dir: DataDir,
    passphrase: PassphraseSource,
    *,
    use_keychain: bool | None = None,
    scrypt_n: int = DEFAULT_SCRYPT_N,
) -> Session:
    """Unlock and open; expired trash, attachments and ledger rows are purged on the way in."""
    database = open_database(data_dir, passphrase, use_keychain=use_keychain, scrypt_n=scrypt_n)
    try:
        report = apply_retention(database)
    except BaseException:
        database.close()
        raise
    return Session(data_dir, database, TranscriptStore(database), AttachmentStore(database), report)
