"""Open the data directory: find or create the key, open and verify the database.

A rekey writes the new vault record to `vault.json.pending` before it re-encrypts and
replaces `vault.json` after, so a crash at any point leaves one record that opens the
database; `open_database` finishes or discards a pending rekey.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mfs_desktop.errors import DatabaseDamaged, KeychainProblem, NotAnMfsDatabase, PassphraseRequired, WrongPassphrase
from mfs_desktop.paths import DATABASE_FILENAME, VAULT_FILENAME
from mfs_desktop.services.access import create_private_file, make_data_folder, make_private, require_data_access
from mfs_desktop.store.database import PLAIN_SQLITE_HEADER, Database
from mfs_desktop.translatable import QT_TRANSLATE_NOOP
from mfs_desktop.vault import keychain
from mfs_desktop.vault.vault_file import (
    DEFAULT_SCRYPT_N,
    VaultRecord,
    keychain_record,
    new_database_id,
    new_database_key,
    passphrase_record,
    read_vault,
    unlock_record,
    write_vault,
)

PassphraseSource = Callable[[bool], str | None]
"""Asked for the passphrase; the argument says whether it is a new one being chosen."""


@dataclass(frozen=True)
class DataDir:
    root: Path

    @property
    def database(self) -> Path:
        return self.root / DATABASE_FILENAME

    @property
    def vault(self) -> Path:
        return self.root / VAULT_FILENAME

    @property
    def pending_vault(self) -> Path:
        return self.root / (VAULT_FILENAME + ".pending")

    @property
    def database_files(self) -> tuple[Path, ...]:
        """The database, its journal and the lock every process holds while it has it open."""
        ends = ("-wal", "-shm", ".lock")
        return (self.database, *(self.database.with_name(self.database.name + end) for end in ends))


def prefers_keychain() -> bool:
    """`MFS_KEY_STORE=passphrase` keeps the key out of the keychain even where one works."""
    if os.environ.get("MFS_KEY_STORE", "").lower() == "passphrase":
        return False
    return keychain.keychain_status().usable


def open_database(
    data_dir: DataDir,
    passphrase: PassphraseSource,
    *,
    use_keychain: bool | None = None,
    scrypt_n: int = DEFAULT_SCRYPT_N,
) -> Database:
    """Open the data dir's database, creating key and database on the very first start."""
    require_data_access(data_dir.root, readable=(data_dir.vault, data_dir.pending_vault),
                        writable=data_dir.database_files)
    make_private(data_dir.root, (data_dir.vault, data_dir.pending_vault, *data_dir.database_files))
    if not data_dir.vault.exists():
        return _first_start(
            data_dir, passphrase, prefers_keychain() if use_keychain is None else use_keychain, scrypt_n
        )
    if not data_dir.database.exists():
        raise NotAnMfsDatabase(
            f"{data_dir.database} is missing although its key file exists; restore the database "
            f"(or remove {data_dir.vault.name} to start over with an empty one)."
        )
    if data_dir.database.stat().st_size == 0:  # SQLite would take it for a new database and fill it
        raise DatabaseDamaged(
            f"{data_dir.database} is empty (0 bytes) although its key file exists: it was truncated. Restore it "
            f"from a backup (or remove {data_dir.vault.name} to start over with an empty one); nothing was written."
        )
    records = [read_vault(data_dir.vault)]
    if data_dir.pending_vault.exists():
        records.append(read_vault(data_dir.pending_vault))
    typed = passphrase(False) if any(r.mode == "passphrase" for r in records) else None
    failures: list[Exception] = []
    for index, record in enumerate(records):
        try:
            key = unlock_record(record, typed)
            database = Database(data_dir.database, key)
        except (WrongPassphrase, DatabaseDamaged, KeychainProblem, PassphraseRequired) as exc:
            failures.append(exc)
            continue
        _settle_pending(data_dir, records, index)
        return database
    # Mid-rekey, the old record may unlock a key the database no longer has: what the user
    # must hear then is that the passphrase is not the current one.
    raise next((f for f in failures if isinstance(f, WrongPassphrase)), failures[0])


def _first_start(data_dir: DataDir, passphrase: PassphraseSource, use_keychain: bool, scrypt_n: int) -> Database:
    if data_dir.database.exists() and data_dir.database.stat().st_size > 0:
        with open(data_dir.database, "rb") as handle:
            plain = handle.read(16) == PLAIN_SQLITE_HEADER
        kind = "an unencrypted SQLite file" if plain else "a database without its key file"
        raise NotAnMfsDatabase(
            f"{data_dir.database} is {kind} ({data_dir.vault.name} is missing); it was not opened or changed."
        )
    make_data_folder(data_dir.root)
    create_private_file(data_dir.database)
    key = new_database_key()
    database_id = new_database_id()
    if use_keychain:
        record = keychain_record(database_id, key)
    else:
        chosen = passphrase(True)
        if chosen is None:
            raise PassphraseRequired(
                QT_TRANSLATE_NOOP("", "No system keychain is available: choose a passphrase (or set MFS_PASSPHRASE) "
                                      "to create the database."))
        record = passphrase_record(database_id, key, chosen, scrypt_n)
    write_vault(data_dir.vault, record)
    return Database(data_dir.database, key)


def _settle_pending(data_dir: DataDir, records: list[VaultRecord], opened: int) -> None:
    if len(records) == 1:
        return
    current, pending = records
    if opened == 1:  # the rekey reached the database; make its record the current one
        os.replace(data_dir.pending_vault, data_dir.vault)
        _forget_if_keychain(current, pending)
    else:  # the rekey never reached the database; drop its record
        data_dir.pending_vault.unlink()
        _forget_if_keychain(pending, current)


def _forget_if_keychain(stale: VaultRecord, kept: VaultRecord) -> None:
    if stale.mode == "keychain" and stale.keychain_user != kept.keychain_user:
        with contextlib.suppress(KeychainProblem):
            keychain.forget_key(stale.keychain_user)


def rekey(
    data_dir: DataDir,
    database: Database,
    *,
    new_passphrase: str | None = None,
    to_keychain: bool = False,
    scrypt_n: int = DEFAULT_SCRYPT_N,
) -> VaultRecord:
    """Re-encrypt under a fresh random key, protected by a new passphrase or by the keychain."""
    current = read_vault(data_dir.vault)
    key = new_database_key()
    if to_keychain:
        if not keychain.keychain_status().usable:
            raise KeychainProblem("No working system keychain here; the key stays where it is. Nothing was changed.")
        record = keychain_record(current.database_id, key)
    elif new_passphrase:
        record = passphrase_record(current.database_id, key, new_passphrase, scrypt_n)
    else:
        raise PassphraseRequired(QT_TRANSLATE_NOOP("", "Give a new passphrase or choose the keychain."))
    with database.alone():
        write_vault(data_dir.pending_vault, record)
        database.rekey(key)
        os.replace(data_dir.pending_vault, data_dir.vault)
    _forget_if_keychain(current, record)
    return record
