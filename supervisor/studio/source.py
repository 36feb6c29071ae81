"""What the studio is given to show and to act on, by the front door that starts it: the one
interface between the studio and a session.

- `rendervisor studio PROJECT`: an engine holding the project, a pool, renders allowed, the
  project's file to reload when it changes on disk.
- `rendervisor mcp --studio`: the session's engine and pool, and `stop_call`, the server's way
  to cancel a call as a client's cancel does; the studio's `Activity` is the server's watcher.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from supervisor.engine.engine import Engine
from supervisor.runtime.pool import Pool


@dataclass
class Source:
    engine: Engine  # the document (its lock, revision, snapshots) and its render service
    pool: Pool  # the preview worker draws the viewer's frames
    title: str  # what the page's header says this is
    stop_call: Callable[[Any], bool] | None = None  # a live session's calls, by key
    can_render: bool = False  # the page may start the render queue
    project_file: str | None = None  # reloaded when it changes on disk
