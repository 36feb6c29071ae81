"""Which shell a session has, `rendervisor mcp --shell off|sandbox|host`, and what one call of
it may see.

    off      every shell call is refused
    sandbox  the command runs under bubblewrap and sees only the roots, by the one rule
             (sandbox_arguments.py); the default while confined
    host     the command runs on the machine as the server's user; the default unconfined,
             refused at start while confined (it would reach every file)

A sandbox that cannot run here (no bwrap on PATH, user namespaces not allowed, ...) makes every
shell call a refusal with the one sentence that says what to install or enable; the tool's
description and the server's instructions say so from the start (`describe`).

Never runs a command itself: the shell tool does, through the pool, and reports here how the
sandbox's first start went (`sandbox_failed`).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager

from supervisor.confinement.roots import Confinement, ConfinementError, inside
from supervisor.confinement.sandbox_arguments import HOME, SEARCH_PATH, Sandbox, bwrap_arguments
from supervisor.confinement.sandbox_files import (SandboxSetupError, host_layout, owns_host_devices,
                                                  private_folder, sandbox_identity)
from supervisor.confinement.sandbox_seccomp import seccomp_filter
from supervisor.errors import UsageError

SHELL_MODES = ("off", "sandbox", "host")
# What of the server's environment a sandboxed command inherits: the locale and the time zone.
# The rest (tokens, keys, the server's PATH into folders the sandbox does not show) stays out.
INHERITED_VARIABLES = ("LANG", "LANGUAGE", "TZ")
SANDBOX_BEGINS = "shell is refused: this session runs shell commands in a bubblewrap sandbox"
# What bwrap says when the kernel will not give it a user namespace: unprivileged ones off
# (Debian's unprivileged_userns_clone), none allowed (max_user_namespaces 0), or AppArmor on
# Ubuntu 24.04 letting it make one but keep no capability in it (the uid map, the loopback).
NAMESPACE_FAILURES = ("namespace", "uid map", "loopback", "user ns")


def shell_mode(requested: str | None, confined: bool) -> str:
    """The mode a session runs with: `requested`, or the default; host while confined is a
    usage error (exit 2)."""
    if requested is None:
        return "sandbox" if confined else "host"
    if requested == "host" and confined:
        raise UsageError("rendervisor mcp: --shell host is refused while confined to roots (a "
                         "host shell reaches every file on the machine); use --shell sandbox, "
                         "the default, or --shell off")
    return requested


class ShellPolicy:
    def __init__(self, mode: str, confinement: Confinement) -> None:
        self.mode = mode
        self.confinement = confinement
        self.bwrap = shutil.which("bwrap") if mode == "sandbox" else None
        machine = os.uname().machine
        self.seccomp = seccomp_filter(machine) if mode == "sandbox" else None
        # Why a sandboxed call cannot run here (one sentence), or None.
        self.refusal: str | None = None
        if mode == "sandbox" and self.bwrap is None:
            self.refusal = (f"{SANDBOX_BEGINS}, and bwrap is not installed (not found on "
                            "PATH); install it (apt-get install bubblewrap) and restart "
                            "rendervisor mcp, or start it with --shell off")
        elif mode == "sandbox" and self.seccomp is None:
            self.refusal = (f"{SANDBOX_BEGINS}, and it has no seccomp filter for this "
                            f"machine ({machine}; there are filters for x86_64 and aarch64), "
                            "without which a command could leave set-user-ID files or symbolic "
                            "links in a write root or reach unix sockets; start rendervisor "
                            "mcp with --shell off")

    def describe(self) -> str:
        """One sentence for the shell tool's description and the server's instructions."""
        if self.mode == "off":
            return "Shell is off in this session (--shell off): every call is refused."
        if self.mode == "host":
            return "Commands run on the machine as the server's user, with no confinement."
        if self.refusal is not None:
            return f"Every call is refused here: {self.refusal}."
        return ("Commands run in a bubblewrap sandbox that shows only the session's roots "
                "(write roots writable, read roots read-only) and the system's programs "
                "read-only, with a private /tmp and /dev, no network and no other process; "
                "it cannot make symbolic links, set-user-ID files or unix sockets; cwd must be "
                "inside a root (default: the first write root).")

    def sandbox_failed(self, message: str) -> None:
        """The sandbox's first start failed with bwrap's `message`: every call is refused
        from now on, saying what to enable or install."""
        detail = message.strip().splitlines()[-1] if message.strip() else "no message"
        if any(fragment in detail.lower() for fragment in NAMESPACE_FAILURES):
            self.refusal = (f"{SANDBOX_BEGINS}, and user namespaces are not allowed here "
                            f"({detail}); enable them (sysctl user.max_user_namespaces=10000, "
                            "and kernel.unprivileged_userns_clone=1 or, on Ubuntu, "
                            "kernel.apparmor_restrict_unprivileged_userns=0 where the kernel "
                            "has those; in a container, a seccomp profile that allows unshare) "
                            "and restart rendervisor mcp, or start it with --shell off")
        elif "unknown option" in detail.lower():
            self.refusal = (f"{SANDBOX_BEGINS}, and this bubblewrap is too old ({detail}); "
                            "install bubblewrap 0.8.0 or newer and restart rendervisor mcp")
        else:
            self.refusal = (f"{SANDBOX_BEGINS}, and it could not start here ({detail}); fix "
                            "what bwrap names and restart rendervisor mcp, or start it with "
                            "--shell off")

    def refuse_unusable(self) -> None:
        """ConfinementError when shell calls are off or cannot run here."""
        if self.mode == "off":
            raise ConfinementError("shell is refused: it is off in this session (rendervisor "
                                   "mcp --shell off)")
        if self.mode == "sandbox" and self.refusal is not None:
            raise ConfinementError(self.refusal)

    def working_folder(self, cwd: str | None) -> str | None:
        """Where the command starts. Sandboxed: inside a root, resolved (the roots are bound at
        their resolved paths), by default the first write root, else the first read root."""
        if self.mode != "sandbox":
            return cwd
        roots = self.confinement.write_roots + self.confinement.read_roots
        if cwd is None:
            return roots[0] if roots else HOME
        resolved = self.confinement.check_read(cwd)
        if not any(inside(resolved, root) for root in roots):
            raise ConfinementError(f"cwd {cwd} is refused: a sandboxed shell starts inside a "
                                   "root, and this session has none; leave cwd out")
        if not os.path.isdir(resolved):
            raise ConfinementError(f"cwd {cwd} is refused: it is not an existing folder; pass "
                                   "an existing folder inside a root")
        return resolved

    @contextmanager
    def sandbox(self, cwd: str) -> Iterator[dict | None]:
        """What the shell task needs to run one command in the sandbox (bwrap's arguments up to
        the command, the command's environment, the seccomp program), or None for a host shell.
        The call's private folder lives as long as this context."""
        if self.mode != "sandbox":
            yield None
            return
        identity = sandbox_identity()
        devices = owns_host_devices()
        try:
            with private_folder(identity, devices) as private:
                arguments = bwrap_arguments(Sandbox(
                    self.bwrap, tuple(self.confinement.read_roots),
                    tuple(self.confinement.write_roots), cwd, identity, host_layout(), private,
                    private_devices=devices))
                yield {"arguments": arguments, "env": self._environment(identity),
                       "seccomp": self.seccomp}
        except SandboxSetupError as exc:  # only the folder's making raises it
            raise ConfinementError(f"{SANDBOX_BEGINS}, and {exc}") from None

    @staticmethod
    def _environment(identity) -> dict[str, str]:
        env = {"PATH": SEARCH_PATH, "HOME": HOME, "USER": identity.user,
               "LOGNAME": identity.user, "SHELL": "/bin/sh"}
        env.update({name: value for name, value in os.environ.items()
                    if name in INHERITED_VARIABLES or name.startswith("LC_")})
        return env
