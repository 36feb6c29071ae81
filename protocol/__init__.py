"""What the supervisor and the workers both speak, with no I/O, no threads and no processes:
the wire (wire/: JSON-RPC lines, MCP versions, the msgpack frames to workers), the project
document model (model/), and the cancel scope every job is stopped through (cancel.py)."""
