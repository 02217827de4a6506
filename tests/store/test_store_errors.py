"""Bad files give one plain line and an exit code, never a traceback, never a changed file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import sqlcipher3
from conftest import PASSPHRASE, directory_digest, open_test_session, run_cli

from mfs_desktop.errors import DatabaseDamaged, DatabaseTooNew, NotAnMfsDatabase, WrongPassphrase
from mfs_desktop.paths import VAULT_FILENAME
from mfs_desktop.services.session import open_session
from mfs_desktop.services.unlock import DataDir
from mfs_desktop.store.models import MessageDraft


@pytest.fixture
def populated(data_root: Path) -> Path:
    session = open_test_session(data_root)
    conversation = session.transcript.create_conversation()
    for index in range(60):
        session.transcript.append(conversation.id, [MessageDraft("user", f"question {index} " * 40),
                                                     MessageDraft("assistant", f"answer {index} " * 40)])
    session.database.checkpoint()
    session.close()
    return data_root


def _assert_one_plain_line(result, exit_code: int, *words: str) -> None:
    assert result.returncode == exit_code, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr  # SQLCipher's own log lines must not leak either
    assert "Traceback" not in result.stderr and "ERROR CORE" not in result.stderr
    for word in words:
        assert word in lines[0]


def test_wrong_passphrase_exits_3_and_changes_nothing(populated: Path) -> None:
    before = directory_digest(populated)
    result = run_cli("list", data_dir=populated, passphrase="not the passphrase")
    _assert_one_plain_line(result, WrongPassphrase.exit_code, "Wrong passphrase")
    assert directory_digest(populated) == before


def test_right_passphrase_lists(populated: Path) -> None:
    result = run_cli("list", data_dir=populated)
    assert result.returncode == 0, result.stderr
    assert "60 turns" in result.stdout


def test_missing_passphrase_without_terminal_says_how(populated: Path) -> None:
    result = run_cli("list", data_dir=populated, passphrase=None)
    _assert_one_plain_line(result, 8, "MFS_PASSPHRASE")


def test_random_bytes_file_with_its_key_file_is_refused(populated: Path) -> None:
    database = populated / "transcript.db"
    database.write_bytes(os.urandom(database.stat().st_size))
    before = directory_digest(populated)
    result = run_cli("list", data_dir=populated)
    _assert_one_plain_line(result, DatabaseDamaged.exit_code, "does not open with its key")
    assert directory_digest(populated) == before


def test_random_bytes_file_without_key_file_is_foreign(tmp_path: Path) -> None:
    tmp_path.joinpath("transcript.db").write_bytes(os.urandom(8192))
    before = directory_digest(tmp_path)
    result = run_cli("list", data_dir=tmp_path)
    _assert_one_plain_line(result, NotAnMfsDatabase.exit_code, "key file")
    assert directory_digest(tmp_path) == before


def test_plain_sqlite_file_is_foreign(tmp_path: Path) -> None:
    import sqlite3

    plain = sqlite3.connect(tmp_path / "transcript.db")
    plain.execute("CREATE TABLE notes (x)")
    plain.commit()
    plain.close()
    before = directory_digest(tmp_path)
    result = run_cli("list", data_dir=tmp_path)
    _assert_one_plain_line(result, NotAnMfsDatabase.exit_code, "unencrypted SQLite")
    assert directory_digest(tmp_path) == before


@pytest.mark.parametrize("keep", [0.5, 0.1, 100 / 4096])
def test_truncated_file_is_refused(populated: Path, keep: float) -> None:
    database = populated / "transcript.db"
    content = database.read_bytes()
    database.write_bytes(content[: max(1, int(len(content) * keep))])
    before = directory_digest(populated)
    result = run_cli("list", data_dir=populated)
    _assert_one_plain_line(result, DatabaseDamaged.exit_code)
    assert directory_digest(populated) == before


def test_zero_byte_database_beside_its_key_file_is_refused_not_recreated(populated: Path) -> None:
    """Issue 27: an emptied database file must not become a fresh empty database under the old key."""
    (populated / "transcript.db").write_bytes(b"")
    before = directory_digest(populated)
    result = run_cli("list", data_dir=populated)
    _assert_one_plain_line(result, DatabaseDamaged.exit_code, "empty (0 bytes)", "backup")
    assert directory_digest(populated) == before
    assert (populated / "transcript.db").stat().st_size == 0


def test_corrupted_page_is_refused(populated: Path) -> None:
    database = populated / "transcript.db"
    content = bytearray(database.read_bytes())
    middle = len(content) // 2
    content[middle:middle + 64] = bytes(64)
    database.write_bytes(bytes(content))
    with pytest.raises(DatabaseDamaged):
        open_test_session(populated)


def test_database_from_newer_version_is_refused_untouched(populated: Path) -> None:
    session = open_test_session(populated)
    session.database.write(lambda connection: connection.execute("PRAGMA user_version = 999"))
    session.close()
    before = directory_digest(populated)
    with pytest.raises(DatabaseTooNew):
        open_test_session(populated)
    result = run_cli("list", data_dir=populated)
    _assert_one_plain_line(result, DatabaseTooNew.exit_code, "newer")
    assert directory_digest(populated) == before


def test_missing_database_beside_key_file_is_not_recreated(populated: Path) -> None:
    (populated / "transcript.db").unlink()
    with pytest.raises(NotAnMfsDatabase):
        open_test_session(populated)
    assert not (populated / "transcript.db").exists()


def test_default_scrypt_cost_round_trip(tmp_path: Path) -> None:
    data_dir = DataDir(tmp_path / "d")
    session = open_session(data_dir, lambda new: PASSPHRASE, use_keychain=False)
    session.close()
    assert f'"n": {2**17}' in data_dir.vault.read_text()
    with pytest.raises(WrongPassphrase):
        open_session(data_dir, lambda new: PASSPHRASE + "!", use_keychain=False)
    open_session(data_dir, lambda new: PASSPHRASE, use_keychain=False).close()


def test_foreign_sqlcipher_tables_are_refused(tmp_path: Path) -> None:
    session = open_test_session(tmp_path / "d")
    key = session.database._key
    session.close()
    os.remove(tmp_path / "d" / "transcript.db")
    foreign = sqlcipher3.connect(str(tmp_path / "d" / "transcript.db"))
    foreign.execute(f"PRAGMA key = \"x'{key.hex()}'\"")
    foreign.execute("CREATE TABLE other_app (x)")
    foreign.commit()
    foreign.close()
    with pytest.raises(NotAnMfsDatabase):
        open_test_session(tmp_path / "d")


@pytest.mark.parametrize(("tamper", "said"), [
    (lambda body: body["kdf"].update(n=3), "scrypt cost n=3"),
    (lambda body: body["kdf"].update(n=2**40), "scrypt cost n=1099511627776"),
    (lambda body: body["kdf"].update(n="131072"), "scrypt cost"),
    (lambda body: body["kdf"].update(r=1), "scrypt parameters"),
    (lambda body: body.update(database_id="数据库"), "database id"),
    (lambda body: body["kdf"].update(salt="AAAA"), "salt has 3 bytes"),
    (lambda body: body["wrap"].update(nonce="not base64!"), "nonce is not base64"),
    (lambda body: body.pop("wrap"), "field 'wrap' is missing"),
    (lambda body: body.update(mode="cloud"), "mode 'cloud'"),
])
def test_a_tampered_key_file_field_is_named_plainly(populated: Path, tamper, said: str) -> None:
    """Issue 27: every field of the key file is validated before scrypt or AES sees it; a tampered
    one is an environment fault with a plain line (exit 4), never the "bug" path."""
    vault = populated / VAULT_FILENAME
    body = json.loads(vault.read_text(encoding="utf-8"))
    tamper(body)
    vault.write_text(json.dumps(body), encoding="utf-8")
    before = directory_digest(populated)
    result = run_cli("list", data_dir=populated)
    _assert_one_plain_line(result, NotAnMfsDatabase.exit_code, "key file", "damaged", said)
    assert directory_digest(populated) == before


@pytest.mark.parametrize("content", [b"", b"\xff\xfe not text", b"{not json"])
def test_an_unreadable_key_file_is_named_plainly(populated: Path, content: bytes) -> None:
    (populated / VAULT_FILENAME).write_bytes(content)
    result = run_cli("list", data_dir=populated)
    _assert_one_plain_line(result, NotAnMfsDatabase.exit_code, "key file", "damaged")
