"""The seccomp program as data: a small interpreter of the five classic-BPF instructions it
uses runs it on system calls as the kernel would hand them over (struct seccomp_data), for
both tables, so the aarch64 one is checked too on a machine that cannot load it. The x86_64
program in a real sandbox: test_sandbox_corpus.py's set-user-ID cases."""

from __future__ import annotations

import errno
import struct

import pytest

from supervisor.confinement.sandbox_seccomp import (ALLOW, MACHINES, RET_ERRNO, X32_SYSCALL_BIT,
                                                    seccomp_filter)


def run(program: bytes, arch: int, number: int, *args: int) -> int:
    """What the kernel would do with this call: the program's return value."""
    data = struct.pack("=iI8x6Q", number, arch, *(list(args) + [0] * (6 - len(args))))
    instructions = [struct.unpack("=HBBI", program[i:i + 8]) for i in range(0, len(program), 8)]
    accumulator, pc = 0, 0
    while True:
        code, jt, jf, k = instructions[pc]
        pc += 1
        if code == 0x20:  # ld [k]
            accumulator = struct.unpack_from("=I", data, k)[0]
        elif code == 0x06:  # ret k
            return k
        else:
            taken = {0x15: accumulator == k, 0x35: accumulator >= k,
                     0x45: bool(accumulator & k)}[code]
            pc += jt if taken else jf


EPERM, ENOSYS = RET_ERRNO | errno.EPERM, RET_ERRNO | errno.ENOSYS


@pytest.mark.parametrize("machine", sorted(MACHINES))
def test_setting_a_setid_bit_is_refused_and_other_modes_pass(machine):
    table, program = MACHINES[machine], seccomp_filter(machine)
    for number, argument in table.mode_calls.items():
        for mode, expected in ((0o4755, EPERM), (0o2755, EPERM), (0o6000, EPERM),
                               (0o755, ALLOW), (0o1777, ALLOW), (0o644, ALLOW)):
            args = [0] * 6
            args[argument] = mode
            assert run(program, table.arch, number, *args) == expected, (number, oct(mode))


@pytest.mark.parametrize("machine", sorted(MACHINES))
def test_making_a_symbolic_link_is_refused(machine):
    table, program = MACHINES[machine], seccomp_filter(machine)
    assert table.refused
    for number in table.refused:
        assert run(program, table.arch, number, 0, 0, 0) == EPERM


@pytest.mark.parametrize("machine", sorted(MACHINES))
def test_a_unix_socket_is_refused_and_other_sockets_pass(machine):
    table, program = MACHINES[machine], seccomp_filter(machine)
    assert run(program, table.arch, table.socket, 1, 1, 0) == EPERM  # AF_UNIX, SOCK_STREAM
    for family in (2, 10, 16, 17):  # AF_INET, AF_INET6, AF_NETLINK, AF_PACKET
        assert run(program, table.arch, table.socket, family, 1, 0) == ALLOW


@pytest.mark.parametrize("machine", sorted(MACHINES))
def test_calls_whose_mode_it_cannot_see_and_other_abis_are_refused_as_missing(machine):
    table, program = MACHINES[machine], seccomp_filter(machine)
    for number in table.unseen:
        assert run(program, table.arch, number) == ENOSYS
    assert run(program, 0x40000003, 15, 0, 0o4755) == ENOSYS  # i386's chmod, any other arch
    if table.other_abi_bit:
        assert run(program, table.arch, X32_SYSCALL_BIT | 90, 0, 0o4755) == ENOSYS


@pytest.mark.parametrize("machine", sorted(MACHINES))
def test_every_other_call_passes_whatever_its_arguments(machine):
    table, program = MACHINES[machine], seccomp_filter(machine)
    for number in range(460):
        if number in table.mode_calls or number in table.unseen or number in table.refused \
                or number == table.socket:
            continue
        assert run(program, table.arch, number, 0o7777, 0o7777, 0o7777, 0o7777) == ALLOW


def test_a_machine_without_a_table_has_no_filter():
    assert seccomp_filter("riscv64") is None
