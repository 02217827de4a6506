"""Issue 27 item 1: a folder or file this user cannot read or write is named as such, with
its path and how to fix it — exit 14, never "damaged" (which invites deleting a healthy
database) and never "internal error". Nothing on disk changes.

Permission bits do not bind root, so as root each case runs the CLI as `nobody` (setpriv)
on a data folder handed to that account."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO, directory_digest, open_test_session, run_cli

from mfs_desktop.paths import DATABASE_FILENAME, VAULT_FILENAME

NOBODY = 65534


@pytest.fixture
def base() -> Iterator[Path]:
    """A folder every account may enter (pytest's own tmp is root-only), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="mfs-access-"))
    folder.chmod(0o755)
    yield folder
    for path in (folder, *folder.rglob("*")):
        path.chmod(0o700 if path.is_dir() else 0o600)
    shutil.rmtree(folder)


def _as_owner(*paths: Path) -> tuple[str, ...]:
    """The command prefix to run as the account that owns `paths` without root's exemptions."""
    if os.geteuid() != 0:
        return ()
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: permission bits cannot be tested")
    prefix = ("setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--")
    probe = subprocess.run([*prefix, sys.executable, "-c", "import mfs_desktop"], capture_output=True, cwd=REPO)
    if probe.returncode != 0:
        pytest.skip(f"`nobody` cannot run this interpreter here: {probe.stderr.decode()[-200:]}")
    for path in paths:
        for item in (path, *path.rglob("*")):
            os.chown(item, NOBODY, NOBODY)
    return prefix


def _initialised(base: Path) -> Path:
    data = base / "data"
    session = open_test_session(data)
    session.transcript.create_conversation()
    session.close()
    return data


def _refused(data: Path, prefix: tuple[str, ...], *must_say: str) -> str:
    before = directory_digest(data) if os.access(data, os.R_OK) or os.geteuid() == 0 else {}
    result = run_cli("list", data_dir=data, as_user=prefix, HOME=str(data.parent))
    assert result.returncode == 14, (result.returncode, result.stderr)
    line = result.stderr.strip()
    assert line.count("\n") == 0, line
    for words in must_say:
        assert words in line, line
    assert not re.search(r"(?<!not )damaged|internal error|bug", line), line
    if before:
        assert directory_digest(data) == before, "a refused open must not change anything"
    return line


def test_read_only_data_folder_is_named_read_only_not_damaged(base: Path) -> None:
    data = _initialised(base)
    prefix = _as_owner(data)
    data.chmod(0o555)
    _refused(data, prefix, f"{data} is read-only", "chmod u+w", "not damaged")


def test_read_only_database_file(base: Path) -> None:
    data = _initialised(base)
    prefix = _as_owner(data)
    database = data / DATABASE_FILENAME
    database.chmod(0o444)
    _refused(data, prefix, f"{database} is read-only", "not damaged")


def test_folder_without_permissions(base: Path) -> None:
    data = _initialised(base)
    prefix = _as_owner(data)
    data.chmod(0)
    _refused(data, prefix, f"{data} cannot be read: permission denied")


def test_unreadable_key_file(base: Path) -> None:
    data = _initialised(base)
    prefix = _as_owner(data)
    key_file = data / VAULT_FILENAME
    key_file.chmod(stat.S_IWUSR)
    _refused(data, prefix, f"{key_file} cannot be read: permission denied")


def test_unwritable_parent_folder(base: Path) -> None:
    parent = base / "locked"
    parent.mkdir()
    prefix = _as_owner(parent)
    parent.chmod(0o555)
    wanted = parent / "new" / "data"
    result = run_cli("list", data_dir=wanted, as_user=prefix, HOME=str(base))
    assert result.returncode == 14, result.stderr
    assert f"{wanted} cannot be created: {parent} is not writable" in result.stderr
    assert not (parent / "new").exists()


def test_data_folder_path_that_is_a_file(base: Path) -> None:
    blocker = base / "plain-file"
    blocker.write_text("not a folder")
    result = run_cli("list", data_dir=blocker / "data", HOME=str(base))
    assert result.returncode == 14, result.stderr
    assert f"{blocker} is a file, not a folder" in result.stderr


@pytest.fixture
def small_disk(base: Path) -> Iterator[Path]:
    """A real 3 MB file system (tmpfs) that fills up."""
    mount_point = base / "disk"
    mount_point.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mount_point)],
                             capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.decode().strip()}")
    yield mount_point
    subprocess.run(["umount", "-l", str(mount_point)], check=True)


def test_full_disk_is_a_plain_error_and_keeps_what_was_stored(small_disk: Path) -> None:
    from mfs_desktop.errors import DiskFull
    from mfs_desktop.store.models import MessageDraft

    data = small_disk / "data"
    session = open_test_session(data)
    conversation_id = session.transcript.create_conversation().id
    stored = 0
    with pytest.raises(DiskFull, match="is full: the last change was not stored"):
        for index in range(1000):
            session.transcript.append(conversation_id, [MessageDraft("user", f"{index} " + "x" * 100_000)])
            stored += 1
    assert stored > 3, "the disk filled before the test stored anything"
    with contextlib.suppress(OSError), open(small_disk / "filler", "wb") as filler:
        while True:  # what little the database left free
            filler.write(b"\0" * 4096)
            filler.flush()
    # bigger than the room the failed write left in the journal; a wide window lets it be sent
    result = run_cli("chat", "--provider", "fake", "--window", "131072", "--conversation", conversation_id,
                     "one more " * 14_000, data_dir=data)  # under the 128 KiB of one argument
    assert result.returncode == 15, result.stderr
    assert "is full" in result.stderr and "internal error" not in result.stderr
    session.close()
    reopened = open_test_session(data)
    texts = [m.text for m in reopened.transcript.messages(conversation_id)]
    reopened.close()
    assert len(texts) == stored and texts[-1].startswith(f"{stored - 1} ")


def test_export_is_private_and_a_bad_target_is_named(base: Path) -> None:
    data = _initialised(base)
    conversation_id = _conversation_id(data)
    target = base / "out.md"
    assert run_cli("export", "--conversation", conversation_id, "--out", str(target), data_dir=data).returncode == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o600, "a plaintext export is for its owner only"
    missing = base / "no-such-folder" / "out.md"
    result = run_cli("export", "--conversation", conversation_id, "--out", str(missing), data_dir=data)
    assert result.returncode == 14, result.stderr
    assert f"The export {missing} cannot be written: No such file or directory" in result.stderr
    if Path("/dev/full").exists():
        result = run_cli("export", "--conversation", conversation_id, "--out", "/dev/full", data_dir=data)
        assert result.returncode == 15 and "is full: the export /dev/full was not written" in result.stderr, \
            result.stderr


def test_export_to_a_full_disk_leaves_no_half_file(base: Path, small_disk: Path) -> None:
    data = _initialised(base)
    session = open_test_session(data)
    conversation_id = session.transcript.list_conversations()[0].id
    from mfs_desktop.store.models import MessageDraft

    for index in range(40):  # an export of about 4 MB, over the 3 MB disk
        session.transcript.append(conversation_id, [MessageDraft("user", f"{index} " + "y" * 100_000)])
    session.close()
    target = small_disk / "export.md"
    result = run_cli("export", "--conversation", conversation_id, "--out", str(target), data_dir=data)
    assert result.returncode == 15, result.stderr
    assert "is full" in result.stderr
    assert list(small_disk.iterdir()) == [], "neither the export nor its partial file is left behind"


def _conversation_id(data: Path) -> str:
    session = open_test_session(data)
    try:
        return session.transcript.list_conversations()[0].id
    finally:
        session.close()


def test_data_folder_behind_a_folder_you_cannot_enter(base: Path) -> None:
    private = base / "private"
    data = _initialised(private)
    prefix = _as_owner()
    private.chmod(0o700 if prefix else 0)  # root-owned 0700 stops nobody; as a plain user, 0 stops its owner
    result = run_cli("list", data_dir=data, as_user=prefix, HOME=str(base))
    private.chmod(0o700)
    assert result.returncode == 14, result.stderr
    assert f"The data folder {data} cannot be reached: permission denied" in result.stderr


def test_compaction_on_a_full_disk_says_so_and_the_chat_goes_on(small_disk: Path) -> None:
    from mfs_desktop.runtime.fake import FakeModel
    from mfs_desktop.services.conversation.chat import ChatService
    from mfs_desktop.store.models import MessageDraft

    session = open_test_session(small_disk / "data")
    conversation_id = session.transcript.create_conversation().id
    for turn in range(30):  # well past the warn line of a 2,048 window
        session.transcript.append(conversation_id, [
            MessageDraft("user", f"turn {turn}: the build on host-{turn} failed with exit code {turn + 1} " * 4),
            MessageDraft("assistant", f"answer {turn} " * 20)])
    service = ChatService(session, FakeModel(), provider="fake", window=2048, use_tools=False)
    heard: list[str] = []
    service.precompactor.listeners.append(lambda cid, outcome: heard.append(outcome.reason) if outcome else None)
    session.database.checkpoint()  # an empty journal: the fold's commit must grow the files
    filler = small_disk / "filler"
    with contextlib.suppress(OSError), open(filler, "wb") as handle:
        while True:
            handle.write(b"\0" * 4096)
            handle.flush()
    assert service.schedule_compaction(conversation_id)
    service.precompactor.wait(conversation_id)
    assert heard and "is full" in heard[-1], heard
    filler.unlink()
    result = service.send(conversation_id, "and now?")
    service.close()
    session.close()
    assert result.status == "completed"


def _modes(root: Path) -> dict[str, int]:
    return {path.name: stat.S_IMODE(path.stat().st_mode) for path in (root, *root.iterdir())}


def test_a_new_data_folder_and_everything_in_it_are_private(base: Path) -> None:
    """Issue 35: 0700 for the folder, 0600 for the database, its journal and the key file."""
    old = os.umask(0o022)  # a common desktop umask, under which SQLite would create 0644 files
    try:
        data = base / "fresh"
        session = open_test_session(data)
        session.transcript.create_conversation()  # a write: the -wal and -shm files exist now
        modes = _modes(data)
        session.close()
    finally:
        os.umask(old)
    assert modes.pop("fresh") == 0o700
    assert {f"{DATABASE_FILENAME}-wal", f"{DATABASE_FILENAME}-shm", VAULT_FILENAME, DATABASE_FILENAME} <= set(modes)
    assert set(modes.values()) == {0o600}, modes


def test_a_looser_existing_data_folder_is_tightened(base: Path) -> None:
    data = _initialised(base)
    data.chmod(0o755)
    for path in data.iterdir():
        path.chmod(0o644)
    session = open_test_session(data)
    session.transcript.create_conversation()
    modes = _modes(data)
    session.close()
    assert modes.pop("data") == 0o700 and set(modes.values()) == {0o600}, modes


def test_a_cache_write_that_fills_the_disk_leaves_no_part(small_disk: Path) -> None:
    """Issue 46: a half-written kv/*.kv.part held the space the next message needed for a minute."""
    from mfs_desktop.store.kv_states import KvStateStore
    from mfs_desktop.store.models import MessageDraft

    session = open_test_session(small_disk / "data")
    conversation_id = session.transcript.create_conversation().id
    store = KvStateStore(session.database, 1 << 30)
    with pytest.raises(OSError):
        store.save(conversation_id, [b"\1" * (1 << 20)] * 8, "model", 4096, 10)
    assert not [p for p in store.folder.iterdir()], "no part, no file"
    session.transcript.append(conversation_id, [MessageDraft("user", "the next message still fits")])
    session.close()
