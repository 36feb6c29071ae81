"""Text in every script the bundled fonts cover: shaped (joined, reordered, stacked), drawn
with ink, and placed with kerning and ligatures, checked against independent shapers."""

import os

import numpy as np
import pytest
import rendercv_fonts
import skia
import uharfbuzz as hb

from tests.helpers.compositor_documents import comp, document, text
from workers.compositor import render_frame

FONTS = os.path.dirname(rendercv_fonts.__file__)
LATO = os.path.join(FONTS, "Lato", "Lato-Regular.ttf")
GARAMOND = os.path.join(FONTS, "EB Garamond", "EBGaramond-Regular.ttf")

# One line of each script the fallback must cover without any system font.
SCRIPTS = {
    "arabic": "مرحبا بالعالم",
    "hebrew": "שלום עולם",
    "thai": "สวัสดีครับ",
    "devanagari": "नमस्ते दुनिया",
    "bengali": "ওহে বিশ্ব",
    "tamil": "வணக்கம் உலகம்",
    "telugu": "హలో ప్రపంచం",
    "gujarati": "નમસ્તે વિશ્વ",
    "gurmukhi": "ਸਤਿ ਸ੍ਰੀ ਅਕਾਲ",
    "kannada": "ನಮಸ್ಕಾರ ಜಗತ್ತು",
    "malayalam": "ഹലോ ലോകം",
    "chinese": "你好，世界",
    "japanese": "こんにちは世界",
    "korean": "안녕하세요 세계",
    "symbols": "☀ ☂ ⚓ ✓ → ∞ ★ ♫",
    "emoji": "😀🎉👍🏽",
}


def frame(*layers, width=480, height=120, time=0.0):
    doc = document(comp("c", list(layers), width=width, height=height))
    return render_frame(doc, "c", time).pixels


def ink(pixels: np.ndarray) -> np.ndarray:
    return pixels[..., :3].max(axis=2) > 0


def extent(mask: np.ndarray) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(mask)
    return xs.min(), ys.min(), xs.max() + 1, ys.max() + 1


def harfbuzz_width(path: str, words: str, size: float, features=None) -> float:
    """The line's advance by HarfBuzz itself, from the font file (default features)."""
    face = hb.Face(hb.Blob.from_file_path(path))
    font = hb.Font(face)
    buffer = hb.Buffer()
    buffer.add_str(words)
    buffer.guess_segment_properties()
    hb.shape(font, buffer, features or {})
    return sum(p.x_advance for p in buffer.glyph_positions) * size / face.upem


def paragraph_width(path: str, words: str, size: float) -> float:
    """The line's width by Skia's own paragraph shaper (SkParagraph), another implementation."""
    tl = skia.textlayout
    provider = tl.TypefaceFontProvider()
    provider.registerTypeface(skia.FontMgr.New_Custom_Empty().makeFromFile(path, 0), "F")
    fonts = tl.FontCollection()
    fonts.setDefaultFontManager(provider)
    style = tl.TextStyle()
    style.setFontSize(size)
    style.setFontFamilies(["F"])
    paragraph_style = tl.ParagraphStyle()
    paragraph_style.setTextStyle(style)
    builder = tl.ParagraphBuilder.make(paragraph_style, fonts, skia.Unicode.ICU_Make())
    builder.pushStyle(style)
    builder.addText(words)
    paragraph = builder.Build()
    paragraph.layout(10000)
    return paragraph.LongestLine


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_every_script_renders_with_ink_and_no_error(script):
    # Arabic, Hebrew, Thai and emoji used to fail every frame of the comp with a TypeError
    # from the fallback lookup; the others drew as empty boxes or in the wrong order.
    pixels = frame(text("t", SCRIPTS[script], 240, 60, size=40, font="Roboto"))
    mask = ink(pixels)
    assert mask.sum() > 150
    x0, y0, x1, y1 = extent(mask)
    assert x1 - x0 > 40


def test_no_script_draws_the_missing_glyph_box():
    from workers.compositor.text_layout import lay_out
    for script, words in SCRIPTS.items():
        layout = lay_out({"text": words, "font": "Roboto", "size": 40})
        assert layout.missing == (), f"{script}: no face for {layout.missing}"


def test_emoji_are_drawn_in_color():
    pixels = frame(text("t", "😀🎉", 240, 60, size=60, fill=[1, 1, 1, 1]))
    rgb = pixels[..., :3].astype(int)
    saturated = (rgb.max(axis=2) - rgb.min(axis=2)) > 80
    assert saturated.sum() > 500


def test_kerning_closes_up_avav_as_harfbuzz_does():
    size = 100
    pixels = frame(text("t", "AVAVAVAV", 20, 60, size=size, font="Lato", align="left"),
                   width=640, height=120)
    x0, _, x1, _ = extent(ink(pixels))
    kerned = harfbuzz_width(LATO, "AVAVAVAV", size)
    unkerned = harfbuzz_width(LATO, "AVAVAVAV", size, {"kern": False})
    assert kerned < unkerned - 30  # the font kerns this pair hard
    assert paragraph_width(LATO, "AVAVAVAV", size) == pytest.approx(kerned, abs=0.01)
    # The ink spans the kerned advance, less the side bearings of the first and last glyph.
    assert (x1 - x0) == pytest.approx(kerned, abs=6)
    assert (x1 - x0) < unkerned - 30


def test_ligatures_are_formed_as_harfbuzz_forms_them():
    from workers.compositor.text_layout import lay_out
    layout = lay_out({"text": "office affine", "font": "EB Garamond", "size": 60})
    expected = harfbuzz_width(GARAMOND, "office affine", 60)
    without = harfbuzz_width(GARAMOND, "office affine", 60, {"liga": False})
    assert expected < without
    assert layout.lines[0].width == pytest.approx(expected, abs=0.01)
    assert paragraph_width(GARAMOND, "office affine", 60) == pytest.approx(expected, abs=0.01)
    # Fewer glyphs than characters: "ffi" and "ff" became one glyph each.
    assert len(layout.glyphs) < len("office affine")


def test_devanagari_vowel_sign_i_is_drawn_before_its_consonant():
    # कि is KA then the vowel sign I, which is drawn to the LEFT of KA: shaped, the glyph for
    # the sign comes first; placed in character order it would follow KA.
    from workers.compositor.text_layout import lay_out
    layout = lay_out({"text": "कि", "font": "Roboto", "size": 60})
    face = hb.Face(hb.Blob.from_file_path(layout.fonts[layout.glyphs[0].font].path))
    font = hb.Font(face)
    buffer = hb.Buffer()
    buffer.add_str("कि")
    buffer.guess_segment_properties()
    hb.shape(font, buffer, {})
    assert [g.gid for g in layout.glyphs] == [info.codepoint for info in buffer.glyph_infos]
    assert layout.glyphs[0].x < layout.glyphs[1].x


def test_arabic_letters_join_into_fewer_wider_forms_than_isolated():
    from workers.compositor.text_layout import lay_out
    joined = lay_out({"text": "سلام", "font": "Roboto", "size": 60})
    isolated = lay_out({"text": "س ل ا م", "font": "Roboto", "size": 60})
    joined_ids = {g.gid for g in joined.glyphs}
    isolated_ids = {g.gid for g in isolated.glyphs}
    assert joined_ids != isolated_ids - {isolated.glyphs[1].gid}  # contextual forms differ


def test_right_to_left_text_reads_from_the_right():
    from workers.compositor.text_layout import lay_out
    layout = lay_out({"text": "שלום", "font": "Roboto", "size": 60})
    # The first character (shin) is the rightmost glyph.
    first = next(g for g in layout.glyphs if g.grapheme == 0)
    assert first.x == max(g.x for g in layout.glyphs)


def test_mixed_direction_line_keeps_latin_runs_left_to_right():
    from workers.compositor.text_layout import lay_out
    layout = lay_out({"text": "abc שלום def", "font": "Roboto", "size": 40,
                      "direction": "ltr"})
    by_grapheme = {g.grapheme: g.x for g in layout.glyphs}
    assert by_grapheme[0] < by_grapheme[1] < by_grapheme[2] < by_grapheme[4]
    assert by_grapheme[4] > by_grapheme[7]  # Hebrew reversed
    assert by_grapheme[7] < by_grapheme[9] < by_grapheme[10]
    rtl = lay_out({"text": "abc שלום def", "font": "Roboto", "size": 40, "direction": "rtl"})
    by_grapheme = {g.grapheme: g.x for g in rtl.glyphs}
    assert by_grapheme[9] < by_grapheme[0]  # "def" is left of "abc" in a right-to-left line
