"""`mcp`: the Model Context Protocol servers whose tools a conversation offers the model.

    mfs-desktop mcp add NAME [--env K=V] [--cwd DIR] -- COMMAND [ARG…]
    mfs-desktop mcp add NAME --url URL [--header K=V]
    mfs-desktop mcp list [--json] · remove NAME · enable NAME · disable NAME · test NAME · import FILE
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mfs_desktop.errors import InvalidInput

OpenSession = Callable[[argparse.Namespace], Any]


def cmd_mcp(args: argparse.Namespace, open_session: OpenSession) -> int:
    from mfs_desktop.runtime.mcp_client import McpServer
    from mfs_desktop.services.mcp.servers import (
        known_tools,
        named_values,
        parse_mcp_json,
        remove_server,
        save_server,
        servers,
        set_enabled,
    )

    session = open_session(args)
    database = session.database
    if args.action == "add":
        command = list(args.command or ())
        if bool(command) == bool(args.url):
            raise InvalidInput("`mcp add NAME` needs a command after -- or --url URL (one of them).")
        save_server(session, McpServer(args.name, command[0] if command else "", tuple(command[1:]),
                                        named_values(args.env or (), "="), args.cwd or "", args.url or "",
                                        named_values(args.header or (), "=")))
        print(f"added {args.name}")
        return _tested(database, args.name)
    if args.action == "import":
        imported = parse_mcp_json(Path(args.name))
        for each in imported:
            save_server(session, each)
        print(f"imported {len(imported)} server(s): {', '.join(s.name for s in imported)}")
        failed = [each.name for each in imported if each.enabled and
                  _tested(database, each.name) != 0]
        return 1 if failed else 0
    if args.action in ("remove", "enable", "disable", "test"):
        if not args.name:
            raise InvalidInput(f"`mcp {args.action}` needs a server name.")
        if args.action == "remove":
            remove_server(database, args.name)
            print(f"removed {args.name}")
            return 0
        if args.action == "test":
            return _tested(database, args.name)
        set_enabled(database, args.name, args.action == "enable")
        print(f"{args.name} {args.action}d")
        return 0
    tools = known_tools(database)
    listed = [{"name": s.name, "transport": s.transport, "command": [s.command, *s.args] if s.command else [],
               "url": s.url, "headers": [name for name, _ in s.headers], "env": [name for name, _ in s.env],
               "cwd": s.cwd, "enabled": s.enabled,
               "tools": [{"name": t.name, "description": t.description} for t in tools.get(s.name, [])]}
              for s in servers(database)]
    if args.json:
        print(json.dumps(listed, ensure_ascii=False, indent=1))
        return 0
    if not listed:
        print("no MCP servers; add one with: mfs-desktop mcp add NAME -- COMMAND [ARG…]")
    for entry in listed:
        where = " ".join(entry["command"]) if entry["command"] else entry["url"]
        state = "" if entry["enabled"] else "  (disabled)"
        print(f"{entry['name']}  {entry['transport']}  {where}{state}")
        for tool in entry["tools"]:
            print(f"    {tool['name']}: {' '.join(tool['description'].split())[:110]}")
    return 0


def _tested(database: Any, name: str) -> int:
    """Start the server and list its tools; a server that does not answer stays configured."""
    from mfs_desktop.runtime.mcp_client import McpUnavailable
    from mfs_desktop.services.mcp.servers import ask_tools

    try:
        tools = ask_tools(database, name)
    except McpUnavailable as problem:
        print(f"{name} did not answer: {problem}", file=sys.stderr)
        return 1
    print(f"{name} offers {len(tools)} tool(s): {', '.join(t.name for t in tools)}")
    return 0


def add_mcp_command(commands: Any, open_session: OpenSession) -> None:
    mcp = commands.add_parser("mcp", help="MCP servers whose tools the model may call (each call asked for)")
    mcp.add_argument("action", choices=("list", "add", "remove", "enable", "disable", "test", "import"))
    mcp.add_argument("name", nargs="?", help="the server's name (for import: the mcp.json file)")
    mcp.set_defaults(command=[])  # for add: what follows -- (cli/main.py takes it whole)
    mcp.add_argument("--url", help="a streamable HTTP server, e.g. http://127.0.0.1:3001/mcp")
    mcp.add_argument("--header", action="append", metavar="NAME=VALUE", help="sent to an HTTP server; kept encrypted")
    mcp.add_argument("--env", action="append", metavar="NAME=VALUE", help="in a command's environment")
    mcp.add_argument("--cwd", metavar="DIR", help="the command's working folder")
    mcp.add_argument("--json", action="store_true")
    mcp.set_defaults(handler=lambda args: cmd_mcp(args, open_session))
