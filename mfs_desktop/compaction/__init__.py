"""Compaction: fact and user-quote tracks, tool-result clearing, segments, verification. No Qt."""
