"""`endpoint`: the OpenAI-compatible endpoints `--provider openai` sends to."""

from __future__ import annotations

import argparse
import os
from typing import Any

from mfs_desktop.cli.opening import open_session_for
from mfs_desktop.errors import InvalidInput


def cmd_endpoint(args: argparse.Namespace) -> int:
    from mfs_desktop.services.models.endpoints import ROLES, clear_endpoint, load_endpoint, save_endpoint

    session = open_session_for(args)
    if args.action == "set":
        if not (args.url and args.model):
            raise InvalidInput("`endpoint set` needs --url and --model.")
        key = os.environ.get(args.key_env, "") if args.key_env else ""
        where = save_endpoint(session, args.role, args.url, args.model, key)
        stored = {"keychain": "stored in the system keychain", "database": "stored encrypted"}.get(where, "not set")
        print(f"{args.role} endpoint saved (key {stored})")
    elif args.action == "clear":
        clear_endpoint(session, args.role)
        print(f"{args.role} endpoint removed")
    for role in ROLES:
        endpoint = load_endpoint(session.database, role)
        if endpoint is None:
            print(f"{role:<9} (not set)")
        else:
            note = (
                "" if role == "primary" or endpoint.complete else "  (incomplete: a fallback needs url, model and key)"
            )
            key = "set" if endpoint.api_key else "not set"
            print(f"{role:<9} {endpoint.url}  model {endpoint.model}  key {key}{note}")
    return 0



def add_endpoint_command(commands: Any) -> None:
    endpoint = commands.add_parser("endpoint", help="OpenAI-compatible endpoints for --provider openai")
    endpoint.add_argument("action", choices=("show", "set", "clear"))
    endpoint.add_argument("role", nargs="?", choices=("primary", "fallback"), default="primary")
    endpoint.add_argument("--url", help="base URL, e.g. http://127.0.0.1:8080/v1")
    endpoint.add_argument("--model")
    endpoint.add_argument("--key-env", metavar="VAR", help="read the API key from this environment variable")
    endpoint.set_defaults(handler=cmd_endpoint)
