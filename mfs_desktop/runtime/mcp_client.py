"""Model Context Protocol servers a person brings — a local command over stdio or a streamable
HTTP address — through the official SDK (`mcp`, pinned in pyproject with the reason).

The SDK is asyncio; the app's workers are threads. One `McpConnection` owns an event loop on a
daemon thread: the SDK's client is entered and left inside one task there (it must be), and
every method blocks its caller with a bound. A server that does not start, hangs, dies or
answers garbage becomes `McpUnavailable` with a plain reason, never a stuck answer: starting
is bounded by START_SECONDS, each call by CALL_SECONDS, and a cancel stops a call at once (the
SDK tells the server with notifications/cancelled).

A server's stderr goes nowhere: what it prints may quote a person's words, and nothing readable
is left on disk. The SDK gives a stdio child only HOME, LOGNAME, PATH, SHELL, TERM and USER plus
the environment configured for it."""

from __future__ import annotations

import asyncio
import concurrent.futures
import subprocess
import threading
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

START_SECONDS = 20.0  # a Python server imports for about a second on a slow machine; 20 is "never"
CALL_SECONDS = 60.0
CLOSE_SECONDS = 5.0  # the SDK closes stdin, waits 2 s, then terminates the process group
MAX_RESULT_CHARS = 1_000_000  # what a result may bring at all; the turn cuts far lower for the model
CONNECTION_CLOSED = -32000  # the SDK's code for a server that went away
REQUEST_TIMEOUT = -32001  # and for a call that ran past its read timeout


@dataclass(frozen=True)
class McpServer:
    """One configured server: a command (stdio) or a URL (streamable HTTP)."""

    name: str
    command: str = ""
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    cwd: str = ""
    url: str = ""
    headers: tuple[tuple[str, str], ...] = ()  # values kept encrypted with the settings
    enabled: bool = True

    @property
    def transport(self) -> str:
        return "http" if self.url else "stdio"


@dataclass(frozen=True)
class McpTool:
    server: str
    name: str
    description: str
    parameters: dict = field(default_factory=dict)


@dataclass(frozen=True)
class McpResult:
    text: str
    is_error: bool


class McpUnavailable(Exception):
    """The server could not be reached or did not answer in time; `closed` when it went away."""

    def __init__(self, reason: str, *, closed: bool = False) -> None:
        super().__init__(reason)
        self.closed = closed


class McpConnection:
    def __init__(self, server: McpServer, *, start_seconds: float = START_SECONDS) -> None:
        """Start the server and complete the protocol's handshake, or raise McpUnavailable."""
        self.server = server
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=f"mcp-{server.name}", daemon=True)
        self._thread.start()
        self._ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._ended = threading.Event()
        self._client: Any = None
        self._stop: asyncio.Event | None = None
        self._main = asyncio.run_coroutine_threadsafe(self._hold(), self._loop)
        try:
            self._ready.result(start_seconds)
        except concurrent.futures.TimeoutError:
            self._abandon()
            raise McpUnavailable(f"the server {server.name!r} did not start within {start_seconds:g} s") from None
        except McpUnavailable:
            self._abandon()
            raise

    async def _hold(self) -> None:
        from mcp import Client

        self._stop = asyncio.Event()
        http = None
        try:
            if self.server.url:
                import httpx2
                from mcp.client.streamable_http import streamable_http_client

                http = httpx2.AsyncClient(headers=dict(self.server.headers),
                                          timeout=httpx2.Timeout(START_SECONDS, read=CALL_SECONDS))
                transport: Any = streamable_http_client(self.server.url, http_client=http)
            else:
                from mcp import StdioServerParameters, stdio_client

                parameters = StdioServerParameters(command=self.server.command, args=list(self.server.args),
                                                   env=dict(self.server.env) or None, cwd=self.server.cwd or None)
                transport = stdio_client(parameters, errlog=subprocess.DEVNULL)  # type: ignore[arg-type]
            async with Client(transport, read_timeout_seconds=CALL_SECONDS) as client:
                self._client = client
                self._ready.set_result(None)
                await self._stop.wait()
        except BaseException as error:  # noqa: BLE001 (every failure becomes a plain reason)
            problem = _unavailable(self.server, _innermost(error))
            if not self._ready.done():
                self._ready.set_exception(problem)
            if not isinstance(error, asyncio.CancelledError):
                raise problem from None
        finally:
            if http is not None:
                await http.aclose()
            self._ended.set()

    def tools(self, timeout: float = START_SECONDS) -> list[McpTool]:
        async def every_page() -> list[McpTool]:
            found, cursor = [], None
            while True:
                page = await self._client.list_tools(cursor=cursor)
                found += [McpTool(self.server.name, tool.name, tool.description or "", dict(tool.input_schema or {}))
                          for tool in page.tools]
                cursor = page.next_cursor
                if not cursor or len(found) > 1000:  # a server that pages forever is not believed
                    return found

        return self._wait(every_page(), timeout, None)

    def call(self, name: str, arguments: dict, *, cancel: threading.Event | None = None,
             timeout: float = CALL_SECONDS) -> McpResult:
        result = self._wait(self._client.call_tool(name, arguments, read_timeout_seconds=timeout), timeout + 5, cancel)
        return McpResult(_result_text(result), bool(result.is_error))

    def _wait(self, work: Coroutine[Any, Any, Any], timeout: float, cancel: threading.Event | None) -> Any:
        if self._ended.is_set() or self._client is None:
            raise McpUnavailable(f"the server {self.server.name!r} is not running", closed=True)
        future = asyncio.run_coroutine_threadsafe(work, self._loop)
        waited = 0.0
        while True:
            try:
                return future.result(0.1)
            except concurrent.futures.TimeoutError:
                waited += 0.1
                if cancel is not None and cancel.is_set():
                    future.cancel()
                    raise McpUnavailable("the call was stopped") from None
                if waited >= timeout:
                    future.cancel()
                    raise McpUnavailable(f"the server {self.server.name!r} did not answer within {timeout:g} s") \
                        from None
            except concurrent.futures.CancelledError:
                raise McpUnavailable("the call was stopped") from None
            except Exception as error:  # noqa: BLE001
                raise _unavailable(self.server, _innermost(error)) from None

    @property
    def alive(self) -> bool:
        return not self._ended.is_set()

    def close(self) -> None:
        """Stop the server (stdin closed, then terminated, then killed) and the loop."""
        if self._stop is not None and not self._ended.is_set():
            self._loop.call_soon_threadsafe(self._stop.set)
        try:
            self._main.result(CLOSE_SECONDS)
        except BaseException:  # noqa: BLE001 (a dead HTTP server refuses the session's DELETE)
            self._main.cancel()
            self._ended.wait(CLOSE_SECONDS)
        self._halt_loop()

    def _abandon(self) -> None:
        self._main.cancel()  # the SDK's teardown ends the child; it must finish before the loop stops
        self._ended.wait(CLOSE_SECONDS)
        self._halt_loop()

    def _halt_loop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(CLOSE_SECONDS)
        if not self._thread.is_alive():
            self._loop.close()


def _innermost(error: BaseException) -> BaseException:
    """anyio wraps a failure in task groups: ExceptionGroup(ExceptionGroup(MCPError))."""
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    return error


def _unavailable(server: McpServer, error: BaseException) -> McpUnavailable:
    if isinstance(error, McpUnavailable):
        return error
    code = getattr(error, "code", None)
    if isinstance(error, FileNotFoundError):
        return McpUnavailable(f"the command {server.command!r} of server {server.name!r} was not found")
    if isinstance(error, PermissionError):
        return McpUnavailable(f"the command {server.command!r} of server {server.name!r} may not be run")
    if code == REQUEST_TIMEOUT:
        return McpUnavailable(f"the server {server.name!r} did not answer in time")
    message = str(getattr(error, "message", "") or error)[:300] or type(error).__name__
    return McpUnavailable(f"server {server.name!r}: {message}", closed=code == CONNECTION_CLOSED)


def _result_text(result: Any) -> str:
    """Text parts as they are; other parts named (an image's type and size, a resource's URI)."""
    from mcp.types import EmbeddedResource, ImageContent, ResourceLink, TextContent

    parts: list[str] = []
    size = 0
    for item in result.content or ():
        if isinstance(item, TextContent):
            text = item.text
        elif isinstance(item, ImageContent):
            text = f"[image {item.mime_type}, {len(item.data) * 3 // 4:,} bytes]"
        elif isinstance(item, EmbeddedResource):
            inner = item.resource
            text = getattr(inner, "text", None) or f"[resource {inner.uri}]"
        elif isinstance(item, ResourceLink):
            text = f"[resource {item.uri}]"
        else:
            text = f"[{type(item).__name__}]"
        parts.append(text)
        size += len(text)
        if size > MAX_RESULT_CHARS:
            break
    if not parts and result.structured_content is not None:
        import json

        parts.append(json.dumps(result.structured_content, ensure_ascii=False))
    return "\n".join(parts)[:MAX_RESULT_CHARS]
