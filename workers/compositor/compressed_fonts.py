"""WOFF and WOFF2 fonts as plain OpenType bytes, with what they inflate to bounded before it is
inflated.

Neither Skia's FreeType nor HarfBuzz reads compressed fonts, so fontTools unpacks them. Left to
itself, fontTools inflates a WOFF table or a WOFF2 stream whole and only then compares it with
the size the file declares: 585 kB of WOFF2 can declare a few kilobytes and inflate to 3 GiB. So
first the declared sizes are read from the header and table directory and refused past
MAX_INFLATED_FONT_BYTES, then each compressed part is inflated here, in steps, never past what it
declares; only a file whose parts inflate to exactly what they declare reaches fontTools, which
then cannot inflate more.

Pure: bytes in, bytes out. Errors are NotAFont with a phrase that follows the font's name.
"""

from __future__ import annotations

import io
import struct
import zlib

import brotli

from protocol.model.limits import MAX_FONT_BYTES

# The most a compressed font may declare, and inflate, to (protocol/model/limits.py says why).
MAX_INFLATED_FONT_BYTES = MAX_FONT_BYTES
WOFF_MAGIC = (b"wOFF", b"wOF2")
_STEP = 1 << 20  # bytes inflated at a time
# WOFF2's known table tags by index (the spec's table), as far as the two that differ:
_GLYF, _LOCA = 10, 11


class NotAFont(ValueError):
    """A file that no face can be read from; the message says what it is instead."""


def opentype_bytes(raw: bytes) -> bytes:
    """A WOFF or WOFF2 font as plain OpenType bytes; any other bytes as they are."""
    if raw[:4] not in WOFF_MAGIC:
        return raw
    try:
        (_check_woff2 if raw[:4] == b"wOF2" else _check_woff)(raw)
    except (struct.error, IndexError, zlib.error, brotli.error) as error:
        raise NotAFont(f"is a damaged {_flavor(raw)} font ({error or 'cut short'})") from None
    from fontTools.ttLib import TTFont
    try:
        font = TTFont(io.BytesIO(raw), recalcBBoxes=False, recalcTimestamp=False)
        font.flavor = None
        out = io.BytesIO()
        font.save(out, reorderTables=False)
    except Exception as error:  # fontTools raises many kinds for a broken file
        raise NotAFont(f"is a damaged {_flavor(raw)} font ({error})") from None
    return out.getvalue()


def _flavor(raw: bytes) -> str:
    return "WOFF2" if raw[:4] == b"wOF2" else "WOFF"


def _refuse_declared(raw: bytes, declared: int) -> None:
    if declared > MAX_INFLATED_FONT_BYTES:
        raise NotAFont(f"is a {_flavor(raw)} font that declares {declared:,} bytes unpacked, "
                       f"more than the {MAX_INFLATED_FONT_BYTES >> 20} MiB any font needs")


def _check_woff(raw: bytes) -> None:
    """Every table of a WOFF file inflates to its declared length, within the limit."""
    count, _, total = struct.unpack_from(">HHI", raw, 12)
    tables = [struct.unpack_from(">4sIIII", raw, 44 + 20 * index) for index in range(count)]
    _refuse_declared(raw, max(total, sum(table[3] for table in tables)))
    for _, offset, compressed, original, _ in tables:
        if compressed < original:
            _inflate_exactly(zlib.decompressobj(), raw[offset:offset + compressed], original,
                             lambda engine, data, room: engine.decompress(data, room)
                             if data else engine.decompress(engine.unconsumed_tail, room))


def _check_woff2(raw: bytes) -> None:
    """The WOFF2 stream inflates to exactly its tables' declared lengths, within the limit."""
    flavor, _, count, _, total, compressed = struct.unpack_from(">4sIHHII", raw, 4)
    at, stream_size, declared = 48, 0, 0
    for _ in range(count):
        flags = raw[at]
        at += 1
        index, version = flags & 0x3F, flags >> 6
        tag = None
        if index == 0x3F:
            tag, at = raw[at:at + 4], at + 4
        original, at = _base128(raw, at)
        declared += original
        glyf_or_loca = index in (_GLYF, _LOCA) or tag in (b"glyf", b"loca")
        transformed = version == 0 if glyf_or_loca else version != 0
        if transformed:
            length, at = _base128(raw, at)
        else:
            length = original
        stream_size += length
    if flavor == b"ttcf":
        at += 4  # the collection's version
        fonts, at = _uint255(raw, at)
        for _ in range(fonts):
            tables, at = _uint255(raw, at)
            at += 4  # its flavor
            for _ in range(tables):
                _, at = _uint255(raw, at)
    _refuse_declared(raw, max(total, declared, stream_size))
    _inflate_exactly(brotli.Decompressor(), raw[at:at + compressed], stream_size,
                     lambda engine, data, room: engine.process(data, output_buffer_limit=room))


def _inflate_exactly(engine, data: bytes, expected: int, step) -> None:
    """Inflate `data` with `engine` a step at a time; NotAFont unless it gives `expected` bytes
    (stopping as soon as it gives more)."""
    produced = len(step(engine, data, _STEP))
    while produced <= expected:
        more = len(step(engine, b"", _STEP))
        if not more:
            break
        produced += more
    if produced != expected:
        raise NotAFont(f"is a damaged font: a compressed part unpacks to "
                       f"{'more than ' if produced > expected else ''}{produced:,} bytes, not "
                       f"the {expected:,} it declares")


def _base128(raw: bytes, at: int) -> tuple[int, int]:
    """WOFF2's UIntBase128 at `at`: (value, where the next field starts)."""
    value = 0
    for index in range(5):
        byte = raw[at + index]
        if index == 0 and byte == 0x80:
            raise NotAFont("is a damaged WOFF2 font (a length with a leading zero)")
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value, at + index + 1
    raise NotAFont("is a damaged WOFF2 font (a length longer than five bytes)")


def _uint255(raw: bytes, at: int) -> tuple[int, int]:
    """WOFF2's 255UInt16 at `at`: (value, where the next field starts)."""
    code = raw[at]
    if code == 253:
        return struct.unpack_from(">H", raw, at + 1)[0], at + 3
    if code == 255:
        return raw[at + 1] + 253, at + 2
    if code == 254:
        return raw[at + 1] + 506, at + 2
    return code, at + 1
