"""The bubblewrap argument list as data, with no process: what is bound where, read-only or
read-write, in which order, and the flags that take away the network, the host's processes,
capabilities and root. What the sandbox then lets a command do is tested through a real server
(test_sandbox_shell.py, test_sandbox_corpus.py)."""

from __future__ import annotations

import pytest

from supervisor.confinement.sandbox_arguments import (DEVICE_NODES, GENERATED_FILES, HostLayout,
                                                      Identity, Sandbox, bwrap_arguments,
                                                      generated_files, root_binds)

MERGED_USR = HostLayout(
    present=frozenset({"/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc/ld.so.cache",
                       "/etc/alternatives", "/etc/ssl/certs", "/etc/localtime"}),
    links={"/bin": "usr/bin", "/sbin": "usr/sbin", "/lib": "usr/lib", "/lib64": "usr/lib64",
           "/etc/localtime": "/usr/share/zoneinfo/Etc/UTC"})
NOBODY = Identity(65534, 65534, "nobody", "nogroup")


def sandbox(read=(), write=(), cwd="/tmp", host=MERGED_USR, devices=False) -> Sandbox:
    return Sandbox("/usr/bin/bwrap", tuple(read), tuple(write), cwd, NOBODY, host,
                   "/run/private", private_devices=devices)


def steps(arguments: list[str]) -> list[tuple[str, ...]]:
    """The mount steps, in order, each (option, *operands)."""
    arity = {"--bind": 2, "--ro-bind": 2, "--dev-bind": 2, "--symlink": 2, "--proc": 1,
             "--dev": 1, "--tmpfs": 1, "--remount-ro": 1}
    found, index = [], 0
    while index < len(arguments):
        option = arguments[index]
        if option in arity:
            found.append(tuple(arguments[index:index + 1 + arity[option]]))
            index += 1 + arity[option]
        else:
            index += 1
    return found


def destination(step: tuple[str, ...]) -> str:
    return step[-1]


def test_write_roots_are_bound_read_write_and_read_roots_read_only_at_their_own_paths():
    found = steps(bwrap_arguments(sandbox(read=["/data/in"], write=["/data/out"])))
    assert ("--bind", "/data/out", "/data/out") in found
    assert ("--ro-bind", "/data/in", "/data/in") in found


def test_a_read_root_inside_a_write_root_is_writable_as_the_rule_says():
    # The file tools write under /w/ref (it is inside the write root /w): the sandbox agrees.
    assert root_binds(("/w/ref",), ("/w",)) == [["--bind", "/w", "/w"]]


def test_a_write_root_inside_a_read_root_is_bound_read_write_over_it():
    assert root_binds(("/r",), ("/r/out",)) == [["--ro-bind", "/r", "/r"],
                                               ["--bind", "/r/out", "/r/out"]]


def test_nested_roots_of_one_kind_get_one_bind_and_alternations_each_get_theirs():
    assert root_binds(("/a", "/a/b"), ()) == [["--ro-bind", "/a", "/a"]]
    assert root_binds(("/a", "/a/b/c"), ("/a/b", "/a/b/c/d")) == [
        ["--ro-bind", "/a", "/a"], ["--bind", "/a/b", "/a/b"]]
    # A sibling sharing a prefix is not inside: /data2 gets its own bind.
    assert root_binds(("/data", "/data2"), ()) == [["--ro-bind", "/data", "/data"],
                                                   ["--ro-bind", "/data2", "/data2"]]


def test_system_folders_are_read_only_and_links_stay_links():
    found = steps(bwrap_arguments(sandbox()))
    assert ("--ro-bind", "/usr", "/usr") in found
    assert ("--symlink", "usr/bin", "/bin") in found and ("--symlink", "usr/lib", "/lib") in found
    assert not any(step[-1] in ("/lib32", "/libx32") for step in found)  # not on this host


def test_an_older_layout_binds_its_program_folders_read_only():
    host = HostLayout(present=frozenset({"/usr", "/bin", "/lib"}))
    found = steps(bwrap_arguments(sandbox(host=host)))
    assert ("--ro-bind", "/bin", "/bin") in found and ("--ro-bind", "/lib", "/lib") in found


def test_only_the_listed_etc_files_the_host_has_are_bound_and_a_link_as_its_file():
    found = [step for step in steps(bwrap_arguments(sandbox())) if step[-1].startswith("/etc/")]
    host_files = {step[-1] for step in found if not step[1].startswith("/run/private")}
    assert host_files == {"/etc/ld.so.cache", "/etc/alternatives", "/etc/ssl/certs",
                          "/etc/localtime"}
    assert ("--ro-bind", "/etc/localtime", "/etc/localtime") in found
    assert all(step[0] == "--ro-bind" for step in found)


def test_passwd_group_hosts_and_nsswitch_come_from_the_private_folder_read_only():
    found = steps(bwrap_arguments(sandbox()))
    for name in GENERATED_FILES:
        assert ("--ro-bind", f"/run/private/{name}", f"/etc/{name}") in found
    files = generated_files(NOBODY)
    assert files["passwd"] == "nobody:x:65534:65534:nobody:/tmp:/bin/sh\n"
    assert files["group"] == "nogroup:x:65534:\n"
    assert "files" in files["nsswitch.conf"] and "dns" not in files["nsswitch.conf"]


def test_tmp_dev_and_proc_are_the_sandboxs_own():
    found = steps(bwrap_arguments(sandbox()))
    assert ("--proc", "/proc") in found and ("--dev", "/dev") in found
    assert ("--tmpfs", "/tmp") in found
    assert not any(step[0] != "--tmpfs" and step[-1] == "/tmp" for step in found)


def test_private_device_nodes_are_bound_over_devs_after_it():
    found = steps(bwrap_arguments(sandbox(devices=True)))
    dev = found.index(("--dev", "/dev"))
    for node in DEVICE_NODES:
        bind = ("--dev-bind", f"/run/private/{node}", f"/dev/{node}")
        assert found.index(bind) > dev
    assert not any(step[0] == "--dev-bind" for step in steps(bwrap_arguments(sandbox())))


def test_a_root_inside_tmp_is_bound_after_the_private_tmp_so_it_is_not_hidden():
    found = steps(bwrap_arguments(sandbox(write=["/tmp/job/out"])))
    assert found.index(("--tmpfs", "/tmp")) < found.index(("--bind", "/tmp/job/out",
                                                              "/tmp/job/out"))


def test_a_root_inside_usr_is_bound_over_the_read_only_usr():
    found = steps(bwrap_arguments(sandbox(write=["/usr/local/share/out"])))
    assert found.index(("--ro-bind", "/usr", "/usr")) < found.index(
        ("--bind", "/usr/local/share/out", "/usr/local/share/out"))


def test_a_root_holding_system_folders_shows_them_by_the_rule_and_proc_dev_tmp_stay_private():
    found = steps(bwrap_arguments(sandbox(read=["/"])))
    assert found[0] == ("--ro-bind", "/", "/")
    assert ("--ro-bind", "/usr", "/usr") not in found  # the root shows it already
    later = [destination(step) for step in found[1:]]
    assert {"/proc", "/dev", "/tmp"} <= set(later)


def test_the_sandbox_root_is_read_only_last_unless_it_is_a_write_root():
    arguments = bwrap_arguments(sandbox(write=["/w"]))
    assert steps(arguments)[-1] == ("--remount-ro", "/")
    assert ("--remount-ro", "/") not in steps(bwrap_arguments(sandbox(write=["/"])))


def test_every_namespace_is_new_no_user_namespace_inside_no_capability_and_not_root():
    arguments = bwrap_arguments(sandbox())
    for flag in ("--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc",
                 "--unshare-uts", "--disable-userns", "--die-with-parent", "--new-session"):
        assert flag in arguments, flag
    assert arguments[arguments.index("--cap-drop") + 1] == "ALL"
    assert arguments[arguments.index("--uid") + 1] == "65534"
    assert arguments[arguments.index("--gid") + 1] == "65534"
    assert "--share-net" not in arguments and "/etc/resolv.conf" not in arguments


def test_it_starts_in_cwd_and_ends_where_the_command_follows():
    arguments = bwrap_arguments(sandbox(write=["/w"], cwd="/w/sub"))
    assert arguments[0] == "/usr/bin/bwrap"
    assert arguments[-3:] == ["--chdir", "/w/sub", "--"]


@pytest.mark.parametrize("root", ["/srv/data", "/home/me/project"])
def test_nothing_but_the_roots_and_the_listed_system_paths_is_bound(root):
    found = steps(bwrap_arguments(sandbox(read=[root], write=[root + "/out"])))
    sources = {step[1] for step in found
               if step[0] in ("--bind", "--ro-bind", "--dev-bind")}
    allowed = {"/usr", "/etc/ld.so.cache", "/etc/alternatives", "/etc/ssl/certs",
               "/etc/localtime", root, root + "/out"}
    assert {source for source in sources if not source.startswith("/run/private/")} == allowed
