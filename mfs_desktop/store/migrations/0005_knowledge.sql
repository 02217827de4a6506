-- 0005: the knowledge slot written by the assistant's record_value tool. Released: never edit.
CREATE TABLE knowledge (
    conversation_id TEXT NOT NULL REFERENCES conversations (id),
    key             TEXT NOT NULL,
    value           TEXT NOT NULL,
    source_uid      INTEGER,
    updated_at      REAL NOT NULL,
    PRIMARY KEY (conversation_id, key)
);
