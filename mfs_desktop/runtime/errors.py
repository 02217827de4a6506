"""Failures of a model provider: environment faults with a plain message."""

from __future__ import annotations

from mfs_desktop.errors import EnvironmentFault


class ProviderError(EnvironmentFault):
    exit_code = 12

    def __init__(self, message: str, *, status: int | None = None, retryable: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.retryable = retryable
