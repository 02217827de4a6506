"""MFS Desktop: a local-first chat app with an encrypted, append-only transcript."""

__version__ = "0.1.0"
