-- 0018: a model's thinking, kept apart from its answer (issue 46 item 4). Imports from ChatGPT
-- ("thoughts", "reasoning_recap") and Claude ("thinking" blocks) fill it; NULL where there was
-- none. Never part of the message text, so search, quotes and the context sent see the answer only.
ALTER TABLE messages ADD COLUMN thinking TEXT;
