"""A folder tree for the confinement tests (tests/test_confinement_*.py): a read root, a write
root, their look-alike siblings (read2, write2: the prefix trick), and an outside folder with
canaries, reached from inside the roots by every kind of link. `Footprint` records everything
outside the roots (content, size, mtime, inode, the listing) so a test can prove that nothing
there was created, changed or removed, whatever the server answered.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass

import av
import numpy as np
import skia

from supervisor.engine.engine import Engine

SECRET = "CANARY-SECRET-7f3a"  # the outside files' content: no reply may ever hold it


def png_bytes(width: int = 8, height: int = 8, color: int = 0xFF20C0F0) -> bytes:
    surface = skia.Surface(width, height)
    surface.getCanvas().clear(color)
    return bytes(surface.makeImageSnapshot().encodeToData())


def ppm_bytes(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A binary PPM: a picture FFmpeg reads (through its image2 demuxer), Skia does not."""
    return b"P6\n%d %d\n255\n" % (width, height) + bytes(rgb) * (width * height)


def write_clip(path: str, frames: int = 5, format: str = "mpegts",
               codec: str = "mpeg2video") -> None:
    """A tiny video: MPEG-TS by default (what an HLS playlist's segments are)."""
    with av.open(path, "w", format=format) as container:
        stream = container.add_stream(codec, rate=10)
        stream.width = stream.height = 32
        stream.pix_fmt = "yuv420p"
        for _ in range(frames):
            frame = av.VideoFrame.from_ndarray(np.full((32, 32, 3), 200, np.uint8),
                                               format="rgb24")
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


@dataclass
class World:
    base: str
    read: str
    write: str
    outside: str
    read2: str
    write2: str

    def outsides(self) -> list[str]:
        return [self.outside, self.read2, self.write2]

    @property
    def inputs(self) -> str:
        """Footage inside the write root (build_inputs): writable, so only the rule that a
        render never writes over its own inputs protects it."""
        return os.path.join(self.write, "inputs")


def build_world(base: str) -> World:
    join = os.path.join
    world = World(base, join(base, "read"), join(base, "write"), join(base, "outside"),
                  join(base, "read2"), join(base, "write2"))
    for folder in (world.read, world.write, world.outside, world.read2, world.write2,
                   join(world.outside, "sub"), join(world.read, "seq"), join(world.read, "sub"),
                   join(world.write, "sub")):
        os.makedirs(folder, exist_ok=True)
    outside = world.outside
    for name in ("canary.txt", "sub/deep.txt"):
        with open(join(outside, name), "w") as handle:
            handle.write(f"{SECRET} {name}\n")
    # Hard-link targets hold no secret: a hard link inside a root is that root's file, and
    # reading it is allowed (docs/confinement.md); what must never happen is a write reaching
    # the outside name.
    for name in ("hard_target.txt", "hard_target2.txt"):
        with open(join(outside, name), "w") as handle:
            handle.write(f"{name} OLD\n")
    for folder in (world.read2, world.write2):
        with open(join(folder, "secret.txt"), "w") as handle:
            handle.write(SECRET + "\n")
    with open(join(outside, "secret.png"), "wb") as handle:
        handle.write(png_bytes(color=0xFFFF0000))
    with open(join(world.read, "note.txt"), "w") as handle:
        handle.write("inside the read root\n")
    for number in (1, 2):
        with open(join(world.read, "seq", f"frame_{number:04d}.png"), "wb") as handle:
            handle.write(png_bytes())
    # A sequence whose third frame is a link to an outside picture.
    os.symlink(join(outside, "secret.png"), join(world.read, "seq", "frame_0003.png"))
    os.symlink(join(outside, "secret.png"), join(world.read, "link_secret.png"))
    write = world.write
    os.symlink(join(outside, "canary.txt"), join(write, "link_file"))
    os.symlink(outside, join(write, "link_dir"))
    os.symlink(join(outside, "never.txt"), join(write, "dangling"))
    os.symlink(join(outside, "never_dir", "x"), join(write, "dangling_deep"))
    os.symlink(join(write, "chain2"), join(write, "chain1"))
    os.symlink(join(write, "chain3"), join(write, "chain2"))
    os.symlink(join(outside, "canary.txt"), join(write, "chain3"))
    os.symlink(os.path.join("..", "outside", "canary.txt"), join(write, "rel_link"))
    os.symlink(os.path.join("..", "outside"), join(write, "rel_dir"))
    os.symlink(join(write, "loop_b"), join(write, "loop_a"))
    os.symlink(join(write, "loop_a"), join(write, "loop_b"))
    os.symlink(world.read2, join(world.read, "link_read2"))
    os.link(join(outside, "hard_target.txt"), join(write, "hard.txt"))
    # Footage that names other files: FFmpeg would follow these out of the roots.
    write_clip(join(outside, "clip.ts"))
    os.symlink(outside, join(world.read, "outdir"))
    playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:0.5,\n{}\n#EXT-X-ENDLIST\n"
    with open(join(world.read, "abs.m3u8"), "w") as handle:
        handle.write(playlist.format(join(outside, "clip.ts")))
    with open(join(world.read, "rel.m3u8"), "w") as handle:
        handle.write(playlist.format("../outside/clip.ts"))
    with open(join(world.read, "list.mov"), "w") as handle:  # ffconcat, whatever its name
        handle.write("ffconcat version 1.0\nfile outdir/clip.ts\n")
    os.link(join(outside, "hard_target2.txt"), join(write, "hard2.txt"))
    build_ffmpeg_inputs(world)
    return world


OUTSIDE_RGB = (255, 0, 0)  # the outside picture's colour: no preview or saved frame may show it
INSIDE_RGB = (0, 255, 0)  # the picture whose name is an FFmpeg pattern, inside the read root
# What a DASH manifest names (FFmpeg would open it); the comment hides the <MPD from a check of
# the first bytes alone, the whitespace pushes it past them.
MPD = ('<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" '
       'profiles="urn:mpeg:dash:profile:isoff-on-demand:2011"><Period><AdaptationSet>'
       '<Representation id="1" bandwidth="1"><BaseURL>{}</BaseURL></Representation>'
       '</AdaptationSet></Period></MPD>\n')


def build_ffmpeg_inputs(world: World) -> None:
    """Footage whose one name makes FFmpeg open other files: `img/f%d.ppm` (a file by that
    name, inside) beside `img/f1.ppm`, a link to an outside picture that FFmpeg's image2
    demuxer would open in its place; and DASH manifests named like videos."""
    join = os.path.join
    folder = join(world.read, "img")
    os.makedirs(folder, exist_ok=True)
    with open(join(world.outside, "secret.ppm"), "wb") as handle:
        handle.write(ppm_bytes(16, 16, OUTSIDE_RGB))
    with open(join(folder, "f%d.ppm"), "wb") as handle:
        handle.write(ppm_bytes(8, 8, INSIDE_RGB))
    os.symlink(join(world.outside, "secret.ppm"), join(folder, "f1.ppm"))
    manifest = MPD.format(join(world.outside, "clip.ts"))
    with open(join(world.read, "manifest.mp4"), "w") as handle:
        handle.write("<!-- packaged for the web -->" + manifest)
    with open(join(world.read, "spaced.mp4"), "wb") as handle:
        handle.write(b"\xef\xbb\xbf" + b" " * 100 + manifest.encode())
    write_clip(join(world.read, "stand_in.ts"))


def write_crafted_project(world: World, project: str, footage_path: str) -> None:
    """A project as a crafted file (or one from before confinement) can be: its comp `Leak`
    (16x16) shows one video footage item at `footage_path`, whatever that file is. Made with
    the engine from an ordinary clip, then the clip's path swapped for `footage_path`."""
    engine = Engine()
    engine.run("comp.new", {"name": "Leak", "width": 16, "height": 16, "frameRate": 10,
                            "duration": 0.1})
    engine.run("layer.add", {"comp": "Leak", "type": "video",
                             "path": os.path.join(world.read, "stand_in.ts")})
    engine.run("project.save", {"path": project})
    with open(project) as handle:
        document = json.load(handle)
    document["footage"][0]["path"] = footage_path
    with open(project, "w") as handle:
        json.dump(document, handle)
def build_inputs(world: World) -> None:
    """Footage for the outputs-over-inputs cases, in `world.inputs`: a video, a still and an
    image sequence (frames 1-3), a hard link to the video beside them, and a link to the
    folder from the write root (`inputs_link`)."""
    join = os.path.join
    os.makedirs(world.inputs)
    write_clip(join(world.inputs, "clip.mp4"), format="mp4", codec="mpeg4")
    with open(join(world.inputs, "still.png"), "wb") as handle:
        handle.write(png_bytes(color=0xFF3366CC))
    for number in (1, 2, 3):
        with open(join(world.inputs, f"plate_{number:04d}.png"), "wb") as handle:
            handle.write(png_bytes(color=0xFF00AA00 + number))
    os.link(join(world.inputs, "clip.mp4"), join(world.inputs, "hard_clip.mp4"))
    os.symlink(world.inputs, join(world.write, "inputs_link"))


class Footprint:
    """Everything under some folders, without following links: kind, size, mtime, inode, link
    target and a hash of the content. Equal footprints mean nothing there changed."""

    def __init__(self, folders: list[str], listed: tuple[str, ...] = ()) -> None:
        self.state = {folder: _scan(folder) for folder in folders}
        # Folders listed but not descended (the common parent of the roots: nothing new there).
        self.state.update({folder: {name: "" for name in os.listdir(folder)}
                           for folder in listed})

    def changes(self, other: "Footprint") -> list[str]:
        found = []
        for folder, entries in self.state.items():
            after = other.state[folder]
            for name in sorted(set(entries) | set(after)):
                if entries.get(name) != after.get(name):
                    found.append(f"{os.path.join(folder, name)}: {entries.get(name)} -> "
                                 f"{after.get(name)}")
        return found


def _scan(folder: str) -> dict:
    entries = {}
    for parent, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(parent, name)
            info = os.lstat(path)
            # Not the link count: a rename that replaces a hard link inside a root lowers the
            # outside file's count, which is the safe outcome, not a change to that file.
            entry = {"mode": info.st_mode, "size": info.st_size, "mtime": info.st_mtime_ns,
                     "inode": info.st_ino}
            if stat.S_ISLNK(info.st_mode):
                entry["target"] = os.readlink(path)
            elif stat.S_ISREG(info.st_mode):
                with open(path, "rb") as handle:
                    entry["sha"] = hashlib.sha256(handle.read()).hexdigest()
            entries[os.path.relpath(path, folder)] = json.dumps(entry, sort_keys=True)
    return entries


def reply_text(result: dict) -> str:
    """Everything a tool result says, as one string (text blocks and structured content)."""
    parts = [block.get("text", "") for block in result.get("content", [])]
    if "structuredContent" in result:
        parts.append(json.dumps(result["structuredContent"]))
    return "\n".join(parts)
