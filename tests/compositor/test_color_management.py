"""Colour management: frames of a project with colorManagement against OpenColorIO's own
processors for the same transforms, and a project without it drawn as before."""

import numpy as np
import PyOpenColorIO as ocio
import pytest

from tests.compositor.test_color_grading import picture_of
from tests.helpers.compositor_documents import comp, document, footage_item, layer, solid
from workers.compositor import render_frame
from workers.compositor.color_management import SCENE_LINEAR, ColorError, View

CONFIG = ocio.Config.CreateFromFile("ocio://cg-config-latest")
SDR = View("sRGB - Display", "ACES 2.0 - SDR 100 nits (Rec.709)")


def processed(source: np.ndarray, *transform) -> np.ndarray:
    """`source` through the config's own processor for `transform` (source and destination
    spaces, or a space, a display and a view)."""
    if len(transform) == 3:
        transform = (*transform, ocio.TRANSFORM_DIR_FORWARD)
    out = source.copy()
    CONFIG.getProcessor(*transform).getDefaultCPUProcessor().applyRGB(out)
    return out


def managed_footage(path: str, color_space: str, **settings) -> dict:
    drawn = comp("c", [layer("l", "image", {"footage": "f"})], width=8, height=8)
    drawn.update(settings)
    doc = document(drawn, footage=[footage_item("f", path, "image", 8, 8,
                                                colorSpace=color_space)])
    doc["colorManagement"] = {"config": "cg-config", "workingSpace": "ACEScg"}
    return doc


@pytest.mark.parametrize("space", ["ACEScct", "Gamma 2.4 Encoded Rec.709",
                                   "sRGB Encoded Rec.709 (sRGB)"])
def test_footage_in_its_colour_space_reaches_the_display_as_the_configs_processor_takes_it(
        tmp_path, space):
    rgb = np.random.default_rng(3).integers(0, 200, (8, 8, 3), dtype=np.uint8)
    path, source = picture_of(tmp_path, rgb)
    frame = render_frame(managed_footage(path, space, bitDepth="float"), "c", 0.0,
                         view=SDR).pixels
    expected = processed(source, space, SDR.display, SDR.view)
    assert np.abs(frame[..., :3] - expected).max() < 1e-4


def test_a_scene_linear_frame_holds_the_working_spaces_values(tmp_path):
    rgb = np.random.default_rng(5).integers(0, 256, (8, 8, 3), dtype=np.uint8)
    path, source = picture_of(tmp_path, rgb)
    frame = render_frame(managed_footage(path, "ACEScct", bitDepth="float"), "c", 0.0,
                         view=SCENE_LINEAR).pixels
    expected = processed(source, "ACEScct", "ACEScg")
    # Log footage's highlights are far above 1, and kept.
    assert expected.max() > 100
    assert np.allclose(frame[..., :3], expected, rtol=1e-5, atol=1e-6)


def test_srgb_colours_drawn_in_acescg_come_back_through_the_untonemapped_view():
    drawn = comp("c", [solid("s", (0.8, 0.3, 0.1, 1), 0, 0, 8, 8)], width=8, height=8)
    doc = document(drawn)
    doc["colorManagement"] = {"config": "cg-config"}
    scene = render_frame(doc, "c", 0.0, view=SCENE_LINEAR).pixels[4, 4, :3]
    # Skia turns the paint into ACEScg (a half-float surface at bitDepth 8) as OCIO does.
    expected = processed(np.array([[0.8, 0.3, 0.1]], np.float32),
                         "sRGB Encoded Rec.709 (sRGB)", "ACEScg")[0]
    assert np.allclose(scene, expected, atol=1e-3)
    shown = render_frame(doc, "c", 0.0, view=View("sRGB - Display", "Un-tone-mapped")).pixels
    assert np.allclose(shown[4, 4, :3], [0.8, 0.3, 0.1], atol=1e-3)
    # The config's default view is ACES's tone map, which darkens and softens the colour.
    toned = render_frame(doc, "c", 0.0).pixels[4, 4, :3]
    assert np.allclose(toned, processed(scene[None].astype(np.float32), "ACEScg", SDR.display,
                                        SDR.view)[0], atol=2e-3)
    assert toned[0] < 0.7


def test_a_name_the_config_does_not_have_fails_the_frame_in_one_sentence(tmp_path):
    path, _ = picture_of(tmp_path, np.zeros((8, 8, 3), np.uint8))
    with pytest.raises(ColorError, match="colorSpace 'Kodak 2383' is not a colour space of the "
                                         "config; it has sRGB - Display"):
        render_frame(managed_footage(path, "Kodak 2383"), "c", 0.0)
    with pytest.raises(ColorError, match="view 'Filmic' is not a view of display 'sRGB - "
                                         "Display'; it has ACES 2.0"):
        render_frame(managed_footage(path, "ACEScg"), "c", 0.0,
                     view=View("sRGB - Display", "Filmic"))


def test_a_log_working_space_is_refused_as_not_scene_linear(tmp_path):
    path, _ = picture_of(tmp_path, np.zeros((8, 8, 3), np.uint8))
    doc = managed_footage(path, "ACEScg")
    doc["colorManagement"]["workingSpace"] = "ACEScct"
    with pytest.raises(ColorError, match="workingSpace 'ACEScct' is not scene-linear"):
        render_frame(doc, "c", 0.0)


def test_without_colour_management_footage_colour_space_changes_nothing(tmp_path):
    rgb = np.random.default_rng(9).integers(0, 256, (8, 8, 3), dtype=np.uint8)
    path, _ = picture_of(tmp_path, rgb)
    doc = managed_footage(path, "ACEScct")
    del doc["colorManagement"]
    frame = render_frame(doc, "c", 0.0).pixels
    assert frame.dtype == np.uint8 and (frame[..., :3] == rgb).all()


CONFIG_TEXT = """ocio_profile_version: 2
search_path: {search}
roles:
  default: Linear Rec.709 (sRGB)
  scene_linear: Linear Rec.709 (sRGB)
displays:
  Screen:
    - !<View> {{name: Graded, colorspace: graded}}
colorspaces:
  - !<ColorSpace>
    name: Linear Rec.709 (sRGB)
  - !<ColorSpace>
    name: graded
    from_scene_reference: !<FileTransform> {{src: {src}, interpolation: tetrahedral}}
"""


def test_a_config_file_reads_its_luts_from_its_own_folder_and_nowhere_else(tmp_path):
    from tests.helpers.cube_luts import cube_table, write_cube
    from workers.compositor.color_management import ColorError, open_config

    write_cube(tmp_path / "look.cube", cube_table(4))
    good = tmp_path / "show.ocio"
    good.write_text(CONFIG_TEXT.format(search=".", src="look.cube"))
    config = open_config(str(good))
    assert config.getColorSpace("graded") is not None
    config.getProcessor("Linear Rec.709 (sRGB)", "graded")  # finds look.cube beside it
    for search, src in (("/etc", "look.cube"), (".", "../elsewhere/look.cube"),
                        (".", "/tmp/look.cube"), ("$HOME", "look.cube")):
        bad = tmp_path / "bad.ocio"
        bad.write_text(CONFIG_TEXT.format(search=search, src=src))
        with pytest.raises(ColorError, match="outside its own folder"):
            open_config(str(bad))
    (tmp_path / "linked").mkdir()
    (tmp_path / "linked" / "look.cube").symlink_to("/etc/hostname")
    linked = tmp_path / "linked.ocio"
    linked.write_text(CONFIG_TEXT.format(search="linked", src="look.cube"))
    with pytest.raises(ColorError, match="reads 'look.cube', a link out of its own folder"):
        open_config(str(linked))


def test_a_lut_a_config_file_names_but_lacks_is_one_sentence(tmp_path):
    from workers.compositor.color_management import ColorError, managed

    config = tmp_path / "show.ocio"
    config.write_text(CONFIG_TEXT.format(search=".", src="gone.cube"))
    document = {"colorManagement": {"config": str(config)}}
    with pytest.raises(ColorError, match="OpenColorIO cannot go from 'Linear Rec.709 \\(sRGB\\)' "
                                         "to \\('Screen', 'Graded'\\)"):
        managed(document).to_display(np.zeros((2, 2, 4), np.float32), View())
