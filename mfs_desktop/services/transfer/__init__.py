"""Conversations in and out: exports, their import, other apps' exports."""
