"""Use cases that tie store, vault, context, compaction and runtime together. No Qt here."""
