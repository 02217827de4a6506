"""`export`, `delete`, `restore`, `empty-trash`, `pin`/`unpin`: conversations as a whole."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mfs_desktop.cli.opening import open_session_for
from mfs_desktop.errors import InvalidInput


def cmd_export(args: argparse.Namespace) -> int:
    from mfs_desktop.services.transfer.exports import (
        ExportRange,
        export_file_name,
        export_text,
        make_export_folder,
        write_export,
    )

    session = open_session_for(args)
    span = ExportRange(args.from_uid, args.to_uid)
    if args.all:
        if not args.out:
            raise InvalidInput("`export --all` needs --out DIR.")
        out_dir = Path(args.out)
        make_export_folder(out_dir)
        rows = session.transcript.list_conversations()
        for row in rows:
            write_export(out_dir / export_file_name(row.id, args.format),
                         export_text(session.database, row.id, args.format, span))
        print(f"exported {len(rows)} conversations to {out_dir} (plaintext files)", file=sys.stderr)
        return 0
    if not args.conversation:
        raise InvalidInput("Say which: --conversation ID or --all.")
    text = export_text(session.database, args.conversation, args.format, span)
    if args.out:
        write_export(Path(args.out), text)
        print(f"exported to {args.out} (a plaintext file)", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    session = open_session_for(args)
    session.transcript.trash(args.conversation)
    print(f"moved {args.conversation} to the trash (kept 7 days; `mfs-desktop restore` brings it back)")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    session = open_session_for(args)
    session.transcript.restore(args.conversation)
    print(f"restored {args.conversation}")
    return 0


def cmd_empty_trash(args: argparse.Namespace) -> int:
    from mfs_desktop.store.retention import empty_trash

    session = open_session_for(args)
    print(f"purged {empty_trash(session.database)} conversations for good")
    return 0


def cmd_pin(args: argparse.Namespace) -> int:
    from mfs_desktop.services.conversation.pins import change_pin
    from mfs_desktop.services.preferences import load_preferences

    session = open_session_for(args)
    window = args.window or load_preferences(session.database).window
    change = change_pin(session, args.conversation, args.uid, args.pinned, window)
    print(f"message {change.uid} {change.note} (pinned messages: about {change.pinned_tokens:,} of "
          f"{change.budget_tokens:,} tokens)")
    return 0



def add_conversation_commands(commands: Any) -> None:
    export = commands.add_parser("export", help="export conversations as plaintext Markdown, JSON or HTML")
    which = export.add_mutually_exclusive_group()
    which.add_argument("--conversation", metavar="ID")
    which.add_argument("--all", action="store_true", help="every conversation, one file each into --out DIR")
    export.add_argument("--format", choices=("md", "json", "html"), default="md")
    export.add_argument("--out", metavar="PATH", help="file (or directory with --all); default: standard output")
    export.add_argument("--from-uid", type=int, default=1, help="first message uid (md/html)")
    export.add_argument("--to-uid", type=int, default=None, help="last message uid (md/html)")
    export.set_defaults(handler=cmd_export)

    for name, handler, text in (
        ("delete", cmd_delete, "move a conversation to the trash"),
        ("restore", cmd_restore, "bring a conversation back from the trash"),
    ):
        sub = commands.add_parser(name, help=text)
        sub.add_argument("conversation", metavar="ID")
        sub.set_defaults(handler=handler)
    for name, text in (("pin", "pin one of your messages as a standing instruction: sent verbatim until unpinned"),
                       ("unpin", "unpin a message pinned as a standing instruction")):
        sub = commands.add_parser(name, help=text)
        sub.add_argument("--conversation", metavar="ID", required=True)
        sub.add_argument("--uid", type=int, required=True, help="the message's number (uid), as `inspect` shows it")
        sub.add_argument("--window", type=int, help="model window for the pin budget (default: the one in Settings)")
        sub.set_defaults(handler=cmd_pin, pinned=name == "pin")
    empty = commands.add_parser("empty-trash", help="purge every conversation in the trash for good")
    empty.set_defaults(handler=cmd_empty_trash)
