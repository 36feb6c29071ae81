"""A real browser for the studio's tests: Debian's Chromium, headless, driven by Playwright.

Playwright's own browser downloads are never used: the system's chromium (README: .ci/run
installs it with apt where it is missing) is the executable, with the flags that keep it from
reaching the network for updates or components.
"""

from __future__ import annotations

import base64
import shutil
from contextlib import contextmanager

import numpy as np

from tests.helpers.mcp_images import decode_png

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-background-networking", "--disable-component-update",
                  "--no-first-run"]


def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        raise RuntimeError("chromium is not installed; the studio's tests need it (.ci/run "
                           "installs it: apt-get install chromium)")
    return path


@contextmanager
def chromium():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(),
                                             args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


# The pixels an <img> shows, at its natural size, read back through a canvas.
_IMAGE_PIXELS = """(image) => {
    const canvas = document.createElement("canvas");
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    canvas.getContext("2d").drawImage(image, 0, 0);
    return canvas.toDataURL("image/png").split(",")[1];
}"""


def shown_pixels(locator) -> np.ndarray:
    """RGBA pixels of the image an <img> element shows."""
    return decode_png(locator.evaluate(_IMAGE_PIXELS))


def png_pixels(data: bytes) -> np.ndarray:
    return decode_png(base64.b64encode(data).decode("ascii"))
