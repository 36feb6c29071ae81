""".cube LUT files for tests: a table that is smooth but far from the identity, written as the
format says (red fastest, then green, then blue)."""

from __future__ import annotations

import numpy as np


def cube_table(size: int) -> np.ndarray:
    """(size, size, size, 3) indexed [blue][green][red]: each output channel bends and mixes
    the inputs, so a lookup that swaps axes or interpolates the wrong corners shows."""
    axis = np.linspace(0.0, 1.0, size)
    blue, green, red = np.meshgrid(axis, axis, axis, indexing="ij")
    return np.stack([0.9 * red ** 2 + 0.05 * green,
                     0.8 * np.sqrt(green) + 0.1 * blue,
                     1.0 - 0.7 * blue + 0.2 * red * green], axis=-1)


def write_cube(path, table: np.ndarray, header: str = "") -> str:
    size = table.shape[0]
    lines = ['TITLE "test"', f"LUT_3D_SIZE {size}", header] + \
        [f"{r:.7f} {g:.7f} {b:.7f}" for r, g, b in table.reshape(-1, 3)]
    path.write_text("\n".join(lines) + "\n")
    return str(path)
