"""What a sandboxed shell command sees: the bubblewrap (`bwrap`) argument list, as a pure function.

    the host's                              inside the sandbox
    ──────────                              ──────────────────
    /usr, /bin, /sbin, /lib*            ──► the same paths, read-only (a link stays a link)
    a few /etc files (ld.so, certs, ...) ─► the same paths, read-only
    the call's private folder           ──► /etc/passwd, group, hosts, nsswitch.conf (made for
                                            the call: its one user), and /dev's nodes as root
    each write root                     ──► its own path, read-write
    each read root                      ──► its own path, read-only
    (nothing)                           ──► a private /tmp and /dev, a read-only /proc of its
                                            own PID namespace, no network but its loopback
    everything else                     ──► does not exist

Roots are bound by the session's one rule (roots.py): a path inside a write root is writable,
one inside a read root only readable. So a read root nested in a write root needs no bind of its
own, and a write root nested in a read root is bound read-write over it. The sandbox's own root
is read-only, so a write anywhere else fails (EROFS) instead of landing in memory that vanishes
with the call.

Must never touch the file system or start a process: what it needs of the host comes in as a
HostLayout, so tests check every bind without a process (tests/confinement/). The worker adds
the descriptors (bwrap's status, the seccomp filter of sandbox_seccomp.py) and the command.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from supervisor.confinement.roots import inside

# The system's program folders, bound read-only. On a merged-/usr system /bin, /sbin and /lib*
# are links into /usr and are made links again inside; on an older one they are folders.
SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# The few /etc files programs need, read-only where the host has them: the dynamic loader's
# cache and configuration, Debian's alternatives (awk, editor: links into /usr), the
# certificate store (not /etc/ssl/private), OpenSSL's configuration, the time zone.
ETC_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
             "/etc/ssl/certs", "/etc/ssl/openssl.cnf", "/etc/ca-certificates",
             "/etc/ca-certificates.conf", "/etc/localtime")
# Made for each call in its private folder, bound at /etc/NAME.
GENERATED_FILES = ("passwd", "group", "hosts", "nsswitch.conf")
# The device nodes bwrap's --dev binds from the host.
DEVICE_NODES = ("null", "zero", "full", "random", "urandom", "tty")
HOSTNAME = "rendervisor-sandbox"
# The home of the sandbox's user: the private /tmp, so dot-files a program writes vanish with
# the call instead of failing (nothing else is writable but the write roots).
HOME = "/tmp"
SEARCH_PATH = "/usr/local/bin:/usr/bin:/bin"


@dataclass(frozen=True)
class Identity:
    """Who the command runs as inside: never root, and with every capability dropped."""
    uid: int
    gid: int
    user: str
    group: str


@dataclass(frozen=True)
class HostLayout:
    """What the host has of SYSTEM_FOLDERS and ETC_FILES: the names present (links included),
    and the targets of those that are symbolic links."""
    present: frozenset[str] = frozenset()
    links: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Sandbox:
    bwrap: str
    read_roots: tuple[str, ...]
    write_roots: tuple[str, ...]
    cwd: str
    identity: Identity
    host: HostLayout
    # The call's private folder: GENERATED_FILES, and DEVICE_NODES when `private_devices`.
    private: str
    # Bind the private folder's device nodes over /dev's. When the command's identity on the
    # host owns the host's nodes (a server run as root), owner rights would let it chmod or
    # touch /dev/null itself through bwrap's bind; it then gets copies of its own.
    private_devices: bool = False


def generated_files(identity: Identity) -> dict[str, str]:
    """GENERATED_FILES' content: the sandbox's one user and group, loopback names, and lookups
    that read those files and nothing else (no LDAP, no DNS)."""
    return {
        "passwd": f"{identity.user}:x:{identity.uid}:{identity.gid}:{identity.user}:{HOME}:"
                  "/bin/sh\n",
        "group": f"{identity.group}:x:{identity.gid}:\n",
        "hosts": f"127.0.0.1\tlocalhost {HOSTNAME}\n::1\tlocalhost\n",
        "nsswitch.conf": "passwd: files\ngroup: files\nshadow: files\nhosts: files\n",
    }


def bwrap_arguments(sandbox: Sandbox) -> list[str]:
    """bwrap and its options, ending with `--`: the command follows."""
    steps = _system_steps(sandbox) + _private_steps(sandbox) + root_binds(
        sandbox.read_roots, sandbox.write_roots)
    # Parents before children, so a bind lands on the mount that holds its path: /tmp's tmpfs
    # before a root inside /tmp, /usr before a root inside /usr, a root "/" before /proc. The
    # sort is stable: at one depth the order above holds.
    steps.sort(key=lambda step: _depth(step[-1]))
    arguments = [sandbox.bwrap, *_namespaces(sandbox.identity)]
    for step in steps:
        arguments += step
    if "/" not in sandbox.write_roots:
        arguments += ["--remount-ro", "/"]
    return arguments + ["--chdir", sandbox.cwd, "--"]


def root_binds(read_roots: tuple[str, ...], write_roots: tuple[str, ...]) -> list[list[str]]:
    """The binds that show the roots by the one rule, parents first: a root gets a bind of its
    own only where the binds before it show something other than the rule allows there."""
    binds: list[tuple[str, bool]] = []  # (path, writable)
    for root in sorted(set(read_roots) | set(write_roots), key=_parents_first):
        writable = any(inside(root, other) for other in write_roots)
        shown = [mode for path, mode in binds if inside(root, path)]
        if not shown or shown[-1] != writable:
            binds.append((root, writable))
    return [["--bind" if writable else "--ro-bind", path, path] for path, writable in binds]


def _namespaces(identity: Identity) -> list[str]:
    return ["--unshare-user", "--unshare-ipc", "--unshare-pid", "--unshare-net",
            "--unshare-uts", "--unshare-cgroup-try",
            # No user namespace of its own for the command: inside one it would hold every
            # capability again, and could mount over what it sees.
            "--disable-userns",
            "--hostname", HOSTNAME, "--die-with-parent", "--new-session", "--cap-drop", "ALL",
            "--uid", str(identity.uid), "--gid", str(identity.gid)]


def _system_steps(sandbox: Sandbox) -> list[list[str]]:
    """The host's program folders and /etc files, but not those a root already shows (the rule
    then says what may be done there), and the call's generated /etc files."""
    roots = sandbox.read_roots + sandbox.write_roots
    steps = []
    for path in SYSTEM_FOLDERS + ETC_FILES:
        if path not in sandbox.host.present or any(inside(path, root) for root in roots):
            continue
        target = sandbox.host.links.get(path)
        if target is not None and path in SYSTEM_FOLDERS:
            steps.append(["--symlink", target, path])
        else:  # a link among the /etc files (localtime) is bound as the file it names
            steps.append(["--ro-bind", path, path])
    for name in GENERATED_FILES:
        steps.append(["--ro-bind", os.path.join(sandbox.private, name), f"/etc/{name}"])
    return steps


def _private_steps(sandbox: Sandbox) -> list[list[str]]:
    # /proc read-only: the files under /proc/sys are the kernel's settings for the whole machine,
    # and the kernel lets their owner write them, root (that is, the host's uid 0: a server run
    # as root is root to them, capabilities or not: core_pattern runs a program as root).
    steps = [["--proc", "/proc"], ["--remount-ro", "/proc"], ["--dev", "/dev"],
             ["--tmpfs", "/tmp"]]
    if sandbox.private_devices:
        steps += [["--dev-bind", os.path.join(sandbox.private, node), f"/dev/{node}"]
                  for node in DEVICE_NODES]
    return steps


def _parents_first(path: str) -> tuple[int, str]:
    return _depth(path), path


def _depth(path: str) -> int:
    return len([part for part in path.split("/") if part])
