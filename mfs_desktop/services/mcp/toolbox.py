"""The MCP tools a conversation offers the model, and how each call runs: asked for first (every
call, unless the person chose "always" for that tool), bounded in time, on a server started at
its first call and restarted once if it died. A denied, failed or timed-out call goes back to the
model as a tool error; nothing here raises into the answer."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from mfs_desktop.runtime.mcp_client import CALL_SECONDS, McpConnection, McpTool, McpUnavailable
from mfs_desktop.runtime.protocol import ToolCall, ToolSpec
from mfs_desktop.runtime.tools import TOOLS
from mfs_desktop.services.conversation.tools import ToolError, ToolOutcome, call_arguments, readable_arguments
from mfs_desktop.services.mcp.servers import known_tools, servers
from mfs_desktop.store.database import Database
from mfs_desktop.store.settings import SettingsStore

log = logging.getLogger(__name__)

_ALWAYS_KEY = "mcp_always_allowed"
ONCE, ALWAYS, DENY = "once", "always", "deny"
RESTARTS = 1


@dataclass(frozen=True)
class ApprovalRequest:
    """What a person is shown before a call runs."""

    server: str
    tool: str
    arguments: str  # readable JSON (its own characters, not \\u escapes); shown with escapes marked


Approver = Callable[[ApprovalRequest], str]  # ONCE, ALWAYS or DENY


def deny_every_call(_request: ApprovalRequest) -> str:
    return DENY


def allow_every_call(_request: ApprovalRequest) -> str:
    return ONCE


class McpToolbox:
    def __init__(self, database: Database, approver: Approver = deny_every_call,
                 call_seconds: float = CALL_SECONDS) -> None:
        self._database = database
        self._approver = approver
        self._call_seconds = call_seconds
        self._servers = {s.name: s for s in servers(database) if s.enabled}
        offered = [tool for name, tools in known_tools(database).items() if name in self._servers for tool in tools]
        self._by_name = _named(offered)
        self._connections: dict[str, McpConnection] = {}
        self._restarts: dict[str, int] = {}
        self._lock = threading.Lock()

    def specs(self, offered: frozenset[str] | None = None) -> tuple[ToolSpec, ...]:
        """The tools of the `offered` servers (None: every enabled one), in a stable order: the
        request's prefix depends on it."""
        return tuple(ToolSpec(name, f"{tool.description} (MCP server {tool.server})".strip(), tool.parameters or
                              {"type": "object", "properties": {}})
                     for name, tool in sorted(self._by_name.items()) if offered is None or tool.server in offered)

    def owns(self, name: str) -> bool:
        return name in self._by_name

    @property
    def owns_any(self) -> bool:
        return bool(self._by_name)

    def run(self, call: ToolCall, cancel: threading.Event | None = None) -> ToolOutcome:
        started = time.perf_counter()
        tool = self._by_name[call.name]
        try:
            arguments = call_arguments(call)
        except ToolError as problem:
            return ToolOutcome.since(started, f"error: {problem}", "error", tool.server)
        approval = self._approval(tool, call.arguments)
        if approval == DENY:
            return ToolOutcome.since(started, "error: the person denied this call", "error", tool.server, DENY)
        try:
            result = self._connection(tool.server).call(tool.name, arguments, cancel=cancel,
                                                        timeout=self._call_seconds)
        except McpUnavailable as problem:
            if problem.closed:
                self._forget(tool.server)
            return ToolOutcome.since(started, f"error: {problem}", "error", tool.server, approval)
        return ToolOutcome.since(started, result.text, "error" if result.is_error else "ok", tool.server, approval)

    def _approval(self, tool: McpTool, raw_arguments: str) -> str:
        key = f"{tool.server}/{tool.name}"
        settings = SettingsStore(self._database)
        if key in settings.get(_ALWAYS_KEY, []):
            return ALWAYS
        answer = self._approver(ApprovalRequest(tool.server, tool.name, readable_arguments(raw_arguments)))
        if answer == ALWAYS:
            settings.set(_ALWAYS_KEY, sorted({*settings.get(_ALWAYS_KEY, []), key}))
        return answer if answer in (ONCE, ALWAYS) else DENY

    def _connection(self, name: str) -> McpConnection:
        with self._lock:
            connection = self._connections.get(name)
            if connection is not None and connection.alive:
                return connection
            if connection is not None:  # it died: once more, then its calls fail plainly
                connection.close()
                if self._restarts.get(name, 0) >= RESTARTS:
                    raise McpUnavailable(f"the server {name!r} stopped again; restart the app to try it again")
                self._restarts[name] = self._restarts.get(name, 0) + 1
                log.warning("mcp server %s died; restarting (%d)", name, self._restarts[name])
            self._connections[name] = McpConnection(self._servers[name])
            return self._connections[name]

    def _forget(self, name: str) -> None:
        with self._lock:
            connection = self._connections.get(name)
        if connection is not None:
            connection.close()

    def close(self) -> None:
        with self._lock:
            connections, self._connections = list(self._connections.values()), {}
        for connection in connections:
            connection.close()


def toolbox_for(database: Database, approver: Approver = deny_every_call) -> McpToolbox | None:
    """The MCP tools to offer, or None when no enabled server has told its tools yet."""
    toolbox = McpToolbox(database, approver)
    return toolbox if toolbox.owns_any else None


def _named(tools: list[McpTool]) -> dict[str, McpTool]:
    """A tool is offered by its own name; one that two servers share, or that is the name of one
    of the app's own tools (recall_history, read_document …), becomes `server__tool`."""
    counts: dict[str, int] = {spec.name: 2 for spec in TOOLS}
    for tool in tools:
        counts[tool.name] = counts.get(tool.name, 0) + 1
    return {(tool.name if counts[tool.name] == 1 else f"{tool.server}__{tool.name}")[:64]: tool for tool in tools}
