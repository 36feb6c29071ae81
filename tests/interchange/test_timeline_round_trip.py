"""A comp handed to an editor and brought back: export then import keeps the layers, their
ranges, speed, stacking, markers and sound levels, as far as each format holds them; files
written by OpenTimelineIO's own API import as expected; what the adapters write is read back by
OpenTimelineIO itself."""

import opentimelineio as otio
import pytest

from supervisor.errors import CommandError
from tests.helpers.interchange_projects import RATE, cut, layer_timing, markers, media
from tests.helpers.render_sessions import render_session


@pytest.fixture(scope="module")
def session():
    with render_session(workers=1) as session:
        yield session


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return media(tmp_path_factory.mktemp("media"))


def fresh(session):
    session.engine.run("project.new", {})
    return session.engine


def comp_named(engine, name):
    return next(c for c in engine.doc["comps"] if c["name"] == name)


def round_trip(session, files, tmp_path, fmt, extension, nested=True):
    engine = fresh(session)
    cut(engine, files, nested=nested)
    exported = dict(layer_timing(comp_named(engine, "Cut")))
    path = str(tmp_path / f"cut.{extension}")
    written = engine.run("timeline.export", {"comp": "Cut", "path": path, "format": fmt})
    imported = engine.run("timeline.import", {"path": path, "name": "Back"})
    return engine, exported, written, imported, comp_named(engine, "Back")


def test_otio_keeps_layers_ranges_speed_stacking_markers_and_levels(session, files, tmp_path):
    engine, exported, written, imported, back = round_trip(session, files, tmp_path, "otio",
                                                           "otio")
    assert written["warnings"] == [] and imported["missing"] == []
    assert layer_timing(back) == exported
    names = [layer["name"] for layer in back["layers"]]
    assert names.index("Insert") < names.index("ShotB"), "the clip over ShotB stays over it"
    assert markers(back) == [("beat", 1.0 * RATE, 0)]
    assert markers(next(l for l in back["layers"] if l["name"] == "ShotA")) == [
        ("look", 0.5 * RATE, 0.25 * RATE)]
    bed = next(layer for layer in back["layers"] if layer["name"] == "Bed")
    shot_a = next(layer for layer in back["layers"] if layer["name"] == "ShotA")
    assert bed["audio"]["level"] == pytest.approx(-6)
    assert shot_a["audio"]["muted"] is False, "its sound came back as the linked clip"
    assert sum(layer["type"] == "audio" for layer in back["layers"]) == 1, \
        "ShotA's sound plays from ShotA, not from a second layer"
    nest = next(layer for layer in back["layers"] if layer["name"] == "Nest")
    inner = next(c for c in engine.doc["comps"] if c["id"] == nest["content"]["source"])
    assert layer_timing(inner)["InB"] == layer_timing(comp_named(engine, "Inner"))["InB"]
    assert (back["frameRate"], back["duration"], back["width"], back["height"]) == \
        (RATE, 4, 64, 36)


@pytest.mark.parametrize("fmt,extension", [("fcpxml", "fcpxml"), ("fcp7xml", "xml")])
def test_fcp_xml_keeps_layers_ranges_speed_and_layer_markers(session, files, tmp_path, fmt,
                                                            extension):
    _, exported, written, imported, back = round_trip(session, files, tmp_path, fmt,
                                                      extension, nested=False)
    assert imported["missing"] == []
    # The FCP writers of OpenTimelineIO leave a clip's speed out, and the export says so:
    # ShotB comes back at 100%, from the same first source frame.
    assert [w for w in written["warnings"] if "ShotB" in w and "200% speed" in w]
    exported["ShotB"] = ("video", 36.0, 72.0, 24.0, 100)
    assert layer_timing(back) == exported
    assert markers(next(l for l in back["layers"] if l["name"] == "ShotA")) == [
        ("look", 0.5 * RATE, 0.25 * RATE)]
    bed = next(layer for layer in back["layers"] if layer["name"] == "Bed")
    if fmt == "fcp7xml":  # FCP 7 XML holds comp markers and the Audio Levels filter
        assert markers(back) == [("beat", 1.0 * RATE, 0)]
        assert bed["audio"]["level"] == pytest.approx(-6, abs=1e-3)


def test_fcpx_xml_keeps_a_nested_precomp(session, files, tmp_path):
    engine, exported, _, _, back = round_trip(session, files, tmp_path, "fcpxml", "fcpxml")
    assert layer_timing(back)["Nest"] == exported["Nest"]
    nest = next(layer for layer in back["layers"] if layer["name"] == "Nest")
    inner = next(c for c in engine.doc["comps"] if c["id"] == nest["content"]["source"])
    assert [layer["name"] for layer in inner["layers"]] == ["InB"]


def test_an_edl_holds_one_video_track_the_topmost_clip_showing(session, files, tmp_path):
    _, _, written, imported, back = round_trip(session, files, tmp_path, "edl", "edl",
                                               nested=False)
    assert any("flattened" in warning for warning in written["warnings"])
    assert any("no sound" in warning for warning in written["warnings"])
    timing = layer_timing(back)
    assert timing["ShotA"] == ("video", 0, 1.5 * RATE, 0, 100)
    assert timing["Insert"][1:3] == (2.0 * RATE, 2.5 * RATE)
    assert all(layer["type"] == "video" for layer in back["layers"])
    cuts = sorted((round(l["inPoint"] * RATE), round(l["outPoint"] * RATE), l["name"])
                  for l in back["layers"])
    assert cuts == [(0, 36, "ShotA"), (36, 48, "ShotB"), (48, 60, "Insert"),
                    (60, 72, "ShotB")], "ShotB is cut around the insert that covered it"


def test_an_otio_file_written_by_opentimelineios_own_api_imports_as_expected(session, files,
                                                                              tmp_path):
    rate = 25
    video, sound = otio.schema.Track(name="V1"), otio.schema.Track(
        name="A1", kind=otio.schema.TrackKind.Audio)

    def clip(name, path, start, frames, speed=1.0):
        made = otio.schema.Clip(
            name=name, media_reference=otio.schema.ExternalReference(
                target_url=otio.url_utils.url_from_filepath(path)),
            source_range=otio.opentime.TimeRange(otio.opentime.RationalTime(start, rate),
                                                 otio.opentime.RationalTime(frames, rate)))
        if speed != 1.0:
            made.effects.append(otio.schema.LinearTimeWarp(time_scalar=speed))
        return made

    video.append(clip("Open", files["a"], 5, 20))
    video.append(otio.schema.Gap(source_range=otio.opentime.TimeRange(
        duration=otio.opentime.RationalTime(10, rate))))
    video.append(clip("Close", files["b"], 0, 15, speed=0.5))
    video[2].markers.append(otio.schema.Marker(name="hit", marked_range=otio.opentime.TimeRange(
        otio.opentime.RationalTime(4, rate), otio.opentime.RationalTime(0, rate))))
    video.append(otio.schema.Transition(
        name="Dissolve", transition_type=otio.schema.TransitionTypes.SMPTE_Dissolve,
        in_offset=otio.opentime.RationalTime(5, rate),
        out_offset=otio.opentime.RationalTime(5, rate)))
    video.append(clip("Gone", str(tmp_path / "nowhere.mov"), 0, 10))
    sound.append(clip("Bed", files["bed"], 25, 50))
    timeline = otio.schema.Timeline(name="Handed over", tracks=[video, sound])
    timeline.tracks.markers.append(otio.schema.Marker(
        name="act two", marked_range=otio.opentime.TimeRange(
            otio.opentime.RationalTime(30, rate), otio.opentime.RationalTime(25, rate))))
    path = str(tmp_path / "handed.otio")
    otio.adapters.write_to_file(timeline, path)

    engine = fresh(session)
    imported = engine.run("timeline.import", {"path": path})
    back = comp_named(engine, "Handed over")
    assert imported["name"] == "Handed over" and back["frameRate"] == rate
    timing = {layer["name"]: layer for layer in back["layers"]}
    assert set(timing) == {"Open", "Close", "Bed"}
    opening, closing, bed = timing["Open"], timing["Close"], timing["Bed"]
    assert (opening["inPoint"], opening["outPoint"], opening["startTime"]) == \
        pytest.approx((0, 0.8, -0.2))
    assert opening["audio"]["muted"] is True, "its sound is on no sound track"
    assert (closing["inPoint"], closing["outPoint"]) == pytest.approx((1.2, 1.8))
    assert closing["content"]["speed"] == 50
    assert closing["startTime"] == pytest.approx(1.2), "its source starts at 0"
    # A marker 4 frames into the clip's media, which plays at half speed: 8 frames in.
    assert [(m["name"], round(m["time"] * rate, 6)) for m in closing["markers"]] == [
        ("hit", 30 + 8)]
    assert bed["type"] == "audio"
    assert (bed["inPoint"], bed["outPoint"], bed["startTime"]) == pytest.approx((0, 2, -1))
    assert [(m["name"], m["time"], m["duration"]) for m in back["markers"]] == [
        ("act two", pytest.approx(1.2), pytest.approx(1.0))]
    assert [entry["name"] for entry in imported["missing"]] == ["Gone"]
    assert "nowhere.mov" in imported["missing"][0]["reason"]
    assert any("Dissolve" in warning and "transition" in warning
               for warning in imported["warnings"])


@pytest.mark.parametrize("fmt,extension,adapter", [
    ("fcpxml", "fcpxml", "fcpx_xml"), ("fcp7xml", "xml", "fcp_xml"), ("edl", "edl", "cmx_3600")])
def test_what_the_adapters_write_opentimelineio_reads_back(session, files, tmp_path, fmt,
                                                           extension, adapter):
    engine = fresh(session)
    cut(engine, files, nested=False)
    path = str(tmp_path / f"cut.{extension}")
    engine.run("timeline.export", {"comp": "Cut", "path": path})
    timeline = otio.adapters.read_from_file(path, adapter_name=adapter)
    video = [track for track in timeline.tracks if track.kind == otio.schema.TrackKind.Video]
    clips = {(clip.name, clip.range_in_parent().start_time.to_frames(),
              round(clip.source_range.start_time.to_seconds(), 6)) for track in video
             for clip in track.find_clips()}
    assert {("ShotA", 0, 0.0), ("ShotB", 36, 0.5), ("Insert", 48, 0.0)} <= clips


def test_an_edl_imports_at_the_frame_rate_given_for_it(session, files, tmp_path):
    engine = fresh(session)
    engine.run("comp.new", {"name": "PAL", "width": 64, "height": 36, "frameRate": 25,
                            "duration": 2})
    engine.run("layer.add", {"comp": "PAL", "type": "video", "path": files["b"],
                             "name": "Shot"})
    engine.run("layer.set", {"comp": "PAL", "layer": "Shot", "startTime": -0.4,
                             "outPoint": 1.2})
    path = str(tmp_path / "pal.edl")
    engine.run("timeline.export", {"comp": "PAL", "path": path})
    engine.run("timeline.import", {"path": path, "frameRate": 25, "name": "Back"})
    shot = comp_named(engine, "Back")["layers"][0]
    assert comp_named(engine, "Back")["frameRate"] == 25
    assert (shot["inPoint"], shot["outPoint"], shot["startTime"]) == pytest.approx(
        (0, 1.2, -0.4))


def test_fcpx_xml_refuses_a_rate_final_cut_does_not_know(session, files, tmp_path):
    engine = fresh(session)
    engine.run("comp.new", {"name": "Odd", "width": 64, "height": 36, "frameRate": 12,
                            "duration": 1})
    with pytest.raises(CommandError, match=r"holds 23\.98, 24, 25, 29\.97, 30, 50, 59\.94, "
                                           r"60 fps; comp 'Odd' runs at 12 fps"):
        engine.run("timeline.export", {"comp": "Odd", "path": str(tmp_path / "odd.fcpxml")})
    assert not (tmp_path / "odd.fcpxml").exists()
