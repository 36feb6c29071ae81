"""`rendervisor render` given files built to break what reads them, as a farm operator's job
could be: a footage param pointing at an SVG that crashes its parser, and `--data` that is a
device, a FIFO, or holds a NUL or JSON nested 100,000 deep. Each is one line naming the file,
exit 2 (never 139, never a traceback, never a hang), and nothing is written."""

import os

import pytest

from tests.cli.test_cli_templates import assert_refused
from tests.helpers.cli_projects import rendervisor
from tests.helpers.hostile_files import deep_svg
from tests.helpers.template_projects import card_template

# A FIFO nobody writes to would hold a reader forever: the whole run must end well before.
FIFO_TIMEOUT = 60


@pytest.fixture
def card(tmp_path):
    card_template(tmp_path, queue=[{"output": "out/[param:title]_[row].png", "format": "png",
                                    "frames": "0"}])
    return str(tmp_path / "card.rvproj")


def test_a_footage_param_nested_past_any_svg_parser_is_one_line_exit_2(card, tmp_path):
    deep = deep_svg(tmp_path / "deep.svg")  # it crashed the parser, and the server, once
    result = rendervisor("render", card, "--set", f"logo={deep}")
    assert_refused(result, str(tmp_path), "--set logo:", "deep.svg", "nest more than 512 deep")


def write(path, data: bytes) -> str:
    with open(path, "wb") as handle:
        handle.write(data)
    return str(path)


@pytest.mark.parametrize("make,fragments", [
    (lambda folder: "/dev/zero", ["--data /dev/zero", "a device, not a data file"]),
    (lambda folder: write(os.path.join(folder, "rows.csv"), b"title\nA\x00B\n"),
     ["rows.csv line 2 holds a NUL character"]),
    (lambda folder: write(os.path.join(folder, "rows.json"),
                          b'[{"title": ' + b"[" * 100_000 + b"]" * 100_000 + b"}]"),
     ["rows.json", "nests its JSON too deeply"]),
    (lambda folder: write(os.path.join(folder, "rows.json"),
                          b'[{"title": "A", "accent": ' + b"[" * 40 + b"]" * 40 + b"}]"),
     ["row 1 of", "rows.json, column accent", "nests more than 16"]),
    (lambda folder: write(os.path.join(folder, "rows.jsonl"),
                          b'{"title": "A\\u0000B"}\n'),
     ["row 1 of", "column title", "holds a NUL character"]),
])
def test_data_that_is_no_file_of_rows_is_one_line_exit_2(card, tmp_path, make, fragments):
    result = rendervisor("render", card, "--data", make(str(tmp_path)))
    assert_refused(result, str(tmp_path), *fragments)


def test_data_that_is_a_fifo_is_refused_without_waiting_for_a_writer(card, tmp_path):
    fifo = str(tmp_path / "rows.csv")
    os.mkfifo(fifo)
    result = rendervisor("render", card, "--data", fifo, timeout=FIFO_TIMEOUT)
    assert_refused(result, str(tmp_path), f"--data {fifo}", "a FIFO (named pipe)")


def test_data_over_its_size_limit_is_refused_before_it_is_read(card, tmp_path):
    rows = tmp_path / "rows.csv"
    with open(rows, "wb") as handle:
        handle.write(b"title\n")
        handle.truncate(17 * 1024 * 1024)  # sparse: past the 16 MiB limit, nothing to read
    result = rendervisor("render", card, "--data", rows)
    assert_refused(result, str(tmp_path), f"--data {rows}", "over the 16 MiB")


@pytest.mark.parametrize("depth", [100_000, 900])
def test_a_project_nested_past_any_document_is_one_line_exit_2(tmp_path, depth):
    # 100,000 deep overflows JSON's parser; 900 parses but overflows any walk of the document.
    project = write(tmp_path / "deep.rvproj", b'{"version": 2, "name": "x", "comps": '
                    + b"[" * depth + b"]" * depth + b"}")
    result = rendervisor("render", project)
    assert_refused(result, str(tmp_path), f"cannot open {project}", "nests more than 64")
