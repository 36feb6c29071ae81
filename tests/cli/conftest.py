"""The command-line tests start a `rendervisor` process, and its forkserver, for nearly every
test: rendervisor's modules are compiled to bytecode once first (tests/helpers/
compiled_sources.py), so those processes do not each compile them again."""

from tests.helpers.compiled_sources import compile_sources

compile_sources()
