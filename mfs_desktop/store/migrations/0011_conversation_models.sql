-- 0011: a model chosen for one conversation (issue 29), over the default in the preferences.
-- An empty model_path is the bundled model; the window is the one it runs at there.
CREATE TABLE conversation_models (
    conversation_id TEXT PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
    model_path      TEXT NOT NULL,
    window          INTEGER NOT NULL,
    chosen_at       REAL NOT NULL
);
