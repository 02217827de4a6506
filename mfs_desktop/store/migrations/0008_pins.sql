-- 0008: messages the user pinned as standing instructions (DESIGN section 5, zone 2): they
-- ride verbatim in the knowledge slot until unpinned.
CREATE TABLE pins (
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    uid             INTEGER NOT NULL,
    pinned_at       REAL NOT NULL,
    PRIMARY KEY (conversation_id, uid)
);
