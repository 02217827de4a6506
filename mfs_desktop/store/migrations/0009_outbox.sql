-- 0009: messages the user gave that are not in the transcript yet (issue 33). A message is
-- stored here before any model work that precedes its turn (finishing an interrupted answer,
-- loading the model) and moves into the transcript in the transaction that deletes it here,
-- so a kill at any moment leaves it in exactly one of the two places. `owner` is the process
-- that took it (services/owner.py): a live process answers its own; a dead one's are anyone's.
CREATE TABLE outbox (
    seq               INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id   TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    content           TEXT NOT NULL,
    origin            TEXT NOT NULL DEFAULT '',
    quoted_uid        INTEGER,
    attachment_sha256 TEXT,
    owner             TEXT NOT NULL,
    queued_at         REAL NOT NULL
);
CREATE INDEX outbox_by_conversation ON outbox (conversation_id, seq);
