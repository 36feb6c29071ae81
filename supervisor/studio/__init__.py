"""The studio: a local web page that shows a project, or a live MCP session, to a person
(docs/studio.md). It runs on a thread of its own and reads the session through `Source`
(source.py) and the call events (supervisor/call_events.py), never through the MCP server."""
