"""The largest input rendervisor takes, one named limit for each way a small request could ask
for unbounded memory or time; docs/document.md ("Limits") is the same table in words.

Each limit is far past what a real project holds, so a person never meets one, and small enough
that an input at the limit costs a preview or an edit a fraction of a second and the session
megabytes, not gigabytes. The schema (protocol/model/values.py, protocol/model/document.py) and the
commands refuse an input past its limit with a sentence naming it. Pure: constants only.
"""

from __future__ import annotations

# The largest magnitude of any number in a project: 2**53, past which a double no longer holds
# every whole number. NaN and Infinity (JSON's 1e999 reads as Infinity) are outside it, and so
# is 1e300, whose product with a frame rate overflows to Infinity in the renderer's arithmetic.
# Pixels, seconds, degrees and percents of a real project are many orders of magnitude below.
MAX_NUMBER = 2 ** 53

# Frames of one comp (duration x frame rate), and so of a render queue item, which renders
# frames of its comp. Three hours at 60 fps is 648,000. A render plans one entry per frame, and
# an image sequence one file name per frame (about 250 bytes each, a quarter of a gigabyte at
# the limit); past it, `comp.new {duration: 1e9, frameRate: 1e6}` would ask for 10**15.
MAX_COMP_FRAMES = 1_000_000

# Corners of a polygon or star. A real star has 5 to 50 points, and a polygon of a few hundred is
# an ellipse to the eye. A star's drawing grows with the square of its corners: 30 ms at 1,000,
# half a second at 10,000, while 10**9 corners grew the preview worker past any memory.
MAX_CORNERS = 1_000

# Points of a path shape. A traced logo outline has hundreds to a few thousand; at 10,000 points
# zig-zagging across its box, the fill takes about 0.1 s a frame (100,000 take 14 s).
MAX_PATH_POINTS = 10_000

# Dashes along one stroke. Each costs about 8 us to cut and stroke, so 25,000 draw in about
# 0.2 s; 0.01 px dashes around a 1080p ellipse (half a million) took 2 s a frame. Past it the
# stroke is drawn undashed at the pattern's share of "on", which is what dashes that fine look
# like.
MAX_DASHES = 25_000

# Characters of any string: a text layer's text (a long credits roll is a few thousand), and so
# every name, font and path. At the limit one text layer draws in about 0.2 s on one line (a
# million characters take 17 s), so a 10 MB text blocked every preview for minutes.
MAX_TEXT_LENGTH = 65_536

# Keys of one animated property. A key on every frame of 55 minutes at 30 fps (baked tracking
# data) is 100,000; each key is evaluated by a scan, so a million would cost every frame that
# shows the property tens of milliseconds, and the document its whole size limit.
MAX_KEYS = 100_000

# The document's size as compact JSON: what every edit measures, and the form the undo history
# keeps. A hand-made project is kilobytes; 16 MiB holds about 200,000 animated [x, y] keys. The
# bound is what keeps a session's memory bounded however many edits grow the document (in
# memory a document takes five to six times its compact size).
MAX_DOCUMENT_BYTES = 16 * 1024 * 1024

# The size of a project file. The saved form is indented, which makes a document at most about
# 7 times its compact size (measured on animated gradients, the deepest nesting; 3 times is
# usual), so 16 times MAX_DOCUMENT_BYTES reopens every project rendervisor saves; past it a
# mistaken path (a video, a disk image) is refused before it is read into memory whole.
MAX_PROJECT_BYTES = 16 * MAX_DOCUMENT_BYTES

# How deep a project file's JSON may nest. The deepest a document goes is about 16 levels (an
# animated gradient's stops in a layer of a comp); a file nested deeper is no project, and one
# nested 100,000 deep would make a parser, or any walk of the document, recurse past its stack.
MAX_DOCUMENT_DEPTH = 64

# The most a font file may be, and what a compressed one (WOFF, WOFF2) may declare and inflate
# to: a CJK collection is about 33 MB, a color emoji font 10 to 25. Past it a "font" is more
# likely a mistake or an attack than a face, and inflating it would take gigabytes of memory.
MAX_FONT_BYTES = 128 * 1024 * 1024

# The size of an SVG or Lottie footage file (and of what a .lottie archive unpacks to), read
# whole to be drawn. A logo's SVG is kilobytes and a Lottie animation rarely a few megabytes (its
# images embedded); past this a mistaken path is refused before it is read into memory, and a
# zip bomb before it is unpacked.
MAX_VECTOR_FOOTAGE_BYTES = 64 * 1024 * 1024

# Bytes read of a .cube LUT file: a 65^3 file with long numbers and comments fits many times
# over; past this a mistaken path (a video, a disk image) is refused before it is read whole.
MAX_CUBE_BYTES = 32 * 1024 * 1024
