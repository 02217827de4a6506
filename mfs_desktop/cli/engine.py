"""`inspect` and `replay`: what the context engine sends, and how it fares on a long conversation."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mfs_desktop.cli.opening import open_session_for
from mfs_desktop.errors import InvalidInput


def cmd_inspect(args: argparse.Namespace) -> int:
    import json

    from mfs_desktop.services.conversation.chat import ChatService
    from mfs_desktop.services.conversation.inspect import inspect_conversation, render_payload
    from mfs_desktop.services.mcp.toolbox import toolbox_for
    from mfs_desktop.services.models.choice import ModelChoice, build_model

    session = open_session_for(args)
    session.transcript.conversation(args.conversation)
    model = build_model(ModelChoice(args.provider, args.model, args.window), session.database)
    service = ChatService(session, model, provider=args.provider, window=args.window,
                          external_tools=toolbox_for(session.database))  # offered as chat offers them
    try:
        if args.input is not None:  # refused as the composer would refuse it: NUL, not UTF-8, too long
            service.check_message(args.input)
        if args.payload:
            view, _ = service.view(args.conversation, extra_input=args.input)
            sys.stdout.write(render_payload(service, args.conversation, view.messages))
        else:
            print(json.dumps(inspect_conversation(service, args.conversation, extra_input=args.input),
                             indent=None if args.json else 2, ensure_ascii=False))
    finally:
        service.close()
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    import json

    from mfs_desktop.compaction.compactor import ExtractiveCompactor, ModelCompactor
    from mfs_desktop.runtime.embedded import EmbeddedModel
    from mfs_desktop.runtime.estimate import estimate_text_tokens
    from mfs_desktop.runtime.model_files import default_model_path
    from mfs_desktop.services.conversation.chat import ChatService
    from mfs_desktop.services.conversation.replay import replay_locomo

    if args.format != "locomo":
        raise InvalidInput("Only --format locomo is known.")
    session = open_session_for(args)
    model_path = args.model or default_model_path()
    tokenizer = EmbeddedModel(model_path, n_ctx=args.window, tokenizer_only=True)
    if args.compactor == "embedded":
        factory = lambda: ModelCompactor(EmbeddedModel(model_path, n_ctx=args.window))  # noqa: E731
    else:
        factory = lambda: ExtractiveCompactor(estimate_text_tokens)  # noqa: E731
    service = ChatService(session, tokenizer, provider="replay", window=args.window, compactor_factory=factory)
    try:
        report = replay_locomo(service, Path(args.file), tokenizer)
    finally:
        service.close()
    if not args.per_turn:
        report.pop("per_turn")
    print(json.dumps(report, indent=None if args.json else 2))
    return 0



def add_engine_commands(commands: Any) -> None:
    inspect = commands.add_parser("inspect", help="what the model would see next: zones, segments, coverage")
    inspect.add_argument("--conversation", metavar="ID", required=True)
    inspect.add_argument("--json", action="store_true", help="one line of JSON")
    inspect.add_argument("--payload", action="store_true", help="print the exact send view text instead")
    inspect.add_argument("--provider", choices=("embedded", "openai", "fake"), default="embedded")
    inspect.add_argument("--model", type=Path)
    inspect.add_argument("--window", type=int, default=8192)
    inspect.add_argument("--input", metavar="TEXT",
                         help="the request TEXT would be sent with, recall included (nothing is stored)")
    inspect.set_defaults(handler=cmd_inspect)

    replay = commands.add_parser("replay", help="feed a LoCoMo conversation through the real services; print figures")
    replay.add_argument("file")
    replay.add_argument("--format", default="locomo")
    replay.add_argument("--window", type=int, default=8192)
    replay.add_argument("--compactor", choices=("fake", "embedded"), default="fake")
    replay.add_argument("--model", type=Path, help="GGUF whose tokenizer and template count (default: bundled)")
    replay.add_argument("--json", action="store_true", help="one line of JSON")
    replay.add_argument("--per-turn", action="store_true", help="include every turn's figures")
    replay.set_defaults(handler=cmd_replay)
