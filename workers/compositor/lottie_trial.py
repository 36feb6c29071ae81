"""A trial render of a Lottie animation: ThorVG draws a few of its frames, small, in a child
process, so a file that crashes the renderer (a division by zero, a bad read: SIGFPE,
SIGSEGV) is found when it is imported and named in a warning, instead of being found by a
render worker dying at render time.

The child is a fresh interpreter running this file (a worker asks, never the supervisor): not a
fork, since a process that has drawn Lottie already holds ThorVG's task threads, which a forked
child would wait on forever. It reads the animation on stdin, draws and exits; the asking
process only waits on it, within TRIAL_SECONDS, so nothing the file does can reach it. The animation given is the renderer's own copy (self-contained and upgraded,
protocol/model/lottie_files.py), so the trial draws what a render would.
"""

from __future__ import annotations

import signal
import subprocess
import sys

# Frames drawn, spread over the animation (its first and last among them), and their size: a
# crash in ThorVG comes from the file's structure, which a small raster meets as a large one.
TRIAL_FRAMES = 5
TRIAL_SIDE = 64
# A trial still drawing after this is stopped and reported: a file that wedges the renderer
# is as unplayable as one that crashes it. Well within the probe worker's own deadline (20 s),
# and far above the trial's cost (a fresh interpreter and five 64 px frames: well under 1 s).
TRIAL_SECONDS = 10.0


def trial_frames(frame_count: float) -> list[float]:
    """The frames (from 0, the first) a trial draws."""
    last = max(0, int(frame_count) - 1)
    return sorted({round(last * i / (TRIAL_FRAMES - 1)) for i in range(TRIAL_FRAMES)})


def trial_render(data: bytes, frame_count: float) -> str | None:
    """None when ThorVG draws the trial frames of the Lottie JSON `data`; else a phrase saying
    what happened, for a warning."""
    frames = [str(frame) for frame in trial_frames(frame_count)]
    try:
        child = subprocess.run([sys.executable, "-I", __file__, *frames], input=data,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               timeout=TRIAL_SECONDS, check=False)
    except subprocess.TimeoutExpired:
        return (f"ThorVG, which plays Lottie here, did not finish drawing a frame of it within "
                f"{TRIAL_SECONDS:g} s; a render that shows it will stall and be stopped")
    if child.returncode == 0:
        return None
    if child.returncode < 0:
        cause = f"signal {signal.Signals(-child.returncode).name}"
    else:
        cause = f"exit status {child.returncode}"
    return (f"ThorVG, which plays Lottie here, crashed drawing it ({cause}); a render that "
            "shows it will fail: open it in the animation tool and export it again")


def _draw(data: bytes, frames: list[float]) -> None:
    """In the child: draw each frame; returning means all were drawn."""
    import thorvg_python as tvg

    engine = tvg.Engine(threads=1)  # as the render workers play it (lottie_layers.py)
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(TRIAL_SIDE, TRIAL_SIDE, cs=tvg.Colorspace.ABGR8888)
    animation = tvg.LottieAnimation(engine)
    picture = animation.get_picture()
    if picture.load_data(data, "lottie", None, True) != tvg.Result.SUCCESS:
        return  # not loaded: the render reports such a file as missing, with a sentence
    picture.set_size(TRIAL_SIDE, TRIAL_SIDE)
    canvas.add(picture)
    for frame in frames:
        animation.set_frame(frame)
        canvas.update()
        canvas.draw(True)
        canvas.sync()


if __name__ == "__main__":
    _draw(sys.stdin.buffer.read(), [float(frame) for frame in sys.argv[1:]])
