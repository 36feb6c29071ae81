"""The seccomp filter a sandboxed command runs under: no set-user-ID or set-group-ID file, no
symbolic link, no unix socket.

A file a command makes in a write root belongs, on the host, to the server's user (root, for a
server run as root): with the setuid bit set, it would run as that user for whoever starts it
on the host, outside any sandbox. So every call that sets a file's mode with S_ISUID or S_ISGID
in it fails with EPERM: chmod, fchmod, fchmodat(2), and the creating calls that take a mode
(open, openat, creat, mknod, mknodat); systemd's RestrictSUIDSGID= does the same. Calls whose
mode cannot be seen from here fail with ENOSYS, so a program falls back to one that can:
openat2 (its mode is inside a struct) and io_uring (its operations never pass this filter). A
system call made through another ABI (i386 or x32 on x86_64, arm32 on aarch64) reaches other
numbers, so it fails with ENOSYS too.

A symbolic link a command makes in a write root stays there for the processes outside the
sandbox that follow links: a render worker opens its output folder and its footage by name
after the supervisor checked them, so a folder swapped for a link to /etc between the two
would have it write there. Before the sandbox no confined agent could make a link (the file
tools write regular files only); symlink and symlinkat fail with EPERM, so none can now.

A unix socket in a root is a door out of the sandbox: the network namespace separates addresses,
not files, so a command could connect to any server listening on a socket file it sees (the
server's own forkserver, which runs what it is sent, when a root holds the server's temporary
folder; a tmux or ssh-agent socket in a /tmp made a root). socket(AF_UNIX) fails with EPERM;
socketpair, which connects to nothing, works.

Pure: the classic BPF program as bytes, for bwrap's --seccomp. Machines without a table here
have no filter, and the caller refuses the sandbox there rather than run without it.
"""

from __future__ import annotations

import errno
import struct
from dataclasses import dataclass

# struct seccomp_data: nr at 0, arch at 4, args[i] at 16 + 8 * i (the low 32 bits first on a
# little-endian machine, which both tables below are; a mode fits in them).
NR, ARCH, ARGS = 0, 4, 16
LD_ABS, JEQ, JGE, JSET, RET = 0x20, 0x15, 0x35, 0x45, 0x06
ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000
SETID_BITS = 0o6000
AF_UNIX = 1
X32_SYSCALL_BIT = 0x40000000


@dataclass(frozen=True)
class Machine:
    arch: int  # AUDIT_ARCH_*
    mode_calls: dict[int, int]  # system call number -> index of its mode argument
    refused: tuple[int, ...]  # refused with EPERM, whatever their arguments
    socket: int  # socket(2): refused with EPERM for the AF_UNIX domain (its first argument)
    unseen: tuple[int, ...]  # refused with ENOSYS: their mode is out of the filter's sight
    other_abi_bit: int | None = None  # set in the numbers of another ABI on the same arch


MACHINES = {
    "x86_64": Machine(0xC000003E, {90: 1, 91: 1, 268: 2, 452: 2,  # chmod fchmod fchmodat(2)
                                   2: 2, 85: 1, 257: 3,  # open creat openat
                                   133: 1, 259: 2},  # mknod mknodat
                      refused=(88, 266),  # symlink symlinkat
                      socket=41,
                      unseen=(437, 425),  # openat2, io_uring_setup
                      other_abi_bit=X32_SYSCALL_BIT),
    "aarch64": Machine(0xC00000B7, {52: 1, 53: 2, 452: 2,  # fchmod fchmodat(2)
                                    56: 3, 33: 2},  # openat mknodat
                       refused=(36,),  # symlinkat
                       socket=198,
                       unseen=(437, 425)),
}


def seccomp_filter(machine: str) -> bytes | None:
    """The program for `machine` (os.uname().machine), or None where there is no table."""
    table = MACHINES.get(machine)
    if table is None:
        return None
    program: list[tuple] = [(LD_ABS, ARCH), (JEQ, table.arch, None, "enosys"), (LD_ABS, NR)]
    if table.other_abi_bit is not None:
        program.append((JGE, table.other_abi_bit, "enosys", None))
    for number, argument in sorted(table.mode_calls.items()):
        program.append((JEQ, number, f"mode{argument}", None))
    for number in table.refused:
        program.append((JEQ, number, "eperm", None))
    program.append((JEQ, table.socket, "socket", None))
    for number in table.unseen:
        program.append((JEQ, number, "enosys", None))
    program.append((RET, ALLOW))
    for argument in sorted(set(table.mode_calls.values())):
        program += [("label", f"mode{argument}"), (LD_ABS, ARGS + 8 * argument),
                    (JSET, SETID_BITS, "eperm", None), (RET, ALLOW)]
    program += [("label", "socket"), (LD_ABS, ARGS), (JEQ, AF_UNIX, "eperm", None), (RET, ALLOW),
                ("label", "eperm"), (RET, RET_ERRNO | errno.EPERM),
                ("label", "enosys"), (RET, RET_ERRNO | errno.ENOSYS)]
    return _assemble(program)


def _assemble(program: list[tuple]) -> bytes:
    """Instructions to struct sock_filter (u16 code, u8 jt, u8 jf, u32 k); a jump names a label
    (or None: the next instruction)."""
    labels, index = {}, 0
    for line in program:
        if line[0] == "label":
            labels[line[1]] = index
        else:
            index += 1
    code, index = b"", 0
    for line in program:
        if line[0] == "label":
            continue
        op, k, *jumps = line
        offsets = [0 if target is None else labels[target] - index - 1 for target in jumps]
        jt, jf = (offsets + [0, 0])[:2]
        code += struct.pack("=HBBI", op, jt, jf, k)
        index += 1
    return code
