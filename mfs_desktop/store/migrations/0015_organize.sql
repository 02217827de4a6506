-- 0015: organizing conversations (issue 30): pinned to the top, archived out of the list (still
-- searchable and exportable), and tags.
ALTER TABLE conversations ADD COLUMN pinned_at REAL;
ALTER TABLE conversations ADD COLUMN archived_at REAL;

CREATE TABLE conversation_tags (
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    tag             TEXT NOT NULL CHECK (length(tag) BETWEEN 1 AND 40),
    PRIMARY KEY (conversation_id, tag)
);
CREATE INDEX conversation_tags_by_tag ON conversation_tags (tag);
