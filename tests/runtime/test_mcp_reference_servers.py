"""Issue 49 item 7: servers no one here wrote — mcp-server-git from PyPI, and from npm
@modelcontextprotocol/server-everything (stdio and streamable HTTP) and server-filesystem
(installed by `scripts/bootstrap --tests` into .venv/mcp-npm) — listed and answering."""

from __future__ import annotations

import json
import os
import subprocess

from mcp_servers import connected_when_up, http_server

from mfs_desktop.runtime.mcp_client import McpConnection, McpServer
from tests.conftest import REPO

NPM_BIN = REPO / ".venv" / "mcp-npm" / "node_modules" / ".bin"
VENV_BIN = REPO / ".venv" / "bin"


def _npm(name: str) -> str:
    command = NPM_BIN / name
    assert command.exists(), f"{command} is installed by scripts/bootstrap --tests (npm)"
    return str(command)


def _session(server: McpServer, start_seconds: float = 20) -> McpConnection:
    return McpConnection(server, start_seconds=start_seconds)


def test_the_git_server_reads_a_real_repository(tmp_path) -> None:
    repository = tmp_path / "repo"
    repository.mkdir()
    run = {"cwd": repository, "check": True, "capture_output": True}
    subprocess.run(["git", "init", "-q", "-b", "main"], **run)
    (repository / "notes.txt").write_text("port 8443 · /srv/app/config.yaml\n", "utf-8")
    subprocess.run(["git", "-c", "user.name=T", "-c", "user.email=t@example.invalid", "add", "."], **run)
    subprocess.run(["git", "-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-qm",
                    "Keep the port in notes"], **run)
    connection = _session(McpServer("git", str(VENV_BIN / "mcp-server-git"), ("--repository", str(repository))))
    try:
        assert {"git_status", "git_log", "git_show"} <= {tool.name for tool in connection.tools()}
        log = connection.call("git_log", {"repo_path": str(repository)})
        assert not log.is_error and "Keep the port in notes" in log.text
        outside = connection.call("git_status", {"repo_path": "/"})
        assert outside.is_error, "a path outside the repository is the server's refusal, read by the model"
    finally:
        connection.close()


def test_the_everything_server_over_stdio_echoes() -> None:
    connection = _session(McpServer("everything", _npm("mcp-server-everything")))
    try:
        names = {tool.name for tool in connection.tools()}
        assert "echo" in names and len(names) >= 5
        assert "über ✓" in connection.call("echo", {"message": "über ✓"}).text
    finally:
        connection.close()


def test_the_everything_server_over_streamable_http_echoes() -> None:
    with http_server([_npm("mcp-server-everything"), "streamableHttp"], env=os.environ) as url:
        connection = connected_when_up(McpServer("everything-http", url=url))
        try:
            assert "echo" in {tool.name for tool in connection.tools()}
            assert "over HTTP" in connection.call("echo", {"message": "over HTTP"}).text
        finally:
            connection.close()


def test_the_filesystem_server_lists_and_reads_only_inside_its_folder(tmp_path) -> None:
    (tmp_path / "error.log").write_text("E1234: disk /dev/sda1 at 97%\n", "utf-8")
    connection = _session(McpServer("files", _npm("mcp-server-filesystem"), (str(tmp_path),)))
    try:
        tools = {tool.name for tool in connection.tools()}
        assert {"list_directory", "read_text_file"} <= tools
        listing = connection.call("list_directory", {"path": str(tmp_path)})
        assert "error.log" in listing.text
        read = connection.call("read_text_file", {"path": str(tmp_path / "error.log")})
        assert "E1234: disk /dev/sda1 at 97%" in read.text
        refused = connection.call("read_text_file", {"path": "/etc/hostname"})
        assert refused.is_error and json.dumps(refused.text)
    finally:
        connection.close()
