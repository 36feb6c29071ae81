"""protocol/model/lottie_files.py's copy for the renderer: a font the file embeds (a data: URI
in `fPath`) stays, a font kept in another file is dropped and named."""

import json

from protocol.model.lottie_files import self_contained
from tests.helpers.lottie_documents import moving_square


def fonts(*paths):
    return {**moving_square(), "fonts": {"list": [
        {"fName": f"Font{i}", "fFamily": f"Family {i}", "fPath": path}
        for i, path in enumerate(paths)]}}


def test_an_embedded_font_reaches_the_renderer_and_a_font_file_does_not():
    data, dropped = self_contained(fonts("data:font/ttf;base64,AAEAAA==", "/fonts/a.ttf"), {})
    kept = json.loads(data)["fonts"]["list"]
    assert kept[0]["fPath"] == "data:font/ttf;base64,AAEAAA==" and "fPath" not in kept[1]
    assert dropped == ["font files (Family 1; text uses the glyphs the file embeds, if any)"]
