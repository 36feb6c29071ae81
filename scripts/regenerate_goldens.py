"""Rewrite the compositor's golden images (tests/compositor/golden/*.png) from the current code,
and say per image how much it changed, so a reviewer sees which pictures moved and by how much
before accepting them.

    .venv/bin/python scripts/regenerate_goldens.py [NAME ...]
"""

from __future__ import annotations

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.helpers.compositor_golden_scenes import (GOLDEN_DIR, SCENES, difference,  # noqa: E402
                                            golden_path, read_png, write_png)
from workers.compositor import render_frame  # noqa: E402


def main(names: list[str]) -> int:
    unknown = sorted(set(names) - set(SCENES))
    if unknown:
        print(f"unknown scene(s) {', '.join(unknown)}; known: {', '.join(sorted(SCENES))}",
              file=sys.stderr)
        return 2
    os.makedirs(GOLDEN_DIR, exist_ok=True)
    with tempfile.TemporaryDirectory() as workdir:
        for name in names or sorted(SCENES):
            build, comp_id, time = SCENES[name]
            frame = render_frame(build(workdir), comp_id, time)
            if frame.missing:
                print(f"{name}: missing footage {frame.missing}", file=sys.stderr)
                return 1
            path = golden_path(name)
            if os.path.exists(path):
                old = read_png(path)
                if old.shape != frame.pixels.shape:
                    change = f"size changed from {old.shape[1]}x{old.shape[0]}"
                else:
                    worst, mean = difference(frame.pixels, old)
                    changed = int((abs(frame.pixels.astype(int) - old).max(axis=2) > 0).sum())
                    change = (f"max pixel difference {worst}, mean {mean:.4f}, "
                              f"{changed} pixels changed")
            else:
                change = "new"
            write_png(path, frame.pixels)
            print(f"{name}: {change} -> {os.path.relpath(path)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
