"""The MCP servers a person configured, kept in the encrypted database: each server's command or
URL in the settings, header values (tokens) in the secrets table beside the endpoints' keys, and
the tools each server offered when it was last asked — what a conversation offers the model, so
the request's prefix stays the same and a server starts only when one of its tools is called.

`mcp.json` files from Claude Desktop, Cursor, LM Studio and others (`{"mcpServers": {name:
{command, args, env, cwd} | {url, headers}}}`) import as they are."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import asdict
from pathlib import Path

from mfs_desktop.errors import InvalidInput, NotFound
from mfs_desktop.runtime.mcp_client import McpConnection, McpServer, McpTool
from mfs_desktop.services.secrets import drop_secret, keep_secret, read_secret
from mfs_desktop.services.session import Session
from mfs_desktop.store.database import Database
from mfs_desktop.store.settings import SettingsStore
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

_SERVERS_KEY, _TOOLS_KEY = "mcp_servers", "mcp_tools"
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
MAX_IMPORT_BYTES = 1 << 20
MAX_TOOLS_PER_SERVER = 128  # each tool's description rides in every request's prefix


def _secret_name(server: str, header: str) -> str:
    return f"mcp_header:{server}:{header}"


def servers(database: Database) -> list[McpServer]:
    """Every configured server, header values read from where they were kept, in the order added."""
    store = SettingsStore(database)
    stored = store.get(_SERVERS_KEY, {})
    found = []
    for name, value in (stored.items() if isinstance(stored, dict) else ()):
        entries = value.get("header_entries", {})
        headers = tuple((header, read_secret(database, _secret_name(name, header), entries.get(header, "")))
                        for header in value.get("headers", ()))
        found.append(McpServer(name, value.get("command", ""), tuple(value.get("args", ())),
                               tuple(tuple(pair) for pair in value.get("env", ())), value.get("cwd", ""),
                               value.get("url", ""), headers, bool(value.get("enabled", True))))
    return found


def server(database: Database, name: str) -> McpServer:
    known = {s.name: s for s in servers(database)}
    if name not in known:
        raise NotFound.worded(QT_TRANSLATE_NOOP("", "No MCP server named {name!r}; the servers are: {names}."),
                              name=name, names=", ".join(known) or "none")
    return known[name]


def save_server(session: Session, new: McpServer) -> None:
    """Add or replace a server (checked: a name, a command or an http(s) URL, not both); header
    values go where the database key is (services/secrets.py)."""
    _check(new)
    store = SettingsStore(session.database)
    stored = dict(store.get(_SERVERS_KEY, {}))
    _forget_headers(session.database, new.name, stored.get(new.name, {}))
    entry = asdict(new)
    entry.pop("name")
    entry["headers"] = [header for header, _ in new.headers]
    entry["header_entries"] = {header: keep_secret(session, _secret_name(new.name, header), value,
                                                   f"a header of MCP server {new.name}")
                               for header, value in new.headers}
    stored[new.name] = entry
    store.set(_SERVERS_KEY, stored)


def _forget_headers(database: Database, name: str, stored: dict) -> None:
    entries = stored.get("header_entries", {})
    for header in stored.get("headers", ()):
        drop_secret(database, _secret_name(name, header), entries.get(header, ""))


def remove_server(database: Database, name: str) -> None:
    server(database, name)  # a plain error for an unknown name
    store = SettingsStore(database)
    _forget_headers(database, name, store.get(_SERVERS_KEY, {}).get(name, {}))
    store.set(_SERVERS_KEY, {k: v for k, v in store.get(_SERVERS_KEY, {}).items() if k != name})
    store.set(_TOOLS_KEY, {k: v for k, v in store.get(_TOOLS_KEY, {}).items() if k != name})


def set_enabled(database: Database, name: str, enabled: bool) -> None:
    """Switch a server on or off (its headers stay where they are kept)."""
    store = SettingsStore(database)
    stored = dict(store.get(_SERVERS_KEY, {}))
    server(database, name)
    stored[name] = {**stored[name], "enabled": enabled}
    store.set(_SERVERS_KEY, stored)


def known_tools(database: Database) -> dict[str, list[McpTool]]:
    """The tools each server offered when last asked, by server name."""
    stored = SettingsStore(database).get(_TOOLS_KEY, {})
    return {name: [McpTool(name, t["name"], t.get("description", ""), t.get("parameters", {})) for t in tools]
            for name, tools in (stored.items() if isinstance(stored, dict) else ())}


def ask_tools(database: Database, name: str) -> list[McpTool]:
    """Start the server, list its tools, keep the list, stop it: the test a person runs after adding one."""
    connection = McpConnection(server(database, name))
    try:
        tools = connection.tools()[:MAX_TOOLS_PER_SERVER]
    finally:
        connection.close()
    store = SettingsStore(database)
    store.set(_TOOLS_KEY, {**store.get(_TOOLS_KEY, {}),
                           name: [{"name": t.name, "description": t.description[:2000], "parameters": t.parameters}
                                  for t in tools]})
    return tools


def parse_mcp_json(path: Path) -> list[McpServer]:
    """The servers of a Claude-Desktop/Cursor-style mcp.json (disabled ones come in disabled)."""
    if path.stat().st_size > MAX_IMPORT_BYTES:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{path} is over {limit:,} bytes; an mcp.json is far smaller."),
                                  path=path, limit=MAX_IMPORT_BYTES)
    try:
        document = json.loads(path.read_text("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{path} is not JSON ({reason})."), path=path,
                                  reason=str(error)[:200]) from None
    listed = document.get("mcpServers", document.get("servers")) if isinstance(document, dict) else None
    if not isinstance(listed, dict):
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{path} has no \"mcpServers\" object."), path=path)
    found = []
    for name, value in listed.items():
        if not isinstance(value, dict):
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Server {name!r} in {path} is not an object."),
                                      name=name, path=path)
        found.append(McpServer(
            str(name), _string(value, "command"), tuple(_strings(value.get("args", []), name)),
            tuple(sorted(_mapping(value.get("env", {}), name).items())), _string(value, "cwd"),
            _string(value, "url") or _string(value, "serverUrl"),
            tuple(_mapping(value.get("headers", {}), name).items()), not value.get("disabled", False)))
    for each in found:
        _check(each)
    return found


def named_values(lines: Iterable[str], separator: str) -> tuple[tuple[str, str], ...]:
    """`NAME=VALUE` (or `Name: value`) lines, blank ones skipped; InvalidInput names a bad one."""
    pairs = []
    for line in lines:
        if line.strip():
            key, found, value = line.partition(separator)
            if not found or not key.strip():
                raise InvalidInput.worded(
                    QT_TRANSLATE_NOOP("", "Write one NAME{separator}VALUE a line (got {line!r})."),
                    separator=separator, line=line)
            pairs.append((key.strip(), value.strip()))
    return tuple(pairs)


def _string(value: dict, key: str) -> str:
    item = value.get(key, "")
    return item if isinstance(item, str) else ""


def _strings(items: object, name: str) -> list[str]:
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The arguments of server {name!r} must be a list of texts."),
                                  name=name)
    return items


def _mapping(items: object, name: str) -> dict[str, str]:
    if not isinstance(items, dict) or not all(isinstance(v, str) for v in items.values()):
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The environment and headers of server {name!r} must map "
                                                        "names to texts."), name=name)
    return {str(k): v for k, v in items.items()}


def _check(new: McpServer) -> None:
    if not NAME.match(new.name):
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "An MCP server's name is 1 to 40 letters, digits, '.', '_' or "
                                                        "'-' (got {name!r})."), name=new.name)
    if bool(new.command) == bool(new.url):
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Server {name!r} needs either a command or a URL."),
                                  name=new.name)
    if new.url and not re.match(r"^https?://", new.url):
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Server {name!r}: only http:// and https:// URLs are "
                                                        "served (got {url!r})."), name=new.name, url=new.url)
