"""The host as a sandboxed command must leave it: for the sandbox tests (tests/confinement/
test_sandbox_*.py). `HostState` records, before an attack, everything outside the write root
that the attack might change (the confinement world's outside folders and read root, the roots'
parent, the host's top-level, /etc, /usr/bin and /dev listings, /dev/null's inode, bwrap,
/bin/sh and /etc/passwd), and says afterwards what changed; every attack also names what it
tries to create ESCAPED, and no file of that name may exist anywhere a write could land.
"""

from __future__ import annotations

import hashlib
import os

from tests.helpers.confinement_world import Footprint, World

# The name every attack gives a file it tries to make outside the write root.
ESCAPED = "rv-sandbox-escaped"
# Host folders listed (names only, not descended): a new name in any is a write that escaped.
LISTED = ("/", "/etc", "/usr", "/usr/bin", "/usr/local", "/usr/local/bin", "/dev")
# Host files whose bytes and times must not change.
WATCHED = ("/etc/passwd", "/etc/hostname", "/usr/bin/bwrap", "/bin/sh")
# Where an escaped file could land: the listed folders, the host's /tmp and /dev/shm.
LANDING = LISTED + ("/tmp", "/dev/shm", "/root")


class HostState:
    def __init__(self, world: World) -> None:
        self.world = world
        self.scanned = world.outsides() + [world.read]
        self.listed = (world.base,) + tuple(path for path in LISTED if os.path.isdir(path))
        self.files = Footprint(self.scanned, listed=self.listed)
        self.watched = {path: _fingerprint(path) for path in WATCHED if os.path.exists(path)}
        # Not /dev/tty: writes through it by any terminal on the machine move its times.
        self.devices = {node: _node(f"/dev/{node}") for node in ("null", "zero")}

    def changes(self) -> list[str]:
        """What differs from when this state was recorded, as readable lines."""
        found = self.files.changes(Footprint(self.scanned, listed=self.listed))
        found += [f"{path} changed" for path, print_ in self.watched.items()
                  if _fingerprint(path) != print_]
        found += [f"/dev/{node}: {before} -> {_node(f'/dev/{node}')}"
                  for node, before in self.devices.items() if _node(f"/dev/{node}") != before]
        for folder in LANDING + (self.world.base, self.world.outside, self.world.read):
            if os.path.lexists(os.path.join(folder, ESCAPED)):
                found.append(f"{os.path.join(folder, ESCAPED)} exists")
        return found


def _fingerprint(path: str) -> tuple:
    info = os.stat(path)
    with open(path, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()
    return digest, info.st_mode, info.st_uid, info.st_mtime_ns, info.st_ctime_ns


def _node(path: str) -> tuple:
    """A device node as a change to it shows: mode, owner, times (chmod and touch move ctime)."""
    info = os.stat(path)
    return info.st_mode, info.st_uid, info.st_gid, info.st_mtime_ns, info.st_ctime_ns


def attempt(server, world: World, command: str, **arguments) -> tuple[dict, list[str]]:
    """Run `command` in the server's shell; its result and what it changed on the host."""
    state = HostState(world)
    result = server.run("shell", {"command": command, **arguments}, timeout=120)
    return result, state.changes()
