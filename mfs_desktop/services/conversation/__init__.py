"""Sending and answering: the turn, its tools, recall, compaction scheduling, warm start."""
