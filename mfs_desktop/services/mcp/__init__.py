"""Model Context Protocol servers: their configuration and the tools a conversation offers from them."""
