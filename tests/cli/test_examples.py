"""The committed examples are what their build scripts make with engine commands today, and
they open from a copy of the examples folder anywhere (as from a fresh clone)."""

import filecmp
import os
import shutil
import sys

import pytest

from supervisor.engine.engine import Engine
from tests.helpers.cli_projects import ROOT

EXAMPLES = os.path.join(ROOT, "examples")
sys.path.insert(0, EXAMPLES)

import bench_project  # noqa: E402
import logo_reveal  # noqa: E402
import lower_third  # noqa: E402
import title_card  # noqa: E402


def build_into(name, folder):
    if name == "title_card":
        return title_card.build(str(folder))
    if name == "logo_reveal":
        return logo_reveal.build(str(folder))
    if name == "lower_third":
        # The committed clip: re-encoding it is slow and x264's bytes are not the point here.
        # The bed is written again: the wave module's bytes are the same everywhere.
        shutil.copy(os.path.join(EXAMPLES, lower_third.CLIP_NAME), folder)
        return lower_third.build(str(folder), clip=str(folder / lower_third.CLIP_NAME))
    return bench_project.write_bench_project(str(folder))[0]


@pytest.mark.parametrize("name", ["title_card", "lower_third", "bench", "logo_reveal"])
def test_the_committed_project_is_what_its_build_script_makes(tmp_path, name):
    built = build_into(name, tmp_path)
    assert filecmp.cmp(built, os.path.join(EXAMPLES, f"{name}.rvproj"), shallow=False), \
        f"examples/{name}.rvproj is stale; run python examples/{name if name != 'bench' else 'bench_project'}.py"


@pytest.mark.parametrize("name", ["title_card", "lower_third", "bench", "logo_reveal"])
def test_a_copied_examples_folder_opens_with_its_footage_and_outputs_inside_it(tmp_path, name):
    copy = tmp_path / "elsewhere"
    shutil.copytree(EXAMPLES, copy, ignore=shutil.ignore_patterns("renders", "__pycache__"))
    engine = Engine(str(copy / f"{name}.rvproj"))
    assert "missingFootage" not in engine.run("project.info")
    for footage in engine.doc["footage"]:
        assert footage["path"].startswith(str(copy) + os.sep)
    for item in engine.doc["renderQueue"]:
        assert item["output"].startswith(str(copy / "renders") + os.sep)


def test_the_lower_third_clip_is_small_and_three_seconds_long():
    import av
    path = os.path.join(EXAMPLES, lower_third.CLIP_NAME)
    assert os.path.getsize(path) < 300_000
    with av.open(path) as container:
        stream = container.streams.video[0]
        assert (stream.width, stream.height, stream.frames) == (640, 360, 90)


def test_the_lower_third_bed_is_what_its_script_writes_and_small(tmp_path):
    written = lower_third.write_bed(str(tmp_path / lower_third.BED_NAME))
    committed = os.path.join(EXAMPLES, lower_third.BED_NAME)
    assert filecmp.cmp(written, committed, shallow=False), \
        "examples/lower_third_bed.wav is stale; run python examples/lower_third.py"
    assert os.path.getsize(committed) < 200_000


def test_the_lower_third_renders_with_its_bed_fading_in_under_the_picture(tmp_path):
    import numpy as np
    from tests.helpers.cli_projects import rendervisor
    from tests.helpers.sound_files import decode_sound, rms
    copy = tmp_path / "clone"
    shutil.copytree(EXAMPLES, copy, ignore=shutil.ignore_patterns("renders", "__pycache__"))
    result = rendervisor("render", copy / "lower_third.rvproj", "--format", "wav", "--output",
                         copy / "renders" / "bed.wav")
    assert result.returncode == 0, result.stderr
    sound, rate = decode_sound(copy / "renders" / "bed.wav")
    assert (sound.shape, rate) == ((2, 3 * 48000), 48000)
    tenths = [rms(sound[:, i * 4800:(i + 1) * 4800]) for i in range(30)]
    assert tenths[0] < 0.001 and tenths[0] < tenths[3] < tenths[6] < tenths[9], "fades in"
    assert tenths[24] > tenths[27] > tenths[29], "and out"
    assert np.abs(sound).max() < 1.0


@pytest.mark.parametrize("name", ["title_card", "lower_third", "logo_reveal"])
def test_an_example_renders_from_a_copy_of_the_folder_into_its_renders_folder(tmp_path, name):
    from tests.helpers.cli_projects import rendervisor
    copy = tmp_path / "clone"
    shutil.copytree(EXAMPLES, copy, ignore=shutil.ignore_patterns("renders", "__pycache__"))
    result = rendervisor("render", copy / f"{name}.rvproj", "--frames", "30-31", "--json")
    assert result.returncode == 0, result.stderr
    import av
    with av.open(str(copy / "renders" / f"{name}.mp4")) as video:
        frames = list(video.decode(video=0))
    assert len(frames) == 2 and (frames[0].width, frames[0].height) == (1280, 720)


def test_the_title_card_subtitle_is_kerned_and_rises_word_by_word():
    from tests.compositor.test_text_scripts import harfbuzz_width
    from workers.compositor.fonts import family_faces
    from workers.compositor.text_layout import lay_out
    engine = Engine(os.path.join(EXAMPLES, "title_card.rvproj"))
    subtitle = next(layer for layer in engine.doc["comps"][0]["layers"]
                    if layer["name"] == "Subtitle")
    content = subtitle["content"]
    (animator,) = content["animators"]
    assert animator["unit"] == "word" and set(animator["properties"]) == {"opacity", "position"}
    words = content["text"]
    lato = next(face.path for face in family_faces("Lato") if face.weight == 400
                and not face.italic)
    tracked = content["tracking"] * (len(words) - 1)
    kerned = harfbuzz_width(lato, words, content["size"]) + tracked
    unkerned = harfbuzz_width(lato, words, content["size"], {"kern": False}) + tracked
    assert lay_out(content).lines[0].width == pytest.approx(kerned, abs=0.01)
    assert kerned < unkerned - 1
