"""Model downloads that cannot finish, against real loopback servers: each ends in a plain
DownloadFailed (exit 16), never an internal error, within seconds, with nothing half-stored
but a `.part` a later run can resume; and what does arrive is readable by its owner only."""

from __future__ import annotations

import gzip
import os
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

import mfs_desktop.runtime.download as download_module
from mfs_desktop.errors import DownloadFailed
from mfs_desktop.runtime.download import DownloadSource, Progress, download, part_paths
from tests.conftest import PASSPHRASE
from tests.file_servers import FileServer, Route, ServedFile, redirect_route, scripted_route

SMALL = b"GGUF" + bytes(300_000)
# 16 MiB of zeros compress to ~16 KB: a body whose Content-Length says nothing of its real size.
BOMB = gzip.compress(b"GGUF" + bytes(16 << 20))
# What the tests run with: a second of silence or a second and a half under 1 KiB/s is a stall.
QUICK = {"IDLE_TIMEOUT": 1.0, "MIN_RATE": 1024, "RATE_WINDOW": 1.5, "CONNECT_TIMEOUT": 2.0}


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in QUICK.items():
        monkeypatch.setattr(download_module, name, value)


@contextmanager
def serving(route: Route) -> Iterator[FileServer]:
    server = FileServer({}, route=route)
    try:
        yield server
    finally:
        server.stop()


def closed_port() -> int:
    """A loopback port nobody listens on: bound, then closed."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def files_under(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*") if path.is_file()] if folder.exists() else []


def fails(url: str, target: Path, match: str, **options: object) -> DownloadFailed:
    began = time.monotonic()
    with pytest.raises(DownloadFailed, match=match) as failure:
        download(DownloadSource(url, target.name, **options), target, retry_pause=0.01)  # type: ignore[arg-type]
    assert time.monotonic() - began < 10
    return failure.value


def test_a_refused_port_is_said_plainly_and_leaves_nothing(tmp_path: Path) -> None:
    port = closed_port()
    fails(f"http://127.0.0.1:{port}/m.gguf", tmp_path / "m.gguf", r"Could not reach 127\.0\.0\.1 \(it refused")
    assert files_under(tmp_path) == []


def test_an_unknown_host_is_said_plainly_and_leaves_nothing(tmp_path: Path) -> None:
    fails("http://nowhere.invalid/m.gguf", tmp_path / "m.gguf", r"Could not reach nowhere\.invalid \(the name does "
                                                                 r"not resolve")
    assert files_under(tmp_path) == []


@pytest.mark.parametrize("location", ["file:///etc/passwd", "ftp://example.invalid/m.gguf", "data:text/plain,GGUF",
                                      "javascript:alert(1)"])
def test_a_redirect_to_anything_but_http_is_refused_not_followed(tmp_path: Path, location: str) -> None:
    target = tmp_path / "m.gguf"
    part, meta = part_paths(target)
    part.write_bytes(b"GGUF")  # an older part of this URL: the URL leads nowhere now, so it goes
    with serving(redirect_route(location)) as server:
        meta.write_text(f'{{"url": "{server.url("/m.gguf")}", "validator": "x"}}')
        failure = fails(server.url("/m.gguf"), target, "not a web \\(http or https\\) address.*nothing was downloaded")
    assert location.split(":")[0] in str(failure)
    assert files_under(tmp_path) == []


def test_a_redirect_loop_is_named_and_leaves_nothing(tmp_path: Path) -> None:
    with serving(redirect_route("/m.gguf")) as server:
        fails(server.url("/m.gguf"), tmp_path / "m.gguf", "more than 10 redirects \\(a redirect loop\\)")
    assert files_under(tmp_path) == []


def test_a_compressed_body_is_refused_though_its_length_would_fit(tmp_path: Path) -> None:
    """Identity is asked for; a gzip body anyway is refused before a byte is written (its
    Content-Length is the compressed size, so the free-space check could not be trusted)."""
    asked: list[str | None] = []
    inner = scripted_route(BOMB, headers={"Content-Encoding": "gzip"})

    def route(handler: BaseHTTPRequestHandler, body: bool) -> None:
        asked.append(handler.headers.get("Accept-Encoding"))
        inner(handler, body)

    with serving(route) as server:
        fails(server.url("/m.gguf"), tmp_path / "m.gguf", r"sent the file compressed \(gzip\).*nothing was kept")
    assert asked == ["identity"] and files_under(tmp_path) == []


def test_more_bytes_than_announced_are_stopped_and_deleted(tmp_path: Path) -> None:
    """The Hub's size (or an expected size) is a ceiling: a server sending more is cut off."""
    server = FileServer({"/m.gguf": ServedFile(b"GGUF" + bytes(4 << 20))})
    try:
        fails(server.url("/m.gguf"), tmp_path / "m.gguf", "sent more than the 1,048,576 bytes announced for m.gguf",
              size=1 << 20)
    finally:
        server.stop()
    assert files_under(tmp_path) == []


def test_a_body_without_a_length_is_capped_at_the_expected_size(tmp_path: Path) -> None:
    with serving(scripted_route(SMALL, announced=-1)) as server:
        fails(server.url("/m.gguf"), tmp_path / "m.gguf", "sent more than the 1,000 bytes", size=1000)
    assert files_under(tmp_path) == []


def test_a_silent_server_times_out_and_leaves_nothing(quick, tmp_path: Path) -> None:
    with serving(scripted_route(SMALL, silent=5)) as server:
        fails(server.url("/m.gguf"), tmp_path / "m.gguf", r"stalled \(no data for 1 s\) before any data arrived")
    assert files_under(tmp_path) == []


def test_a_trickle_stops_below_the_minimum_rate_shows_progress_and_keeps_a_part(quick, tmp_path: Path) -> None:
    seen: list[Progress] = []
    target = tmp_path / "m.gguf"
    with serving(scripted_route(SMALL, step=1, pause=0.25, headers={"ETag": '"v1"'})) as server:
        began = time.monotonic()
        with pytest.raises(DownloadFailed, match=r"stalled \(under 1 KiB/s for \d s\); run the download again to "
                                                 r"resume from \d+ bytes"):
            download(DownloadSource(server.url("/m.gguf"), "m.gguf"), target, on_progress=seen.append)
        assert time.monotonic() - began < 10
    part = part_paths(target)[0]
    assert seen and seen[-1].done > 0 and seen[-1].total == len(SMALL)  # progress while trickling
    assert part.stat().st_size > 0 and stat.S_IMODE(part.stat().st_mode) == 0o600


def test_a_connection_that_keeps_dropping_keeps_a_private_resumable_part(tmp_path: Path) -> None:
    target = tmp_path / "m.gguf"
    with serving(scripted_route(SMALL, stop_after=100_000, headers={"ETag": '"v1"'})) as server:
        fails(server.url("/m.gguf"), target, "kept dropping .*resume from 100,000 bytes")
    part, meta = part_paths(target)
    assert part.stat().st_size == 100_000 and meta.exists() and not target.exists()
    assert stat.S_IMODE(part.stat().st_mode) == 0o600 and stat.S_IMODE(meta.stat().st_mode) == 0o600


def test_a_connection_closed_before_any_byte_leaves_nothing(tmp_path: Path) -> None:
    with serving(scripted_route(SMALL, stop_after=0)) as server:
        fails(server.url("/m.gguf"), tmp_path / "m.gguf", "kept dropping .*before any data arrived; nothing was kept")
    assert files_under(tmp_path) == []


def test_a_download_is_0600_in_folders_it_creates_0700_and_an_old_part_is_tightened(tmp_path: Path) -> None:
    data = b"GGUF" + bytes(2 << 20)
    served = ServedFile(data)
    server = FileServer({"/m.gguf": served})
    target = tmp_path / "models" / "host" / "m.gguf"
    try:
        download(DownloadSource(server.url("/m.gguf"), "m.gguf"), target)
        assert stat.S_IMODE(target.stat().st_mode) == 0o600
        for folder in (target.parent, target.parent.parent):
            assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        again = target.with_name("n.gguf")
        part, meta = part_paths(again)
        part.write_bytes(data[:1 << 20])
        meta.write_text(f'{{"url": "{server.url("/m.gguf")}", "validator": {served.etag!r}}}'.replace("'", '"'))
        os.chmod(part, 0o644)  # as versions before this one left it
        result = download(DownloadSource(server.url("/m.gguf"), "n.gguf"), again)
    finally:
        server.stop()
    assert result.resumed_from == 1 << 20 and again.read_bytes() == data
    assert stat.S_IMODE(again.stat().st_mode) == 0o600


def _cli(data: Path, *args: str, prelude: str = "") -> subprocess.CompletedProcess:
    """`mfs-desktop --data-dir DATA …` in a child process; `prelude` runs first in it (to set
    the download bounds small, as the `quick` fixture does in this one)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MFS_")} | {
        "MFS_KEY_STORE": "passphrase", "MFS_PASSPHRASE": PASSPHRASE}
    code = f"{prelude}\nfrom mfs_desktop.cli import main\nraise SystemExit(main({['--data-dir', str(data), *args]!r}))"
    return subprocess.run([sys.executable, "-c", code], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=60)


def _misbehaving(handler: BaseHTTPRequestHandler, body: bool) -> None:
    """One server, a misbehaviour per path."""
    kind = handler.path.split("/")[1]
    routes = {"file": redirect_route("file:///etc/passwd"), "loop": redirect_route(handler.path),
              "gzip": scripted_route(BOMB, headers={"Content-Encoding": "gzip"}),
              "trickle": scripted_route(SMALL, step=1, pause=0.25), "audit": scripted_route(SMALL, step=1, pause=5)}
    routes[kind](handler, body)


@pytest.mark.parametrize("where, said", [
    ("refused", "Could not reach 127.0.0.1 (it refused the connection"),
    ("unknown", "Could not reach nowhere.invalid (the name does not resolve"),
    ("file", "which is not a web (http or https) address"),
    ("loop", "(a redirect loop)"),
    ("gzip", "sent the file compressed (gzip)"),
    ("trickle", "stalled (under 1 KiB/s for")])
def test_the_cli_says_each_failure_plainly_with_exit_16(tmp_path: Path, where: str, said: str) -> None:
    data = tmp_path / "data"
    with serving(_misbehaving) as server:
        url = {"refused": f"http://127.0.0.1:{closed_port()}/m.gguf", "unknown": "http://nowhere.invalid/m.gguf"
               }.get(where, server.url(f"/{where}/m.gguf"))
        prelude = "".join(f"import mfs_desktop.runtime.download as d; d.{name} = {value!r}\n"
                          for name, value in QUICK.items())
        began = time.monotonic()
        done = _cli(data, "models", "download", url, prelude=prelude)
    assert done.returncode == DownloadFailed.exit_code, done.stderr
    assert said in done.stderr and "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert time.monotonic() - began < 20  # the child's start-up included
    kept = files_under(data / "models")
    assert kept == [] or (where == "trickle" and sorted(p.name for p in kept) == ["m.gguf.part", "m.gguf.part.json"])
    assert stat.S_IMODE((data / "models").stat().st_mode) == 0o700


def test_the_audits_trickle_is_named_within_10_s_with_the_shipped_bounds(tmp_path: Path) -> None:
    """One byte every 5 s (the audit's server) with the bounds users get, not the tests' small ones."""
    with serving(_misbehaving) as server:
        began = time.monotonic()
        done = _cli(tmp_path / "data", "models", "download", server.url("/audit/m.gguf"))
        took = time.monotonic() - began
    assert done.returncode == DownloadFailed.exit_code and "stalled (under 1 KiB/s" in done.stderr, done.stderr
    assert took < 10 + 2  # the child's start-up included
