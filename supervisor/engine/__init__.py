"""The project engine: the document one session edits, its undo history, the engine commands
(commands/), project files, and what footage is and may read. It does no rendering itself."""
