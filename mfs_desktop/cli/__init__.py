"""`mfs-desktop …`: one module per command group; `main` is the entry point."""

from mfs_desktop.cli.main import main

__all__ = ["main"]
