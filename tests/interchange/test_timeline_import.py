"""Importing a timeline is reading an untrusted file: a file that is no timeline is refused in
one sentence and changes nothing; media files outside the roots or missing are listed by name;
the file is parsed by a worker, never by the supervisor; the import is one undo step."""

import os

import opentimelineio as otio
import pytest

from supervisor.errors import CommandError
from supervisor.mcp.session import Options, Session
from supervisor.runtime.pool import Pool
from tests.helpers.interchange_projects import cut, media
from tests.helpers.render_sessions import render_session
from tests.helpers.worker_pools import pool_context


@pytest.fixture(scope="module")
def session():
    with render_session(workers=1) as session:
        yield session


@pytest.mark.parametrize("name,content", [
    ("broken.otio", b'{"OTIO_SCHEMA": "Timeline.1", "tracks": [1, 2'),
    ("broken.xml", b"<xmeml><sequence><media><video><track><clipitem>"),
    ("broken.edl", b"TITLE: x\n001  AX V C 00:00:00:00 garbage\n"),
    ("not.otio", b"\x00\x01\x02 not json at all"),
])
def test_a_file_that_is_no_timeline_is_refused_in_one_sentence(session, tmp_path, name,
                                                                content):
    engine = session.engine
    engine.run("project.new", {})
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(CommandError) as raised:
        engine.run("timeline.import", {"path": str(path)})
    message = str(raised.value)
    assert message.startswith(f"cannot import {path}") and "\n" not in message
    assert "Traceback" not in message
    assert engine.doc["comps"] == [] and engine.run("edit.history", {})["undo"] == []


def test_an_unknown_extension_names_the_formats_read(session, tmp_path):
    (tmp_path / "cut.txt").write_text("hello")
    with pytest.raises(CommandError, match=r"\.otio \(otio\), \.fcpxml \(fcpxml\)"):
        session.engine.run("timeline.import", {"path": str(tmp_path / "cut.txt")})


def test_missing_media_is_listed_by_name_and_the_rest_imports(session, tmp_path):
    files = media(tmp_path)
    engine = session.engine
    engine.run("project.new", {})
    cut(engine, files, nested=False)
    path = str(tmp_path / "cut.otio")
    engine.run("timeline.export", {"comp": "Cut", "path": path})
    os.remove(files["b"])
    engine.run("project.new", {})
    imported = engine.run("timeline.import", {"path": path})
    assert sorted(entry["name"] for entry in imported["missing"]) == ["Insert", "ShotB"]
    assert all("b.mp4" in entry["reason"] for entry in imported["missing"])
    comp = engine.doc["comps"][0]
    assert sorted(layer["name"] for layer in comp["layers"]) == ["Bed", "ShotA"]
    assert engine.run("edit.undo", {})["undone"] and engine.doc["comps"] == [], \
        "the import was one undo step"


def test_a_confined_session_refuses_a_timeline_outside_the_roots_and_lists_media_outside(
        tmp_path):
    inside, outside = tmp_path / "inside", tmp_path / "outside"
    inside.mkdir()
    outside.mkdir()
    files = media(outside)
    with render_session(workers=1) as free:
        cut(free.engine, files, nested=False)
        free.engine.run("timeline.export", {"comp": "Cut", "path": str(outside / "cut.otio")})
    (inside / "cut.otio").write_bytes((outside / "cut.otio").read_bytes())
    context, preload = pool_context()
    pool = Pool(context, 1, preload=preload)
    confined = Session(Options(read_roots=[str(inside)], write_roots=[str(inside)]), pool)
    try:
        with pytest.raises(CommandError, match="outside"):
            confined.engine.run("timeline.import", {"path": str(outside / "cut.otio")})
        imported = confined.engine.run("timeline.import", {"path": str(inside / "cut.otio")})
        assert imported["layers"] == 0 and imported["footage"] == 0
        assert {entry["name"] for entry in imported["missing"]} == {
            "ShotA", "ShotB", "Insert", "Bed"}
        assert all("root" in entry["reason"] for entry in imported["missing"])
    finally:
        confined.close()
        pool.close()


def test_timeline_files_are_parsed_in_a_worker_never_in_the_supervisor(server, tmp_path):
    files = media(tmp_path)
    steps = [{"id": "comp.new", "params": {"name": "Cut", "width": 64, "height": 36,
                                           "frameRate": 24, "duration": 2}},
             {"id": "layer.add", "params": {"comp": "Cut", "type": "video",
                                            "path": files["a"], "name": "Shot"}},
             {"id": "timeline.export", "params": {"comp": "Cut",
                                                  "path": str(tmp_path / "cut.fcpxml")}},
             {"id": "timeline.import", "params": {"path": str(tmp_path / "cut.fcpxml")}},
             {"id": "lottie.export", "params": {"comp": "Cut",
                                                "path": str(tmp_path / "cut.json")}}]
    result = server.run("command_batch", {"steps": steps}, timeout=120)
    report = result["structuredContent"]
    assert report["failed"] == 0, report
    assert report["results"][3]["result"]["layers"] == 1
    assert os.path.isfile(tmp_path / "cut.json")
    with open(f"/proc/{server.process.pid}/maps") as maps:
        loaded = maps.read()
    assert "opentimelineio" not in loaded, "OpenTimelineIO was loaded into the supervisor"
    assert "_otio" not in loaded


def test_a_timeline_past_the_frame_limit_is_refused_and_changes_nothing(session, tmp_path):
    track = otio.schema.Track(name="V1")
    track.append(otio.schema.Gap(source_range=otio.opentime.TimeRange(
        duration=otio.opentime.RationalTime(2_000_000, 1000))))
    path = str(tmp_path / "long.otio")
    otio.adapters.write_to_file(otio.schema.Timeline(name="Long", tracks=[track]), path)
    engine = session.engine
    engine.run("project.new", {})
    with pytest.raises(CommandError, match="over the limit of 1,000,000 frames"):
        engine.run("timeline.import", {"path": path})
    assert engine.doc["comps"] == []


def _refusal(engine, path) -> str:
    engine.run("project.new", {})
    with pytest.raises(CommandError) as raised:
        engine.run("timeline.import", {"path": str(path)})
    message = str(raised.value)
    assert message.startswith(f"cannot import {path}") and "\n" not in message, message
    assert engine.doc["comps"] == []
    return message


def test_a_fifo_named_as_a_timeline_is_refused_unread(session, tmp_path):
    # Read as a file, a named pipe would hold the reader until its deadline (or forever).
    path = tmp_path / "cut.otio"
    os.mkfifo(path)
    assert "FIFO" in _refusal(session.engine, path)


def test_a_timeline_that_crashes_its_reader_is_refused_naming_the_file(session, tmp_path):
    # OpenTimelineIO's JSON reader recurses once per level: this depth overflows its stack.
    path = tmp_path / "deep.otio"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert "crashed" in _refusal(session.engine, path)
    session.engine.run("timeline.import", {"path": str(_tiny_timeline(tmp_path))})


def test_a_timeline_with_a_frame_rate_that_is_no_number_is_refused_as_the_files_fault(
        session, tmp_path):
    text = otio.adapters.write_to_string(otio.adapters.read_from_file(
        str(_tiny_timeline(tmp_path))), "otio_json")
    path = tmp_path / "nan.otio"
    path.write_text(text.replace('"rate": 24.0', '"rate": NaN'))
    message = _refusal(session.engine, path)
    assert "bug in rendervisor" not in message and "finite" in message, message


def _tiny_timeline(folder) -> str:
    track = otio.schema.Track(name="V1")
    track.append(otio.schema.Clip(name="Shot", source_range=otio.opentime.TimeRange(
        otio.opentime.RationalTime(0, 24), otio.opentime.RationalTime(24, 24))))
    path = folder / "tiny.otio"
    otio.adapters.write_to_file(otio.schema.Timeline(name="Tiny", tracks=[track]), str(path))
    return path


def test_a_clip_whose_media_url_is_empty_names_no_media_and_imports_no_folder(session,
                                                                               tmp_path):
    # Read as a path, "" would be the timeline's own folder, imported as an image sequence.
    for number in (1, 2):
        (tmp_path / f"frame_{number:04d}.png").write_bytes(b"")
    track = otio.schema.Track(name="V1")
    track.append(otio.schema.Clip(
        name="Shot", media_reference=otio.schema.ExternalReference(target_url=""),
        source_range=otio.opentime.TimeRange(otio.opentime.RationalTime(0, 24),
                                             otio.opentime.RationalTime(24, 24))))
    path = str(tmp_path / "empty.otio")
    otio.adapters.write_to_file(otio.schema.Timeline(name="Empty", tracks=[track]), path)
    engine = session.engine
    engine.run("project.new", {})
    imported = engine.run("timeline.import", {"path": path})
    assert imported["footage"] == 0 and engine.doc["footage"] == []
    assert [entry["media"] for entry in imported["missing"]] == [None]
