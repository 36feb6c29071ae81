import os

import pytest

from protocol.model.document import load_document
from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_comp


def test_add_resolves_default_outputs_beside_the_saved_project(tmp_path):
    engine = engine_with_comp()
    engine.run("project.save", {"path": str(tmp_path / "show.rvproj")})
    video = engine.run("renderQueue.add", {"comp": "Main"})
    frames = engine.run("renderQueue.add", {"comp": "Main", "format": "png", "frames": "0-9,20"})
    assert video["output"] == str(tmp_path / "Main.mp4") and video["format"] == "h264"
    assert frames["output"] == str(tmp_path / "Main_[#####].png")
    item = engine.doc["renderQueue"][1]
    assert (item["frames"], item["skipExisting"], item["codecOptions"], item["status"]) == \
        ("0-9,20", False, {}, "queued")


def test_add_keeps_given_outputs_infers_format_and_stores_options(tmp_path):
    engine = engine_with_comp()
    engine.run("project.save", {"path": str(tmp_path / "show.rvproj")})
    result = engine.run("renderQueue.add", {"comp": "Main", "output": "out/final.mov",
                                            "skipExisting": True,
                                            "codecOptions": {"profile": "4444"}})
    assert result["output"] == str(tmp_path / "out" / "final.mov")
    assert result["format"] == "prores"
    absolute = engine.run("renderQueue.add", {"comp": "Main", "output": "/abs/x.webm"})
    assert absolute["output"] == "/abs/x.webm" and absolute["format"] == "vp9"
    assert engine.doc["renderQueue"][0]["codecOptions"] == {"profile": "4444"}
    load_document(engine.doc)


def test_an_unsaved_project_resolves_against_the_working_directory():
    engine = engine_with_comp()
    assert engine.run("renderQueue.add", {"comp": "Main", "format": "gif"})["output"] == \
        os.path.join(os.getcwd(), "Main.gif")


@pytest.mark.parametrize("params,message", [
    ({"format": "avi"}, "format must be one of png, jpeg, tiff, exr, h264"),
    ({"frames": "9-1"}, "ends before it starts"),
    ({"frames": "0-400"}, "asks for frame 400, but the comp has frames 0-299"),
    ({"codecOptions": {"crf": [20]}}, "codecOptions values are strings or numbers"),
    ({"output": 5}, "output must be string"),
    ({"comp": "Nope"}, "there is no comp 'Nope'"),
])
def test_add_bad_input(params, message):
    engine = engine_with_comp()
    with pytest.raises(CommandError, match=message):
        engine.run("renderQueue.add", {"comp": "Main", **params})
    assert engine.doc["renderQueue"] == []


def test_set_list_duplicate_remove_formats():
    engine = engine_with_comp()
    engine.run("renderQueue.add", {"comp": "Main", "output": "/out/a.mp4"})
    engine.run("renderQueue.set", {"item": 1, "frames": "5-", "format": "hevc"})
    duplicate = engine.run("renderQueue.duplicate", {"item": 1})
    items = engine.run("renderQueue.list", {})["items"]
    assert [(i["index"], i["output"], i["format"], i["frames"], i["compName"]) for i in items] \
        == [(1, "/out/a.mp4", "hevc", "5-", "Main"), (2, "/out/a.mp4", "hevc", "5-", "Main")]
    assert duplicate["item"] == items[1]["id"] != items[0]["id"]
    engine.run("renderQueue.remove", {"item": items[0]["id"]})
    assert [i["id"] for i in engine.doc["renderQueue"]] == [duplicate["item"]]
    formats = engine.run("renderQueue.formats", {})["formats"]
    assert [f["format"] for f in formats] == ["png", "jpeg", "tiff", "exr", "h264", "hevc",
                                              "av1", "prores", "vp9", "gif", "wav"]
    with pytest.raises(CommandError, match="there is no render queue item number 4"):
        engine.run("renderQueue.set", {"item": 4, "frames": "1"})
    with pytest.raises(CommandError, match="renderQueue.remove needs 'item'"):
        engine.run("renderQueue.remove", {})


class RecordingRenderService:
    """The render service's calling convention, recorded: the real service is another part of
    the supervisor; these tests pin down what the engine hands it."""

    def __init__(self):
        self.calls = []

    def __getattr__(self, method):
        if method.startswith("_"):
            raise AttributeError(method)

        def call(engine, params, ctx):
            self.calls.append((method, params, ctx))
            return {"method": method}
        return call


@pytest.mark.parametrize("command,params,method", [
    ("renderQueue.render", {"wait": False}, "render"),
    ("renderQueue.stop", {}, "stop"),
    ("comp.saveFrameAs", {"comp": "Main", "time": 1.5, "path": "/tmp/x.png"}, "save_frame_as"),
    ("render.preRender", {"comp": "Main"}, "pre_render"),
    ("file.createProxy", {"comp": "Main"}, "create_proxy"),
])
def test_render_commands_delegate_to_the_render_service_without_the_lock(command, params,
                                                                         method):
    engine = engine_with_comp()
    with pytest.raises(CommandError, match="rendering is not available in this session"):
        engine.run(command, params)
    service = RecordingRenderService()
    engine.render_service = service
    context = object()
    assert engine.run(command, params, context) == {"method": method}
    assert service.calls == [(method, params, context)]
    assert engine.history()["undo"] == ["New composition"]  # a render is no undo step


def test_render_commands_are_listed_disabled_until_a_render_service_exists():
    engine = engine_with_comp()
    ids = lambda **kw: [c["id"] for c in engine.catalog(**kw)["commands"]]
    assert "renderQueue.render" in ids() and "renderQueue.render" not in ids(enabled_only=True)
    engine.render_service = RecordingRenderService()
    assert "renderQueue.render" in ids(enabled_only=True)


def test_a_render_cannot_run_in_an_atomic_batch():
    engine = engine_with_comp()
    engine.render_service = RecordingRenderService()
    with pytest.raises(CommandError, match="renderQueue.render cannot run inside an atomic "
                                           "batch"):
        engine.batch([{"id": "renderQueue.render"}], atomic=True)


def test_default_outputs_are_numbered_past_other_items_and_given_ones_never_are(tmp_path):
    engine = engine_with_comp()
    engine.run("project.save", {"path": str(tmp_path / "show.rvproj")})
    first = engine.run("renderQueue.add", {"comp": "Main"})["output"]
    second = engine.run("renderQueue.add", {"comp": "Main"})["output"]
    given = engine.run("renderQueue.add", {"comp": "Main", "output": "Main.mp4"})["output"]
    assert (first, second, given) == (str(tmp_path / "Main.mp4"), str(tmp_path / "Main_1.mp4"),
                                      str(tmp_path / "Main.mp4"))


def test_a_format_that_does_not_suit_the_extension_is_refused():
    engine = engine_with_comp()
    with pytest.raises(CommandError, match="ends in '.mp4' but format prores writes .mov"):
        engine.run("renderQueue.add", {"comp": "Main", "output": "/o/x.mp4",
                                       "format": "prores"})
    engine.run("renderQueue.add", {"comp": "Main", "output": "/o/x.mp4"})
    with pytest.raises(CommandError, match="format png writes .png files"):
        engine.run("renderQueue.set", {"item": 1, "format": "png"})
    engine.run("renderQueue.set", {"item": 1, "output": "/o/frames.png"})
    assert engine.doc["renderQueue"][0]["format"] == "png"
    assert engine.doc["renderQueue"][0]["output"] == "/o/frames_[#####].png"


def test_a_render_service_without_a_method_leaves_that_command_disabled():
    class OnlyRenders:
        def render(self, engine, params, ctx):
            return {"completed": 0, "failed": 0, "items": []}

    engine = engine_with_comp()
    engine.render_service = OnlyRenders()
    enabled = {c["id"] for c in engine.catalog(enabled_only=True)["commands"]}
    assert "renderQueue.render" in enabled and "file.createProxy" not in enabled
    with pytest.raises(CommandError, match="file.createProxy is not available in this session"):
        engine.run("file.createProxy", {"comp": "Main"})


def test_add_and_set_refuse_options_off_the_formats_list_in_one_sentence():
    engine = engine_with_comp()
    with pytest.raises(CommandError, match="'x264-params' of the new item of comp 'Main' has "
                                           "the key 'dump-yuv'"):
        engine.run("renderQueue.add", {"comp": "Main", "output": "/o/x.mp4",
                                       "codecOptions": {"x264-params": "dump-yuv=/o/y"}})
    assert engine.doc["renderQueue"] == []
    engine.run("renderQueue.add", {"comp": "Main", "output": "/o/x.mp4",
                                   "codecOptions": {"preset": "veryfast", "crf": 20}})
    before = [dict(item) for item in engine.doc["renderQueue"]]
    with pytest.raises(CommandError, match="'stats' of item2 makes the h264 encoder read"):
        engine.run("renderQueue.set", {"item": 1, "codecOptions": {"stats": "/o/s.log"}})
    # a new format must accept the options the item keeps: x264's preset is not prores'
    with pytest.raises(CommandError, match="'preset' of item2 is not an option .* prores"):
        engine.run("renderQueue.set", {"item": 1, "output": "/o/x.mov"})
    assert engine.doc["renderQueue"] == before
    engine.run("renderQueue.set", {"item": 1, "output": "/o/x.mov", "codecOptions": {}})
    assert engine.doc["renderQueue"][0]["format"] == "prores"


def test_set_leaves_stored_options_to_the_render_unless_they_or_the_format_change():
    """A project file's options are refused by the render, item by item (the project still
    opens and the other items render), so a set that does not touch them goes through."""
    engine = engine_with_comp()
    engine.run("renderQueue.add", {"comp": "Main", "output": "/o/x.mp4"})
    engine.doc["renderQueue"][0]["codecOptions"] = {"x264-params": "dump-yuv=/o/y"}
    engine.run("renderQueue.set", {"item": 1, "frames": "0-9"})
    with pytest.raises(CommandError, match="'dump-yuv'"):
        engine.run("renderQueue.set", {"item": 1, "codecOptions": {
            **engine.doc["renderQueue"][0]["codecOptions"], "crf": "20"}})


def test_formats_list_the_codec_options_each_accepts():
    formats = {f["format"]: f for f in engine_with_comp().run("renderQueue.formats")["formats"]}
    assert formats["h264"]["codecOptions"]["crf"] == "a number"
    assert "aq-mode" in formats["h264"]["codecOptions"]["x264-params"]
    assert "dump-yuv" not in formats["h264"]["codecOptions"]["x264-params"]
    assert set(formats["prores"]["codecOptions"]) >= {"profile", "pix_fmt"}
