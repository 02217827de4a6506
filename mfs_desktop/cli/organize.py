"""`mfs-desktop list` and `organize --conversation ID …`: the conversations, pinned, archived, tagged."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import datetime
from typing import Any

from mfs_desktop.services.display import shown_line

OpenSession = Callable[[argparse.Namespace], Any]


def cmd_list(args: argparse.Namespace, open_session: OpenSession) -> int:
    session = open_session(args)
    if args.trash:
        rows = session.transcript.list_conversations(trashed=True)
        if not rows:
            print("(no conversations in the trash)")
        for row in rows:
            print(f"{row.id}  {row.turns:>5} turns  {_when(row.updated_at)}  {shown_line(row.title or '(untitled)')}")
        return 0
    from mfs_desktop.store.conversation_list import list_for_window

    listed = list_for_window(session.database, archived=args.archived, tag=args.tag)
    if not listed:
        print("(no archived conversations)" if args.archived else "(no conversations)")
    for item in listed:
        marks = ("📌 " if item.pinned else "") + "".join(f"#{shown_line(tag)} " for tag in item.tags)
        print(f"{item.id}  {item.turns:>5} turns  {_when(item.updated_at)}  {marks}"
              f"{shown_line(item.title or '(untitled)')}")
    return 0


def _when(stamp: float) -> str:
    return datetime.fromtimestamp(stamp).strftime("%Y-%m-%d %H:%M")


def add_list_command(commands: Any, open_session: OpenSession) -> None:
    listing = commands.add_parser("list", help="list conversations (id, turns, updated, pinned, tags, title)")
    which = listing.add_mutually_exclusive_group()
    which.add_argument("--trash", action="store_true", help="list the trash instead")
    which.add_argument("--archived", action="store_true", help="list the archived conversations instead")
    listing.add_argument("--tag", help="only conversations with this tag")
    listing.set_defaults(handler=lambda args: cmd_list(args, open_session))


def cmd_organize(args: argparse.Namespace, open_session: OpenSession) -> int:
    from mfs_desktop.store.conversation_list import list_for_window, set_archived, set_conversation_pinned, set_tags

    session = open_session(args)
    database = session.database
    session.transcript.conversation(args.conversation)  # a plain error for an unknown id
    if args.pin is not None:
        set_conversation_pinned(database, args.conversation, args.pin)
    if args.archive is not None:
        set_archived(database, args.conversation, args.archive)
    if args.tags is not None:
        set_tags(database, args.conversation, args.tags.split(","))
    listed = [c for archived in (False, True) for c in list_for_window(database, archived=archived)
              if c.id == args.conversation]
    for item in listed:
        print(f"{item.id}  pinned {'yes' if item.pinned else 'no'}  archived {'yes' if item.archived else 'no'}  "
              f"tags {', '.join(shown_line(t) for t in item.tags) or '-'}")
    return 0


def add_organize_command(commands: Any, open_session: OpenSession) -> None:
    organize = commands.add_parser("organize", help="pin a conversation to the top, archive it, or tag it")
    organize.add_argument("--conversation", metavar="ID", required=True)
    pin = organize.add_mutually_exclusive_group()
    pin.add_argument("--pin", action="store_const", const=True, dest="pin", default=None)
    pin.add_argument("--unpin", action="store_const", const=False, dest="pin")
    archive = organize.add_mutually_exclusive_group()
    archive.add_argument("--archive", action="store_const", const=True, dest="archive", default=None,
                         help="out of the list; still searchable (list --archived shows it)")
    archive.add_argument("--unarchive", action="store_const", const=False, dest="archive")
    organize.add_argument("--tags", metavar="A,B", help="replace its tags (\"\" removes them)")
    organize.set_defaults(handler=lambda args: cmd_organize(args, open_session))
