-- 0002: durable generations, segments, the compaction ledger and the tool trajectory.
-- Released: never edit; add a new numbered file instead.
ALTER TABLE conversations ADD COLUMN block_version INTEGER NOT NULL DEFAULT 0;

CREATE TABLE generations (
    id                      TEXT PRIMARY KEY,
    conversation_id         TEXT NOT NULL REFERENCES conversations (id),
    user_uid                INTEGER NOT NULL,
    epoch                   INTEGER NOT NULL,
    lineage_id              TEXT NOT NULL,
    snapshot                BLOB NOT NULL,
    fingerprint             TEXT NOT NULL CHECK (length(fingerprint) = 64),
    fallback_snapshot       BLOB,
    fallback_fingerprint    TEXT,
    status                  TEXT NOT NULL DEFAULT 'frozen' CHECK (status IN
                            ('frozen', 'streaming', 'completed', 'partial', 'failed', 'abandoned')),
    provider                TEXT NOT NULL DEFAULT '',
    model                   TEXT NOT NULL DEFAULT '',
    prompt_tokens           INTEGER,
    prompt_tokens_reused    INTEGER,
    prompt_tokens_evaluated INTEGER,
    completion_tokens       INTEGER,
    prefill_ms              REAL,
    decode_ms               REAL,
    error                   TEXT,
    created_at              REAL NOT NULL,
    finished_at             REAL
);
CREATE INDEX generations_by_conversation ON generations (conversation_id, created_at);

-- A frozen snapshot is frozen (invariant 6): its bytes and fingerprint never change.
CREATE TRIGGER generations_snapshot_frozen BEFORE UPDATE OF snapshot, fingerprint, fallback_snapshot,
    fallback_fingerprint, conversation_id, user_uid, epoch, lineage_id ON generations
BEGIN
    SELECT RAISE(ABORT, 'a frozen snapshot cannot change');
END;

CREATE TABLE segments (
    id              TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id),
    epoch           INTEGER NOT NULL,
    lineage_id      TEXT NOT NULL,
    uid_start       INTEGER NOT NULL,
    uid_end         INTEGER NOT NULL CHECK (uid_end >= uid_start),
    depth           INTEGER NOT NULL DEFAULT 0 CHECK (depth BETWEEN 0 AND 3),
    state           TEXT NOT NULL CHECK (state IN ('candidate', 'active', 'superseded', 'rejected', 'invalidated')),
    degraded        INTEGER NOT NULL DEFAULT 0 CHECK (degraded IN (0, 1)),
    source_digest   TEXT NOT NULL,
    guide           TEXT NOT NULL DEFAULT '[]',
    facts           TEXT NOT NULL DEFAULT '[]',
    tokens          INTEGER NOT NULL DEFAULT 0,
    block_version   INTEGER NOT NULL,
    created_at      REAL NOT NULL
);
CREATE INDEX segments_by_conversation ON segments (conversation_id, state, uid_start);

CREATE TABLE ledger (
    id                INTEGER PRIMARY KEY,
    conversation_id   TEXT NOT NULL REFERENCES conversations (id),
    created_at        REAL NOT NULL,
    event             TEXT NOT NULL,
    level             INTEGER,
    input_tokens      INTEGER,
    output_tokens     INTEGER,
    cache_miss_tokens INTEGER,
    duration_ms       REAL,
    outcome           TEXT NOT NULL,
    detail            TEXT NOT NULL DEFAULT ''
);
CREATE INDEX ledger_by_time ON ledger (created_at);
CREATE INDEX ledger_by_conversation ON ledger (conversation_id, created_at);

CREATE TABLE trajectory (
    id              INTEGER PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id),
    generation_id   TEXT,
    call_uid        INTEGER,
    result_uid      INTEGER,
    tool_name       TEXT NOT NULL,
    arguments       TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('ok', 'error')),
    duration_ms     REAL,
    created_at      REAL NOT NULL
);
CREATE INDEX trajectory_by_conversation ON trajectory (conversation_id, id);
