"""WOFF and WOFF2 fonts become plain OpenType only when what they declare, and what they really
inflate to, stays within bounds: real fonts compressed by fontTools read back to the same faces;
a font declaring gigabytes is refused before anything is inflated, and one whose compressed data
inflates past what it declares is stopped a step past its declared size."""

import io
import struct
import zlib

import pytest
import skia
from fontTools.ttLib import TTFont

from tests.helpers.hostile_files import real_woff2, woff2_bomb, woff2_declaring
from workers.compositor.compressed_fonts import MAX_INFLATED_FONT_BYTES, NotAFont, opentype_bytes


def faces(data: bytes) -> list[str]:
    manager = skia.FontMgr.New_Custom_Empty()
    typeface = manager.makeFromData(skia.Data.MakeWithCopy(data), 0)
    return [typeface.getFamilyName()] if typeface is not None else []


def woff_of(woff2: bytes) -> bytes:
    font = TTFont(io.BytesIO(woff2))
    font.flavor = "woff"
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def test_real_woff_and_woff2_fonts_read_back_to_their_faces():
    woff2 = real_woff2()
    plain = opentype_bytes(woff2)
    assert plain[:4] in (b"\x00\x01\x00\x00", b"OTTO")
    assert faces(plain) and faces(plain) == faces(opentype_bytes(woff_of(woff2)))
    assert opentype_bytes(plain) == plain  # plain OpenType passes as it is


def test_a_woff2_declaring_gigabytes_is_refused_before_inflating(tmp_path):
    with open(woff2_declaring(tmp_path / "huge.woff2", 3 << 30), "rb") as handle:
        raw = handle.read()
    with pytest.raises(NotAFont, match="declares 3,221,225,472 bytes unpacked, more than the "
                                       f"{MAX_INFLATED_FONT_BYTES >> 20} MiB"):
        opentype_bytes(raw)


def test_a_woff2_stream_inflating_past_its_declared_size_is_stopped(tmp_path):
    with open(woff2_bomb(tmp_path / "bomb.woff2", 16 << 20), "rb") as handle:
        raw = handle.read()
    with pytest.raises(NotAFont, match="unpacks to more than"):
        opentype_bytes(raw)


def test_a_woff_table_inflating_past_its_declared_length_is_stopped():
    woff = bytearray(woff_of(real_woff2()))
    count = struct.unpack_from(">H", woff, 12)[0]
    entries = [44 + 20 * index for index in range(count)]
    # The largest table's data swapped for 16 MiB of zeros, deflated; its lengths as they were
    # but the compressed one.
    entry = max(entries, key=lambda at: struct.unpack_from(">I", woff, at + 12)[0])
    bomb = zlib.compress(b"\0" * (16 << 20), 9)  # about 16 kB
    struct.pack_into(">II", woff, entry + 4, len(woff), len(bomb))
    woff += bomb
    struct.pack_into(">I", woff, 8, len(woff))
    with pytest.raises(NotAFont, match="unpacks to more than"):
        opentype_bytes(bytes(woff))
