"""Output naming and clash rules (docs/outputs.md, "Names")."""

from __future__ import annotations

import pytest

from protocol.model.output_formats import (FORMATS, UnknownFormatError, formats_listing,
                                     output_format)
from protocol.model.output_names import (Clash, OutputNameError, PlannedOutput,
                                         assign_default_output, expand_comp_name, find_clash,
                                         format_for_output, frame_paths, numbered,
                                         output_for_new_item, planned_output, resolve_output,
                                         with_frame_field)

PROJECT = "/work/shots/film.rvproj"
CWD = "/home/me"


def resolve(output, fmt="h264", project=PROJECT, confined=False):
    return resolve_output(output, fmt, project, confined=confined, working_directory=CWD)


def comp(name="Main", duration=2.0, rate=30, id="comp1"):
    return {"id": id, "name": name, "duration": duration, "frameRate": rate}


def item(id, output, fmt="h264", frames=None, skip=False, comp_id="comp1"):
    return {"id": id, "comp": comp_id, "output": output, "format": fmt, "frames": frames,
            "skipExisting": skip, "codecOptions": {}, "status": "queued"}


def document(*items, comps=None):
    return {"comps": comps or [comp()], "renderQueue": list(items)}


def add(doc, output=None, fmt="h264", frames=None, the_comp=None, project=PROJECT):
    return output_for_new_item(doc, the_comp or doc["comps"][0], output, fmt, frames, project,
                               confined=False, working_directory=CWD)


# --- formats --------------------------------------------------------------------------------------

def test_every_format_has_its_extension_and_kind():
    assert {n: (f.extension, f.is_sequence) for n, f in FORMATS.items()} == {
        "png": (".png", True), "jpeg": (".jpg", True), "tiff": (".tif", True),
        "exr": (".exr", True), "h264": (".mp4", False),
        "hevc": (".mp4", False), "av1": (".mp4", False), "prores": (".mov", False),
        "vp9": (".webm", False),
        "gif": (".gif", False), "wav": (".wav", False)}


def test_formats_listing_says_codecs_alpha_profiles_and_defaults():
    listing = {f["format"]: f for f in formats_listing()}
    assert listing["prores"]["profiles"] == [
        {"name": "proxy", "alpha": False}, {"name": "lt", "alpha": False},
        {"name": "standard", "alpha": False}, {"name": "hq", "alpha": False},
        {"name": "4444", "alpha": True}, {"name": "4444xq", "alpha": True}]
    assert listing["vp9"]["alpha"] and listing["png"]["alpha"] and not listing["h264"]["alpha"]
    assert listing["h264"]["codec"] == "libx264" and listing["hevc"]["codec"] == "libx265"
    assert "crf" in listing["h264"]["defaultCodecOptions"]


def test_unknown_format_lists_the_known_ones():
    with pytest.raises(UnknownFormatError, match="png, jpeg, tiff, exr, h264, hevc, av1, prores, vp9, gif"):
        output_format("avi")


def test_format_follows_the_extension_and_must_agree_with_it():
    assert format_for_output("/a/x.mov", None) == "prores"
    assert format_for_output("/a/x_[##].JPEG", None) == "jpeg"
    assert format_for_output("/a/x.mp4", None) == "h264"
    assert format_for_output("/a/x.mp4", "hevc") == "hevc"
    assert format_for_output(None, None) == "h264"
    with pytest.raises(OutputNameError, match="ends in '.mp4' but format prores writes .mov"):
        format_for_output("/a/x.mp4", "prores")
    with pytest.raises(OutputNameError, match=r"'\.avi'"):
        format_for_output("/a/x.avi", None)


# --- patterns -------------------------------------------------------------------------------------

def test_frame_field_is_padded_to_the_count_of_hashes():
    assert frame_paths("/o/a_[####].png", [7, 12345]) == {7: "/o/a_0007.png",
                                                            12345: "/o/a_12345.png"}
    assert frame_paths("/o/[#]/f[###].png", [5]) == {5: "/o/5/f005.png"}


def test_comp_name_fills_every_comp_name_field():
    assert expand_comp_name("/o/[compName]/[compName]_v2.mov", "Title") == "/o/Title/Title_v2.mov"
    assert expand_comp_name("/o/[compName].mov", "a/b") == "/o/a_b.mov"


def test_sequence_without_frame_field_gets_one_before_its_extension():
    assert with_frame_field("/o/Main.png") == "/o/Main_[#####].png"
    assert with_frame_field("/o/Main_[##].png") == "/o/Main_[##].png"
    assert resolve("/o/Main.png", "png") == "/o/Main_[#####].png"
    assert resolve("/o/shot", "jpeg") == "/o/shot_[#####].jpg"


def test_video_output_cannot_have_a_frame_field():
    with pytest.raises(OutputNameError, match="remove the \\[#...\\] field"):
        resolve("/o/Main_[###].mp4")


# --- resolution -----------------------------------------------------------------------------------

def test_relative_outputs_resolve_against_the_saved_projects_folder():
    assert resolve("renders/[compName].mp4") == "/work/shots/renders/[compName].mp4"
    assert resolve("../out.mov", "prores") == "/work/out.mov"
    assert resolve("/abs/out.mp4") == "/abs/out.mp4"


def test_default_output_is_comp_name_with_extension_in_the_project_folder():
    assert resolve(None) == "/work/shots/[compName].mp4"
    assert resolve(None, "png") == "/work/shots/[compName]_[#####].png"
    assert add(document()) == "/work/shots/Main.mp4"
    assert add(document(), fmt="prores") == "/work/shots/Main.mov"


def test_unsaved_project_uses_the_working_directory_when_not_confined():
    assert resolve(None, project=None) == "/home/me/[compName].mp4"
    assert resolve("x.gif", "gif", project=None) == "/home/me/x.gif"


def test_unsaved_project_needs_an_absolute_output_while_confined():
    with pytest.raises(OutputNameError, match="project is unsaved; give an absolute output"):
        resolve(None, project=None, confined=True)
    with pytest.raises(OutputNameError, match="relative output 'x.mp4' needs"):
        resolve("x.mp4", project=None, confined=True)
    assert resolve("/w/x.mp4", project=None, confined=True) == "/w/x.mp4"


# --- numbering of default names ---------------------------------------------------------------

def test_default_name_another_item_writes_is_numbered():
    doc = document()
    first = add(doc)
    doc["renderQueue"].append(item("item1", first))
    second = add(doc)
    doc["renderQueue"].append(item("item2", second))
    third = add(doc)
    assert (first, second, third) == ("/work/shots/Main.mp4", "/work/shots/Main_1.mp4",
                                      "/work/shots/Main_2.mp4")


def test_numbering_looks_at_any_output_not_just_default_ones():
    # A hand-named item in another folder form still writes Main.mp4.
    doc = document(item("item1", "/work/shots/renders/../Main.mp4"))
    assert add(doc) == "/work/shots/Main_1.mp4"
    # An output written through [compName] counts once expanded with its comp's name.
    doc = document(item("item1", "/work/shots/[compName].mp4"))
    assert add(doc) == "/work/shots/Main_1.mp4"
    other = comp("Other", id="comp2")
    doc = document(item("item1", "/work/shots/[compName].mp4", comp_id="comp2"),
                   comps=[comp(), other])
    assert add(doc) == "/work/shots/Main.mp4"


def test_a_given_name_is_never_numbered():
    doc = document(item("item1", "/work/shots/Main.mp4"))
    assert add(doc, output="Main.mp4") == "/work/shots/Main.mp4"


def test_sequences_are_compared_by_the_frames_they_write():
    doc = document(item("item1", "/work/shots/Main_[#####].png", "png", frames="0-29"))
    assert add(doc, fmt="png", frames="30-59") == "/work/shots/Main_[#####].png"
    assert add(doc, fmt="png", frames="29") == "/work/shots/Main_1_[#####].png"
    assert add(doc, fmt="png") == "/work/shots/Main_1_[#####].png"  # whole comp: 0-59


def test_two_stills_of_one_comp_at_different_times_keep_their_names():
    doc = document()
    still_a = add(doc, fmt="png", frames="10")
    doc["renderQueue"].append(item("item1", still_a, "png", frames="10"))
    still_b = add(doc, fmt="png", frames="45")
    assert still_a == still_b == "/work/shots/Main_[#####].png"
    doc["renderQueue"].append(item("item2", still_b, "png", frames="45"))
    assert find_clash(planned_output(i, comp()) for i in doc["renderQueue"]) is None
    # The same time again is another matter.
    assert add(doc, fmt="png", frames="10") == "/work/shots/Main_1_[#####].png"


def test_different_padding_names_different_files():
    doc = document(item("item1", "/work/shots/Main_[###].png", "png"))
    assert add(doc, fmt="png") == "/work/shots/Main_[#####].png"


def test_numbered_puts_the_number_before_the_frame_field():
    assert numbered("/o/Main.mp4", 2) == "/o/Main_2.mp4"
    assert numbered("/o/Main_[#####].png", 1) == "/o/Main_1_[#####].png"
    assert numbered("/o/Main[##].png", 3) == "/o/Main_3[##].png"
    assert numbered("/o/Main.mp4", 0) == "/o/Main.mp4"


def test_assign_default_output_for_a_video_ignores_other_items_frames():
    others = [PlannedOutput("item1", "/o/Main.gif", False)]
    assert assign_default_output("/o/[compName].gif", "Main", None, others) == "/o/Main_1.gif"


# --- clashes --------------------------------------------------------------------------------------

def planned(*items, the_comp=None):
    return [planned_output(i, the_comp or comp()) for i in items]


def test_two_videos_to_one_file_clash_naming_both_items():
    clash = find_clash(planned(item("item1", "/o/a.mp4"), item("item2", "/o/x/../a.mp4")))
    assert clash == Clash("item1", "item2", "/o/a.mp4", 1)
    assert "items item1 and item2 both write /o/a.mp4" in clash.message


def test_comp_name_outputs_clash_once_expanded():
    clash = find_clash([planned_output(item("item1", "/o/[compName].mp4"), comp("A")),
                        planned_output(item("item2", "/o/A.mp4", comp_id="c2"), comp("A", id="c2"))])
    assert clash is not None
    assert find_clash([planned_output(item("item1", "/o/[compName].mp4"), comp("A")),
                       planned_output(item("item2", "/o/[compName].mp4"), comp("B"))]) is None


def test_sequences_clash_only_on_frames_both_write():
    assert find_clash(planned(item("item1", "/o/f_[####].png", "png", frames="0-9"),
                              item("item2", "/o/f_[####].png", "png", frames="10-19"))) is None
    clash = find_clash(planned(item("item1", "/o/f_[####].png", "png", frames="0-9"),
                               item("item2", "/o/f_[####].png", "png", frames="5-19")))
    assert (clash.first, clash.second, clash.path, clash.shared) == (
        "item1", "item2", "/o/f_0005.png", 5)
    assert "and 4 more" in clash.message


def test_skip_existing_leaves_an_earlier_items_frames_alone():
    earlier = item("item1", "/o/f_[####].png", "png", frames="0-9")
    later = item("item2", "/o/f_[####].png", "png", frames="5-19", skip=True)
    assert find_clash(planned(earlier, later)) is None
    # The other way round the later item overwrites: skipExisting on the earlier one does not help.
    earlier_skip = dict(earlier, skipExisting=True)
    later_plain = dict(later, skipExisting=False)
    assert find_clash(planned(earlier_skip, later_plain)).second == "item2"


def test_items_refused_for_missing_footage_take_no_part():
    items = planned(item("item1", "/o/a.mp4"), item("item2", "/o/a.mp4"),
                    item("item3", "/o/b.mp4"))
    assert find_clash(items, excluded={"item1"}) is None
    assert find_clash(items, excluded={"item3"}).first == "item1"


def test_first_clash_in_render_order_is_reported():
    clash = find_clash(planned(item("item1", "/o/a.mp4"), item("item2", "/o/b.mp4"),
                               item("item3", "/o/b.mp4"), item("item4", "/o/a.mp4")))
    assert (clash.first, clash.second) == ("item2", "item3")
