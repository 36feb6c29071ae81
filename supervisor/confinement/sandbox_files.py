"""What the host gives a sandboxed call: the layout of its program folders, the identity the
command runs as, and the call's private folder (its generated /etc files and, where needed, its
own device nodes), made before the call and removed, by name, after it.

Never writes anywhere but the private folder it made itself.
"""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from supervisor.confinement.sandbox_arguments import (DEVICE_NODES, ETC_FILES, SYSTEM_FOLDERS,
                                                      HostLayout, Identity, generated_files)

# Who a server run as root runs its sandboxed commands as: the traditional unprivileged user.
NOBODY = 65534


class SandboxSetupError(Exception):
    """The call's private folder could not be made; the message says why."""


def host_layout() -> HostLayout:
    present, links = set(), {}
    for path in SYSTEM_FOLDERS + ETC_FILES:
        if os.path.lexists(path):
            present.add(path)
            if os.path.islink(path):
                links[path] = os.readlink(path)
    return HostLayout(frozenset(present), links)


def sandbox_identity() -> Identity:
    """The server's own user and group, or nobody's when it runs as root: never uid 0 inside."""
    uid = os.getuid() or NOBODY
    gid = os.getgid() or NOBODY
    return Identity(uid, gid, _name(pwd.getpwuid, uid, "nobody"),
                    _name(grp.getgrgid, gid, "nogroup"))


def owns_host_devices() -> bool:
    """Whether the command's identity on the host (the server's: a user namespace maps the
    inside uid onto it) owns the host's device nodes, and so could chmod or touch them through
    a bind: true for a server run as root."""
    try:
        return any(os.stat(f"/dev/{node}").st_uid == os.geteuid() for node in DEVICE_NODES)
    except OSError:
        return False


@contextmanager
def private_folder(identity: Identity, devices: bool) -> Iterator[str]:
    """A new folder (mode 700) holding the generated /etc files and, with `devices`, copies of
    the host's device nodes (same numbers and modes), removed when the call is over."""
    folder = tempfile.mkdtemp(prefix="rendervisor-sandbox-")
    try:
        for name, text in generated_files(identity).items():
            with open(os.path.join(folder, name), "w") as handle:
                handle.write(text)
        if devices:
            _copy_device_nodes(folder)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _copy_device_nodes(folder: str) -> None:
    for node in DEVICE_NODES:
        host = os.stat(f"/dev/{node}")
        path = os.path.join(folder, node)
        try:
            os.mknod(path, stat.S_IFCHR | 0o600, host.st_rdev)
        except OSError as exc:
            raise SandboxSetupError(
                f"the server owns the host's device nodes (it runs as root) and cannot make "
                f"the sandbox's own (mknod /dev/{node}: {exc.strerror}), so a command could "
                "change the host's /dev through the sandbox; run rendervisor mcp as an ordinary "
                "user, or give it CAP_MKNOD") from None
        os.chmod(path, stat.S_IMODE(host.st_mode))


def _name(lookup, number: int, fallback: str) -> str:
    try:
        return lookup(number)[0]
    except KeyError:
        return fallback
