-- 0019: thinking models (issue 48 items 2 and 4). Per answer: how many of its tokens were
-- thinking, for how long, and whether the thinking reached its cap; per conversation: thinking
-- on / off (NULL: the model's own default), a cap on its tokens, and an endpoint's reasoning effort.
ALTER TABLE generations ADD COLUMN thinking_tokens INTEGER;
ALTER TABLE generations ADD COLUMN thinking_ms REAL;
ALTER TABLE generations ADD COLUMN thinking_capped INTEGER;
ALTER TABLE conversation_settings ADD COLUMN thinking TEXT;
ALTER TABLE conversation_settings ADD COLUMN thinking_tokens INTEGER;
ALTER TABLE conversation_settings ADD COLUMN reasoning_effort TEXT;
