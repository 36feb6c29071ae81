"""The `rendervisor` command line: `mcp`, `render`, `preview`, `watch`, `commands`; the farm
node (claims, clashes, the Dask cluster) and how a render is shown on a terminal."""
