"""project.set's colorManagement, footage colorSpace and queue items' display and view: names
of a built-in config checked at once, a config file only as a path."""

import pytest
import skia

from protocol.model.document import load_document
from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_comp


def test_project_set_stores_colour_management_and_null_removes_it():
    engine = engine_with_comp()
    result = engine.run("project.set", {"colorManagement": {"config": "studio-config",
                                                            "workingSpace": "lin_ap1"}})
    assert result["colorManagement"] == {"config": "studio-config", "workingSpace": "lin_ap1"}
    assert engine.run("project.info")["colorManagement"]["config"] == "studio-config"
    assert load_document(engine.doc)["colorManagement"]["workingSpace"] == "lin_ap1"
    engine.run("project.set", {"colorManagement": {}})
    assert engine.doc["colorManagement"] == {"config": "cg-config"}
    engine.run("project.set", {"colorManagement": None})
    assert "colorManagement" not in engine.doc
    engine.run("edit.undo")
    assert engine.doc["colorManagement"] == {"config": "cg-config"}


@pytest.mark.parametrize("settings,message", [
    ({"config": "ocio://aces-1.0"}, "'ocio://aces-1.0' is not a config built into OpenColorIO; "
                                    "use one of cg-config, studio-config, ocio://"),
    ({"config": "cg-config", "workingSpace": "ACEScct"}, "'ACEScct' is not scene-linear"),
    ({"config": "cg-config", "workingSpace": "AWG3"}, "'AWG3' is not a colour space of the "
                                                      "config; it has sRGB - Display"),
    ({"config": "configs/show.ocio"}, "neither a built-in config nor an absolute path"),
])
def test_project_set_refuses_what_cannot_be_drawn(settings, message):
    engine = engine_with_comp()
    with pytest.raises(CommandError, match=message):
        engine.run("project.set", {"colorManagement": settings})
    assert "colorManagement" not in engine.doc


def test_a_config_file_is_checked_as_a_path_and_left_to_the_worker_to_read(tmp_path):
    engine = engine_with_comp()
    with pytest.raises(CommandError, match="does not exist"):
        engine.run("project.set", {"colorManagement": {"config": str(tmp_path / "a.ocio")}})
    config = tmp_path / "show.ocio"
    config.write_text("not yaml at all: [")
    engine.run("project.set", {"colorManagement": {"config": str(config),
                                                   "workingSpace": "anything"}})
    assert engine.doc["colorManagement"]["config"] == str(config)


def test_footage_colour_space_and_item_display_and_view_are_names_of_the_config(tmp_path):
    engine = engine_with_comp()
    still = tmp_path / "still.png"
    skia.Surface(4, 4).makeImageSnapshot().save(str(still), skia.kPNG)
    footage = engine.run("footage.import", {"path": str(still), "colorSpace": "ACEScct"})
    # Stored before the project is managed, used once it is.
    assert engine.doc["footage"][0]["colorSpace"] == "ACEScct"
    engine.run("project.set", {"colorManagement": {"config": "cg-config"}})
    with pytest.raises(CommandError, match="colorSpace 'LogC' is not a colour space"):
        engine.run("footage.set", {"footage": footage["footage"], "colorSpace": "LogC"})
    engine.run("footage.set", {"footage": footage["footage"], "colorSpace": None})
    assert "colorSpace" not in engine.doc["footage"][0]
    item = engine.run("renderQueue.add", {"comp": "Main", "output": str(tmp_path / "m.mov"),
                                          "display": "Rec.1886 Rec.709 - Display",
                                          "view": "Un-tone-mapped"})
    stored = engine.doc["renderQueue"][0]
    assert (stored["display"], stored["view"]) == ("Rec.1886 Rec.709 - Display",
                                                   "Un-tone-mapped")
    with pytest.raises(CommandError, match="display 'P3' is not a display of the config"):
        engine.run("renderQueue.set", {"item": item["item"], "display": "P3"})


def test_hdr10_color_tags_need_hevc_or_prores_and_a_managed_project(tmp_path):
    engine = engine_with_comp()
    add = {"comp": "Main", "output": str(tmp_path / "hdr.mp4"), "colorTags": "bt2020-pq"}
    with pytest.raises(CommandError, match="needs pictures encoded with the PQ curve"):
        engine.run("renderQueue.add", {**add, "format": "hevc"})
    engine.run("project.set", {"colorManagement": {"config": "cg-config"}})
    with pytest.raises(CommandError, match="tags HEVC or ProRes video, and this item is h264"):
        engine.run("renderQueue.add", {**add, "format": "h264"})
    engine.run("renderQueue.add", {**add, "format": "hevc"})
    assert engine.doc["renderQueue"][0]["colorTags"] == "bt2020-pq"


def test_hdr10_refuses_an_8_bit_pixel_format_in_the_exporter():
    from workers.exporter.video_encoders import CodecOptionError, encoder_setup

    setup = encoder_setup("hevc", 64, 36, 30, {}, "bt2020-pq")
    assert setup.pix_fmt == "yuv420p10le" and setup.tags.name == "bt2020-pq"
    with pytest.raises(CodecOptionError, match="needs 10-bit Y'CbCr, and pix_fmt yuv420p"):
        encoder_setup("hevc", 64, 36, 30, {"pix_fmt": "yuv420p"}, "bt2020-pq")
