"""`rendervisor commands [--json]`: the engine command catalog, as an agent sees it in
command_list, printed for a person or a script."""

from supervisor.mcp.tools.engine_tools import print_catalog


def run(args) -> int:
    print_catalog(args.json)
    return 0
