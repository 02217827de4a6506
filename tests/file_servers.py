"""Loopback servers for model downloads: plain files with Range requests, and the Hugging Face
Hub's resolve protocol in front of a CDN on another origin."""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

_RANGE = re.compile(r"bytes=(\d+)-$")


@dataclass
class ServedFile:
    data: bytes
    etag: str = ""
    bytes_per_second: float = 0.0  # 0: as fast as the socket goes
    drop_after: int | None = None  # close the connection after sending this many bytes, once
    requests: list[dict[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.etag = self.etag or '"' + hashlib.sha256(self.data).hexdigest()[:16] + '"'


class FileServer:
    """Serves `files` by path with HEAD, GET, Range and If-Range, optionally slowly or with a
    connection dropped half way, and records each request's headers."""

    def __init__(self, files: dict[str, ServedFile], host: str = "127.0.0.1",
                 route: Callable[[BaseHTTPRequestHandler, bool], None] | None = None) -> None:
        self.files = files
        self.route = route  # when given, answers every request instead of the file table
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_HEAD(self) -> None:  # noqa: N802 (http.server's naming)
                server.answer(self, body=False)

            def do_GET(self) -> None:  # noqa: N802
                server.answer(self, body=True)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer((host, 0), Handler)
        self.httpd.daemon_threads = True
        self.host = host
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://{self.host}:{self.port}{path}"

    def answer(self, handler: BaseHTTPRequestHandler, body: bool) -> None:
        if self.route is not None:
            self.route(handler, body)
            return
        served = self.files.get(handler.path.split("?")[0])
        if served is None:
            handler.send_response(404)
            handler.send_header("Content-Length", "0")
            handler.end_headers()
            return
        served.requests.append({k.lower(): v for k, v in handler.headers.items()} | {"method": handler.command})
        self._send_file(handler, served, body)

    def _send_file(self, handler: BaseHTTPRequestHandler, served: ServedFile, body: bool) -> None:
        start = 0
        wanted = _RANGE.match(handler.headers.get("Range", ""))
        if_range = handler.headers.get("If-Range")
        if wanted and (if_range is None or if_range == served.etag):
            start = int(wanted.group(1))
            if start >= len(served.data):
                handler.send_response(416)
                handler.send_header("Content-Range", f"bytes */{len(served.data)}")
                handler.send_header("Content-Length", "0")
                handler.end_headers()
                return
            handler.send_response(206)
            handler.send_header("Content-Range", f"bytes {start}-{len(served.data) - 1}/{len(served.data)}")
        else:
            handler.send_response(200)
        handler.send_header("Accept-Ranges", "bytes")
        handler.send_header("ETag", served.etag)
        handler.send_header("Content-Length", str(len(served.data) - start))
        handler.end_headers()
        if body:
            self._stream(handler, served, start)

    @staticmethod
    def _stream(handler: BaseHTTPRequestHandler, served: ServedFile, start: int) -> None:
        step, sent, began = 1 << 16, 0, time.monotonic()
        try:
            for offset in range(start, len(served.data), step):
                if served.drop_after is not None and sent >= served.drop_after:
                    served.drop_after = None
                    handler.close_connection = True
                    handler.connection.shutdown(2)
                    return
                handler.wfile.write(served.data[offset:offset + step])
                sent += step
                if served.bytes_per_second:
                    ahead = sent / served.bytes_per_second - (time.monotonic() - began)
                    if ahead > 0:
                        time.sleep(ahead)
        except OSError:
            pass  # the client went away (a cancel, or a killed process)

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class HubServer:
    """`/{repo}/resolve/{revision}/{file}` as the Hub answers it: X-Repo-Commit, the LFS
    object's SHA-256 as X-Linked-Etag, X-Linked-Size, and a 302 to a CDN on another origin
    (here `localhost` against the Hub's `127.0.0.1`). Repositories in `gated` need a token."""

    def __init__(self, repos: dict[str, dict[str, bytes]], gated: dict[str, str] | None = None,
                 wrong_digest: bool = False) -> None:
        self.cdn_files: dict[str, ServedFile] = {}
        self.resolve_requests: list[dict[str, str]] = []
        self.gated = gated or {}
        self.repos = repos
        for files in repos.values():
            for data in files.values():
                digest = hashlib.sha256(data).hexdigest()
                self.cdn_files[f"/cdn/{digest}"] = ServedFile(data, etag=f'"{digest}"')
        self.cdn = FileServer(self.cdn_files, host="localhost")
        self.wrong_digest = wrong_digest
        self.hub = FileServer({}, route=self.resolve)
        self.endpoint = self.hub.url("")

    def resolve(self, handler: BaseHTTPRequestHandler, body: bool) -> None:
        self.resolve_requests.append({k.lower(): v for k, v in handler.headers.items()} | {"method": handler.command})
        match = re.match(r"^/([^/]+/[^/]+)/resolve/([^/]+)/(.+)$", handler.path.split("?")[0])
        repo = match.group(1) if match else ""
        if repo not in self.repos:
            self._refuse(handler, 401, "RepoNotFound")
            return
        expected = self.gated.get(repo)
        if expected and handler.headers.get("Authorization") != f"Bearer {expected}":
            self._refuse(handler, 401 if "Authorization" not in handler.headers else 403, "GatedRepo")
            return
        data = self.repos[repo].get(match.group(3)) if match else None
        if data is None:
            self._refuse(handler, 404, "EntryNotFound")
            return
        digest = hashlib.sha256(data).hexdigest()
        handler.send_response(302)
        handler.send_header("X-Repo-Commit", "0123456789abcdef0123456789abcdef01234567")
        handler.send_header("X-Linked-Etag", f'"{"0" * 64 if self.wrong_digest else digest}"')
        handler.send_header("X-Linked-Size", str(len(data)))
        handler.send_header("ETag", '"gitblob"')
        handler.send_header("Location", self.cdn.url(f"/cdn/{digest}"))
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    @staticmethod
    def _refuse(handler: BaseHTTPRequestHandler, status: int, code: str) -> None:
        handler.send_response(status)
        handler.send_header("X-Error-Code", code)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    def stop(self) -> None:
        self.hub.stop()
        self.cdn.stop()


Route = Callable[[BaseHTTPRequestHandler, bool], None]


def redirect_route(location: str) -> Route:
    """A `FileServer` route answering every request with a 302 to `location` (relative to the
    request: "/same/path" makes a loop)."""
    def route(handler: BaseHTTPRequestHandler, body: bool) -> None:
        handler.send_response(302)
        handler.send_header("Location", location)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    return route


def scripted_route(payload: bytes, *, announced: int | None = None, headers: dict[str, str] | None = None,
                   pause: float = 0.0, step: int = 1 << 16, stop_after: int | None = None,
                   silent: float = 0.0) -> Route:
    """A `FileServer` route sending `payload` with Content-Length `announced` (its length by
    default; -1 for none, then the connection's close ends it) and `headers`; `step` bytes at a
    time, `pause` seconds apart (a trickle); closing after `stop_after` bytes (a drop), or
    keeping silent `silent` seconds after the headers (a server that went quiet)."""
    def route(handler: BaseHTTPRequestHandler, body: bool) -> None:
        handler.send_response(200)
        length = len(payload) if announced is None else announced
        if length >= 0:
            handler.send_header("Content-Length", str(length))
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.send_header("Connection", "close")
        handler.end_headers()
        handler.close_connection = True
        if not body:
            return
        handler.wfile.flush()
        time.sleep(silent)
        end = len(payload) if stop_after is None else min(stop_after, len(payload))
        try:
            for offset in range(0, end, step):
                handler.wfile.write(payload[offset:min(offset + step, end)])
                handler.wfile.flush()
                time.sleep(pause)
            if stop_after is not None:
                handler.connection.shutdown(2)
        except OSError:
            pass  # the client gave up first: what the test wanted

    return route


def write_bytes(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path
