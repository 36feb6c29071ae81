"""The MCP front door: one reader of stdin, inline answers, two lanes of tool calls, one writer
of stdout, and the tools themselves (tools/). docs/architecture.md, "The front door"."""
