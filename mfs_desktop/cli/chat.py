"""`chat`: the terminal conversation; the loop itself (cli/chat_loop.py) loads only when it runs."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from mfs_desktop.cli.opening import open_session_for


def cmd_chat(args: argparse.Namespace) -> int:
    from mfs_desktop.cli.chat_loop import run_chat

    return run_chat(args, open_session_for(args))


def add_chat_command(commands: Any) -> None:
    chat = commands.add_parser("chat", help="chat in the terminal: one turn with MESSAGE, a loop without")
    target = chat.add_mutually_exclusive_group()
    target.add_argument("--conversation", metavar="ID", help="continue this conversation")
    target.add_argument("--new", action="store_true", help="start a new conversation (the default)")
    chat.add_argument("--provider", choices=("embedded", "openai", "fake"), default="embedded")
    chat.add_argument("--model", type=Path, help="a GGUF file (default: the conversation's model, else Settings')")
    chat.add_argument("--window", type=int, help="model window in tokens (default: the chosen model's)")
    chat.add_argument("--max-tokens", type=int, help="default: the conversation's setting, else 512")
    chat.add_argument("--temperature", type=float, help="default: the conversation's setting, else 0.7")
    chat.add_argument("--seed", type=int, help="default: the conversation's setting, else 0")
    chat.add_argument("--json", action="store_true", help="print one JSON object: conversation id, answer, usage")
    chat.add_argument("--approve-tools", action="store_true",
                      help="run MCP tool calls without asking (otherwise asked on a terminal, denied without one)")
    chat.add_argument("message", nargs="?", help="one message; without it, an interactive loop")
    chat.set_defaults(handler=cmd_chat)
