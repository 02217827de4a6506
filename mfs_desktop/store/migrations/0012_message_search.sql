-- 0012: full-text search over what the user and the assistant wrote (issue 30), inside the
-- encrypted database. Contentless: the index holds tokens and positions, the text stays in
-- messages. mfs_search_text() (store/search_text.py, registered on every connection) casefolds
-- and spaces out the characters of unspaced scripts, so Chinese and Japanese are found by
-- substring. The triggers index a message in the transaction that stores it, and drop it with
-- the message when a conversation is purged.
CREATE VIRTUAL TABLE message_search USING fts5(
    body, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER message_search_insert AFTER INSERT ON messages
WHEN new.role IN ('user', 'assistant')
BEGIN
    INSERT INTO message_search (rowid, body) VALUES (new.id, mfs_search_text(new.text));
END;

CREATE TRIGGER message_search_delete AFTER DELETE ON messages
WHEN old.role IN ('user', 'assistant')
BEGIN
    DELETE FROM message_search WHERE rowid = old.id;
END;

INSERT INTO message_search (rowid, body)
SELECT id, mfs_search_text(text) FROM messages WHERE role IN ('user', 'assistant');
