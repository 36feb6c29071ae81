"""The fields of an output name as a farm operator fills them from the command line: each value
makes one safe file name part, every row is checked before anything renders, and a value that
cannot be one is refused in one line naming the row and the field (docs/outputs.md, "Names").
Real processes, real files."""

import json
import os

from supervisor.engine.engine import Engine
from tests.helpers.cli_projects import error_lines, rendervisor
from tests.helpers.template_projects import card_template


def tree(folder) -> list[str]:
    """Every file under `folder`, relative to it."""
    return sorted(os.path.relpath(os.path.join(root, name), folder)
                  for root, _dirs, names in os.walk(folder) for name in names)


def refused(result) -> str:
    """The one line a refused render prints (exit 2, no traceback)."""
    lines = error_lines(result.stderr)
    assert result.returncode == 2, result.stderr
    assert len(lines) == 1 and "Traceback" not in result.stderr, lines
    return lines[0]


def nested_card(tmp_path) -> str:
    """The card saved three folders down, its frame 0 queued into renders/[param:title]/."""
    home = tmp_path / "a" / "b" / "c"
    home.mkdir(parents=True)
    card_template(home, queue=[{"output": "renders/[param:title]/x_[#].png", "format": "png",
                                "frames": "0"}])
    return str(home / "card.rvproj")


def test_a_set_value_of_dots_is_refused_before_anything_is_written(tmp_path):
    project = nested_card(tmp_path)
    before = tree(tmp_path)
    for value in ("..", ".", ".ssh"):
        line = refused(rendervisor("render", project, "--set", f"title={value}"))
        assert "--set" in line and "[param:title]" in line and repr(value) in line, line
        assert tree(tmp_path) == before


def test_every_data_row_is_checked_before_any_row_renders(tmp_path):
    project = nested_card(tmp_path)
    rows = tmp_path / "rows.csv"
    rows.write_text("title\nfine\n..\n")
    before = tree(tmp_path)
    line = refused(rendervisor("render", project, "--data", rows))
    assert "row 2 of rows.csv" in line and "[param:title]" in line, line
    assert tree(tmp_path) == before  # row 1 is fine, and was not rendered either


def test_four_climbing_fields_write_nothing_above_the_output_folder(tmp_path):
    home = tmp_path / "a" / "b" / "c" / "d"
    home.mkdir(parents=True)
    card_template(home, queue=[{"output": "renders/[param:title]/[param:title]/"
                                          "[param:title]/[param:title]/x_[#].png",
                                "format": "png", "frames": "0"}])
    before = tree(tmp_path)
    line = refused(rendervisor("render", home / "card.rvproj", "--set", "title=.."))
    assert "[param:title]" in line, line
    assert tree(tmp_path) == before


def test_separators_and_control_characters_become_underscores(tmp_path):
    project = nested_card(tmp_path)
    rows = tmp_path / "rows.json"
    rows.write_text(json.dumps([{"title": "AC/DC"}, {"title": "two\nlines"},
                                {"title": "tab\there"}, {"title": "a..b"}]))
    result = rendervisor("render", project, "--data", rows, "--quiet")
    assert result.returncode == 0, result.stderr
    renders = os.path.join(os.path.dirname(project), "renders")
    assert tree(renders) == ["AC_DC/x_0.png", "a..b/x_0.png", "tab_here/x_0.png",
                             "two_lines/x_0.png"]


def test_a_value_too_long_for_a_file_name_is_refused_before_rendering(tmp_path):
    project = nested_card(tmp_path)
    before = tree(tmp_path)
    line = refused(rendervisor("render", project, "--set", "title=" + "t" * 300))
    assert "[param:title]" in line and "255" in line and "Errno" not in line, line
    assert tree(tmp_path) == before
    # A name that fits the folder but leaves no room for the temporaries beside the file is
    # refused as well, rather than failing with ENAMETOOLONG once the frame is drawn.
    card_template(tmp_path, queue=[{"output": "out/[param:title]_[#].png", "format": "png",
                                    "frames": "0"}])
    line = refused(rendervisor("render", tmp_path / "card.rvproj", "--set",
                               "title=" + "é" * 120))
    assert "[param:title]" in line and "bytes" in line, line
    assert not (tmp_path / "out").exists()


def test_a_comp_named_dots_is_refused_by_its_name_field(tmp_path):
    engine = Engine()
    engine.run("comp.new", {"name": "..", "width": 32, "height": 18, "duration": 0.1})
    engine.run("project.save", {"path": str(tmp_path / "p.rvproj")})
    line = refused(rendervisor("render", tmp_path / "p.rvproj", "--format", "png"))
    assert "[compName]" in line and "'..'" in line, line
    assert tree(tmp_path) == ["p.rvproj"]


def test_data_fills_a_required_param_named_in_the_output(tmp_path):
    card_template(tmp_path, queue=[{"output": "out/[param:title].png", "format": "png",
                                    "frames": "0"}])
    project = str(tmp_path / "card.rvproj")
    engine = Engine(project)
    engine.run("template.setParam", {"name": "title", "required": True})
    engine.run("project.save", {})
    rows = tmp_path / "rows.csv"
    rows.write_text("title\nOne\nTwo\n")
    result = rendervisor("render", project, "--data", rows, "--output",
                         tmp_path / "cards" / "c_[param:title]_[#].png", "--quiet")
    assert result.returncode == 0, result.stderr
    assert tree(tmp_path / "cards") == ["c_One_0.png", "c_Two_0.png"]
    result = rendervisor("render", project, "--set", "title=Three", "--output",
                         tmp_path / "cards" / "c_[param:title]_[#].png", "--quiet")
    assert result.returncode == 0, result.stderr
    assert "c_Three_0.png" in tree(tmp_path / "cards")
