"""The one rule (supervisor/confinement/roots.py) on its own, with real folders and links: whole
components, resolution through the nearest existing folder, roots resolved at start, and the
refusals' wording (the rule and the path, one line)."""

from __future__ import annotations

import os

import pytest

from supervisor.confinement.roots import Confinement, ConfinementError


@pytest.fixture
def roots(tmp_path):
    for name in ("data", "data2", "out", "elsewhere"):
        (tmp_path / name).mkdir()
    return tmp_path


def test_containment_compares_whole_components(roots):
    rule = Confinement([str(roots / "data")], [str(roots / "out")])
    assert rule.check_read(str(roots / "data" / "x")) == str(roots / "data" / "x")
    assert rule.check_read(str(roots / "data")) == str(roots / "data")
    with pytest.raises(ConfinementError, match="outside the read roots"):
        rule.check_read(str(roots / "data2" / "x"))
    with pytest.raises(ConfinementError, match="outside the read roots"):
        rule.check_read(str(roots / "data") + "2")


def test_reads_are_allowed_under_write_roots_and_writes_only_there(roots):
    rule = Confinement([str(roots / "data")], [str(roots / "out")])
    rule.check_read(str(roots / "out" / "a.txt"))
    with pytest.raises(ConfinementError, match="outside the write roots"):
        rule.check_write(str(roots / "data" / "a.txt"))


def test_a_path_that_does_not_exist_resolves_through_its_nearest_existing_folder(roots):
    os.symlink(roots / "elsewhere", roots / "out" / "away")
    rule = Confinement([], [str(roots / "out")])
    assert rule.check_write(str(roots / "out" / "new" / "deeper" / "f")) == str(
        roots / "out" / "new" / "deeper" / "f")
    with pytest.raises(ConfinementError, match="elsewhere"):
        rule.check_write(str(roots / "out" / "away" / "new" / "f"))


def test_a_root_that_is_a_link_confines_to_where_it_pointed_at_start(roots):
    os.symlink(roots / "data", roots / "link_root")
    rule = Confinement([str(roots / "link_root")])
    assert rule.read_roots == [str(roots / "data")]
    rule.check_read(str(roots / "link_root" / "x"))  # through the link: inside
    os.unlink(roots / "link_root")
    os.symlink(roots / "elsewhere", roots / "link_root")
    with pytest.raises(ConfinementError):
        rule.check_read(str(roots / "link_root" / "x"))  # swapped later: now outside


def test_a_double_slash_is_the_root_folder(roots):
    rule = Confinement([str(roots / "data")])
    assert rule.check_read("/" + str(roots / "data" / "x")) == str(roots / "data" / "x")


@pytest.mark.parametrize("path, words", [
    ("relative/x", "relative"),
    ("", "non-empty"),
    ("/a/\x00/b", "NUL"),
    ("/a/../b", "'..'"),
    ("/" + "a" * 5000, "longest"),
])
def test_malformed_paths_are_refused_with_a_sentence(roots, path, words):
    with pytest.raises(ConfinementError, match=words):
        Confinement([str(roots / "data")]).check_read(path)


def test_a_refusal_is_one_line_even_for_a_path_with_a_newline(roots):
    with pytest.raises(ConfinementError) as refusal:
        Confinement([str(roots / "data")]).check_read(str(roots / "elsewhere" / "a\nb"))
    assert "\n" not in str(refusal.value) and "a\\nb" in str(refusal.value)


def test_no_write_root_means_nothing_is_written(roots):
    with pytest.raises(ConfinementError, match="no --write-root"):
        Confinement([str(roots / "data")]).check_write(str(roots / "data" / "x"))


def test_without_roots_nothing_is_confined(roots):
    rule = Confinement()
    assert not rule.confined
    assert rule.check_write("relative.txt") == os.path.abspath("relative.txt")


def test_the_engine_guard_takes_read_and_write(roots):
    rule = Confinement([str(roots / "data")], [str(roots / "out")])
    rule.guard(str(roots / "out" / "x"), "write")
    with pytest.raises(ConfinementError):
        rule.guard(str(roots / "data" / "x"), "write")
    with pytest.raises(ValueError):
        rule.guard(str(roots / "data" / "x"), "execute")
