"""Rendering in the supervisor: planning a render before anything is written, spreading its
chunks over the render workers, stills, previews, pre-renders and proxies, and the snapshots
the workers draw from. The drawing itself happens in workers/."""
