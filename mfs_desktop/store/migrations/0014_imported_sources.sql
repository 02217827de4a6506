-- 0014: which conversation of another app's export each imported conversation came from
-- (issue 30), so importing the same export again adds only what is new.
CREATE TABLE imported_sources (
    source          TEXT NOT NULL,  -- "chatgpt", "claude"
    source_id       TEXT NOT NULL,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    imported_at     REAL NOT NULL,
    PRIMARY KEY (source, source_id)
);
