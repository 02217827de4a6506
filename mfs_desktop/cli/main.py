"""Command line: `mfs-desktop [--data-dir DIR] [COMMAND …]`; no command starts the window."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

from mfs_desktop import __version__
from mfs_desktop.cli.chat import add_chat_command
from mfs_desktop.cli.configure import add_configure_command
from mfs_desktop.cli.conversations import add_conversation_commands
from mfs_desktop.cli.data_folder import add_data_folder_commands
from mfs_desktop.cli.endpoints import add_endpoint_command
from mfs_desktop.cli.engine import add_engine_commands
from mfs_desktop.cli.imports import add_import_command
from mfs_desktop.cli.mcp import add_mcp_command
from mfs_desktop.cli.models import add_models_commands
from mfs_desktop.cli.opening import open_session_for
from mfs_desktop.cli.organize import add_list_command, add_organize_command
from mfs_desktop.cli.search import add_search_command
from mfs_desktop.errors import BUG_EXIT_CODE, EnvironmentFault, NoDisplay, file_system_fault
from mfs_desktop.paths import resolve_data_dir
from mfs_desktop.services.display import shown
from mfs_desktop.services.unlock import DataDir

log = logging.getLogger("mfs_desktop")


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


def cmd_template_check(args: argparse.Namespace) -> int:
    from mfs_desktop.runtime.template_check import check_from_stdin

    check_from_stdin()
    return 0


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

    add_list_command(commands, open_session_for)

    add_conversation_commands(commands)
    add_import_command(commands, open_session_for)
    add_data_folder_commands(commands)
    add_chat_command(commands)
    add_engine_commands(commands)
    add_endpoint_command(commands)
    add_mcp_command(commands, open_session_for)

    add_models_commands(commands, open_session_for)
    add_search_command(commands, open_session_for)
    add_configure_command(commands, open_session_for)
    add_organize_command(commands, open_session_for)
    # Unlisted (no help): doctor's Qt check runs it as a child, also from a frozen build.
    commands.add_parser("qt-probe").set_defaults(handler=cmd_qt_probe)
    # Unlisted: a chat template's trial in a process of its own (runtime/template_check.py), frozen builds.
    commands.add_parser("template-check").set_defaults(handler=cmd_template_check)
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
    given = list(sys.argv[1:] if argv is None else argv)
    # What follows `--` is another program's command line (`mcp add NAME -- COMMAND …`), taken
    # whole: argparse would match it against this program's positionals and options.
    head, trailing = (given[:given.index("--")], given[given.index("--") + 1:]) if "--" in given else (given, None)
    parser = build_parser()
    args = parser.parse_args(head)
    if trailing is not None:
        if not hasattr(args, "command"):
            parser.error("only `mcp add NAME -- COMMAND [ARG…]` takes a command after --")
        args.command = trailing
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    args.data_dir = resolve_data_dir(str(args.data_dir) if args.data_dir else None)
    return _run(args.handler, args)
