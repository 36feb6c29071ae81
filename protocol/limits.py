"""The largest input rendervisor takes, one named limit for each way a small request could ask
for unbounded memory or time; docs/document.md ("Limits") is the same table in words.

Each limit is far past what a real project holds, so a person never meets one, and small
enough that an input at the limit costs a preview or an edit a fraction of a second and the
session megabytes, not gigabytes. The schema (protocol/values.py, protocol/document.py) and the
commands refuse an input past its limit with a sentence naming it. Pure: constants only.
"""

from __future__ import annotations

# The largest magnitude of any number in a project: 2**53, past which a double no longer holds
# every whole number. NaN and Infinity (JSON's 1e999 reads as Infinity) are outside it, and so
# is 1e300, whose product with a frame rate overflows to Infinity in the renderer's arithmetic.
# Pixels, seconds, degrees and percents of a real project are many orders of magnitude below.
MAX_NUMBER = 2 ** 53
