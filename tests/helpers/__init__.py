"""What the tests share: real `rendervisor mcp` and CLI processes, worlds of files for the
confinement tests, documents and scenes for the compositor, and test-only worker tasks."""
