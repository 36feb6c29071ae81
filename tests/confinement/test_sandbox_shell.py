"""The shell of a confined session, black-box: a real `rendervisor mcp --read-root R
--write-root W`, whose shell runs each command under bubblewrap, and the file system and the
process table checked after each call. What works inside; what is unseen (the files beside the
roots, /root, /home, another user's files, the host's processes); no network; a timeout and a
cancel that leave no process and no zombie; and the --shell modes. The escapes are the corpus
(test_sandbox_corpus.py).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time

import psutil
import pytest

from supervisor.runtime.teardown import TEARDOWN_GRACE
from tests.helpers.confinement_world import SECRET, build_world, reply_text
from tests.helpers.mcp_process import McpProcess
from tests.helpers.process_tree import processes_running, sleep_marker, zombies_under
from tests.helpers.sandbox_host import attempt

SERVER_SECRET = "SERVER-ENV-SECRET-91c2"  # in the server's environment only
OTHER_UID = 4242  # a user that is not the server's


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    world = build_world(str(tmp_path_factory.mktemp("sandbox")))
    other = os.path.join(world.outside, "other_user.txt")
    with open(other, "w") as handle:
        handle.write(SECRET + "\n")
    os.chown(other, OTHER_UID, OTHER_UID)
    os.chmod(other, 0o600)
    return world


@pytest.fixture(scope="module")
def server(world):
    process = McpProcess("--read-root", world.read, "--write-root", world.write, cwd=world.base,
                         env={"RV_TEST_TOKEN": SERVER_SECRET})
    process.initialize()
    yield process
    process.stop()


def shell(server, command: str, **arguments) -> dict:
    result = server.run("shell", {"command": command, **arguments}, timeout=120)
    assert not result.get("isError"), reply_text(result)
    return result["structuredContent"]


# -- inside -----------------------------------------------------------------------------------

def test_a_command_writes_in_a_write_root_and_the_file_is_there_on_the_host(server, world):
    result, changes = attempt(server, world, "printf 'made inside' > made.txt && mkdir -p sub2 "
                                             "&& echo deep > sub2/deep.txt")
    assert result["structuredContent"]["exit_code"] == 0, reply_text(result)
    assert changes == []
    with open(os.path.join(world.write, "made.txt")) as handle:
        assert handle.read() == "made inside"
    with open(os.path.join(world.write, "sub2", "deep.txt")) as handle:
        assert handle.read() == "deep\n"
    assert os.stat(os.path.join(world.write, "made.txt")).st_uid == os.getuid()


def test_a_command_reads_a_read_root(server, world):
    result = shell(server, f"cat {world.read}/note.txt; ls {world.read}/seq")
    assert result["stdout"].startswith("inside the read root\n")
    assert "frame_0001.png" in result["stdout"]


def test_python3_and_a_pipeline_run_inside(server, world):
    result = shell(server, "python3 -c 'import sys, json; print(json.dumps(sys.version_info[:2]))"
                           "; open(\"py.txt\", \"w\").write(\"from python\")' "
                           "&& printf 'b\\na\\nb\\n' | sort | uniq -c | awk '{print $2 \"=\" $1}'")
    lines = result["stdout"].splitlines()
    assert lines[0].startswith("[3, ") and lines[1:] == ["a=1", "b=2"]
    with open(os.path.join(world.write, "py.txt")) as handle:
        assert handle.read() == "from python"


def test_it_starts_in_the_first_write_root_and_in_a_cwd_inside_a_root(server, world):
    assert shell(server, "pwd")["stdout"] == world.write + "\n"
    assert shell(server, "pwd", cwd=world.read)["stdout"] == world.read + "\n"
    assert shell(server, "pwd", cwd=os.path.join(world.write, "sub"))["stdout"] == (
        os.path.join(world.write, "sub") + "\n")


@pytest.mark.parametrize("where", ["outside", "read2", "base", "tmp"])
def test_a_cwd_outside_the_roots_is_refused_in_one_sentence_and_nothing_runs(server, world,
                                                                               where):
    cwd = {"outside": world.outside, "read2": world.read2, "base": world.base,
           "tmp": "/tmp"}[where]
    marker = os.path.join(world.write, f"ran-in-{where}")
    result = server.run("shell", {"command": f"touch {marker}", "cwd": cwd})
    assert result.get("isError") and "outside the read roots" in reply_text(result)
    assert "\n" not in reply_text(result).strip()
    assert not os.path.exists(marker)


def test_env_and_stdin_pass_and_the_servers_environment_does_not(server):
    result = shell(server, "cat; echo \"mine=$MINE\"; env", env={"MINE": "given"},
                   stdin="from stdin\n")
    assert result["stdout"].startswith("from stdin\nmine=given\n")
    assert SERVER_SECRET not in result["stdout"] and "RV_TEST_TOKEN" not in result["stdout"]
    assert "PATH=/usr/local/bin:/usr/bin:/bin" in result["stdout"]


def test_the_calls_environment_never_shows_in_the_hosts_process_list(server):
    marker, value = sleep_marker(83), "CALL-ENV-VALUE-5e1f"
    request_id = server.call("shell", {"command": marker, "env": {"CALL_TOKEN": value}})
    assert wait_for(lambda: sleepers(marker))
    seen = processes_running(marker)
    assert any(process.name() == "bwrap" for process in seen)
    for process in seen:
        assert value not in " ".join(process.cmdline())
    server.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                 "params": {"requestId": request_id}})
    assert wait_for(lambda: processes_running(marker) == [], 20.0)


@pytest.mark.parametrize("env", [{"A": "x\u0000y"}, {"": "x"}, {"A=B": "x"}])
def test_an_env_no_process_could_take_is_refused_in_one_sentence(server, env):
    result = server.run("shell", {"command": "true", "env": env})
    assert result["isError"] and "NUL byte" in reply_text(result)


def test_output_is_capped_and_streamed_as_progress_as_on_the_host(server):
    request_id = server.call("shell", {"command": "for i in $(seq 1 5); do echo line $i; "
                                                  "sleep 0.1; done; head -c 100000 /dev/zero "
                                                  "| tr '\\0' x"},
                             meta={"progressToken": "sandboxed"})
    result = server.wait_for(request_id, 60)["result"]["structuredContent"]
    assert result["exit_code"] == 0
    assert "bytes cut from the middle of 100,035" in result["stdout"]
    progress = [message["params"] for message in server.notifications("notifications/progress")
                if message["params"]["progressToken"] == "sandboxed"]
    assert progress and progress[0]["message"].startswith("line")


def test_an_exit_code_and_stderr_come_back(server):
    result = shell(server, "echo oops >&2; exit 7")
    assert result["exit_code"] == 7 and result["stderr"] == "oops\n"


# -- unseen -----------------------------------------------------------------------------------

def test_the_files_beside_the_roots_do_not_exist_inside(server, world):
    # The look-alike siblings (read2, write2) and the outside folder, by name and by listing.
    result = shell(server, f"cat {world.outside}/canary.txt {world.read2}/secret.txt "
                           f"{world.write2}/secret.txt; ls -a {world.base}")
    assert SECRET not in result["stdout"] + result["stderr"]
    assert result["stderr"].count("No such file or directory") == 3
    assert sorted(result["stdout"].split()) == [".", "..", "read", "write"]


def test_root_home_and_another_users_files_are_not_there(server, world):
    assert os.path.isdir("/root") and os.path.isdir("/home")  # the host has them
    other = os.path.join(world.outside, "other_user.txt")
    result = shell(server, f"ls /root; ls /home; cat {other}; ls /var /srv /opt /work")
    assert result["stdout"] == ""
    assert result["stderr"].count("No such file or directory") == 7
    assert SECRET not in result["stderr"]


def test_the_hosts_processes_are_not_there(server):
    result = shell(server, f"kill -0 {server.process.pid} && echo signalled; "
                           "ls /proc | grep -E '^[0-9]+$' | tr '\\n' ' '; echo; "
                           "for p in /proc/[0-9]*; do cat $p/comm; done | sort | tr '\\n' ' '")
    assert "signalled" not in result["stdout"]
    assert "No such process" in result["stderr"]
    pids = [int(pid) for pid in result["stdout"].splitlines()[0].split()]
    # bwrap's pid 1, the shell, ls, grep, tr (some may have ended): a handful, never the host's.
    assert 1 in pids and max(pids) < 50 and len(pids) <= 8
    names = set(result["stdout"].splitlines()[1].split())
    assert "python" not in " ".join(names) and names <= {"bwrap", "sh", "cat", "sort", "tr",
                                                         "ls", "grep"}


def test_the_command_is_not_root_and_holds_no_capability(server):
    result = shell(server, "id -u; id -g; grep -E '^Cap(Eff|Prm|Bnd)' /proc/self/status")
    lines = result["stdout"].split("\n")
    assert lines[0] != "0" and lines[1] != "0"
    assert all(line.split()[1] == "0000000000000000" for line in lines[2:5])


# -- no network -------------------------------------------------------------------------------

def test_a_connection_to_a_port_the_test_listens_on_loopback_fails(server):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    listener.settimeout(0.2)
    port = listener.getsockname()[1]
    accepted = []

    def accept_for(seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                accepted.append(listener.accept())
            except OSError:
                continue

    watcher = threading.Thread(target=accept_for, args=(6.0,))
    watcher.start()
    try:
        result = shell(server, f"python3 -c 'import socket; socket.create_connection("
                               f"(\"127.0.0.1\", {port}), timeout=3)'; echo rc=$?; "
                               "cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' '")
        watcher.join()
    finally:
        listener.close()
    assert accepted == []
    assert "rc=1" in result["stdout"] and "ConnectionRefusedError" in result["stderr"]
    assert result["stdout"].split()[-1] == "lo"  # its own loopback, and no other interface


def test_a_root_holding_the_servers_own_sockets_gives_no_way_to_them(short_tmp_path):
    # The server's temporary folder inside its write root: the forkserver's socket (which forks
    # and runs what it is sent) is then a file the sandbox sees.
    root = short_tmp_path / "root"
    (root / "tmp").mkdir(parents=True)
    process = McpProcess("--write-root", str(root), env={"TMPDIR": str(root / "tmp")})
    try:
        process.initialize()
        result = process.run("shell", {"command": "python3 - <<'EOF'\n" + """
import os, socket, stat
found = 0
for parent, folders, files in os.walk("/"):
    if parent.startswith(("/proc", "/sys", "/usr")):
        folders[:] = []
        continue
    for name in files:
        path = os.path.join(parent, name)
        if stat.S_ISSOCK(os.lstat(path).st_mode):
            found += 1
            try:
                socket.socket(socket.AF_UNIX).connect(path)
                print("connected", path)
            except OSError as exc:
                print("refused", exc.errno, path)
print("sockets", found)
""" + "EOF"}, timeout=120)["structuredContent"]
    finally:
        process.stop()
    assert "connected" not in result["stdout"], result
    assert int(result["stdout"].split("sockets ")[-1]) >= 1, result  # the forkserver's, at least


# -- teardown ---------------------------------------------------------------------------------

def test_a_timeout_kills_every_process_of_the_sandbox_setsid_grandchildren_too(server, world):
    marker = sleep_marker(81)
    command = (f"trap '' TERM; setsid sh -c \"trap '' TERM; {marker}\" & "
               f"(setsid {marker} &) ; {marker}; wait")
    called_at = time.monotonic()
    request_id = server.call("shell", {"command": command, "timeout": 1})
    assert wait_for(lambda: len(sleepers(marker)) == 3), sleepers(marker)
    answer = server.wait_for(request_id, 20)["result"]["structuredContent"]
    assert answer["timed_out"] is True and answer["exit_code"] is None
    # SIGTERM at the timeout, TEARDOWN_GRACE later SIGKILL of the sandbox's pid 1, which ends
    # every process in its namespace: all gone by then on an idle machine, against the sleeps'
    # 81 s; the bound is for one shared with other test runs.
    assert wait_for(lambda: processes_running(marker) == [], 20.0)
    assert time.monotonic() - called_at < 1 + TEARDOWN_GRACE + 20.0
    assert zombies_under(server.process.pid) == []


def test_a_cancel_sends_sigterm_first_then_kills_what_ignores_it(server, world):
    marker = sleep_marker(82)
    got_term = os.path.join(world.write, "got_term")
    command = (f"trap 'echo term > {got_term}; exit 0' TERM; "
               f"setsid sh -c \"trap '' TERM; {marker}\" & {marker} & wait")
    request_id = server.call("shell", {"command": command})
    assert wait_for(lambda: len(sleepers(marker)) == 2), sleepers(marker)
    cancelled_at = time.monotonic()
    server.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                 "params": {"requestId": request_id}})
    assert wait_for(lambda: processes_running(marker) == [], TEARDOWN_GRACE + 20.0)
    assert time.monotonic() - cancelled_at < TEARDOWN_GRACE + 20.0
    with open(got_term) as handle:  # the command's group heard SIGTERM first
        assert handle.read() == "term\n"
    time.sleep(0.5)
    assert server.answers(request_id) == []
    assert zombies_under(server.process.pid) == []


def test_finished_calls_leave_no_process_and_no_zombie(server):
    for _ in range(3):
        assert shell(server, "sleep 0.1 & echo done")["stdout"] == "done\n"

    def sandboxes_left() -> list:
        # The sandbox's pid 1 is reaped when its worker retires, just after the answer: in
        # the background, so it is given a moment (once, on a loaded CI run, it was still there
        # at the very answer).
        left = []
        for process in psutil.Process(server.process.pid).children(recursive=True):
            try:
                if process.name() == "bwrap":
                    left.append(process.pid)
            except psutil.Error:
                continue  # gone meanwhile
        return left

    assert wait_for(lambda: sandboxes_left() == [], 20.0), sandboxes_left()
    assert zombies_under(server.process.pid) == []


# -- the modes --------------------------------------------------------------------------------

def test_the_description_and_the_instructions_say_the_shell_is_sandboxed(server):
    instructions = server.initialize()["result"]["instructions"]
    tools = server.wait_for(server.request("tools/list"))["result"]["tools"]
    description = next(tool for tool in tools if tool["name"] == "shell")["description"]
    for text in (instructions, description):
        assert "bubblewrap sandbox" in text and "no network" in text


def test_host_shell_while_confined_exits_2_with_one_line(world):
    done = subprocess.run([sys.executable, "-m", "supervisor.cli", "mcp", "--write-root",
                           world.write, "--shell", "host"], input=b"", capture_output=True,
                          timeout=60)
    assert done.returncode == 2
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "--shell host is refused while confined" in lines[0]


def test_shell_off_refuses_every_call_and_says_so(world):
    process = McpProcess("--write-root", world.write, "--shell", "off")
    try:
        instructions = process.initialize()["result"]["instructions"]
        assert "off in this session" in instructions
        result = process.run("shell", {"command": f"touch {world.write}/off-ran"})
        assert result["isError"] and "--shell off" in reply_text(result)
        assert not os.path.exists(os.path.join(world.write, "off-ran"))
    finally:
        process.stop()


def test_an_unconfined_session_keeps_the_host_shell_by_default(tmp_path):
    process = McpProcess()
    try:
        assert "with no confinement" in process.initialize()["result"]["instructions"]
        result = process.run("shell", {"command": "ls /root >/dev/null && echo host",
                                       "cwd": str(tmp_path)})
        assert result["structuredContent"]["stdout"] == "host\n"
    finally:
        process.stop()


def test_sandbox_asked_for_unconfined_shows_no_files_at_all(tmp_path):
    (tmp_path / "here.txt").write_text(SECRET)
    process = McpProcess("--shell", "sandbox")
    try:
        process.initialize()
        result = process.run("shell", {"command": f"pwd; cat {tmp_path}/here.txt; "
                                                  f"touch {tmp_path}/{'made'}"})
        text = reply_text(result)
        assert result["structuredContent"]["stdout"] == "/tmp\n" and SECRET not in text
        assert not (tmp_path / "made").exists()
        refused = process.run("shell", {"command": "true", "cwd": str(tmp_path)})
        assert refused["isError"] and "has none" in reply_text(refused)
    finally:
        process.stop()


# -- helpers ----------------------------------------------------------------------------------

def sleepers(marker: str) -> list[psutil.Process]:
    """The `sleep` processes (not the shells or bwrap whose command lines name them)."""
    found = []
    for process in processes_running(marker):
        try:
            if process.name() == "sleep":
                found.append(process)
        except psutil.Error:
            continue
    return found


def wait_for(condition, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()
