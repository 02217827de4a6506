-- 0007: the S0 anchor per conversation (DESIGN section 6), so counting survives a restart;
-- prefix_digest: sha256 over the messages the endpoint counted; k: the EMA calibration.
-- segments.upgrade_tried: a degraded segment gets one catch-up upgrade (seed 003 §4.5), never two.
CREATE TABLE token_anchors (
    conversation_id TEXT PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
    message_count INTEGER NOT NULL,
    prefix_digest TEXT NOT NULL,
    exact_tokens INTEGER NOT NULL,
    k REAL NOT NULL DEFAULT 1.0
);
ALTER TABLE segments ADD COLUMN upgrade_tried INTEGER NOT NULL DEFAULT 0;
