-- 0016: saved llama.cpp KV caches (issue 31), one per conversation: the sealed file lives in
-- <data>/kv/, this row says what it was made with and when it was last used (for eviction).
CREATE TABLE kv_states (
    conversation_id TEXT PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
    file_name       TEXT NOT NULL,
    model_id        TEXT NOT NULL,
    window          INTEGER NOT NULL,
    tokens          INTEGER NOT NULL,
    bytes           INTEGER NOT NULL,
    used_at         REAL NOT NULL
);

-- A conversation moved to the trash loses its cache at once (the file goes with the next sweep).
CREATE TRIGGER kv_states_trashed AFTER UPDATE OF trashed_at ON conversations
WHEN new.trashed_at IS NOT NULL
BEGIN
    DELETE FROM kv_states WHERE conversation_id = new.id;
END;
