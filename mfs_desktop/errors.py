"""Errors of the environment, each with a plain one-line message and an exit code.

Anything that is not an `EnvironmentFault` is a bug in MFS Desktop and is reported as one
(see `cli.main`). This split follows qutebrowser's habit: a user can fix a wrong passphrase
or a missing file; only a developer can fix a traceback.
"""

from __future__ import annotations

import errno
from typing import Self


class EnvironmentFault(Exception):
    """A known problem outside the program's control; `str()` is what the user reads."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.template = message  # with `values`, set by `worded`
        self.values: dict[str, object] = {}

    @classmethod
    def worded(cls, template: str, **values: object) -> Self:
        """A fault whose message is `template` filled in; the window translates the template
        (marked with `translatable.QT_TRANSLATE_NOOP`) before filling it, the CLI prints it."""
        fault = cls(template.format(**values))
        fault.template, fault.values = template, values
        return fault


class WrongPassphrase(EnvironmentFault):
    exit_code = 3


class NotAnMfsDatabase(EnvironmentFault):
    exit_code = 4


class DatabaseDamaged(EnvironmentFault):
    exit_code = 5


class DatabaseTooNew(EnvironmentFault):
    exit_code = 6


class KeychainProblem(EnvironmentFault):
    exit_code = 7


class PassphraseRequired(EnvironmentFault):
    exit_code = 8


class NotFound(EnvironmentFault):
    exit_code = 9


class InvalidInput(EnvironmentFault):
    exit_code = 10


class DatabaseBusy(EnvironmentFault):
    exit_code = 11


class ConversationBusy(DatabaseBusy):
    """Another live process is writing this answer."""


class NoDisplay(EnvironmentFault):
    exit_code = 13


class StorageAccess(EnvironmentFault):
    """The data folder or a file in it cannot be read or written by this user: permissions,
    a read-only file or file system, an unwritable parent. Never a damaged database."""

    exit_code = 14


class DiskFull(EnvironmentFault):
    exit_code = 15


class DownloadFailed(EnvironmentFault):
    """A model download that could not finish or was refused; nothing broken is left behind."""

    exit_code = 16


class TemplateUnusable(EnvironmentFault):
    """A model's chat template fails, loops or grows without bound; a known family's template can stand in."""

    exit_code = 17


BUG_EXIT_CODE = 70  # EX_SOFTWARE from sysexits.h


def file_system_fault(exc: Exception) -> EnvironmentFault | None:
    """A refusal of the file system that no check foresaw is still the environment's fault."""
    if not isinstance(exc, OSError):
        return None
    where = exc.filename or "a file"
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return DiskFull(f"The disk holding {where} is full; free some space and try again.")
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return StorageAccess(f"{where}: {exc.strerror}. Give your user access to it, or choose another place.")
    return None
