"""`mfs-desktop search QUERY`: every conversation's messages, newest match first."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from mfs_desktop.services.display import shown_line

OpenSession = Callable[[argparse.Namespace], Any]


def cmd_search(args: argparse.Namespace, open_session: OpenSession) -> int:
    from mfs_desktop.store.search import search_messages

    session = open_session(args)
    hits = search_messages(session.database, args.query, args.conversation, args.limit)
    if args.json:
        print(json.dumps([{"conversation_id": hit.conversation_id, "title": hit.title, "uid": hit.uid,
                           "role": hit.role, "created_at": hit.created_at, "snippet": hit.snippet} for hit in hits],
                         ensure_ascii=False, indent=1))
        return 0
    if not hits:
        print("(nothing found)")
    for hit in hits:
        when = datetime.fromtimestamp(hit.created_at).strftime("%Y-%m-%d %H:%M")
        print(f"{hit.conversation_id}  uid {hit.uid:<5} {hit.role:<9} {when}  {shown_line(hit.title or '(untitled)')}\n"
              f"    {shown_line(hit.snippet)}")
    return 0


def add_search_command(commands: Any, open_session: OpenSession) -> None:
    search = commands.add_parser("search", help="find messages in every conversation (words, \"phrases\", 中文)")
    search.add_argument("query")
    search.add_argument("--conversation", metavar="ID", help="only in this conversation")
    search.add_argument("--limit", type=int, default=50)
    search.add_argument("--json", action="store_true")
    search.set_defaults(handler=lambda args: cmd_search(args, open_session))
