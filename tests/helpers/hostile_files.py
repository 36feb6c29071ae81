"""Files built to break the program reading them, made by the tests that send them: an SVG
nested deeper than Skia's parser's stack, an SVG of 1.5 million rectangles, and WOFF2 fonts
that declare or inflate to gigabytes."""

from __future__ import annotations

import functools
import io
import os
import struct

import brotli
import rendercv_fonts

# The cases: 100,000 nested groups (700 kB) crashed the server with signal 11, and a
# 60 MB SVG of 1.5 million rectangles held it for half a minute.
DEEP_GROUPS = 100_000
MANY_RECTS = 1_500_000


def deep_svg(path, depth: int = DEEP_GROUPS) -> str:
    with open(path, "w") as handle:
        handle.write('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">')
        handle.write("<g>" * depth + "</g>" * depth + "</svg>")
    return str(path)


def big_svg(path, rects: int = MANY_RECTS) -> str:
    with open(path, "w") as handle:
        handle.write('<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000">')
        row = "".join(f'<rect x="{i % 1000}" y="{i % 997}" width="3" height="4"/>'
                      for i in range(1000))
        for _ in range(rects // 1000):
            handle.write(row)
        handle.write("</svg>")
    return str(path)


@functools.lru_cache(maxsize=1)
def real_woff2() -> bytes:
    """The smallest bundled font saved as WOFF2 by fontTools."""
    from fontTools.ttLib import TTFont
    folder = os.path.dirname(rendercv_fonts.__file__)
    source = min((os.path.join(root, name) for root, _, names in os.walk(folder)
                  for name in names if name.lower().endswith(".ttf")),
                 key=lambda path: (os.path.getsize(path), path))
    font = TTFont(source)
    font.flavor = "woff2"
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _stream_start(raw: bytes) -> int:
    """Where a WOFF2 file's compressed stream starts (the file ends with it, perhaps padded)."""
    compressed = struct.unpack_from(">I", raw, 20)[0]
    for padding in range(4):
        start = len(raw) - padding - compressed
        try:
            brotli.decompress(raw[start:start + compressed])
            return start
        except brotli.error:
            continue
    raise ValueError("no WOFF2 stream found")


def woff2_bomb(path, inflated: int = 1 << 30) -> str:
    """A real WOFF2 whose stream is swapped for `inflated` bytes of zeros, brotli-packed (1 GiB
    packs to about 200 kB); its header and tables still declare the font's own small sizes."""
    raw = real_woff2()
    start = _stream_start(raw)
    packer = brotli.Compressor(quality=1)
    chunk = b"\0" * (1 << 24)
    stream = b"".join(packer.process(chunk) for _ in range(inflated // len(chunk)))
    stream += packer.finish()
    bomb = bytearray(raw[:start] + stream)
    struct.pack_into(">I", bomb, 8, len(bomb))  # length
    struct.pack_into(">I", bomb, 20, len(stream))  # totalCompressedSize
    with open(path, "wb") as handle:
        handle.write(bomb)
    return str(path)


def woff2_declaring(path, total: int) -> str:
    """A real WOFF2 whose header declares `total` bytes of plain font (totalSfntSize)."""
    raw = bytearray(real_woff2())
    struct.pack_into(">I", raw, 16, total)
    with open(path, "wb") as handle:
        handle.write(raw)
    return str(path)
