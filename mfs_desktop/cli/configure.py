"""`mfs-desktop configure --conversation ID …`: one conversation's system prompt and sampling."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from mfs_desktop.store.conversation_settings import SAMPLING_FIELDS

OpenSession = Callable[[argparse.Namespace], Any]


def cmd_configure(args: argparse.Namespace, open_session: OpenSession) -> int:
    from mfs_desktop.services.conversation.settings import ThinkingChoice, configure, presets, save_preset

    session = open_session(args)
    if args.list_presets:
        for name, values in presets(session).items():
            print(f"{name:<12} " + ", ".join(f"{key} {value}" for key, value in values.items()))
        return 0
    session.transcript.conversation(args.conversation)  # a plain error for an unknown id
    prompt = args.system_prompt
    if args.system_prompt_file:
        prompt = Path(args.system_prompt_file).read_text("utf-8")
    values = {name: getattr(args, name) for name in SAMPLING_FIELDS}
    settings, prompt_changed = configure(session, args.conversation, system_prompt=prompt, values=values,
                                         preset=args.preset, reset=args.reset,
                                         recall=None if args.recall is None else args.recall == "on",
                                         thinking=ThinkingChoice(args.thinking, args.thinking_tokens,
                                                                 args.reasoning_effort),
                                         mcp_servers=None if args.mcp_servers is None else args.mcp_servers.split(","))
    if args.save_preset:
        save_preset(session, args.save_preset, settings.sampling_overrides())
    if args.json:
        print(json.dumps(asdict(settings), ensure_ascii=False))
    else:
        for name, value in asdict(settings).items():
            print(f"{name:<15} {'(default)' if value is None else value}")
    if prompt_changed:
        print("the system prompt changed: the next reply re-reads the context")
    return 0


def add_configure_command(commands: Any, open_session: OpenSession) -> None:
    configure = commands.add_parser("configure", help="one conversation's system prompt, sampling and preset")
    configure.add_argument("--conversation", metavar="ID")
    configure.add_argument("--system-prompt", metavar="TEXT", help="its own system prompt; \"\" returns to the default")
    configure.add_argument("--system-prompt-file", metavar="FILE")
    for name, kind in (("temperature", float), ("top_p", float), ("top_k", int), ("min_p", float),
                       ("repeat_penalty", float), ("max_tokens", int), ("seed", int)):
        configure.add_argument("--" + name.replace("_", "-"), type=kind, dest=name)
    configure.add_argument("--preset", help="fill the sampling values from a preset (see --list-presets)")
    configure.add_argument("--save-preset", metavar="NAME", help="save the resulting values as a preset of your own")
    configure.add_argument("--reset", action="store_true", help="back to the defaults, then apply what is given")
    configure.add_argument("--recall", choices=("on", "off"),
                           help="bring back earlier messages a new message asks about (on by default)")
    configure.add_argument("--thinking", choices=("on", "off", "default"),
                           help="a thinking model thinks before it answers, answers at once, or as it was made to")
    configure.add_argument("--thinking-tokens", type=int, metavar="N",
                           help="stop the thinking after N tokens and answer (0: no cap)")
    configure.add_argument("--reasoning-effort", choices=("low", "medium", "high", "default"),
                           help="for endpoints that take it (OpenAI's, vLLM, llama.cpp server)")
    configure.add_argument("--mcp-servers", metavar="NAME,…",
                           help="the MCP servers whose tools this conversation offers: names, all, or none")
    configure.add_argument("--list-presets", action="store_true")
    configure.add_argument("--json", action="store_true")

    def handler(args: argparse.Namespace) -> int:
        if not args.list_presets and not args.conversation:
            configure.error("--conversation ID is needed (or --list-presets)")
        return cmd_configure(args, open_session)

    configure.set_defaults(handler=handler)
