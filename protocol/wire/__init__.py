"""The wire: JSON-RPC 2.0 lines and MCP protocol revisions on stdin/stdout, and the
length-delimited msgpack frames between the supervisor and each worker."""
