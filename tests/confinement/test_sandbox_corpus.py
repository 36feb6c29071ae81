"""The sandbox's attack corpus: every way out of a confined session's shell we know of, from
bubblewrap's and container escape write-ups and our own, each run as a shell command through a
real `rendervisor mcp --read-root R --write-root W` (bubblewrap, as in CI).

Every case is its own test id, and every case is checked on the file system, whatever the
command printed: nothing outside the write root was created, changed or removed (the outside
folders' and the read root's footprint, the roots' parent, the host's top-level, /etc, /usr/bin
and /dev listings, /dev/null's and /dev/zero's inodes, bwrap, /bin/sh, /etc/passwd), no file
named ESCAPED exists anywhere a write could land, no reply holds the outside secret or the
server's environment, and the server still answers. A case may add checks of its own (the
listener that must see no connection, the processes that must be gone).
"""

from __future__ import annotations

import glob
import os
import socket
import stat
import threading
import time
from dataclasses import dataclass

import psutil
import pytest

from tests.helpers.confinement_world import SECRET, build_world, reply_text
from tests.helpers.mcp_process import McpProcess
from tests.helpers.process_tree import processes_running, sleep_marker
from tests.helpers.sandbox_host import ESCAPED, attempt

SERVER_SECRET = "SERVER-ENV-SECRET-3d7e"
ABSTRACT_NAME = f"rv-sandbox-corpus-{os.getpid()}"
# A host library the sandbox does not show (the virtual environment is not a root).
HOST_LIBRARY = next(iter(glob.glob(os.path.join(os.path.dirname(psutil.__file__), "*.so"))))


@dataclass
class Target:
    """What a case's command is written against."""
    o: str  # the outside folder
    r: str  # the read root
    w: str  # the write root
    b: str  # the roots' parent
    pid: int  # the server's pid on the host
    E: str = ESCAPED


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    world = build_world(str(tmp_path_factory.mktemp("corpus")))
    with open(os.path.join(world.write, "mine.txt"), "w") as handle:
        handle.write("a file of the write root\n")
    return world


@pytest.fixture(scope="module")
def server(world):
    process = McpProcess("--read-root", world.read, "--write-root", world.write, cwd=world.base,
                         env={"RV_TEST_TOKEN": SERVER_SECRET})
    process.initialize()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def listeners(world):
    """Unix sockets the test serves for the whole module, as host services do: one in the
    host's abstract namespace (no file), one whose file is in the write root. A command that
    reaches either has left the sandbox (a server on a socket acts for whoever connects)."""
    served = {}
    for name, address in (("abstract", "\0" + ABSTRACT_NAME),
                          ("in-root", os.path.join(world.write, "service.sock"))):
        listener = socket.socket(socket.AF_UNIX)
        listener.bind(address)
        listener.listen(4)
        listener.settimeout(0.2)
        served[name] = (listener, [])
    stop = threading.Event()

    def accept(listener, accepted) -> None:
        while not stop.is_set():
            try:
                accepted.append(listener.accept())
            except OSError:
                continue

    threads = [threading.Thread(target=accept, args=pair, daemon=True)
               for pair in served.values()]
    for thread in threads:
        thread.start()
    yield {name: accepted for name, (_, accepted) in served.items()}
    stop.set()
    for thread in threads:
        thread.join()
    for listener, _ in served.values():
        listener.close()


def py(code: str) -> str:
    """A python3 one-off inside the sandbox (the system's /usr/bin/python3)."""
    return "python3 - <<'EOF'\n" + code.strip() + "\nEOF"


# A case's own check: check(output, target, extra), `output` the command's stdout and stderr
# (the structured result's), `extra` the connections each of `listeners` accepted.

def output_has(*fragments: str):
    def check(output: dict, target: Target, extra) -> None:
        text = output["stdout"] + output["stderr"]
        for fragment in fragments:
            assert fragment in text, f"{fragment!r} not in {text[:600]!r}"
    return check


def output_lacks(*fragments: str):
    def check(output: dict, target: Target, extra) -> None:
        text = output["stdout"] + output["stderr"]
        for fragment in fragments:
            assert fragment not in text, f"{fragment!r} in {text[:600]!r}"
    return check


def both(*checks):
    def check(output: dict, target: Target, extra) -> None:
        for one in checks:
            one(output, target, extra)
    return check


def no_connection(output: dict, target: Target, accepted) -> None:
    assert accepted == {"abstract": [], "in-root": []}, "a command reached a host's socket"
    assert "refused" in output["stdout"] and "connected" not in output["stdout"]


LONE, NOHUP = sleep_marker(297), sleep_marker(298)  # sleeps that must not outlive the sandbox


def processes_gone(*markers: str):
    def check(output: dict, target: Target, extra) -> None:
        deadline = time.monotonic() + 20.0  # a moment idle, against the sleeps' 297 s
        while any(processes_running(marker) for marker in markers):
            assert time.monotonic() < deadline, "a process outlived its sandbox"
            time.sleep(0.05)
    return check


def no_device_or_setuid_file_in_the_write_root(output: dict, target: Target, extra) -> None:
    for parent, _, files in os.walk(target.w):
        for name in files:
            mode = os.lstat(os.path.join(parent, name)).st_mode
            assert not (stat.S_ISCHR(mode) or stat.S_ISBLK(mode)), name
            assert not mode & (stat.S_ISUID | stat.S_ISGID), name


def no_link_made(*names: str):
    def check(output: dict, target: Target, extra) -> None:
        for name in names:
            assert not os.path.islink(os.path.join(target.w, name)), name
    return check


HOSTNAME = socket.gethostname()


def host_hostname_unchanged(output: dict, target: Target, extra) -> None:
    assert socket.gethostname() == HOSTNAME


def only_the_sandboxs_devices(output: dict, target: Target, extra) -> None:
    """/dev lists bwrap's few nodes and links, and nothing of the host's."""
    listing = set(output["stdout"].split("\n", 1)[0].split())
    assert listing <= {"core", "fd", "full", "null", "ptmx", "pts", "random", "shm", "stderr",
                       "stdin", "stdout", "tty", "urandom", "zero"}, listing
    assert output["stderr"].count("No such file") == 5


PTRACE_ATTACH = 16
CASES = [
    # -- writes outside the write root ----------------------------------------------------------
    ("write-outside", lambda t: f"echo x > {t.o}/{t.E}", None),
    ("write-into-the-read-root", lambda t: f"echo x > {t.r}/{t.E}", output_has("Read-only")),
    ("append-to-a-read-root-file", lambda t: f"echo x >> {t.r}/note.txt",
     output_has("Read-only")),
    ("remove-a-read-root-file", lambda t: f"rm -f {t.r}/note.txt", output_has("Read-only")),
    ("chmod-a-read-root-file", lambda t: f"chmod 777 {t.r}/note.txt", output_has("Read-only")),
    ("move-a-read-root-file-out", lambda t: f"mv {t.r}/note.txt {t.w}/moved.txt", None),
    ("write-host-tmp", lambda t: f"echo x > /tmp/{t.E} && ls /tmp", None),
    ("write-host-dev-shm", lambda t: f"echo x > /dev/shm/{t.E}", None),
    ("write-the-roots-parent", lambda t: f"echo x > {t.b}/{t.E}; mkdir {t.b}/{t.E}.d", None),
    ("write-a-look-alike-sibling", lambda t: f"mkdir -p {t.w}2 && echo x > {t.w}2/{t.E}", None),
    ("climb-out-of-cwd-with-dotdot", lambda t: f"cd {t.w}/../outside && cat canary.txt; "
                                              f"cd {t.w}/../.. && echo x > {t.E}", None),
    ("write-the-sandbox-root", lambda t: f"touch /{t.E}; mkdir /{t.E}.d",
     output_has("Read-only")),
    ("write-usr", lambda t: f"touch /usr/{t.E} /usr/bin/{t.E} /usr/local/{t.E}",
     output_has("Read-only")),
    ("write-etc", lambda t: f"touch /etc/{t.E} /etc/passwd; echo x >> /etc/hosts",
     output_has("Read-only")),
    ("reopen-a-read-only-descriptor-for-writing",
     lambda t: f"exec 3<{t.r}/note.txt; echo x > /proc/self/fd/3", output_has("Read-only")),
    # -- links made inside ------------------------------------------------------------------------
    # No link can be made (a render worker would follow one swapped in for its output folder);
    # the write root must hold none afterwards.
    ("symlink-made-inside-to-an-outside-file",
     lambda t: f"ln -s {t.o}/canary.txt {t.w}/made_link && cat {t.w}/made_link; "
               f"echo x >> {t.w}/made_link",
     both(output_has("Operation not permitted"), no_link_made("made_link"))),
    ("symlink-made-inside-to-an-outside-folder",
     lambda t: f"ln -s {t.o} {t.w}/made_dir && echo x > {t.w}/made_dir/{t.E}",
     both(output_has("Operation not permitted"), no_link_made("made_dir"))),
    ("relative-symlink-made-inside-climbing-out",
     lambda t: f"ln -s ../outside {t.w}/rel_made && echo x > {t.w}/rel_made/{t.E}",
     no_link_made("rel_made")),
    ("symlink-swapped-in-for-a-folder", lambda t: py(f"""
import os
os.makedirs("{t.w}/out", exist_ok=True)
try:
    os.symlink("{t.o}", "{t.w}/out.new")
    os.replace("{t.w}/out.new", "{t.w}/out")
    print("swapped")
except OSError as exc:
    print("refused", exc.errno)
"""), both(output_has("refused 1"), no_link_made("out", "out.new"))),
    ("write-through-links-the-host-placed",
     lambda t: f"for l in link_file link_dir/{t.E} rel_link rel_dir/{t.E} chain1 dangling; "
               f"do echo x >> {t.w}/$l; done; cat {t.w}/link_file", None),
    ("hard-link-made-inside-to-an-outside-file",
     lambda t: f"ln {t.o}/canary.txt {t.w}/hard_made && echo x >> {t.w}/hard_made", None),
    ("hard-link-made-inside-to-a-read-root-file",
     lambda t: f"ln {t.r}/note.txt {t.w}/hard_read && echo x >> {t.w}/hard_read",
     output_has("Invalid cross-device link")),
    # -- privilege: mounts, namespaces, chroot, setuid ------------------------------------------
    ("mount-a-tmpfs", lambda t: f"mount -t tmpfs none {t.w}/sub && touch {t.w}/sub/{t.E}",
     output_has("must be superuser")),
    ("bind-mount-the-write-root-over-the-read-root",
     lambda t: f"mount --bind {t.w} {t.r} && echo x > {t.r}/{t.E}", None),
    ("remount-usr-read-write", lambda t: f"mount -o remount,rw /usr && touch /usr/{t.E}", None),
    ("mount-a-new-proc-to-see-the-host", lambda t: f"mkdir -p {t.w}/p && mount -t proc proc "
                                                   f"{t.w}/p && ls {t.w}/p", None),
    ("mount-cgroup-for-release-agent",
     lambda t: f"mkdir -p {t.w}/cg && mount -t cgroup -o memory cgroup {t.w}/cg && "
               f"echo /{t.E} > {t.w}/cg/release_agent", None),
    ("unshare-a-user-namespace-to-get-capabilities",
     lambda t: f"unshare -U -r sh -c 'mount --bind {t.w} {t.r}; echo x > {t.r}/{t.E}'",
     output_has("unshare failed")),
    ("unshare-by-syscall", lambda t: py("""
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
for flag, name in ((0x10000000, "user"), (0x00020000, "mount"), (0x20000000, "pid")):
    print(name, libc.unshare(flag), ctypes.get_errno())
"""), output_has("user -1", "mount -1", "pid -1")),
    ("chroot", lambda t: f"/usr/sbin/chroot / sh -c 'echo x > {t.o}/{t.E}'",
     output_has("Operation not permitted")),
    ("nsenter-pid-1", lambda t: f"nsenter -t 1 -m -u -n -p sh -c 'touch /{t.E}'", None),
    ("setuid-binaries-run-as-the-user",
     lambda t: f"grep ' /usr ' /proc/self/mountinfo; su root -c 'touch {t.o}/{t.E}' </dev/null;"
               f" mount --bind {t.w} {t.r}; newgrp root </dev/null; id -u",
     output_has("nosuid")),
    # A file made in a write root is the server's user's on the host (root's, for a server run
    # as root): set-user-ID, it would run as that user for anyone who starts it there.
    ("copied-setuid-binary", lambda t: f"cp /usr/bin/su {t.w}/su && chmod u+s {t.w}/su; "
                                       f"chmod g+s {t.w}/su; chmod 4755 {t.w}/su; "
                                       f"{t.w}/su root -c 'touch /{t.E}' </dev/null",
     no_device_or_setuid_file_in_the_write_root),
    ("setuid-file-made-by-open-mknod-and-install", lambda t: f"install -m 4755 /bin/true "
                                                           f"{t.w}/inst; " + py(f"""
import os
for make in (lambda: os.open("{t.w}/made", os.O_CREAT | os.O_WRONLY, 0o4755),
             lambda: os.mknod("{t.w}/node", 0o104755),
             lambda: os.mknod("{t.w}/gnode", 0o102755)):
    try:
        make()
        print("made")
    except OSError as exc:
        print("refused", exc.errno)
"""), no_device_or_setuid_file_in_the_write_root),
    ("setuid-through-another-abi-or-io-uring", lambda t: f"touch {t.w}/abi; " + py(f"""
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
print("x32 chmod", libc.syscall(0x40000000 | 90, b"{t.w}/abi", 0o4755), ctypes.get_errno())
print("io_uring", libc.syscall(425, 1, None), ctypes.get_errno())
print("openat2", libc.syscall(437, -100, b"{t.w}/abi2", None, 0), ctypes.get_errno())
"""), both(no_device_or_setuid_file_in_the_write_root,
           output_has("x32 chmod -1 38", "io_uring -1 38", "openat2 -1 38"))),
    ("mknod-a-disk-and-memory", lambda t: f"mknod {t.w}/disk b 8 0; mknod {t.w}/mem c 1 1",
     no_device_or_setuid_file_in_the_write_root),
    ("chown-to-another-user", lambda t: f"chown 4242 {t.w}/mine.txt",
     output_has("Invalid argument")),  # 4242 has no uid inside: the kernel cannot name it
    ("set-the-hostname", lambda t: "hostname rv-escaped; "
                                   "echo rv-escaped > /proc/sys/kernel/hostname; hostname",
     both(output_has("rendervisor-sandbox\n"), host_hostname_unchanged)),
    # A server run as root is root to /proc/sys, capabilities or not (its files are root's):
    # each attempt writes back the value it read, so even an escape would change nothing.
    ("write-a-machine-wide-kernel-setting", lambda t: (
        "v=$(cat /proc/sys/vm/compact_unevictable_allowed); "
        "echo $v > /proc/sys/vm/compact_unevictable_allowed && echo wrote"),
     both(output_has("Read-only"), output_lacks("wrote"))),
    ("write-core-pattern", lambda t: ("v=$(cat /proc/sys/kernel/core_pattern); "
                                      "printf '%s\n' \"$v\" > /proc/sys/kernel/core_pattern "
                                      "&& echo wrote"),
     both(output_has("Read-only"), output_lacks("wrote"))),
    ("sysrq-trigger", lambda t: "ls -l /proc/sysrq-trigger; : > /proc/sysrq-trigger", None),
    # -- /proc, /sys, /dev ----------------------------------------------------------------------
    ("proc-self-root", lambda t: f"cat /proc/self/root{t.o}/canary.txt; "
                                 f"echo x > /proc/self/root{t.o}/{t.E}", None),
    ("proc-1-root", lambda t: f"cat /proc/1/root{t.o}/canary.txt; ls /proc/1/root/root; "
                              f"echo x > /proc/1/root/{t.E}", None),
    ("proc-1-cwd-climb", lambda t: "cat /proc/1/cwd/../outside/canary.txt; ls /proc/1/cwd/../..",
     None),
    ("overwrite-bwrap-through-proc-1-exe", lambda t: py("""
for path in ("/proc/1/exe", "/proc/self/exe"):
    try:
        open(path, "r+b").write(b"x")
        print("wrote", path)
    except OSError as exc:
        print(path, exc.errno)
"""), output_lacks("wrote")),
    ("sys", lambda t: "ls /sys; cat /sys/kernel/uevent_helper; echo /x > /sys/kernel/uevent_helper",
     output_has("No such file")),
    ("dev-mem-kmem-port-disks", lambda t: "ls /dev | tr '\\n' ' '; echo; head -c 16 /dev/mem "
                                          "/dev/kmem /dev/port /dev/sda /dev/vda | od",
     only_the_sandboxs_devices),
    ("read-the-kernels-memory", lambda t: "head -c 16 /dev/core | od | head -1; "
                                          "head -c 16 /proc/kcore | od | head -1", None),
    ("chmod-and-touch-the-device-nodes",
     lambda t: "chmod 666 /dev/null /dev/zero; touch /dev/null /dev/zero; ls -l /dev/null", None),
    # -- processes, descriptors, the terminal ---------------------------------------------------
    ("ptrace-the-server", lambda t: py(f"""
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
print("ptrace", libc.ptrace({PTRACE_ATTACH}, {t.pid}, 0, 0), ctypes.get_errno())
"""), output_has("ptrace -1 3")),  # ESRCH: no such process in the sandbox's PID namespace
    ("kill-the-server", lambda t: f"kill -9 {t.pid}; kill -STOP {t.pid}",
     output_has("No such process")),
    ("kill-every-process-it-may", lambda t: "kill -9 -1; echo still", None),
    ("outlive-the-sandbox-in-the-background",
     lambda t: f"setsid nohup {LONE} >/dev/null 2>&1 & ({NOHUP} &); echo started",
     processes_gone(LONE, NOHUP)),
    ("inherited-descriptors", lambda t: py("""
import os
print("fds", sorted(int(fd) for fd in os.listdir("/proc/self/fd")))
for fd in range(3, 256):
    try:
        os.write(fd, b"x")
        print("wrote to", fd)
    except OSError:
        pass
"""), output_has("fds [0, 1, 2, 3]")),  # 3: the listing's own
    ("pid-1s-descriptors", lambda t: "ls /proc/1/fd; cat /proc/1/environ | tr '\\0' '\\n'",
     None),
    ("tiocsti-on-the-terminal", lambda t: py("""
import fcntl, os, termios
for fd in (0, 1, 2):
    try:
        fcntl.ioctl(fd, termios.TIOCSTI, b"x")
        print("pushed into", fd)
    except OSError as exc:
        print(fd, exc.errno)
try:
    os.open("/dev/tty", os.O_RDWR)
    print("tty opened")
except OSError as exc:
    print("tty", exc.errno)
"""), output_lacks("pushed", "tty opened")),
    ("open-by-handle-shocker", lambda t: py("""
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
class Handle(ctypes.Structure):
    _fields_ = [("size", ctypes.c_uint), ("type", ctypes.c_int), ("bytes", ctypes.c_ubyte * 128)]
handle, mount = Handle(), ctypes.c_int()
handle.size = 128
print("name", libc.name_to_handle_at(-100, b"/usr/bin/true", ctypes.byref(handle),
                                     ctypes.byref(mount), 0))
print("open", libc.open_by_handle_at(os.open("/usr", os.O_RDONLY), ctypes.byref(handle), 0),
      ctypes.get_errno())
"""), output_has("open -1 1")),  # EPERM: it takes CAP_DAC_READ_SEARCH
    ("the-servers-environment", lambda t: "env; cat /proc/1/environ /proc/self/environ", None),
    # -- libraries and the network ----------------------------------------------------------------
    ("ld-preload-a-host-library", lambda t: f"touch {t.o}/{t.E}; id -u",
     output_has("cannot be preloaded")),
    ("connect-to-the-hosts-unix-sockets", lambda t: py(f"""
import socket
for address in ("\\0{ABSTRACT_NAME}", "{t.w}/service.sock"):
    try:
        socket.socket(socket.AF_UNIX).connect(address)
        print("connected", address)
    except OSError as exc:
        print("refused", exc.errno)
left, right = socket.socketpair()  # connects to nothing: allowed
left.send(b"pair works")
print(right.recv(10).decode())
"""), both(no_connection, output_has("pair works"))),
    ("raw-and-packet-sockets", lambda t: py("""
import socket
for family, kind in ((socket.AF_PACKET, socket.SOCK_RAW), (socket.AF_INET, socket.SOCK_RAW)):
    try:
        socket.socket(family, kind, 0)
        print("opened", family)
    except OSError as exc:
        print("refused", exc.errno)
"""), output_lacks("opened")),
    ("docker-socket-and-run", lambda t: "ls /run /var/run/docker.sock /run/docker.sock", None),
]
# Arguments a case's call takes beyond its command.
EXTRA = {"ld-preload-a-host-library": {"env": {"LD_PRELOAD": HOST_LIBRARY}}}
# If bwrap (which runs on the host, before the sandbox exists) got the call's LD_PRELOAD, the
# host library would be loaded into it there, and bwrap would die on its missing symbols.


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_escape(case, world, server, listeners):
    name, command, check = case
    target = Target(world.outside, world.read, world.write, world.base, server.process.pid)
    result, changes = attempt(server, world, command(target), **EXTRA.get(name, {}))
    text = reply_text(result)
    assert changes == [], f"{name} changed the host: {changes}"
    assert not result.get("isError"), f"{name}: the shell itself failed: {text[:400]}"
    assert SECRET not in text, f"{name} read an outside file: {text[:400]}"
    assert SERVER_SECRET not in text, f"{name} read the server's environment"
    if check is not None:
        check(result["structuredContent"], target, listeners)
    assert server.wait_for(server.request("ping"), 10)["result"] == {}, f"{name}: no server"


def test_the_corpus_is_at_least_thirty_escapes():
    assert len(CASES) >= 30


def test_nothing_escaped_through_the_whole_corpus(world, server):
    """After every case: no file named ESCAPED anywhere on the host it could have reached,
    and the write root itself holds no device, no setuid file and no file of another user."""
    found = []
    for folder in ("/", world.base, world.outside, world.read, "/tmp", "/dev/shm", "/usr",
                   "/usr/bin", "/usr/local", "/etc", "/root"):
        found += glob.glob(os.path.join(folder, f"{ESCAPED}*"))
    assert found == []
    no_device_or_setuid_file_in_the_write_root({}, Target(world.outside, world.read,
                                                          world.write, world.base, 0), None)
    for parent, _, files in os.walk(world.write):
        for name in files:
            assert os.lstat(os.path.join(parent, name)).st_uid == os.getuid(), name
