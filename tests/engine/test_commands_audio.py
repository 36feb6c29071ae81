"""Sound in the engine: importing sound files (made here with the wave module and PyAV), audio
layers, a video's hasAudio, audio.level and audio.muted, the comp's sample rate, and a queue
item's audio settings."""

import json

import numpy as np
import pytest

from protocol.model.document import DocumentError, load_document
from supervisor.engine.commands.overview import document_overview
from supervisor.engine.engine import Engine
from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_comp
from tests.helpers.sound_files import tone, write_sound, write_video_with_sound, write_wav


@pytest.mark.parametrize("name,codec,container,rate,channels", [
    ("tone.wav", None, None, 44100, 1),
    ("tone.flac", "flac", None, 48000, 2),
    ("tone.mp3", "libmp3lame", None, 44100, 2),
    ("tone.m4a", "aac", "mp4", 48000, 2),
    ("tone.aac", "aac", "adts", 32000, 1),
    ("tone.ogg", "libopus", "ogg", 48000, 2),
    ("tone.opus", "libopus", "ogg", 48000, 1),
])
def test_sound_files_import_as_audio_with_their_length_rate_and_channels(
        tmp_path, name, codec, container, rate, channels):
    signal = np.stack([tone(2.0, rate=rate)] * channels)
    path = tmp_path / name
    if codec is None:
        write_wav(path, signal, rate)
    else:
        write_sound(path, signal, codec, rate, container)
    imported = Engine().run("footage.import", {"path": str(path)})
    assert (imported["kind"], imported["sampleRate"], imported["channels"]) == \
        ("audio", rate, channels)
    assert imported["duration"] == pytest.approx(2.0, abs=0.06)
    assert "width" not in imported and "height" not in imported


def test_a_video_says_whether_it_has_sound(tmp_path):
    with_sound = write_video_with_sound(tmp_path / "talk.mp4", 30, 30, tone(1.0))
    silent = write_video_with_sound(tmp_path / "mute.mp4", 30, 30, None)
    engine = Engine()
    assert engine.run("footage.import", {"path": with_sound})["hasAudio"] is True
    assert engine.run("footage.import", {"path": silent})["hasAudio"] is False


@pytest.mark.parametrize("cut,message", [
    (20, "it is not an image, a video or a sound file rendervisor can read"),
    (44, "it holds no sound that decodes"),
], ids=["header-cut", "no-samples"])
def test_a_truncated_sound_file_is_one_sentence_naming_it(tmp_path, cut, message):
    whole = (tmp_path / "whole.wav")
    write_wav(whole, tone(1.0))
    cut_file = tmp_path / "cut.wav"
    cut_file.write_bytes(whole.read_bytes()[:cut])
    with pytest.raises(CommandError) as raised:
        Engine().run("footage.import", {"path": str(cut_file)})
    text = str(raised.value)
    assert message in text and str(cut_file) in text
    assert "\n" not in text and "Traceback" not in text


def test_an_audio_layer_plays_a_sound_file_and_ends_where_it_does(tmp_path):
    path = write_wav(tmp_path / "bed.wav", tone(2.5))
    engine = engine_with_comp(duration=4)
    added = engine.run("layer.add", {"comp": "Main", "type": "audio", "path": path,
                                     "startTime": 0.5, "inPoint": 0.5})
    layer = engine.run("layer.get", {"comp": "Main", "layer": added["layer"]})
    assert (layer["type"], layer["name"], layer["outPoint"]) == ("audio", "bed.wav", 3.0)
    assert layer["audio"] == {"level": 0, "muted": False}
    assert layer["content"]["speed"] == 100 and layer["content"]["loop"] is False


def test_audio_level_is_a_property_in_db_with_keys_and_muted_a_switch(tmp_path):
    engine = engine_with_comp()
    engine.run("layer.add", {"comp": "Main", "type": "audio", "name": "Bed",
                             "path": write_wav(tmp_path / "bed.wav", tone(1.0))})
    for time, level in ((0, -96), (1, 0)):
        engine.run("prop.addKey", {"comp": "Main", "layer": "Bed", "path": "audio.level",
                                   "time": time, "value": level})
    assert engine.run("prop.get", {"comp": "Main", "layer": "Bed", "path": "audio.level",
                                   "time": 0.5})["value"] == pytest.approx(-48)
    engine.run("prop.set", {"comp": "Main", "layer": "Bed", "path": "audio.muted",
                            "value": True})
    assert engine.doc["comps"][0]["layers"][0]["audio"]["muted"] is True
    with pytest.raises(CommandError, match="cannot be animated"):
        engine.run("prop.addKey", {"comp": "Main", "layer": "Bed", "path": "audio.muted",
                                   "time": 0, "value": False})
    with pytest.raises(CommandError, match=r"at most \+24"):
        engine.run("prop.set", {"comp": "Main", "layer": "Bed", "path": "audio.level",
                                "value": 60})


def test_layers_without_sound_have_no_audio_properties():
    engine = engine_with_comp()
    engine.run("layer.add", {"comp": "Main", "type": "solid", "name": "Red", "color": "#ff0000"})
    with pytest.raises(CommandError, match="has no property 'audio.level'"):
        engine.run("prop.set", {"comp": "Main", "layer": "Red", "path": "audio.level",
                                "value": -6})
    assert "audio" not in engine.doc["comps"][0]["layers"][0]


def test_video_and_precomp_layers_are_heard_and_take_audio_properties(tmp_path):
    engine = engine_with_comp()
    engine.run("comp.new", {"name": "Inner"})
    engine.run("layer.add", {"comp": "Main", "type": "precomp", "source": "Inner",
                             "name": "Nested"})
    engine.run("layer.add", {"comp": "Main", "type": "video", "name": "Talk",
                             "path": write_video_with_sound(tmp_path / "t.mp4", 15, 30,
                                                            tone(0.5))})
    for name in ("Nested", "Talk"):
        engine.run("prop.set", {"comp": "Main", "layer": name, "path": "audio.level",
                                "value": -6})
    assert [layer["audio"]["level"] for layer in engine.doc["comps"][0]["layers"]] == [-6, -6]


def test_footage_is_played_only_by_a_layer_that_can(tmp_path):
    engine = engine_with_comp()
    silent = write_video_with_sound(tmp_path / "mute.mp4", 10, 30, None)
    talking = write_video_with_sound(tmp_path / "talk.mp4", 10, 30, tone(0.4))
    sound = write_wav(tmp_path / "bed.wav", tone(0.4))
    with pytest.raises(CommandError, match="'mute.mp4' has no sound .*import a sound file"):
        engine.run("layer.add", {"comp": "Main", "type": "audio", "path": silent})
    with pytest.raises(CommandError, match="'bed.wav' is sound; show it with an audio layer"):
        engine.run("layer.add", {"comp": "Main", "type": "video", "path": sound})
    added = engine.run("layer.add", {"comp": "Main", "type": "audio", "path": talking})
    assert engine.run("layer.get", {"comp": "Main", "layer": added["layer"]})["type"] == "audio"
    with pytest.raises(CommandError, match="which an audio layer does not show"):
        engine.run("footage.replace", {"footage": "talk.mp4", "path": silent})


def test_doc_inspect_shows_audio_layers_and_which_comps_have_sound(tmp_path):
    engine = engine_with_comp()
    engine.run("comp.new", {"name": "Quiet", "audioSampleRate": 44100})
    engine.run("layer.add", {"comp": "Main", "type": "audio", "name": "Bed",
                             "path": write_wav(tmp_path / "bed.wav", tone(1.0))})
    overview = document_overview(engine)
    main, quiet = overview["comps"]
    assert (main["sound"], quiet["sound"], quiet["audioSampleRate"]) == (True, False, 44100)
    assert "audioSampleRate" not in main
    bed = main["layers"][0]
    assert (bed["type"], bed["audio"]) == ("audio", {"level": 0, "muted": False})
    footage = overview["footage"][0]
    assert (footage["kind"], footage["channels"], footage["sampleRate"]) == ("audio", 1, 48000)


def test_a_comp_sample_rate_is_one_of_the_rates_sound_is_mixed_at():
    engine = engine_with_comp()
    engine.run("comp.set", {"comp": "Main", "audioSampleRate": 96000})
    assert engine.doc["comps"][0]["audioSampleRate"] == 96000
    with pytest.raises(CommandError, match="audioSampleRate must be one of 8000"):
        engine.run("comp.set", {"comp": "Main", "audioSampleRate": 12345})


def test_a_layer_saved_before_sound_existed_loads_with_the_default_audio(tmp_path):
    engine = engine_with_comp()
    engine.run("comp.new", {"name": "Inner"})
    engine.run("layer.add", {"comp": "Main", "type": "precomp", "source": "Inner"})
    doc = json.loads(json.dumps(engine.doc))
    del doc["comps"][0]["layers"][0]["audio"]
    loaded = load_document(doc)
    assert loaded["comps"][0]["layers"][0]["audio"] == {"level": 0, "muted": False}
    doc["comps"][0]["layers"][0]["type"] = "null"
    doc["comps"][0]["layers"][0]["content"] = {}
    doc["comps"][0]["layers"][0]["audio"] = {"level": 0, "muted": False}
    with pytest.raises(DocumentError, match="a null layer has no sound"):
        load_document(doc)


@pytest.mark.parametrize("params,message", [
    ({"format": "gif", "audio": True}, "gif files carry no sound"),
    ({"format": "png", "audioCodec": "aac"}, "png files carry no sound"),
    ({"format": "vp9", "audioCodec": "aac"}, "audioCodec 'aac' .* use opus"),
    ({"format": "prores", "audioCodec": "pcm_s16le", "audioBitrate": "192k"},
     "pcm_s16le is uncompressed and has no bit rate"),
    ({"format": "h264", "audioBitrate": "2M"}, "outside what aac takes, 32k to 512k"),
    ({"format": "h264", "audioBitrate": "loud"}, "audioBitrate of .* must be a bit rate"),
    ({"format": "wav", "audio": False}, "a wav file is sound alone"),
    ({"format": "wav", "codecOptions": {"crf": "1"}}, "the wav format takes no codecOptions"),
])
def test_queue_audio_settings_the_format_cannot_take_are_refused(params, message):
    engine = engine_with_comp()
    with pytest.raises(CommandError, match=message):
        engine.run("renderQueue.add", {"comp": "Main", "output": "/out/x", **params})
    assert engine.doc["renderQueue"] == []


def test_queue_audio_settings_are_stored_only_when_given(tmp_path):
    engine = engine_with_comp()
    plain = engine.run("renderQueue.add", {"comp": "Main", "output": "/out/a.mp4"})
    chosen = engine.run("renderQueue.add", {"comp": "Main", "output": "/out/b.mov",
                                            "audioCodec": "pcm_s24le"})
    wav = engine.run("renderQueue.add", {"comp": "Main", "output": "/out/c.wav"})
    items = {item["id"]: item for item in engine.doc["renderQueue"]}
    assert not {"audio", "audioCodec", "audioBitrate"} & set(items[plain["item"]])
    assert items[chosen["item"]]["audioCodec"] == "pcm_s24le"
    assert wav["format"] == "wav"
    listed = {item["id"]: item["audio"] for item in engine.run("renderQueue.list")["items"]}
    # Nothing in Main sounds yet: only the wav carries the (silent) mix.
    assert listed == {plain["item"]: False, chosen["item"]: False, wav["item"]: True}
    engine.run("layer.add", {"comp": "Main", "type": "audio",
                             "path": write_wav(tmp_path / "bed.wav", tone(1.0))})
    listed = {item["id"]: item["audio"] for item in engine.run("renderQueue.list")["items"]}
    assert listed == {plain["item"]: True, chosen["item"]: True, wav["item"]: True}
    engine.run("renderQueue.set", {"item": plain["item"], "audio": False})
    engine.run("renderQueue.set", {"item": chosen["item"], "audioCodec": None})
    items = {item["id"]: item for item in engine.doc["renderQueue"]}
    assert items[plain["item"]]["audio"] is False and "audioCodec" not in items[chosen["item"]]
    with pytest.raises(CommandError, match="audioCodec 'pcm_s16le' of item.* use opus"):
        engine.run("renderQueue.set", {"item": wav["item"], "output": "/out/c.webm",
                                       "audioCodec": "pcm_s16le"})


def test_render_queue_formats_lists_the_sound_each_format_carries():
    formats = {entry["format"]: entry for entry in
               engine_with_comp().run("renderQueue.formats", {})["formats"]}
    codecs = {name: [codec["codec"] for codec in entry["audioCodecs"]]
              for name, entry in formats.items()}
    assert codecs == {"png": [], "jpeg": [], "tiff": [], "exr": [], "h264": ["aac"],
                      "hevc": ["aac"], "av1": ["aac"],
                      "prores": ["aac", "pcm_s16le", "pcm_s24le"], "vp9": ["opus"],
                      "gif": [], "wav": ["pcm_s16le", "pcm_s24le", "pcm_f32le"]}
    assert formats["h264"]["audioCodecs"][0]["defaultBitrate"] == 192000
    assert formats["wav"]["audioOnly"] is True and formats["wav"]["codecOptions"] == {}
