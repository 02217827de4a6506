"""Real loopback servers for the HTTP adapter tests: llama.cpp's own and a misbehaving one."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from mfs_desktop.runtime.model_files import default_model_path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class LlamaServer:
    """`python -m llama_cpp.server` with the bundled GGUF, on a free loopback port."""

    def __init__(self, *extra: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/v1"
        # A file, not a pipe: llama.cpp logs a lot, and a full pipe would stall the server.
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(default_model_path()), "--host", "127.0.0.1",
             "--port", str(self.port), "--n_ctx", "2048", "--model_alias", "smol", *extra],
            stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.log.seek(0)
                raise RuntimeError(f"llama_cpp.server exited: {self.log.read().decode()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/models", timeout=2):
                    return
            except OSError:
                time.sleep(0.3)
        self.stop()
        raise RuntimeError("llama_cpp.server did not start within 90 s")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


class MisbehavingServer:
    """Answers every POST with `status` (or garbage, or a hang, or a scripted event stream);
    records every path it was asked.

    mode "stream" writes `events` (raw SSE bytes, each flushed, `pause` seconds apart) after
    200 headers, then sleeps `linger` seconds before closing — a server that stalls mid-answer."""

    def __init__(self, status: int = 500, *, mode: str = "status", events: tuple[bytes, ...] = (),
                 linger: float = 0.0, pause: float = 0.0, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.mode = mode
        self.paths: list[str] = []
        self.bodies: list[dict] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                owner.paths.append(self.path)
                owner.bodies.append(json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}"))
                if owner.mode == "hang":
                    time.sleep(5)
                    return
                if owner.mode in ("garbage", "stream"):
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.end_headers()
                    for event in events if owner.mode == "stream" else (b"data: {not json at all\n\n",):
                        self.wfile.write(event)
                        self.wfile.flush()
                        time.sleep(pause)
                    time.sleep(linger)
                    return
                body = json.dumps({"error": {"message": "scripted failure"}}).encode()
                self.send_response(owner.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def sse(payload: object, event: str = "") -> bytes:
    """One server-sent event carrying `payload` as JSON."""
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(payload)}\n\n".encode()


def content_chunk(text: str) -> bytes:
    return sse({"choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]})
