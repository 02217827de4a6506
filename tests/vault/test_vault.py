"""Key vault: passphrase mode, rekey (atomic, crash-safe), and the real OS keychain."""

from __future__ import annotations

import os
from pathlib import Path

import keyring
import pytest
from conftest import PASSPHRASE, TEST_SCRYPT_N, directory_digest, open_test_session, run_cli

from mfs_desktop.errors import WrongPassphrase
from mfs_desktop.services.session import open_session
from mfs_desktop.services.unlock import DataDir, rekey
from mfs_desktop.store.models import MessageDraft
from mfs_desktop.vault import keychain
from mfs_desktop.vault.vault_file import new_database_key, passphrase_record, read_vault, write_vault

needs_secret_service = pytest.mark.skipif(
    not os.environ.get("MFS_TEST_SECRET_SERVICE"), reason="needs the Secret Service that scripts/test starts"
)


def _seed(root: Path) -> str:
    session = open_test_session(root)
    conversation = session.transcript.create_conversation()
    session.transcript.append(conversation.id, [MessageDraft("user", "keep me"), MessageDraft("assistant", "kept")])
    session.close()
    return conversation.id


def test_rekey_changes_passphrase_and_key(data_root: Path) -> None:
    conversation_id = _seed(data_root)
    session = open_test_session(data_root)
    old_key = session.database._key
    rekey(session.data_dir, session.database, new_passphrase="new secret", scrypt_n=TEST_SCRYPT_N)
    session.close()
    with pytest.raises(WrongPassphrase):
        open_test_session(data_root)
    reopened = open_test_session(data_root, "new secret")
    assert reopened.database._key != old_key
    assert [m.text for m in reopened.transcript.messages(conversation_id)] == ["keep me", "kept"]
    reopened.close()
    assert not (data_root / "vault.json.pending").exists()


def test_crash_after_database_rekey_before_vault_swap_recovers(data_root: Path) -> None:
    conversation_id = _seed(data_root)
    session = open_test_session(data_root)
    record = read_vault(session.data_dir.vault)
    key = new_database_key()
    write_vault(session.data_dir.pending_vault, passphrase_record(record.database_id, key, "after", TEST_SCRYPT_N))
    session.database.rekey(key)  # ... and the process dies here, before vault.json is replaced
    session.close()
    with pytest.raises(WrongPassphrase):  # the old passphrase unlocks the old key, which no longer opens it
        open_test_session(data_root)
    recovered = open_test_session(data_root, "after")
    assert [m.text for m in recovered.transcript.messages(conversation_id)] == ["keep me", "kept"]
    recovered.close()
    assert not (data_root / "vault.json.pending").exists()
    open_test_session(data_root, "after").close()


def test_crash_before_database_rekey_discards_pending(data_root: Path) -> None:
    _seed(data_root)
    record = read_vault(DataDir(data_root).vault)
    write_vault(DataDir(data_root).pending_vault,
                passphrase_record(record.database_id, new_database_key(), PASSPHRASE, TEST_SCRYPT_N))
    open_test_session(data_root).close()
    assert not (data_root / "vault.json.pending").exists()


def test_cli_rekey(data_root: Path) -> None:
    _seed(data_root)
    result = run_cli("rekey", data_dir=data_root, MFS_NEW_PASSPHRASE="cli new")
    assert result.returncode == 0, result.stderr
    assert run_cli("list", data_dir=data_root, passphrase="cli new").returncode == 0
    assert run_cli("list", data_dir=data_root).returncode == WrongPassphrase.exit_code


def test_cli_rekey_to_keychain_without_keychain_changes_nothing(data_root: Path) -> None:
    _seed(data_root)
    before = directory_digest(data_root)
    result = run_cli("rekey", "--to-keychain", data_dir=data_root,
                     PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
    assert result.returncode == 7, result.stderr
    assert "Nothing was changed" in result.stderr
    assert directory_digest(data_root) == before


@needs_secret_service
def test_keychain_mode_stores_and_reads_key_for_real(tmp_path: Path) -> None:
    status = keychain.keychain_status()
    assert status.usable, status
    assert "SecretService" in status.backend
    data_dir = DataDir(tmp_path / "kc")
    session = open_session(data_dir, lambda new: None, use_keychain=True)
    conversation = session.transcript.create_conversation()
    key = session.database._key
    session.close()
    record = read_vault(data_dir.vault)
    assert record.mode == "keychain"
    assert keyring.get_password(keychain.SERVICE, record.keychain_user) == key.hex()
    reopened = open_session(data_dir, lambda new: None)
    assert reopened.transcript.conversation(conversation.id).id == conversation.id
    reopened.close()
    keychain.forget_key(record.keychain_user)
    with pytest.raises(keychain.KeychainProblem, match="missing"):
        open_session(data_dir, lambda new: None)


@needs_secret_service
def test_rekey_moves_key_into_keychain(data_root: Path) -> None:
    conversation_id = _seed(data_root)
    session = open_test_session(data_root)
    record = rekey(session.data_dir, session.database, to_keychain=True)
    session.close()
    assert record.mode == "keychain" and "wrap" not in (data_root / "vault.json").read_text()
    reopened = open_session(DataDir(data_root), lambda new: None)
    assert [m.text for m in reopened.transcript.messages(conversation_id)] == ["keep me", "kept"]
    reopened.close()
    keychain.forget_key(record.keychain_user)


def test_endpoint_key_stays_in_the_encrypted_database_without_a_keychain(session) -> None:
    from mfs_desktop.services.models.endpoints import clear_endpoint, load_endpoint, save_endpoint

    assert save_endpoint(session, "primary", "http://127.0.0.1:9/v1", "big", "sk-secret") == "database"
    assert load_endpoint(session.database, "primary").api_key == "sk-secret"
    assert not [p for p in session.data_dir.root.iterdir() if p.is_file() and b"sk-secret" in p.read_bytes()]
    clear_endpoint(session, "primary")
    assert load_endpoint(session.database, "primary") is None


@needs_secret_service
def test_endpoint_key_goes_to_the_keychain_with_the_database_key(tmp_path: Path) -> None:
    from mfs_desktop.services.models.endpoints import clear_endpoint, key_home, load_endpoint, save_endpoint
    from mfs_desktop.store.settings import SettingsStore

    session = open_session(DataDir(tmp_path / "kc"), lambda new: None, use_keychain=True)
    try:
        assert save_endpoint(session, "fallback", "https://example.invalid/v1", "small", "sk-kc") == "keychain"
        user = key_home(session, "fallback")
        assert keyring.get_password(keychain.SERVICE, user) == "sk-kc"
        assert SettingsStore(session.database).secret("endpoint.fallback.key") == ""
        assert load_endpoint(session.database, "fallback").api_key == "sk-kc"
        clear_endpoint(session, "fallback")
        assert keyring.get_password(keychain.SERVICE, user) is None
    finally:
        record = read_vault(session.data_dir.vault)
        session.close()
        keychain.forget_key(record.keychain_user)


@needs_secret_service
def test_an_mcp_servers_token_goes_to_the_keychain_with_the_database_key(tmp_path: Path) -> None:
    """Issue 49 item 1: a streamable HTTP server's header value is kept where the database key is."""
    from mfs_desktop.runtime.mcp_client import McpServer
    from mfs_desktop.services.mcp.servers import remove_server, save_server, servers
    from mfs_desktop.services.secrets import keychain_entry

    session = open_session(DataDir(tmp_path / "kc"), lambda new: None, use_keychain=True)
    try:
        save_server(session, McpServer("remote", url="https://mcp.example.invalid/mcp",
                                       headers=(("Authorization", "Bearer tok-kc"),)))
        entry = keychain_entry(session, "mcp_header:remote:Authorization")
        assert keyring.get_password(keychain.SERVICE, entry) == "Bearer tok-kc"
        assert servers(session.database)[0].headers == (("Authorization", "Bearer tok-kc"),)
        assert not [p for p in session.data_dir.root.iterdir() if p.is_file() and b"tok-kc" in p.read_bytes()]
        remove_server(session.database, "remote")
        assert keyring.get_password(keychain.SERVICE, entry) is None
    finally:
        record = read_vault(session.data_dir.vault)
        session.close()
        keychain.forget_key(record.keychain_user)
