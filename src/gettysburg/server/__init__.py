"""The game server, its SQLite store and the browser client (see docs/server.md)."""
