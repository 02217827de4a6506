-- 0017: recall at question time (issue 45). What was recalled for a user message is kept with
-- it: later requests repeat the same bytes at the same place (the KV-cache prefix holds), the
-- Context layers tab and `inspect` show it, and a regenerated answer sees what the first one saw.
CREATE TABLE recalls (
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    user_uid        INTEGER NOT NULL,
    block           TEXT NOT NULL,      -- the zone-6 text exactly as sent ('' when nothing scored)
    hits            TEXT NOT NULL,      -- JSON: [{"uid", "role", "created_at", "terms", "score"}]
    tokens          INTEGER NOT NULL,
    created_at      REAL NOT NULL,
    PRIMARY KEY (conversation_id, user_uid)
);

-- NULL: recall on (the default); 0: this conversation answers without it.
ALTER TABLE conversation_settings ADD COLUMN recall INTEGER;
