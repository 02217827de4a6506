"""Command line: `mfs-desktop [--data-dir DIR] [COMMAND …]`; no command starts the window."""

from __future__ import annotations

import argparse
import getpass
import logging
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

from mfs_desktop import __version__
from mfs_desktop.cli_configure import add_configure_command
from mfs_desktop.cli_import import add_import_command
from mfs_desktop.cli_models import add_models_commands
from mfs_desktop.cli_organize import add_list_command, add_organize_command
from mfs_desktop.cli_search import add_search_command
from mfs_desktop.errors import BUG_EXIT_CODE, EnvironmentFault, InvalidInput, NoDisplay, file_system_fault
from mfs_desktop.paths import resolve_data_dir
from mfs_desktop.services.display import shown
from mfs_desktop.services.unlock import DataDir

log = logging.getLogger("mfs_desktop")


def passphrase_from_terminal(new: bool) -> str | None:
    """`MFS_PASSPHRASE` (for automation) or a prompt on a terminal; None where neither exists."""
    if "MFS_PASSPHRASE" in os.environ:
        return os.environ["MFS_PASSPHRASE"]
    if not sys.stdin.isatty():
        return None
    if not new:
        return getpass.getpass("Passphrase: ")
    first = getpass.getpass("Choose a passphrase for the encrypted database: ")
    if getpass.getpass("Type it again: ") != first:
        raise InvalidInput("The two passphrases differ; nothing was created.")
    return first


def _new_passphrase_from_terminal() -> str | None:
    if "MFS_NEW_PASSPHRASE" in os.environ:
        return os.environ["MFS_NEW_PASSPHRASE"]
    if not sys.stdin.isatty():
        return None
    first = getpass.getpass("New passphrase: ")
    if getpass.getpass("Type it again: ") != first:
        raise InvalidInput("The two passphrases differ; nothing was changed.")
    return first


def _open(args: argparse.Namespace):
    from mfs_desktop.services.session import open_session

    return open_session(DataDir(args.data_dir), passphrase_from_terminal)


def cmd_export(args: argparse.Namespace) -> int:
    from mfs_desktop.services.transfer import (
        ExportRange,
        export_file_name,
        export_text,
        make_export_folder,
        write_export,
    )

    session = _open(args)
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


def cmd_doctor(args: argparse.Namespace) -> int:
    from mfs_desktop.services.doctor import run_checks

    checks = run_checks(DataDir(args.data_dir))
    for check in checks:
        print(f"{'OK  ' if check.ok else 'FAIL'} {check.name:<14} {check.detail}")
    return 0 if all(check.ok for check in checks) else 1


def cmd_rekey(args: argparse.Namespace) -> int:
    from mfs_desktop.services.unlock import rekey

    session = _open(args)
    new_passphrase = None if args.to_keychain else _new_passphrase_from_terminal()
    record = rekey(session.data_dir, session.database, new_passphrase=new_passphrase, to_keychain=args.to_keychain)
    where = "the system keychain" if record.mode == "keychain" else "the new passphrase"
    print(f"re-encrypted with a new key, now protected by {where}")
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    session = _open(args)
    session.transcript.trash(args.conversation)
    print(f"moved {args.conversation} to the trash (kept 7 days; `mfs-desktop restore` brings it back)")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    session = _open(args)
    session.transcript.restore(args.conversation)
    print(f"restored {args.conversation}")
    return 0


def cmd_empty_trash(args: argparse.Namespace) -> int:
    from mfs_desktop.store.retention import empty_trash

    session = _open(args)
    print(f"purged {empty_trash(session.database)} conversations for good")
    return 0


def cmd_pin(args: argparse.Namespace) -> int:
    from mfs_desktop.services.pins import change_pin
    from mfs_desktop.services.preferences import load_preferences

    session = _open(args)
    window = args.window or load_preferences(session.database).window
    change = change_pin(session, args.conversation, args.uid, args.pinned, window)
    print(f"message {change.uid} {change.note} (pinned messages: about {change.pinned_tokens:,} of "
          f"{change.budget_tokens:,} tokens)")
    return 0


def cmd_chat(args: argparse.Namespace) -> int:
    from mfs_desktop.cli_chat import run_chat

    return run_chat(args, _open(args))


def cmd_endpoint(args: argparse.Namespace) -> int:
    from mfs_desktop.services.endpoints import ROLES, clear_endpoint, load_endpoint, save_endpoint

    session = _open(args)
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


def cmd_inspect(args: argparse.Namespace) -> int:
    import json

    from mfs_desktop.services.chat import ChatService
    from mfs_desktop.services.inspect import inspect_conversation, render_payload
    from mfs_desktop.services.models import ModelChoice, build_model

    session = _open(args)
    session.transcript.conversation(args.conversation)
    model = build_model(ModelChoice(args.provider, args.model, args.window), session.database)
    service = ChatService(session, model, provider=args.provider, window=args.window)
    try:
        if args.input is not None:  # refused as the composer would refuse it: NUL, not UTF-8, too long
            service.check_message(args.input)
        if args.payload:
            view, _ = service.view(args.conversation, extra_input=args.input)
            sys.stdout.write(render_payload(service, view.messages))
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
    from mfs_desktop.services.chat import ChatService
    from mfs_desktop.services.replay import replay_locomo

    if args.format != "locomo":
        raise InvalidInput("Only --format locomo is known.")
    session = _open(args)
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


def cmd_gui(args: argparse.Namespace) -> int:
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.environ.get("QT_QPA_PLATFORM")
    ):
        raise NoDisplay("No display here (DISPLAY and WAYLAND_DISPLAY are unset): start the window from a desktop "
                        "session, or use `mfs-desktop chat` in a terminal.")
    from mfs_desktop.ui.app import run_app

    return run_app(DataDir(args.data_dir), quit_after_shown_ms=args.quit_after_shown)


def cmd_qt_probe(args: argparse.Namespace) -> int:
    from mfs_desktop.ui.probe import probe_platform

    return probe_platform()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mfs-desktop", description="Local-first chat with an encrypted transcript.")
    parser.add_argument("--version", action="version", version=f"mfs-desktop {__version__}")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="where the database lives (default: MFS_DATA_DIR or the platform's data dir)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log ids, counts and timings to stderr")
    # For the packaging smoke test (scripts/smoke-package): the window says when it is shown,
    # then closes itself after MS milliseconds.
    parser.add_argument("--quit-after-shown", type=int, metavar="MS", help=argparse.SUPPRESS)
    parser.set_defaults(handler=cmd_gui)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")

    add_list_command(commands, _open)

    export = commands.add_parser("export", help="export conversations as plaintext Markdown, JSON or HTML")
    which = export.add_mutually_exclusive_group()
    which.add_argument("--conversation", metavar="ID")
    which.add_argument("--all", action="store_true", help="every conversation, one file each into --out DIR")
    export.add_argument("--format", choices=("md", "json", "html"), default="md")
    export.add_argument("--out", metavar="PATH", help="file (or directory with --all); default: standard output")
    export.add_argument("--from-uid", type=int, default=1, help="first message uid (md/html)")
    export.add_argument("--to-uid", type=int, default=None, help="last message uid (md/html)")
    export.set_defaults(handler=cmd_export)

    add_import_command(commands, _open)

    doctor = commands.add_parser("doctor", help="check what is installed and working")
    doctor.set_defaults(handler=cmd_doctor)

    rekey = commands.add_parser(
        "rekey", help="re-encrypt under a new key: new passphrase (MFS_NEW_PASSPHRASE) or keychain"
    )
    rekey.add_argument("--to-keychain", action="store_true", help="keep the new key in the system keychain")
    rekey.set_defaults(handler=cmd_rekey)

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
    chat.add_argument("message", nargs="?", help="one message; without it, an interactive loop")
    chat.set_defaults(handler=cmd_chat)

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

    endpoint = commands.add_parser("endpoint", help="OpenAI-compatible endpoints for --provider openai")
    endpoint.add_argument("action", choices=("show", "set", "clear"))
    endpoint.add_argument("role", nargs="?", choices=("primary", "fallback"), default="primary")
    endpoint.add_argument("--url", help="base URL, e.g. http://127.0.0.1:8080/v1")
    endpoint.add_argument("--model")
    endpoint.add_argument("--key-env", metavar="VAR", help="read the API key from this environment variable")
    endpoint.set_defaults(handler=cmd_endpoint)

    add_models_commands(commands, _open)
    add_search_command(commands, _open)
    add_configure_command(commands, _open)
    add_organize_command(commands, _open)
    empty = commands.add_parser("empty-trash", help="purge every conversation in the trash for good")
    empty.set_defaults(handler=cmd_empty_trash)

    # Unlisted (no help): doctor's Qt check runs it as a child, also from a frozen build.
    commands.add_parser("qt-probe").set_defaults(handler=cmd_qt_probe)
    return parser


def _run(handler: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    try:
        return handler(args)
    except EnvironmentFault as fault:
        print(f"mfs-desktop: {shown(fault.message)}", file=sys.stderr)  # a file name may carry terminal escapes
        return fault.exit_code
    except KeyboardInterrupt:
        print("mfs-desktop: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `mfs-desktop search x | head`: the reader has had enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:
        fault = file_system_fault(exc)
        if fault is not None:
            print(f"mfs-desktop: {shown(fault.message)}", file=sys.stderr)  # a file name may carry terminal escapes
            return fault.exit_code
        print(f"mfs-desktop: internal error ({type(exc).__name__}); this is a bug, please report it "
              "(MFS_DEBUG=1 shows the traceback)", file=sys.stderr)
        if os.environ.get("MFS_DEBUG"):
            traceback.print_exc()
        return BUG_EXIT_CODE


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    args.data_dir = resolve_data_dir(str(args.data_dir) if args.data_dir else None)
    return _run(args.handler, args)
