"""Key management for the encrypted database: OS keychain, passphrase fallback, rekey."""

from mfs_desktop.vault.keychain import KeychainStatus, keychain_status
from mfs_desktop.vault.vault_file import (
    KEY_BYTES,
    VaultRecord,
    keychain_record,
    new_database_key,
    passphrase_record,
    read_vault,
    unlock_record,
    write_vault,
)

__all__ = [
    "KEY_BYTES",
    "KeychainStatus",
    "VaultRecord",
    "keychain_record",
    "keychain_status",
    "new_database_key",
    "passphrase_record",
    "read_vault",
    "unlock_record",
    "write_vault",
]
