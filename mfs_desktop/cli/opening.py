"""Opening the data folder for a command: the passphrase from the environment or the terminal."""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from typing import TYPE_CHECKING

from mfs_desktop.errors import InvalidInput
from mfs_desktop.services.unlock import DataDir

if TYPE_CHECKING:
    from mfs_desktop.services.session import Session


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


def open_session_for(args: argparse.Namespace) -> Session:
    """The session of `--data-dir`, unlocked from the keychain, MFS_PASSPHRASE or a prompt."""
    from mfs_desktop.services.session import open_session

    return open_session(DataDir(args.data_dir), passphrase_from_terminal)
