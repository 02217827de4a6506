"""MCP servers over streamable HTTP for the tool tests: a server process on a free loopback
port, and a connection made once it answers (a Python or node server takes a moment to bind)."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from http_servers import free_port

from mfs_desktop.runtime.mcp_client import McpConnection, McpServer, McpUnavailable


@contextmanager
def http_server(command: list[str], env: Mapping[str, str] | None = None) -> Iterator[str]:
    """Run `command` (`{port}` in it filled in, and PORT in its environment); yields its /mcp URL."""
    port = free_port()
    process = subprocess.Popen([part.replace("{port}", str(port)) for part in command],
                               env={**(env or {}), "PORT": str(port)} if env is not None else None,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(10)


def connected_when_up(server: McpServer, within: float = 30.0) -> McpConnection:
    """A connection to `server` as soon as it answers, trying for `within` seconds."""
    deadline = time.monotonic() + within
    while True:
        try:
            return McpConnection(server, start_seconds=5)
        except McpUnavailable:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)
