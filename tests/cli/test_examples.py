"""The committed examples are what their build scripts make with engine commands today, and
they open from a copy of the examples folder anywhere (as from a fresh clone)."""

import filecmp
import os
import shutil
import sys

import av
import pytest

from supervisor.engine.engine import Engine
from tests.helpers.cli_projects import ROOT, rendervisor
from tests.helpers.render_sessions import read_png

EXAMPLES = os.path.join(ROOT, "examples")
sys.path.insert(0, EXAMPLES)

import bench_project  # noqa: E402
import logo_reveal  # noqa: E402
import lower_third  # noqa: E402
import orbits  # noqa: E402
import remotion_equivalent  # noqa: E402
import speaker_cards  # noqa: E402
import title_card  # noqa: E402


def build_into(name, folder):
    if name == "title_card":
        return title_card.build(str(folder))
    if name == "logo_reveal":
        return logo_reveal.build(str(folder))
    if name == "orbits":
        return orbits.build(str(folder))
    if name == "speaker_cards":
        return speaker_cards.build(str(folder))
    if name == "remotion_equivalent":
        return remotion_equivalent.build(folder=str(folder))
    if name == "lower_third":
        # The committed clip: re-encoding it is slow and x264's bytes are not the point here.
        # The bed is written again: the wave module's bytes are the same everywhere.
        shutil.copy(os.path.join(EXAMPLES, lower_third.CLIP_NAME), folder)
        return lower_third.build(str(folder), clip=str(folder / lower_third.CLIP_NAME))
    return bench_project.write_bench_project(str(folder))[0]


EXAMPLES_BUILT = ["title_card", "lower_third", "bench", "logo_reveal", "speaker_cards",
                  "orbits", "remotion_equivalent"]


@pytest.mark.parametrize("name", EXAMPLES_BUILT)
def test_the_committed_project_is_what_its_build_script_makes(tmp_path, name):
    built = build_into(name, tmp_path)
    assert filecmp.cmp(built, os.path.join(EXAMPLES, f"{name}.rvproj"), shallow=False), \
        f"examples/{name}.rvproj is stale; run python examples/{name if name != 'bench' else 'bench_project'}.py"


@pytest.mark.parametrize("name", EXAMPLES_BUILT)
def test_a_copied_examples_folder_opens_with_its_footage_and_outputs_inside_it(tmp_path, name):
    copy = tmp_path / "elsewhere"
    shutil.copytree(EXAMPLES, copy, ignore=shutil.ignore_patterns("renders", "__pycache__"))
    engine = Engine(str(copy / f"{name}.rvproj"))
    assert "missingFootage" not in engine.run("project.info")
    for footage in engine.doc["footage"]:
        assert footage["path"].startswith(str(copy) + os.sep)
    for item in engine.doc["renderQueue"]:
        assert item["output"].startswith(str(copy / "renders") + os.sep)


def test_the_speaker_cards_csv_and_badges_are_what_the_script_makes(tmp_path):
    speaker_cards.build(str(tmp_path))
    assert (tmp_path / "speaker_cards.csv").read_text() == \
        open(os.path.join(EXAMPLES, "speaker_cards.csv")).read()
    for _name, _role, _accent, badge, _corners in speaker_cards.SPEAKERS:
        made = read_png(str(tmp_path / speaker_cards.BADGE_FOLDER / badge))
        committed = read_png(os.path.join(EXAMPLES, speaker_cards.BADGE_FOLDER, badge))
        assert made.shape == (240, 240, 4) and (made == committed).all(), badge


def test_the_speaker_cards_render_a_video_per_csv_row_from_a_copy(tmp_path):
    copy = tmp_path / "clone"
    shutil.copytree(EXAMPLES, copy, ignore=shutil.ignore_patterns("renders", "__pycache__"))
    result = rendervisor("render", copy / "speaker_cards.rvproj", "--data",
                         copy / "speaker_cards.csv", "--frames", "30-31", "--json")
    assert result.returncode == 0, result.stderr
    speakers = copy / "renders" / "speakers"
    names = [f"{row}_{name}.mp4" for row, (name, *_rest) in
             enumerate(speaker_cards.SPEAKERS, start=1)]
    assert sorted(os.listdir(speakers)) == sorted(names)
    for file, (_name, _role, accent, _badge, _corners) in zip(names, speaker_cards.SPEAKERS):
        with av.open(str(speakers / file)) as video:
            frames = [frame.to_ndarray(format="rgb24") for frame in video.decode(video=0)]
        assert len(frames) == 2 and frames[0].shape == (720, 1280, 3)
        bar = frames[0][360, 540].astype(int)  # the accent bar, grown full by frame 30
        want = [int(accent[i:i + 2], 16) for i in (1, 3, 5)]
        assert max(abs(bar - want)) < 24, (file, bar, want)


def test_the_lower_third_clip_is_small_and_three_seconds_long():
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


@pytest.mark.parametrize("name", ["title_card", "lower_third", "logo_reveal", "orbits"])
def test_an_example_renders_from_a_copy_of_the_folder_into_its_renders_folder(tmp_path, name):
    copy = tmp_path / "clone"
    shutil.copytree(EXAMPLES, copy, ignore=shutil.ignore_patterns("renders", "__pycache__"))
    result = rendervisor("render", copy / f"{name}.rvproj", "--frames", "30-31", "--json")
    assert result.returncode == 0, result.stderr
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
