"""The lut and grade effects: a LUT against its own table and against OpenColorIO's tetrahedral
lookup of the same file, a grade against its formula, in sRGB and in linear-light comps."""

import numpy as np
import PyOpenColorIO as ocio
import pytest
import skia

from tests.helpers.compositor_documents import comp, document, effect, footage_item, layer
from tests.helpers.cube_luts import cube_table, write_cube
from workers.compositor import render_frame
from workers.compositor.cube_files import LutError, parse_cube

SIZE = 6  # entries at k/5, which 8-bit pictures hold exactly (51 * k / 255)


def srgb_decode(x):
    return np.where(x <= 0.04045, x / 12.92, ((x + 0.055) / 1.055) ** 2.4)


def srgb_encode(x):
    return np.where(x <= 0.0031308, x * 12.92, 1.055 * np.abs(x) ** (1 / 2.4) - 0.055)


def picture_of(tmp_path, rgb: np.ndarray) -> tuple[str, np.ndarray]:
    """An opaque PNG of the 8-bit colours `rgb` (H x W x 3), and those colours as 0..1."""
    pixels = np.full(rgb.shape[:2] + (4,), 255, np.uint8)
    pixels[..., :3] = rgb
    path = str(tmp_path / "colors.png")
    skia.Image.fromarray(pixels, colorType=skia.kRGBA_8888_ColorType).save(path, skia.kPNG)
    return path, rgb.astype(np.float32) / 255.0


def looked_up(cube: str, source: np.ndarray,
              interpolation=ocio.INTERP_TETRAHEDRAL) -> np.ndarray:
    """`source` through OpenColorIO's own lookup of the .cube file."""
    out = source.copy()
    ocio.Config.CreateRaw().getProcessor(
        ocio.FileTransform(src=cube, interpolation=interpolation)
    ).getDefaultCPUProcessor().applyRGB(out)
    return out


def graded(path: str, size: tuple[int, int], effects: list, **settings) -> np.ndarray:
    """The picture at `path` under `effects`, in a comp of `settings` (bitDepth...)."""
    width, height = size
    drawn = comp("c", [layer("l", "image", {"footage": "f"}, effects=effects)],
                 width=width, height=height)
    drawn.update(settings)
    item = footage_item("f", path, "image", width, height)
    return render_frame(document(drawn, footage=[item]), "c", 0.0).pixels


def test_a_lut_gives_its_table_at_its_entries(tmp_path):
    table = cube_table(SIZE)
    cube = write_cube(tmp_path / "look.cube", table)
    codes = np.arange(SIZE) * 51
    red, green, blue = np.meshgrid(codes, codes, codes, indexing="ij")
    rgb = np.stack([red, green, blue], -1).reshape(SIZE * SIZE, SIZE, 3)
    path, _ = picture_of(tmp_path, rgb)
    frame = graded(path, (SIZE, SIZE * SIZE), [effect("fx", "lut", path=cube, amount=100)],
                   bitDepth="float")
    expected = table[rgb[..., 2] // 51, rgb[..., 1] // 51, rgb[..., 0] // 51]
    # Entries are kept to 1/65535 of the table's range.
    assert np.abs(frame[..., :3] - expected).max() < 2e-5


def test_a_lut_between_its_entries_is_the_tetrahedral_lookup_opencolorio_makes(tmp_path):
    cube = write_cube(tmp_path / "look.cube", cube_table(SIZE))
    rgb = np.random.default_rng(7).integers(0, 256, (24, 32, 3), dtype=np.uint8)
    path, source = picture_of(tmp_path, rgb)
    frame = graded(path, (32, 24), [effect("fx", "lut", path=cube, amount=100)],
                   bitDepth="float")
    assert np.abs(frame[..., :3] - looked_up(cube, source)).max() < 3e-5
    # and not a trilinear one, which differs inside the cells by far more
    trilinear = looked_up(cube, source, ocio.INTERP_LINEAR)
    assert np.abs(frame[..., :3] - trilinear).max() > 1e-3


def test_in_a_linear_light_comp_a_lut_looks_up_the_srgb_encoding_and_amount_mixes(tmp_path):
    cube = write_cube(tmp_path / "look.cube", cube_table(SIZE))
    rgb = np.random.default_rng(3).integers(0, 256, (8, 8, 3), dtype=np.uint8)
    path, source = picture_of(tmp_path, rgb)
    expected = looked_up(cube, source)
    linear = graded(path, (8, 8), [effect("fx", "lut", path=cube, amount=100)],
                    bitDepth="float", linearBlending=True)
    # The sRGB curve is taken there and back with Skia's pow, good to about 1e-4.
    assert np.abs(linear[..., :3] - expected).max() < 5e-4
    # At 25% the LUT's light is a quarter of the mix, in the comp's linear light.
    quarter = graded(path, (8, 8), [effect("fx", "lut", path=cube, amount=25)],
                     bitDepth="float", linearBlending=True)
    mixed = srgb_encode(0.75 * srgb_decode(source) + 0.25 * srgb_decode(expected))
    assert np.abs(quarter[..., :3] - mixed).max() < 5e-4


def test_an_8_bit_comp_gets_the_lut_within_a_level(tmp_path):
    cube = write_cube(tmp_path / "look.cube", cube_table(SIZE))
    rgb = np.random.default_rng(5).integers(0, 256, (8, 8, 3), dtype=np.uint8)
    path, source = picture_of(tmp_path, rgb)
    expected = looked_up(cube, source)
    frame = graded(path, (8, 8), [effect("fx", "lut", path=cube, amount=100)])
    assert frame.dtype == np.uint8
    assert np.abs(frame[..., :3].astype(int) - np.rint(np.clip(expected, 0, 1) * 255)).max() <= 1


def grade_formula(x, exposure=0.0, lift=0.0, gamma=1.0, gain=1.0, saturation=100.0):
    """docs/document.md's grade, on the values as the comp holds them (linear light in a
    linear-light comp, the sRGB codes in an sRGB one)."""
    x = x * 2.0 ** exposure
    x = np.asarray(lift) + (np.asarray(gain) - np.asarray(lift)) * x
    x = np.where(x > 0, np.maximum(x, 0) ** (1.0 / np.asarray(gamma)), x)
    luma = x @ np.array([0.2126, 0.7152, 0.0722])
    return luma[..., None] + saturation / 100.0 * (x - luma[..., None])


GRADE = {"exposure": 0.5, "lift": [0.02, 0.0, 0.05], "gamma": [1.2, 0.9, 1.0],
         "gain": [1.1, 0.95, 0.8], "saturation": 70}


def test_a_grade_follows_its_formula_on_the_values_of_an_srgb_comp(tmp_path):
    rgb = np.random.default_rng(11).integers(0, 256, (8, 8, 3), dtype=np.uint8)
    path, source = picture_of(tmp_path, rgb)
    frame = graded(path, (8, 8), [effect("fx", "grade", **GRADE)], bitDepth="float")
    expected = grade_formula(source, **GRADE)
    # Skia's pow (the gamma) is good to about 1e-4.
    assert np.abs(frame[..., :3] - expected).max() < 5e-4


def test_a_grade_in_a_linear_light_comp_works_on_light(tmp_path):
    rgb = np.random.default_rng(13).integers(0, 256, (8, 8, 3), dtype=np.uint8)
    path, source = picture_of(tmp_path, rgb)
    frame = graded(path, (8, 8), [effect("fx", "grade", **GRADE)], bitDepth="float",
                   linearBlending=True)
    # One stop more is twice the light, not twice the code.
    expected = srgb_encode(grade_formula(srgb_decode(source), **GRADE))
    assert np.abs(frame[..., :3] - expected).max() < 5e-4
    eight = graded(path, (8, 8), [effect("fx", "grade", **GRADE)])
    assert np.abs(eight[..., :3] / 255.0 - np.clip(grade_formula(source, **GRADE), 0, 1)).max() \
        <= 1 / 255 + 1e-6


@pytest.mark.parametrize("text,message", [
    ("LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 abc\n1 1 1\n",
     "line 8: '0 1 abc' are not all numbers"),
    ("LUT_1D_SIZE 4\n", "line 1: it is a 1D LUT"),
    ("0 0 0\n", "line 1: an entry comes before LUT_3D_SIZE"),
    ("LUT_3D_SIZE 200\n", r"line 1: LUT_3D_SIZE is a whole number from 2 to 65, not '200'"),
    ("LUT_3D_SIZE 2\n0 0 0\n", "has 1 entries where LUT_3D_SIZE 2 needs 8"),
    ("# no size\nTITLE x\n", "has no LUT_3D_SIZE line"),
    ("LUT_3D_SIZE 2\nGAMMA 2\n", "line 2: 'GAMMA' is not a .cube keyword or an entry"),
])
def test_a_bad_cube_file_is_one_sentence_naming_its_line(text, message):
    with pytest.raises(LutError, match=message) as caught:
        parse_cube(text.encode(), "/luts/bad.cube")
    assert str(caught.value).startswith("the LUT file /luts/bad.cube ")
    assert str(caught.value).endswith("export it again as a 3D .cube LUT (LUT_3D_SIZE 2 to 65).")


def test_a_bad_lut_fails_the_frame_with_its_sentence(tmp_path):
    bad = tmp_path / "bad.cube"
    bad.write_text("LUT_3D_SIZE 2\n0 0 0\nnan 0 0\n")
    path, _ = picture_of(tmp_path, np.zeros((2, 2, 3), np.uint8))
    with pytest.raises(LutError, match="line 3: 'nan 0 0' holds a value that is not finite"):
        graded(path, (2, 2), [effect("fx", "lut", path=str(bad), amount=100)])
