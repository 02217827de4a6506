-- 0003: answers kept as alternatives after Regenerate. Released: never edit.
-- Which answer of a turn is shown is view state, not transcript: rows here may come and go,
-- the messages they name never change.
CREATE TABLE hidden_alternatives (
    conversation_id TEXT NOT NULL REFERENCES conversations (id),
    uid             INTEGER NOT NULL,
    generation_id   TEXT NOT NULL,
    PRIMARY KEY (conversation_id, uid),
    FOREIGN KEY (conversation_id, uid) REFERENCES messages (conversation_id, uid)
);
CREATE INDEX hidden_alternatives_by_generation ON hidden_alternatives (generation_id);

ALTER TABLE generations ADD COLUMN finish_reason TEXT;
ALTER TABLE generations ADD COLUMN regenerates TEXT;
