"""`doctor` and `rekey`: the installation and the data folder's key."""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from typing import Any

from mfs_desktop.cli.opening import open_session_for
from mfs_desktop.errors import InvalidInput
from mfs_desktop.services.unlock import DataDir


def cmd_doctor(args: argparse.Namespace) -> int:
    from mfs_desktop.services.doctor import run_checks

    checks = run_checks(DataDir(args.data_dir))
    for check in checks:
        print(f"{'OK  ' if check.ok else 'FAIL'} {check.name:<14} {check.detail}")
    return 0 if all(check.ok for check in checks) else 1


def _new_passphrase_from_terminal() -> str | None:
    if "MFS_NEW_PASSPHRASE" in os.environ:
        return os.environ["MFS_NEW_PASSPHRASE"]
    if not sys.stdin.isatty():
        return None
    first = getpass.getpass("New passphrase: ")
    if getpass.getpass("Type it again: ") != first:
        raise InvalidInput("The two passphrases differ; nothing was changed.")
    return first


def cmd_rekey(args: argparse.Namespace) -> int:
    from mfs_desktop.services.unlock import rekey

    session = open_session_for(args)
    new_passphrase = None if args.to_keychain else _new_passphrase_from_terminal()
    record = rekey(session.data_dir, session.database, new_passphrase=new_passphrase, to_keychain=args.to_keychain)
    where = "the system keychain" if record.mode == "keychain" else "the new passphrase"
    print(f"re-encrypted with a new key, now protected by {where}")
    return 0



def add_data_folder_commands(commands: Any) -> None:
    doctor = commands.add_parser("doctor", help="check what is installed and working")
    doctor.set_defaults(handler=cmd_doctor)

    rekey = commands.add_parser(
        "rekey", help="re-encrypt under a new key: new passphrase (MFS_NEW_PASSPHRASE) or keychain"
    )
    rekey.add_argument("--to-keychain", action="store_true", help="keep the new key in the system keychain")
    rekey.set_defaults(handler=cmd_rekey)
