"""Model downloads against a real loopback HTTP server: verified, resumable, refused plainly."""

from __future__ import annotations

import hashlib
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mfs_desktop.errors import DiskFull, DownloadFailed
from mfs_desktop.runtime.download import Cancelled, DownloadSource, download, part_paths
from tests.conftest import PASSPHRASE
from tests.file_servers import FileServer, ServedFile

PAYLOAD = b"GGUF" + random.Random(29).randbytes(6 << 20)
DIGEST = hashlib.sha256(PAYLOAD).hexdigest()


@pytest.fixture
def served():
    files = {"/m.gguf": ServedFile(PAYLOAD)}
    server = FileServer(files)
    yield server, files["/m.gguf"]
    server.stop()


def _source(server: FileServer, sha256: str | None = DIGEST, size: int | None = None) -> DownloadSource:
    return DownloadSource(server.url("/m.gguf"), "m.gguf", size=size, sha256=sha256)


def test_download_verifies_and_moves_into_place(served, tmp_path: Path) -> None:
    server, _file = served
    seen = []
    result = download(_source(server), tmp_path / "m.gguf", on_progress=seen.append)
    assert result.verified and result.sha256 == DIGEST and result.resumed_from == 0
    assert (tmp_path / "m.gguf").read_bytes() == PAYLOAD
    assert not any(path.exists() for path in part_paths(tmp_path / "m.gguf"))
    assert seen[-1].done == len(PAYLOAD) and seen[-1].total == len(PAYLOAD) and seen[-1].eta == 0


def test_wrong_checksum_is_refused_and_nothing_is_left(served, tmp_path: Path) -> None:
    server, _file = served
    with pytest.raises(DownloadFailed, match="does not match its SHA-256.*deleted"):
        download(_source(server, sha256="0" * 64), tmp_path / "m.gguf")
    assert list(tmp_path.iterdir()) == []


def test_a_dropped_connection_resumes_with_a_range_request(served, tmp_path: Path) -> None:
    server, file = served
    file.drop_after = 2 << 20
    result = download(_source(server, size=len(PAYLOAD)), tmp_path / "m.gguf", retry_pause=0.01)
    assert result.verified and (tmp_path / "m.gguf").read_bytes() == PAYLOAD
    ranges = [request.get("range") for request in file.requests]
    assert ranges[0] is None and ranges[1].startswith("bytes=") and int(ranges[1][6:-1]) >= 2 << 20
    assert file.requests[1]["if-range"] == file.etag


def test_cancel_keeps_the_part_and_the_next_download_resumes(served, tmp_path: Path) -> None:
    server, file = served
    file.bytes_per_second = 8 << 20
    target = tmp_path / "m.gguf"
    with pytest.raises(Cancelled):
        download(_source(server), target, on_progress=lambda _p: None,
                 cancelled=lambda: part_paths(target)[0].exists() and part_paths(target)[0].stat().st_size > 1 << 20)
    kept = part_paths(target)[0].stat().st_size
    assert 0 < kept < len(PAYLOAD) and not target.exists()
    file.bytes_per_second = 0
    result = download(_source(server), target)
    assert result.resumed_from == kept and result.verified
    assert file.requests[-1]["range"] == f"bytes={kept}-"


def test_a_file_changed_on_the_server_is_fetched_whole_not_spliced(served, tmp_path: Path) -> None:
    server, file = served
    target = tmp_path / "m.gguf"
    file.bytes_per_second = 8 << 20
    with pytest.raises(Cancelled):
        download(_source(server, sha256=None), target,
                 cancelled=lambda: part_paths(target)[0].exists() and part_paths(target)[0].stat().st_size > 1 << 20)
    changed = b"GGUF" + random.Random(30).randbytes(5 << 20)
    server.files["/m.gguf"] = ServedFile(changed)
    result = download(_source(server, sha256=None), target)
    assert target.read_bytes() == changed and result.sha256 == hashlib.sha256(changed).hexdigest()
    assert not result.verified


def test_a_page_that_is_not_a_gguf_is_refused(tmp_path: Path) -> None:
    server = FileServer({"/m.gguf": ServedFile(b"<html>please log in</html>")})
    try:
        with pytest.raises(DownloadFailed, match="did not send a GGUF"):
            download(DownloadSource(server.url("/m.gguf"), "m.gguf"), tmp_path / "m.gguf")
    finally:
        server.stop()
    assert list(tmp_path.iterdir()) == []


def test_not_enough_disk_is_refused_before_any_request(served, tmp_path: Path) -> None:
    server, file = served
    with pytest.raises(DiskFull, match="GB free"):
        download(_source(server, size=10**16), tmp_path / "m.gguf")
    assert file.requests == [] and list(tmp_path.iterdir()) == []


def test_a_url_of_unknown_size_is_refused_once_its_length_shows_it_cannot_fit(tmp_path: Path) -> None:
    """A plain URL gives no size up front: the response's Content-Length is checked before any
    byte is written."""
    def huge(handler, body: bool) -> None:
        handler.send_response(200)
        handler.send_header("Content-Length", str(10**16))
        handler.end_headers()
        if body:
            handler.wfile.write(b"GGUF" + bytes(1 << 16))

    server = FileServer({}, route=huge)
    try:
        with pytest.raises(DiskFull, match="GB free"):
            download(DownloadSource(server.url("/big.gguf"), "big.gguf"), tmp_path / "big.gguf")
    finally:
        server.stop()
    part = part_paths(tmp_path / "big.gguf")[0]
    assert not (tmp_path / "big.gguf").exists() and (not part.exists() or part.stat().st_size == 0)


def test_a_missing_file_is_a_plain_404(served, tmp_path: Path) -> None:
    server, _file = served
    with pytest.raises(DownloadFailed, match="no file at .*404"):
        download(DownloadSource(server.url("/other.gguf"), "other.gguf"), tmp_path / "other.gguf")


def _cli(data_dir: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "mfs_desktop", "--data-dir", str(data_dir), *args]


def test_a_killed_cli_download_resumes_and_verifies(served, tmp_path: Path) -> None:
    server, file = served
    file.bytes_per_second = 3 << 20
    env = {k: v for k, v in os.environ.items() if not k.startswith("MFS_")} | {
        "MFS_KEY_STORE": "passphrase", "MFS_PASSPHRASE": PASSPHRASE}
    data = tmp_path / "data"
    command = _cli(data, "models", "download", server.url("/m.gguf"), "--sha256", DIGEST)
    child = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    part = part_paths(data / "models" / "127.0.0.1" / "m.gguf")[0]
    deadline = time.monotonic() + 60
    while not (part.exists() and part.stat().st_size >= 2 << 20) and time.monotonic() < deadline:
        time.sleep(0.02)
    child.send_signal(signal.SIGKILL)
    child.wait(10)
    kept = part.stat().st_size
    assert 0 < kept < len(PAYLOAD)
    file.bytes_per_second = 0
    again = subprocess.run(command, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert file.requests[-1]["range"] == f"bytes={kept}-"
    assert f"sha256 {DIGEST} (verified)" in again.stdout and "resumed from" in again.stderr
    assert (data / "models" / "127.0.0.1" / "m.gguf").read_bytes() == PAYLOAD and not part.exists()
    assert "%" in again.stderr and "/s" in again.stderr  # progress: percent and speed


def test_a_wrong_sha256_option_is_refused_by_the_cli_with_nothing_left(served, tmp_path: Path) -> None:
    server, _file = served
    env = {k: v for k, v in os.environ.items() if not k.startswith("MFS_")} | {
        "MFS_KEY_STORE": "passphrase", "MFS_PASSPHRASE": PASSPHRASE}
    data = tmp_path / "data"
    done = subprocess.run(_cli(data, "models", "download", server.url("/m.gguf"), "--sha256", "ab" * 32),
                          env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert done.returncode == DownloadFailed.exit_code
    assert "does not match its SHA-256" in done.stderr and "Traceback" not in done.stderr
    assert list((data / "models").rglob("*")) == [data / "models" / "127.0.0.1"]
