"""One MCP session's state: its options, the worker pool, the project engine, its roots and its
shell."""

from __future__ import annotations

from dataclasses import dataclass, field

from supervisor.confinement.roots import Confinement
from supervisor.confinement.shell_policy import ShellPolicy, shell_mode
from supervisor.engine.engine import Engine
from supervisor.engine.probes import Probes
from supervisor.render.service import RenderService
from supervisor.runtime.teardown import JOIN_GRACE, TEARDOWN_GRACE


@dataclass
class Options:
    project: str | None = None
    read_roots: list[str] = field(default_factory=list)
    write_roots: list[str] = field(default_factory=list)
    workers: int = 2
    max_inflight: int = 8
    join_grace: float = JOIN_GRACE
    teardown_grace: float = TEARDOWN_GRACE
    log_level: str = "WARNING"
    shell: str | None = None  # --shell: off, sandbox or host; None for the default


class Session:
    def __init__(self, options: Options, pool) -> None:
        self.options = options
        self.pool = pool
        self.confinement = Confinement(options.read_roots, options.write_roots)
        self.shell = ShellPolicy(shell_mode(options.shell, self.confinement.confined),
                                 self.confinement)
        self.engine = self._open_engine(options.project)
        self.engine.render_service = RenderService(pool)
        # The studio's address (rendervisor mcp --studio), named in the instructions so the
        # agent can tell the person it works for where to watch.
        self.studio_url: str | None = None

    def _open_engine(self, project: str | None):
        # Only a confined session gets a guard: the engine reads "has a guard" as "confined"
        # (an unsaved project's default outputs are refused then), and --project itself must
        # pass the roots like any path the session touches.
        guard = self.confinement.guard if self.confinement.confined else None
        return Engine(project, path_guard=guard, probes=Probes(self.pool))

    def close(self) -> None:
        """Stop what the session runs in the background (a wait:false render)."""
        if self.engine.render_service is not None:
            self.engine.render_service.close()
