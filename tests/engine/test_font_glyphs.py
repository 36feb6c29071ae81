"""font.glyphs: an icon found by its name in the bundled Font Awesome, drawn by the character
it gives; the names come from the font files themselves, so they need nothing from outside."""

from __future__ import annotations

import pytest

from supervisor.errors import CommandError
from tests.helpers.engine_projects import engine_with_comp
from workers.compositor import render_frame


def test_an_icon_is_found_by_name_and_draws_with_the_character_given():
    engine = engine_with_comp(width=200, height=200, background="#000000")
    found = engine.run("font.glyphs", {"family": "Font Awesome 7 Free", "search": "House"})
    house = found["glyphs"][0]
    assert house == {"name": "house", "codepoint": "U+F015", "text": "\uf015",
                     "weights": [400, 900]}
    assert all("house" in glyph["name"] for glyph in found["glyphs"])
    added = engine.run("layer.add", {"comp": "Main", "type": "text", "text": house["text"],
                                     "font": "Font Awesome 7 Free", "weight": 900,
                                     "size": 120})
    assert "warnings" not in added  # drawn by the icon font itself, no fallback
    lit = (render_frame(engine.doc, "Main", 0).pixels[..., 0] > 128).sum()
    assert lit > 3000  # a solid house about 120 px across


def test_search_words_narrow_and_brands_are_there_too():
    engine = engine_with_comp()
    arrows = engine.run("font.glyphs", {"family": "Font Awesome 7 Free",
                                        "search": "arrow right"})
    assert arrows["count"] == len(arrows["glyphs"]) > 3
    assert all("arrow" in g["name"] and "right" in g["name"] for g in arrows["glyphs"])
    github = engine.run("font.glyphs", {"family": "Font Awesome 7 Brands", "search": "github"})
    assert github["glyphs"][0]["name"] == "github"
    every = engine.run("font.glyphs", {"family": "Font Awesome 7 Free"})
    assert every["count"] > 1000 and len(every["glyphs"]) == 200


def test_a_family_that_is_not_bundled_is_refused_with_where_to_look():
    with pytest.raises(CommandError, match="font.list lists them"):
        engine_with_comp().run("font.glyphs", {"family": "No Such Icons"})
