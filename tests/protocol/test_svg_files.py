"""protocol/model/svg_files.py: what reaches the renderer names no other file, and what it will
not draw is named, one phrase each."""

import pytest

from protocol.model.svg_files import SvgError, read_svg, self_contained, unsupported

HEAD = b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'


def test_only_references_inside_the_file_reach_the_renderer():
    root = read_svg(HEAD + b'<image href="/secret/a.png"/><image xlink:href="b.png"/>'
                    b'<image href="data:image/png;base64,AAAA"/><use href="#x"/>'
                    b'<filter id="f"><feImage href="file:///c.png"/></filter>'
                    b'<a href="https://example.com"/></svg>')
    text, dropped = self_contained(root)
    assert b"secret" not in text and b"b.png" not in text and b"c.png" not in text
    assert b"data:image/png;base64,AAAA" in text and b'href="#x"' in text
    assert b"https://example.com" in text  # a link is never loaded
    assert dropped == ["3 references to other files (/secret/a.png, b.png, file:///c.png; not "
                       "drawn: footage is the one file it names, so embed images as data: "
                       "URIs)"]
    assert read_svg(HEAD + b'</svg>').tag.endswith("svg")  # the caller's tree is untouched
    assert root.find("{http://www.w3.org/2000/svg}image").get("href") == "/secret/a.png"


def test_entities_are_expanded_once_and_the_dtd_is_not_passed_on():
    text, dropped = self_contained(read_svg(
        b'<!DOCTYPE svg [<!ENTITY where "/secret/a.png">]>' + HEAD +
        b'<image href="&where;"/></svg>'))
    assert b"DOCTYPE" not in text and b"ENTITY" not in text and b"secret" not in text
    assert "/secret/a.png" in dropped[0]


@pytest.mark.parametrize("data, words", [
    (b"<svg xmlns='http://www.w3.org/2000/svg'><rect", "does not parse"),
    (b"<html/>", "root element is not <svg>"),
    (b'<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/hostname">]>' + HEAD + b'&x;</svg>',
     "does not parse"),
    (HEAD + b"<g>" * 600 + b"</g>" * 600 + b"</svg>", "nest more than 512 deep"),
])
def test_what_is_not_an_svg_is_one_fragment(data, words):
    with pytest.raises(SvgError, match=words):
        read_svg(data)


def test_what_resvg_does_not_draw_is_named():
    found = unsupported(read_svg(
        HEAD + b'<style>text { font-stretch: condensed }</style><animate/><foreignObject/>'
        b'<rect style="vector-effect: non-scaling-stroke" color-rendering="auto"/>'
        b'<filter><feBlend in="BackgroundImage"/></filter><rect/></svg>'))
    assert found == [
        "animation elements (SMIL; the first state is drawn, unmoving)",
        "<foreignObject> (HTML inside an SVG; not drawn)",
        "filter inputs from the background or the paint (BackgroundImage, FillPaint...; "
        "drawn as empty)",
        "the properties color-rendering, font-stretch, vector-effect (ignored)"]
    assert unsupported(read_svg(HEAD + b'<rect/><text>Hi</text></svg>')) == []
