"""An MCP server for the tool tests, on the official SDK's own server: tools that wait, return a
long text, echo, or end the server's process. `python workbench.py` serves stdio;
`python workbench.py --http PORT` serves streamable HTTP on 127.0.0.1."""

from __future__ import annotations

import os
import sys
import time

from mcp.server.mcpserver import MCPServer

server = MCPServer("workbench")


@server.tool()
def echo(text: str) -> str:
    """Return the text as it was sent."""
    return text


@server.tool()
def wait(seconds: float) -> str:
    """Wait this many seconds, then say so."""
    time.sleep(seconds)
    return f"waited {seconds} s"


@server.tool()
def long_text(characters: int) -> str:
    """A text of this many characters, numbered so any part can be found again."""
    pieces, size, number = [], 0, 0
    while size < characters:
        piece = f"line {number:06d}: the quick brown fox jumps over the lazy dog.\n"
        pieces.append(piece)
        size += len(piece)
        number += 1
    return "".join(pieces)[:characters]


@server.tool()
def die() -> str:
    """End the server's process at once, as a crash would."""
    os._exit(3)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run()
