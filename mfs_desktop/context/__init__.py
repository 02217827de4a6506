"""Send-view assembly and frozen snapshots. No Qt here."""
