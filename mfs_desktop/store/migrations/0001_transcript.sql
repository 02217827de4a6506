-- 0001: the canonical transcript. Released: never edit; add a new numbered file instead.
PRAGMA application_id = 1296454468; -- 'MFSD'

CREATE TABLE conversations (
    id                  TEXT PRIMARY KEY,
    title               TEXT NOT NULL DEFAULT '',
    created_at          REAL NOT NULL,
    updated_at          REAL NOT NULL,
    epoch               INTEGER NOT NULL DEFAULT 1 CHECK (epoch >= 1),
    lineage_id          TEXT NOT NULL,
    lineage_base_uid    INTEGER NOT NULL DEFAULT 0 CHECK (lineage_base_uid >= 0),
    memory_mode         TEXT NOT NULL DEFAULT 'automatic'
                        CHECK (memory_mode IN ('automatic', 'recent_only', 'off')),
    preference_revision INTEGER NOT NULL DEFAULT 0,
    transcript_revision INTEGER NOT NULL DEFAULT 0,
    trashed_at          REAL,
    purging             INTEGER NOT NULL DEFAULT 0 CHECK (purging IN (0, 1))
);
CREATE INDEX conversations_by_update ON conversations (trashed_at, updated_at DESC);

-- Content-addressed document snapshots, kept inside the encrypted database.
-- unreferenced_since is maintained by triggers: NULL while any message points at the blob.
CREATE TABLE attachments (
    sha256             TEXT PRIMARY KEY CHECK (length(sha256) = 64),
    name               TEXT NOT NULL DEFAULT '',
    media_type         TEXT NOT NULL DEFAULT 'application/octet-stream',
    size               INTEGER NOT NULL CHECK (size >= 0),
    first_line         TEXT NOT NULL DEFAULT '',
    data               BLOB NOT NULL,
    created_at         REAL NOT NULL,
    unreferenced_since REAL
);

CREATE TABLE messages (
    id                INTEGER PRIMARY KEY,
    conversation_id   TEXT NOT NULL REFERENCES conversations (id),
    uid               INTEGER NOT NULL CHECK (uid >= 1),
    turn_ordinal      INTEGER NOT NULL CHECK (turn_ordinal >= 1),
    role              TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
    origin            TEXT NOT NULL CHECK (origin IN
                      ('own', 'quoted_ai', 'quoted_ai_annotated', 'document', 'edited', 'model', 'tool')),
    text              TEXT NOT NULL,
    text_sha256       TEXT NOT NULL CHECK (length(text_sha256) = 64),
    created_at        REAL NOT NULL,
    epoch             INTEGER NOT NULL,
    status            TEXT NOT NULL DEFAULT 'complete' CHECK (status IN ('complete', 'partial')),
    generation_id     TEXT,
    tool_name         TEXT,
    tool_arguments    TEXT,
    tool_call_id      TEXT,
    quoted_uid        INTEGER,
    edit_of_uid       INTEGER,
    attachment_sha256 TEXT REFERENCES attachments (sha256),
    UNIQUE (conversation_id, uid)
);
CREATE INDEX messages_by_attachment ON messages (attachment_sha256) WHERE attachment_sha256 IS NOT NULL;

-- Edits and deletions never touch a message: they retract it here, in a new epoch.
CREATE TABLE retractions (
    conversation_id TEXT NOT NULL REFERENCES conversations (id),
    uid             INTEGER NOT NULL,
    epoch           INTEGER NOT NULL,
    reason          TEXT NOT NULL CHECK (reason IN ('edited', 'deleted')),
    retracted_at    REAL NOT NULL,
    PRIMARY KEY (conversation_id, uid),
    FOREIGN KEY (conversation_id, uid) REFERENCES messages (conversation_id, uid)
);

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- Append-only, enforced here and not only in code (invariant 1). Rows go away only when
-- their conversation is being purged from the trash.
CREATE TRIGGER messages_uid_monotonic BEFORE INSERT ON messages
WHEN NEW.uid <= (SELECT coalesce(max(uid), 0) FROM messages WHERE conversation_id = NEW.conversation_id)
BEGIN
    SELECT RAISE(ABORT, 'message uid must grow monotonically');
END;

CREATE TRIGGER messages_no_update BEFORE UPDATE ON messages
BEGIN
    SELECT RAISE(ABORT, 'messages are append-only');
END;

CREATE TRIGGER messages_no_delete BEFORE DELETE ON messages
WHEN (SELECT purging FROM conversations WHERE id = OLD.conversation_id) IS NOT 1
BEGIN
    SELECT RAISE(ABORT, 'messages are append-only');
END;

CREATE TRIGGER retractions_no_update BEFORE UPDATE ON retractions
BEGIN
    SELECT RAISE(ABORT, 'retractions are append-only');
END;

CREATE TRIGGER retractions_no_delete BEFORE DELETE ON retractions
WHEN (SELECT purging FROM conversations WHERE id = OLD.conversation_id) IS NOT 1
BEGIN
    SELECT RAISE(ABORT, 'retractions are append-only');
END;

CREATE TRIGGER conversations_no_delete BEFORE DELETE ON conversations
WHEN OLD.purging IS NOT 1
BEGIN
    SELECT RAISE(ABORT, 'a conversation is deleted only by purging it from the trash');
END;

CREATE TRIGGER attachment_referenced AFTER INSERT ON messages
WHEN NEW.attachment_sha256 IS NOT NULL
BEGIN
    UPDATE attachments SET unreferenced_since = NULL WHERE sha256 = NEW.attachment_sha256;
END;

CREATE TRIGGER attachment_released AFTER DELETE ON messages
WHEN OLD.attachment_sha256 IS NOT NULL
 AND NOT EXISTS (SELECT 1 FROM messages WHERE attachment_sha256 = OLD.attachment_sha256)
BEGIN
    UPDATE attachments SET unreferenced_since = strftime('%s', 'now') + 0.0
     WHERE sha256 = OLD.attachment_sha256;
END;
