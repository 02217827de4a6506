-- 0020: tools people bring (issue 49). Each trajectory row names the MCP server a call went to
-- (NULL: the app's own tools) and how it was approved ("once", "always", "deny"; NULL: no
-- approval was asked, as for the app's own tools); a conversation may offer only some servers
-- (a JSON list of names; NULL: every enabled server).
ALTER TABLE trajectory ADD COLUMN server TEXT;
ALTER TABLE trajectory ADD COLUMN approval TEXT;
ALTER TABLE conversation_settings ADD COLUMN mcp_servers TEXT;
