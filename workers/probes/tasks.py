"""The probe tasks, by name: one per kind of input (workers/probes/). A file's job carries
`{"file": {path, name, identity}, "limit": bytes}` (a timeline's a `frameRate` too, for an
EDL); text_metrics' carries a text layer's content and the times to measure it at;
check_output's a rendered file and what it should hold."""

from __future__ import annotations

from workers.probes.captions import probe_captions
from workers.probes.data_rows import probe_data_rows
from workers.probes.fonts import probe_font
from workers.probes.images import probe_image
from workers.probes.lottie import probe_lottie
from workers.probes.luts import probe_lut
from workers.probes.media import probe_media
from workers.probes.outputs import check_output
from workers.probes.projects import probe_project
from workers.probes.svg import probe_svg
from workers.probes.text_metrics import measure_text
from workers.probes.timelines import probe_timeline
from workers.tasks import TASKS, task

# Task name -> the function reading a file of that kind, called with (file, limit).
FILE_PROBES = {"probe_image": probe_image, "probe_media": probe_media, "probe_svg": probe_svg,
               "probe_lottie": probe_lottie, "probe_font": probe_font,
               "probe_captions": probe_captions, "probe_data_rows": probe_data_rows,
               "probe_project": probe_project, "probe_lut": probe_lut}

TASKS.update({name: (lambda job, probe=probe: probe(job.payload["file"], job.payload["limit"]))
              for name, probe in FILE_PROBES.items()})


@task("check_output")
def check_output_task(job):
    return check_output(job.payload["file"], job.payload["expected"])


@task("measure_text")
def measure_text_task(job):
    return measure_text(job.payload["content"], job.payload["times"])


@task("probe_timeline")
def probe_timeline_task(job):
    return probe_timeline(job.payload["file"], job.payload["limit"], job.payload.get("frameRate"))
