"""Reading files nobody vouches for, inside a probe worker: one function per kind of input, each
turning a file into a small summary (a size, a frame rate, a font's faces, caption cues, a data
file's rows) or a sentence saying why it cannot be used.

    supervisor/engine/file_probes.py  ── job {path, name, identity, ...} ──►  tasks.py
        (opens and checks the file,                                        │ the function of
         sends the job, turns a crash,                                     ▼ its kind:
         a deadline or a memory limit                 images, media, svg, lottie, fonts,
         into one sentence)                           captions, data_rows, text_metrics
                                         ◄── summary, or TaskError (one sentence) ──

Every parser, decoder and decompressor that reads a user's file runs here and nowhere in the
supervisor: a probe worker runs under its own memory limit and deadline and is killed with its
tree on cancel, so a file built to crash Skia's SVG parser, inflate a font to gigabytes or make
a JSON parser recurse takes one worker down and costs the session nothing.

Each function opens its file through `opened.py`, which refuses a file that is no longer the
one the supervisor checked (a link swapped in since), and reads at most its kind's size limit.
Must never import supervisor code, and never return more than a summary: the supervisor keeps
what it is given.
"""
