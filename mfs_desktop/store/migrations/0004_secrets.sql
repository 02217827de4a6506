-- 0004: secrets such as endpoint API keys, inside the encrypted database and never in
-- plain settings. Released: never edit.
CREATE TABLE secrets (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
