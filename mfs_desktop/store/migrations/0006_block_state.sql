-- 0006: what the send view's data block holds between compaction events. Released: never edit.
-- slot_snapshot: the knowledge slot as of the last event ("stale rather than thrash");
-- tool_clear_uid: tool results up to this uid are cleared in the send copy (S2).
ALTER TABLE conversations ADD COLUMN slot_snapshot TEXT NOT NULL DEFAULT '';
ALTER TABLE conversations ADD COLUMN tool_clear_uid INTEGER NOT NULL DEFAULT 0;
