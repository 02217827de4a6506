"""`mfs-desktop import FILE`: an MFS Desktop JSON export, or a ChatGPT or Claude data export."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mfs_desktop.errors import InvalidInput

OpenSession = Callable[[argparse.Namespace], Any]


def cmd_import(args: argparse.Namespace, open_session: OpenSession) -> int:
    from mfs_desktop.services.transfer.foreign import is_foreign_export

    path = Path(args.file)
    if not is_foreign_export(path):
        from mfs_desktop.services.transfer.exports import import_json, read_import_file

        print(import_json(open_session(args).database, read_import_file(path)))
        return 0
    from mfs_desktop.services.transfer.foreign import import_foreign, read_export_document, read_foreign_export

    export = read_foreign_export(read_export_document(path))
    print(export.preview(), file=sys.stderr)
    if args.preview:
        return 0
    if not args.yes:
        if not sys.stdin.isatty():
            raise InvalidInput("Nothing was imported: add --yes to import these conversations.")
        if input("Import them? [y/N] ").strip().lower() not in ("y", "yes"):
            print("nothing was imported", file=sys.stderr)
            return 0
    created, already = import_foreign(open_session(args).database, export)
    for conversation_id in created:
        print(conversation_id)
    print(f"imported {len(created):,} conversations" + (f"; {already:,} were here already" if already else ""),
          file=sys.stderr)
    return 0


def add_import_command(commands: Any, open_session: OpenSession) -> None:
    importing = commands.add_parser(
        "import", help="import an MFS Desktop JSON export, or a ChatGPT or Claude data export (.json or .zip)")
    importing.add_argument("file")
    importing.add_argument("--preview", action="store_true", help="say what another app's export holds; write nothing")
    importing.add_argument("--yes", action="store_true", help="import another app's export without asking")
    importing.set_defaults(handler=lambda args: cmd_import(args, open_session))
