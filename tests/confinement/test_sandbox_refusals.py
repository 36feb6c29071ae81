"""Where a confined session's sandbox cannot run, its shell is refused with the one sentence
that says what to install or enable; the session itself works on, and the server's
instructions say so from the start. Real servers: one whose PATH holds no bwrap, and two run in
user namespaces of their own (util-linux's unshare) where the kernel refuses what the sandbox
needs: the right to make device nodes, or any new user namespace.
"""

from __future__ import annotations

import os
import shutil

import pytest

from supervisor.confinement.sandbox_arguments import DEVICE_NODES
from tests.helpers.confinement_world import build_world, reply_text
from tests.helpers.mcp_process import McpProcess

UNSHARE = shutil.which("unshare")


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return build_world(str(tmp_path_factory.mktemp("refusals")))


def refused(process: McpProcess, world, *fragments: str) -> None:
    """The server says why in its instructions; a call is refused in one sentence naming it and
    runs nothing; the file tools still work."""
    instructions = process.initialize()["result"]["instructions"]
    marker = os.path.join(world.write, "ran")
    result = process.run("shell", {"command": f"touch {marker}"})
    text = reply_text(result)
    assert result["isError"] and "\n" not in text.strip(), text
    for fragment in fragments:
        assert fragment in text and fragment in instructions, (fragment, text)
    assert not os.path.exists(marker)
    note = process.run("read_file", {"path": os.path.join(world.read, "note.txt")})
    assert note["content"][0]["text"] == "inside the read root\n"


def test_a_missing_bwrap_is_refused_with_the_sentence_to_install_it(world, tmp_path):
    process = McpProcess("--read-root", world.read, "--write-root", world.write,
                         env={"PATH": str(tmp_path)})
    try:
        refused(process, world, "bwrap is not installed", "apt-get install bubblewrap")
    finally:
        process.stop()


@pytest.mark.skipif(os.geteuid() != 0, reason="only a server run as root owns the host's /dev")
def test_root_that_cannot_make_device_nodes_is_refused_naming_mknod(world):
    # Root of a user namespace owns the host's /dev nodes (they are root's) but may not make
    # new ones: the sandbox's /dev would be the host's, whose modes a command could change.
    process = McpProcess("--read-root", world.read, "--write-root", world.write,
                         wrapper=(UNSHARE, "--user", "--map-root-user", "--"))
    try:
        refused(process, world, "mknod /dev/null", "CAP_MKNOD")
    finally:
        process.stop()


def test_no_user_namespaces_allowed_is_refused_with_the_sentence_to_enable_them(world, tmp_path):
    # A user namespace whose limit on further user namespaces is 0 (a limit of its own, not
    # the machine's): bwrap's clone fails in the kernel as it does with user namespaces off.
    # Its /dev nodes are covered by files of another user first, so the server does not own
    # them and goes on to start bwrap.
    stand_ins = tmp_path / "devices"
    stand_ins.mkdir()
    for node in DEVICE_NODES:
        (stand_ins / node).touch()
        os.chmod(stand_ins / node, 0o666)  # the server opens /dev/null to read and write
        os.chown(stand_ins / node, 4242, 4242)
    binds = "; ".join(f"mount --bind {stand_ins / node} /dev/{node}" for node in DEVICE_NODES)
    script = f"{binds}; echo 0 > /proc/sys/user/max_user_namespaces; exec \"$@\""
    process = McpProcess("--read-root", world.read, "--write-root", world.write,
                         wrapper=(UNSHARE, "--user", "--map-root-user", "--mount", "--",
                                  "/bin/sh", "-c", script, "sh"))
    try:
        refused(process, world, "user namespaces are not allowed here",
                "user.max_user_namespaces")
    finally:
        process.stop()
