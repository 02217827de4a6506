"""Model adapters and tools. No Qt here."""
