"""Encrypted at rest (DESIGN section 11): no plaintext in the database file or its WAL."""

from __future__ import annotations

from pathlib import Path

from conftest import open_test_session

from mfs_desktop.store.models import MessageDraft

SENTINEL = "zebra-sentinel-7F3A9 the secret plan is in /srv/vault/plan.txt"


def _all_bytes(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in root.iterdir() if p.is_file()}


def test_sentinel_text_absent_from_database_and_wal(data_root: Path) -> None:
    session = open_test_session(data_root)
    conversation = session.transcript.create_conversation()
    session.transcript.append(
        conversation.id, [MessageDraft("user", SENTINEL), MessageDraft("assistant", SENTINEL[::-1])]
    )
    blob = session.attachments.put(("attached " + SENTINEL).encode(), name="notes.txt", media_type="text/plain")
    session.transcript.append(
        conversation.id, [MessageDraft("user", "see attachment", origin="document", attachment_sha256=blob.sha256)]
    )
    files = _all_bytes(data_root)
    assert (data_root / "transcript.db-wal").stat().st_size > 0, (
        "the WAL must hold the fresh pages for this check to mean anything"
    )
    needles = [
        SENTINEL.encode(),
        SENTINEL[::-1].encode(),
        b"zebra-sentinel",
        b"SQLite format 3",
        SENTINEL.encode("utf-16-le"),
    ]
    for name, content in files.items():
        for needle in needles:
            assert needle not in content, f"{needle!r} readable in {name}"
    session.close()
    for name, content in _all_bytes(data_root).items():
        assert b"zebra-sentinel" not in content, name


def test_vault_file_holds_no_raw_key(data_root: Path) -> None:
    session = open_test_session(data_root)
    key_hex = session.database._key.hex()  # the one place a test reads the key: to prove it is not on disk
    session.close()
    vault = (data_root / "vault.json").read_text()
    assert key_hex not in vault
    assert "scrypt" in vault and "aes-256-gcm" in vault
    assert oct((data_root / "vault.json").stat().st_mode & 0o777) == "0o600"
