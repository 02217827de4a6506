-- 0013: one conversation's own system prompt and sampling (issue 30). NULL: the app's default.
CREATE TABLE conversation_settings (
    conversation_id TEXT PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
    system_prompt   TEXT,
    temperature     REAL,
    top_p           REAL,
    top_k           INTEGER,
    min_p           REAL,
    repeat_penalty  REAL,
    max_tokens      INTEGER,
    seed            INTEGER,
    preset          TEXT,
    changed_at      REAL NOT NULL
);
