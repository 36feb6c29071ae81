"""The attack corpus: every way out of the roots we know of, tried against the file tools and
the engine commands alike, through a real `rendervisor mcp --read-root R --write-root W`.

Each case is its own test id. Every case checks the reply (a refusal names the rule and the
path) and then the file system: nothing outside the roots was created, changed or removed (the
footprint of the outside folders: content, size, mtime, inode, listing), nor the footage
inside the write root that renders must never write over, and no reply ever carries the
outside files' secret. One server serves the whole module: the cases are refusals
(or writes inside the write root), so none depends on another's leftovers.
"""

from __future__ import annotations

import os

import pytest

from supervisor.engine.engine import Engine
from tests.helpers.confinement_world import SECRET, Footprint, build_inputs, build_world, reply_text
from tests.helpers.encoder_option_attacks import ATTACKS, aimed
from tests.helpers.mcp_process import McpProcess

READ_RULE = "outside the read roots"
WRITE_RULE = "outside the write roots"


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    world = build_world(str(tmp_path_factory.mktemp("confined")))
    # A project inside the read root whose footage is outside (made by an unconfined engine,
    # as a project from before confinement, or a crafted one, would be).
    engine = Engine()
    engine.run("footage.import", {"path": os.path.join(world.outside, "secret.png")})
    engine.run("project.save", {"path": os.path.join(world.read, "crafted.rvproj")})
    engine.run("project.save", {"path": os.path.join(world.outside, "other.rvproj")})
    build_inputs(world)
    with open(os.path.join(world.read, "backtrack.txt"), "w") as handle:
        handle.write("a" * 40 + "!\n")  # hours for a backtracking regex engine
    return world


@pytest.fixture(scope="module")
def server(world):
    process = McpProcess("--read-root", world.read, "--write-root", world.write, cwd=world.base)
    process.initialize()
    result = process.run("command_run", {"id": "comp.new", "params": {
        "name": "Main", "width": 32, "height": 32, "duration": 0.1}})
    assert not result.get("isError"), result
    result = process.run("command_run", {"id": "renderQueue.add", "params": {
        "comp": "Main", "output": os.path.join(world.write, "ok.mp4")}})
    assert not result.get("isError"), result
    result = process.run("command_batch", {"steps": [  # a comp showing the inputs' footage
        {"id": "comp.new", "params": {"name": "Inputs", "width": 32, "height": 32,
                                      "frameRate": 10, "duration": 0.3}},
        {"id": "layer.add", "params": {"comp": "Inputs", "type": "video",
                                       "path": i(world, "clip.mp4")}},
        {"id": "layer.add", "params": {"comp": "Inputs", "type": "image",
                                       "path": i(world, "still.png")}},
        {"id": "footage.import", "params": {"path": i(world, "plate_[####].png")}},
        {"id": "layer.add", "params": {"comp": "Inputs", "type": "video",
                                       "footage": "$3.footage"}}]})
    assert not result.get("isError"), result
    yield process
    process.stop()


def o(world, *parts):  # a path in the outside folder
    return os.path.join(world.outside, *parts)


def w(world, *parts):  # a path in the write root
    return os.path.join(world.write, *parts)


def r(world, *parts):  # a path in the read root
    return os.path.join(world.read, *parts)


def i(world, *parts):  # a path in the inputs folder (footage in the write root)
    return os.path.join(world.inputs, *parts)


def render_over(world, output, **params):
    """Queue an item of comp Inputs writing `output`, render, and take the item out again
    (whatever the render did), so no case leaves an item behind for the next."""
    return "command_batch", {"stop_on_error": False, "steps": [
        {"id": "renderQueue.add", "params": {"comp": "Inputs", "output": output, **params}},
        {"id": "renderQueue.render"},
        {"id": "renderQueue.remove", "params": {"item": "$0.item"}}]}


def run(command_id, **params):
    return "command_run", {"id": command_id, "params": params}


def queue_and_render(name, fmt, options):
    """A batch that queues an item with `options` and renders: an option let through would
    show on the disk, not only in the reply."""
    return lambda x: ("command_batch", {"steps": [
        {"id": "renderQueue.add", "params": {
            "comp": "Main", "format": fmt, "output": w(x, f"codec-{name}.mp4"),
            "codecOptions": aimed(options, x.outside)}},
        {"id": "renderQueue.render"}]})


LONG = "a" * 250  # one component; twenty of them make a path past the 4096 limit

# (id, tool, arguments from the world, what the reply must say: substrings of a refusal, or
# None for a call that is allowed because it stays inside the roots)
CASES = [
    # -- `..` in every position ---------------------------------------------------------------
    ("read-dotdot-middle", lambda x: ("read_file", {"path": r(x, "..", "outside", "canary.txt")}),
     ["'..'", "canary.txt"]),
    ("read-dotdot-after-sub", lambda x: ("read_file", {
        "path": r(x, "sub", "..", "..", "outside", "canary.txt")}), ["'..'"]),
    ("read-dotdot-leading", lambda x: ("read_file", {"path": "/.." + o(x, "canary.txt")}),
     ["'..'"]),
    ("list-dotdot-trailing", lambda x: ("list_dir", {"path": r(x, "..")}), ["'..'"]),
    ("write-dotdot", lambda x: ("write_file", {"path": w(x, "..", "outside", "new.txt"),
                                               "content": "x"}), ["'..'", "new.txt"]),
    ("save-dotdot", lambda x: run("project.save", path=w(x, "sub", "..", "..", "p.rvproj")),
     ["'..'"]),
    ("queue-output-dotdot", lambda x: run("renderQueue.add", comp="Main",
                                          output=w(x, "..", "outside", "x.mp4")), [WRITE_RULE]),
    # -- relative paths -----------------------------------------------------------------------
    ("read-relative", lambda x: ("read_file", {"path": "outside/canary.txt"}), ["relative"]),
    ("write-relative", lambda x: ("write_file", {"path": "outside/new.txt", "content": "x"}),
     ["relative"]),
    ("import-relative", lambda x: run("footage.import", path="outside/secret.png"),
     ["relative"]),
    ("open-relative", lambda x: run("project.open", path="outside/other.rvproj"),
     ["relative"]),
    ("queue-relative-unsaved", lambda x: run("renderQueue.add", comp="Main",
                                             output="../outside/x.mp4"), ["unsaved"]),
    # -- plain outside, and the prefix trick (/data2 beside /data) ------------------------------
    ("read-outside", lambda x: ("read_file", {"path": o(x, "canary.txt")}),
     [READ_RULE, "canary.txt"]),
    ("read-prefix-sibling", lambda x: ("read_file", {"path": os.path.join(x.read2, "secret.txt")}),
     [READ_RULE, "read2"]),
    ("write-prefix-sibling", lambda x: ("write_file", {
        "path": os.path.join(x.write2, "new.txt"), "content": "x"}), [WRITE_RULE, "write2"]),
    ("write-in-read-root", lambda x: ("write_file", {"path": r(x, "new.txt"), "content": "x"}),
     [WRITE_RULE, "new.txt"]),
    ("edit-outside", lambda x: ("edit_file", {"path": o(x, "canary.txt"), "old_string": "OLD",
                                              "new_string": "NEW"}), [WRITE_RULE]),
    ("list-outside", lambda x: ("list_dir", {"path": x.outside}), [READ_RULE]),
    ("list-prefix-sibling", lambda x: ("list_dir", {"path": x.write2}), [READ_RULE, "write2"]),
    ("search-outside", lambda x: ("search_files", {"path": x.outside, "content": "CANARY"}),
     [READ_RULE]),
    # -- symbolic links to outside: file, folder, dangling, chains, relative, loops --------------
    ("read-link-file", lambda x: ("read_file", {"path": w(x, "link_file")}),
     [READ_RULE, "link_file"]),
    ("read-link-folder", lambda x: ("read_file", {"path": w(x, "link_dir", "canary.txt")}),
     [READ_RULE]),
    ("read-link-chain", lambda x: ("read_file", {"path": w(x, "chain1")}), [READ_RULE, "chain1"]),
    ("read-relative-link", lambda x: ("read_file", {"path": w(x, "rel_link")}), [READ_RULE]),
    ("read-link-to-sibling", lambda x: ("read_file", {"path": r(x, "link_read2", "secret.txt")}),
     [READ_RULE]),
    ("write-link-file", lambda x: ("write_file", {"path": w(x, "link_file"), "content": "x"}),
     [WRITE_RULE, "link_file"]),
    ("write-link-folder", lambda x: ("write_file", {"path": w(x, "link_dir", "new.txt"),
                                                    "content": "x"}), [WRITE_RULE]),
    ("write-link-folder-deeper", lambda x: ("write_file", {
        "path": w(x, "rel_dir", "made", "new.txt"), "content": "x"}), [WRITE_RULE]),
    ("write-dangling-link", lambda x: ("write_file", {"path": w(x, "dangling"), "content": "x"}),
     [WRITE_RULE, "dangling"]),
    ("write-dangling-link-below", lambda x: ("write_file", {
        "path": w(x, "dangling_deep"), "content": "x"}), [WRITE_RULE]),
    ("write-link-chain", lambda x: ("write_file", {"path": w(x, "chain1"), "content": "x"}),
     [WRITE_RULE]),
    ("edit-link-file", lambda x: ("edit_file", {"path": w(x, "link_file"), "old_string": "OLD",
                                                "new_string": "NEW"}), [WRITE_RULE]),
    ("list-link-folder", lambda x: ("list_dir", {"path": w(x, "link_dir")}), [READ_RULE]),
    ("search-link-folder", lambda x: ("search_files", {"path": w(x, "rel_dir")}), [READ_RULE]),
    ("import-link-file", lambda x: run("footage.import", path=r(x, "link_secret.png")),
     [READ_RULE, "link_secret.png"]),
    ("import-sequence-with-linked-frame", lambda x: run(
        "footage.import", path=r(x, "seq", "frame_[####].png")), [READ_RULE, "frame_0003.png"]),
    ("import-frame-field-in-a-folder-name", lambda x: run(
        "footage.import", path=r(x, "shot[#]", "frame.png")), ["folder name"]),
    ("import-folder-with-linked-frame", lambda x: run("footage.import", path=r(x, "seq")),
     [READ_RULE, "frame_0003.png"]),
    ("layer-path-link", lambda x: run("layer.add", comp="Main", type="image",
                                      path=w(x, "link_dir", "secret.png")), [READ_RULE]),
    ("save-link-file", lambda x: run("project.save", path=w(x, "link_file")),
     [WRITE_RULE, "link_file"]),
    ("save-link-folder", lambda x: run("project.save", path=w(x, "link_dir", "p.rvproj")),
     [WRITE_RULE]),
    ("save-dangling", lambda x: run("project.save", path=w(x, "dangling")), [WRITE_RULE]),
    ("queue-output-link-folder", lambda x: run("renderQueue.add", comp="Main",
                                               output=w(x, "link_dir", "x.mp4")), [WRITE_RULE]),
    ("still-output-link-folder", lambda x: run("comp.saveFrameAs", comp="Main",
                                               path=w(x, "rel_dir", "x.png")), [WRITE_RULE]),
    # -- /proc/self/root and /proc/self/cwd (the server runs in the roots' parent) --------------
    ("read-proc-root", lambda x: ("read_file", {"path": "/proc/self/root" + o(x, "canary.txt")}),
     [READ_RULE, "/proc/self/root"]),
    ("read-proc-cwd", lambda x: ("read_file", {"path": "/proc/self/cwd/outside/canary.txt"}),
     [READ_RULE, "/proc/self/cwd"]),
    ("write-proc-root", lambda x: ("write_file", {"path": "/proc/self/root" + o(x, "new.txt"),
                                                  "content": "x"}), [WRITE_RULE]),
    ("write-proc-cwd", lambda x: ("write_file", {"path": "/proc/self/cwd/outside/new.txt",
                                                 "content": "x"}), [WRITE_RULE]),
    ("import-proc-root", lambda x: run("footage.import",
                                       path="/proc/self/root" + o(x, "secret.png")), [READ_RULE]),
    # -- NUL and newline, very long paths -------------------------------------------------------
    ("read-nul", lambda x: ("read_file", {"path": r(x, "note.txt\x00") + o(x, "canary.txt")}),
     ["NUL"]),
    ("write-nul", lambda x: ("write_file", {"path": w(x, "a\x00b"), "content": "x"}), ["NUL"]),
    ("save-nul", lambda x: run("project.save", path=w(x, "p\x00.rvproj")), ["NUL"]),
    ("read-newline", lambda x: ("read_file", {"path": o(x, "canary.txt") + "\n"}),
     [READ_RULE, "canary.txt\\n"]),
    ("write-newline", lambda x: ("write_file", {"path": o(x, "new\n.txt"), "content": "x"}),
     [WRITE_RULE]),
    ("import-newline", lambda x: run("footage.import", path=o(x, "secret.png") + "\n"),
     [READ_RULE]),
    ("read-very-long", lambda x: ("read_file", {"path": r(x, *[LONG] * 20)}), ["longest"]),
    ("write-very-long", lambda x: ("write_file", {"path": w(x, *[LONG] * 20), "content": "x"}),
     ["longest"]),
    # -- engine commands: imports, opens, saves and outputs outside -----------------------------
    ("import-outside", lambda x: run("footage.import", path=o(x, "secret.png")),
     [READ_RULE, "secret.png"]),
    ("layer-path-outside", lambda x: run("layer.add", comp="Main", type="image",
                                         path=o(x, "secret.png")), [READ_RULE]),
    ("open-outside", lambda x: run("project.open", path=o(x, "other.rvproj")),
     [READ_RULE, "other.rvproj"]),
    ("save-outside", lambda x: run("project.save", path=o(x, "p.rvproj")), [WRITE_RULE]),
    ("save-in-read-root", lambda x: run("project.save", path=r(x, "p.rvproj")), [WRITE_RULE]),
    ("save-prefix-sibling", lambda x: run("project.save",
                                          path=os.path.join(x.write2, "p.rvproj")),
     [WRITE_RULE]),
    ("replace-footage-outside", lambda x: run("footage.replace", footage="any",
                                              path=o(x, "secret.png")), [READ_RULE]),
    ("open-through-link-folder", lambda x: run("project.open",
                                               path=w(x, "link_dir", "other.rvproj")),
     [READ_RULE]),
    ("queue-set-output-outside", lambda x: run("renderQueue.set", item=1,
                                               output=o(x, "moved.mp4")), [WRITE_RULE]),
    ("queue-set-output-link-folder", lambda x: run("renderQueue.set", item=1,
                                                   output=w(x, "rel_dir", "m.mp4")),
     [WRITE_RULE]),
    ("queue-output-outside", lambda x: run("renderQueue.add", comp="Main",
                                           output=o(x, "x.mp4")), [WRITE_RULE, "x.mp4"]),
    ("queue-sequence-outside", lambda x: run("renderQueue.add", comp="Main",
                                             output=o(x, "f_[####].png")), [WRITE_RULE]),
    ("queue-no-output-unsaved", lambda x: run("renderQueue.add", comp="Main"), ["unsaved"]),
    ("still-outside", lambda x: run("comp.saveFrameAs", comp="Main", path=o(x, "x.png")),
     [WRITE_RULE]),
    ("still-default-unsaved", lambda x: run("comp.saveFrameAs", comp="Main"), ["unsaved"]),
    ("prerender-outside", lambda x: run("render.preRender", comp="Main", output=o(x, "p.mp4")),
     [WRITE_RULE]),
    ("prerender-default-unsaved", lambda x: run("render.preRender", comp="Main"), ["unsaved"]),
    ("proxy-unsaved", lambda x: run("file.createProxy", comp="Main"), ["unsaved"]),
    ("absolute-string-in-any-param", lambda x: run("layer.add", comp="Main", type="text",
                                                   text=o(x, "canary.txt")), [READ_RULE]),
    # -- footage that names other files (FFmpeg would open them) -------------------------------
    ("import-hls-playlist", lambda x: run("footage.import", path=r(x, "abs.m3u8")),
     ["playlist", "abs.m3u8"]),
    ("import-hls-playlist-relative", lambda x: run("footage.import", path=r(x, "rel.m3u8")),
     ["playlist"]),
    ("import-concat-list-named-like-a-video", lambda x: run(
        "footage.import", path=r(x, "list.mov")), ["playlist", "list.mov"]),
    ("layer-path-playlist", lambda x: run("layer.add", comp="Main", type="video",
                                          path=r(x, "abs.m3u8")), ["playlist"]),
    # -- FFmpeg patterns and manifests: one name that FFmpeg would read as other files ---------
    # (img/f%d.ppm is a file by that name; img/f1.ppm beside it links to an outside picture,
    # which FFmpeg's image2 demuxer would open instead; the pixels and crafted projects are
    # checked in tests/confinement/test_confinement_ffmpeg_inputs.py)
    ("import-ffmpeg-frame-pattern", lambda x: run("footage.import", path=r(x, "img", "f%d.ppm")),
     ["FFmpeg", "f%d.ppm", "[####]"]),
    ("import-ffmpeg-padded-frame-pattern", lambda x: run(
        "footage.import", path=r(x, "img", "f%03d.ppm")), ["FFmpeg", "f%03d.ppm"]),
    ("import-ffmpeg-frame-pattern-in-a-folder-name", lambda x: run(
        "footage.import", path=r(x, "shot%d", "clip.mp4")), ["FFmpeg", "shot%d"]),
    ("layer-path-ffmpeg-frame-pattern", lambda x: run(
        "layer.add", comp="Main", type="video", path=r(x, "img", "f%d.ppm")),
     ["FFmpeg", "f%d.ppm"]),
    ("import-dash-manifest-behind-a-comment", lambda x: run(
        "footage.import", path=r(x, "manifest.mp4")), ["DASH", "manifest.mp4"]),
    ("import-dash-manifest-behind-a-bom-and-whitespace", lambda x: run(
        "footage.import", path=r(x, "spaced.mp4")), ["DASH", "spaced.mp4"]),
    # -- outputs over inputs: footage in the write root, which only that rule protects -------
    ("queue-video-over-its-footage", lambda x: render_over(x, i(x, "clip.mp4")),
     ["footage 'clip.mp4'", "nothing was rendered"]),
    ("queue-sequence-over-the-footage-frames", lambda x: render_over(
        x, i(x, "plate_[####].png"), frames="1-2"),
     ["plate_0001.png (and 1 more)", "footage 'plate_[####].png'"]),
    ("queue-video-through-a-folder-link-onto-footage", lambda x: render_over(
        x, w(x, "inputs_link", "clip.mp4")), ["resolves to", "footage 'clip.mp4'"]),
    ("queue-video-onto-a-hard-link-of-footage", lambda x: render_over(
        x, i(x, "hard_clip.mp4")), ["a hard link to", "footage 'clip.mp4'"]),
    ("still-over-its-image-footage", lambda x: run("comp.saveFrameAs", comp="Inputs",
                                                   path=i(x, "still.png")),
     ["footage 'still.png'", "nothing was written"]),
    ("still-through-a-folder-link-onto-footage", lambda x: run(
        "comp.saveFrameAs", comp="Inputs", path=w(x, "inputs_link", "still.png")),
     ["resolves to", "footage 'still.png'"]),
    ("prerender-over-its-footage", lambda x: run("render.preRender", comp="Inputs",
                                                 output=i(x, "clip.mp4")),
     ["footage 'clip.mp4'", "nothing was written"]),
    # -- batches: steps, and "$N" results carrying a path -------------------------------------
    ("batch-step-outside", lambda x: ("command_batch", {"steps": [
        {"id": "comp.list"},
        {"id": "footage.import", "params": {"path": o(x, "secret.png")}}]}),
     [READ_RULE, "secret.png"]),
    ("batch-reference-to-outside-path", lambda x: ("command_batch", {"atomic": True, "steps": [
        {"id": "project.open", "params": {"path": r(x, "crafted.rvproj")}},
        {"id": "footage.list"},
        {"id": "layer.add", "params": {"comp": "Main", "type": "image",
                                       "path": "$1.footage.0.path"}}]}),
     [READ_RULE, "secret.png"]),
    ("batch-save-outside", lambda x: ("command_batch", {"steps": [
        {"id": "project.save", "params": {"path": o(x, "b.rvproj")}}]}), [WRITE_RULE]),
    # -- encoder options that open files (tests/helpers/encoder_option_attacks.py)
    # ----------------------
    *[(f"codec-{name}", queue_and_render(name, fmt, options), ["codecOptions", refused])
      for name, fmt, options, refused in ATTACKS],
    ("codec-set-dump-yuv", lambda x: ("command_batch", {"steps": [
        {"id": "renderQueue.set", "params": {"item": 1, "codecOptions": {
            "x264-params": f"dump-yuv={o(x, 'canary.txt')}"}}},
        {"id": "renderQueue.render"}]}), ["codecOptions", "dump-yuv"]),
    # -- regex: a pattern that backtracks for hours must not hold the server -------------------
    ("regex-backtracking", lambda x: ("search_files", {"path": x.read, "content": "^(a+)+$"}),
     None),
    # -- small inputs asking for unbounded memory, and numbers a project cannot hold ----------
    ("nonfinite-duration", lambda x: run("comp.new", name="Inf", duration=float("inf")),
     ["duration is Infinity", "finite"]),
    ("nonfinite-key-time", lambda x: run("prop.addKey", comp="Main", layer=1,
                                         path="transform.rotation", time=float("nan"), value=1),
     ["time is NaN"]),
    ("frames-of-a-comp-past-the-limit", lambda x: run("comp.new", name="Long", duration=1e9,
                                                      frameRate=1e6), ["over the limit"]),
    ("polygon-corners-past-the-limit", lambda x: run(
        "layer.add", comp="Main", type="shape", shape="polygon", points=10**9, size=[8, 8]),
     ["corners", "over the limit"]),
    ("text-past-the-limit", lambda x: run("layer.add", comp="Main", type="text",
                                          text="a" * 10_000_000), ["over the limit"]),
    # -- shell: sandboxed while confined, so the outside is not there (test_sandbox_corpus.py) --
    ("shell-reads-no-outside-file", lambda x: ("shell", {"command": f"cat {o(x, 'canary.txt')}"}),
     None),
    # -- allowed, and still nothing outside changes ---------------------------------------------
    ("write-through-hard-link-replaces-the-link", lambda x: ("write_file", {
        "path": w(x, "hard.txt"), "content": "new content"}), None),
    ("edit-through-hard-link-replaces-the-link", lambda x: ("edit_file", {
        "path": w(x, "hard2.txt"), "old_string": "OLD", "new_string": "NEW"}), None),
    ("write-loop-link", lambda x: ("write_file", {"path": w(x, "loop_a"), "content": "x"}),
     "either"),
    ("list-does-not-follow-links", lambda x: ("list_dir", {"path": x.write, "depth": 5}), None),
    ("search-does-not-read-links-out", lambda x: ("search_files", {
        "path": x.write, "content": "CANARY"}), None),
    ("search-read-root-skips-linked-folders", lambda x: ("search_files", {
        "path": x.read, "content": "CANARY"}), None),
]


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_attack(case, world, server):
    name, arguments, expected = case
    tool, args = arguments(world)
    before = Footprint(world.outsides(), listed=(world.base, "/"))
    inputs = Footprint([world.inputs])  # inside, but no case may change them either
    result = server.run(tool, args)
    text = reply_text(result)
    after = Footprint(world.outsides(), listed=(world.base, "/"))
    assert before.changes(after) == [], f"{name} changed files outside the roots"
    assert inputs.changes(Footprint([world.inputs])) == [], f"{name} changed its own inputs"
    assert SECRET not in text, f"{name} read an outside file: {text[:300]}"
    if expected is None:
        assert not result.get("isError"), text
    elif expected != "either":
        assert result.get("isError"), f"{name} was not refused: {text[:300]}"
        for fragment in expected:
            assert fragment in text, f"{name}: {fragment!r} not in {text[:400]!r}"
        if not text.lstrip().startswith("{"):  # a plain refusal (not a batch report): one line
            assert "\n" not in text.strip(), text


def test_the_corpus_is_at_least_forty_cases():
    assert len(CASES) >= 40


def test_hard_links_were_replaced_not_written_through(world, server):
    """Writing a hard link inside the root leaves the outside inode alone: the new content is
    a new file at the inside name (checked_files.py renames over the link)."""
    server.run("write_file", {"path": w(world, "hard.txt"), "content": "new content"})
    with open(o(world, "hard_target.txt")) as handle:
        assert handle.read() == "hard_target.txt OLD\n"
    with open(w(world, "hard.txt")) as handle:
        assert handle.read() == "new content"
    assert os.stat(w(world, "hard.txt")).st_ino != os.stat(o(world, "hard_target.txt")).st_ino


def test_listing_shows_links_as_links_and_never_their_outside_contents(world, server):
    result = server.run("list_dir", {"path": world.write, "depth": 5})
    entries = {entry["path"]: entry["type"] for entry in result["structuredContent"]["entries"]}
    assert entries["link_dir"] == "symlink" and entries["rel_dir"] == "symlink"
    assert not any(path.startswith(("link_dir/", "rel_dir/")) for path in entries)
