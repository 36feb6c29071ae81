"""What Lottie files' expressions read, as lottie-web gives it to them, evaluated by lottie.bake:
a shape layer's contents by name (`content("Shape 1").content("Path 1").path`), a path's
points and the points along it, a layer's space (`toComp`, `fromComp`), effects and their
params by match name, a layer called as a function, a property's group. Each test bakes a
small animation and reads the keys it got."""

import pytest

from tests.helpers.lottie_documents import animation, shape_layer
from workers.expressions.lottie_bake import bake


def square_path(left=0, top=0, side=10):
    corners = [[left, top], [left + side, top], [left + side, top + side], [left, top + side]]
    return {"c": True, "v": corners, "i": [[0, 0]] * 4, "o": [[0, 0]] * 4}


def path_group(name, path, rotation=0, expressions=None):
    """A group named `name` holding "Path 1" (`path`), a fill and a transform turned by
    `rotation`; `expressions` puts an expression on the path ("path") or the rotation."""
    expressions = expressions or {}
    shape = {"ty": "sh", "nm": "Path 1", "mn": "ADBE Vector Shape - Group",
             "ks": {"a": 0, "k": path, "ix": 2}}
    turn = {"a": 0, "k": rotation, "ix": 6}
    if "path" in expressions:
        shape["ks"]["x"] = expressions["path"]
    if "rotation" in expressions:
        turn["x"] = expressions["rotation"]
    return {"ty": "gr", "nm": name, "mn": "ADBE Vector Group", "ix": 1, "it": [
        shape, {"ty": "fl", "nm": "Fill 1", "c": {"a": 0, "k": [1, 0, 0, 1]},
                "o": {"a": 0, "k": 100}},
        {"ty": "tr", "nm": "Transform", "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]},
         "s": {"a": 0, "k": [100, 100]}, "r": turn, "o": {"a": 0, "k": 100}}]}


def baked_value(prop, frame=0):
    """The value a baked property holds at `frame` (its hold key there)."""
    assert "x" not in prop, "the expression was not baked"
    value = next(key for key in prop["k"] if key["t"] == frame)["s"]
    return value[0] if len(value) == 1 else value


def bake_cleanly(document):
    baked, report = bake(document)
    assert report["failed"] == [], report["failed"]
    return baked


def test_content_finds_a_group_s_path_and_transform_by_name():
    layer = shape_layer(1, "rc", (10, 10), (1, 0, 0), (50, 50), (50, 50))
    layer["shapes"] = [
        path_group("Shape 1", square_path(5, 5, 20), rotation=30),
        path_group("Shape 2", square_path(), expressions={
            "path": "var $bm_rt;\n$bm_rt = content('Shape 1').content('Path 1').path;",
            "rotation": "var $bm_rt;\n$bm_rt = content('Shape 1').transform.rotation;"})]
    baked = bake_cleanly(animation([layer]))
    copied = baked["layers"][0]["shapes"][1]["it"]
    assert baked_value(copied[0]["ks"])["v"] == square_path(5, 5, 20)["v"]
    assert baked_value(copied[2]["r"]) == 30


def test_a_path_is_rebuilt_from_its_points_with_one_moved_to_a_null_layer_s_place():
    """As After Effects' "create nulls from paths" writes it: a Layer Control effect per
    vertex, read by match name, the null's anchor carried to the comp and back into the
    shape's layer, the path made again with createPath."""
    null = {"ddd": 0, "ind": 2, "ty": 3, "nm": "Null 1", "sr": 1, "ip": 0, "op": 60, "st": 0,
            "ks": {"o": {"a": 0, "k": 0}, "r": {"a": 0, "k": 0},
                   "p": {"a": 0, "k": [70, 40, 0]}, "a": {"a": 0, "k": [0, 0, 0]},
                   "s": {"a": 0, "k": [100, 100, 100]}}}
    layer = shape_layer(1, "rc", (10, 10), (1, 0, 0), (50, 30), (50, 30))
    layer["ks"]["s"] = {"a": 0, "k": [200, 200, 100]}
    layer["ef"] = [{"ty": 5, "nm": "Path 1 [1.1]", "mn": "ADBE Layer Control", "ef": [
        {"ty": 10, "nm": "Layer", "mn": "ADBE Layer Control-0001", "v": {"a": 0, "k": 2}}]}]
    layer["shapes"] = [path_group("Shape 1", square_path(), expressions={"path": (
        "var $bm_rt;\nvar p = thisProperty, points = p.points();\n"
        "var nullLayer = effect('Path 1 [1.1]')('ADBE Layer Control-0001');\n"
        "points[1] = fromCompToSurface(nullLayer.toComp(nullLayer.anchorPoint));\n"
        "$bm_rt = createPath(points, p.inTangents(), p.outTangents(), p.isClosed());")})]
    baked = bake_cleanly(animation([layer, null]))
    path = baked_value(baked["layers"][0]["shapes"][0]["it"][0]["ks"])
    # (70, 40) in the comp is (10, 5) in a layer at (50, 30) scaled 200%
    assert path["v"] == [[0, 0], [10, 5], [10, 10], [0, 10]]
    assert path["c"] is True and path["i"] == [[0, 0]] * 4


def test_a_layer_follows_a_point_along_another_layer_s_path_by_match_names():
    """dna.json's trace: the point at an effect's fraction along a path, the path found by
    calling its layer with match names, carried into the comp."""
    bar = shape_layer(1, "rc", (10, 10), (1, 0, 0), (100, 50), (100, 50))
    bar["nm"] = "bar"
    bar["ks"]["r"] = {"a": 0, "k": 90}
    line = {"c": False, "v": [[0, 0], [40, 0]], "i": [[0, 0]] * 2, "o": [[0, 0]] * 2}
    bar["shapes"] = path_group("Shape 1", line)["it"]  # the path at the layer's top level
    dot = shape_layer(2, "el", (10, 10), (0, 0, 1), (0, 0), (0, 0))
    dot["ef"] = [{"ty": 5, "nm": "Trace Path", "mn": "Pseudo/ADBE Trace Path", "ef": [
        {"ty": 0, "nm": "Progress", "mn": "Pseudo/ADBE Trace Path-0001",
         "v": {"a": 1, "k": [{"t": 0, "s": [0], "i": {"x": [1], "y": [1]},
                              "o": {"x": [0], "y": [0]}}, {"t": 60, "s": [100]}]}}]}]
    dot["ks"]["p"]["x"] = (
        "var $bm_rt;\nvar pathLayer = thisComp.layer('bar');\n"
        "var progress = div(thisLayer.effect('Pseudo/ADBE Trace Path')"
        "('Pseudo/ADBE Trace Path-0001'), 100);\n"
        "var pathToTrace = pathLayer('ADBE Root Vectors Group')(1)('ADBE Vector Shape');\n"
        "$bm_rt = pathLayer.toComp(pathToTrace.pointOnPath(progress));")
    baked = bake_cleanly(animation([bar, dot]))
    # at frame 30, half way along the 40 px line, turned 90 degrees about the bar's place
    assert baked_value(baked["layers"][1]["ks"]["p"], 30) == pytest.approx([100, 70], abs=0.01)


def test_a_property_s_group_a_trim_s_end_and_mod():
    """mnemonics.json reads its own trim's end through propertyGroup(1), and bodymovin writes
    % as mod()."""
    layer = shape_layer(1, "rc", (10, 10), (1, 0, 0), (50, 50), (50, 50))
    trim = {"ty": "tm", "nm": "Trim Paths 1", "mn": "ADBE Vector Filter - Trim",
            "s": {"a": 0, "k": 0, "ix": 1}, "e": {"a": 0, "k": 40, "ix": 2},
            "o": {"a": 0, "k": 0, "ix": 3,
                  "x": "var $bm_rt;\n$bm_rt = mod(mul(thisProperty.propertyGroup(1).end, 10), 360)"
                       " + thisProperty.propertyIndex;"}}
    layer["shapes"].append(trim)
    baked = bake_cleanly(animation([layer]))
    assert baked_value(baked["layers"][0]["shapes"][1]["o"]) == 40 * 10 % 360 + 3


def test_a_precomp_s_time_remap_loops():
    precomp = shape_layer(1, "rc", (10, 10), (1, 0, 0), (50, 50), (50, 50))
    holder = {"ddd": 0, "ind": 1, "ty": 0, "nm": "holder", "refId": "inner", "sr": 1,
              "ip": 0, "op": 60, "st": 0, "w": 100, "h": 100,
              "ks": {"o": {"a": 0, "k": 100}, "r": {"a": 0, "k": 0},
                     "p": {"a": 0, "k": [50, 50, 0]}, "a": {"a": 0, "k": [50, 50, 0]},
                     "s": {"a": 0, "k": [100, 100, 100]}},
              "tm": {"a": 1, "x": "var $bm_rt;\n$bm_rt = loopOut('cycle');",
                     "k": [{"t": 0, "s": [0], "i": {"x": [1], "y": [1]},
                            "o": {"x": [0], "y": [0]}}, {"t": 20, "s": [1]}]}}
    document = animation([holder], assets=[{"id": "inner", "layers": [precomp]}])
    baked = bake_cleanly(document)
    # frame 30 plays as frame 10 of the 20-frame cycle: half way from 0 to 1 s
    assert baked_value(baked["layers"][0]["tm"], 30) == pytest.approx(0.5)


def test_what_a_lottie_file_s_expression_cannot_find_is_named():
    layer = shape_layer(1, "rc", (10, 10), (1, 0, 0), (50, 50), (50, 50))
    layer["shapes"] = [path_group("Shape 2", square_path(), expressions={
        "path": "content('Shape 9').content('Path 1').path"})]
    _, report = bake(animation([layer]))
    assert report["baked"] == 0
    assert 'has no content "Shape 9"; it has "Shape 2"' in report["failed"][0]


def test_an_expression_that_keeps_asking_fails_with_a_sentence_for_every_frame(monkeypatch):
    """A bake evaluates a whole animation's frames at once; one whose runs kept asking for
    values past the bound stopped the bake with a KeyError instead of failing its expression."""
    from workers.expressions import sandbox

    monkeypatch.setattr(sandbox, "MAX_RUNS", 1)  # every run that asks anything is one too many
    layer = shape_layer(1, "rc", (10, 10), (1, 0, 0), (50, 50), (50, 50))
    other = shape_layer(2, "rc", (10, 10), (1, 0, 0), (50, 50), (80, 50))
    layer["ks"]["p"]["x"] = "thisComp.layer('shape 2').transform.position"
    _, report = bake(animation([layer, other]))
    assert report["baked"] == 0
    assert "asked for values at too many times (1 rounds of questions)" in report["failed"][0]


def test_value_follows_a_curved_motion_path_as_lottie_web_moves_along_it():
    """leap_frog_loader.json's frogs jump along curved motion paths (keys with spatial
    tangents); baked, their expressions read `value` along a straight line instead."""
    layer = shape_layer(1, "rc", (10, 10), (1, 0, 0), (0, 0), (0, 0))
    # From (0, 0) to (100, 0), leaving straight up and arriving from straight above: a hump.
    layer["ks"]["p"] = {"a": 1, "x": "var $bm_rt;\n$bm_rt = value;", "k": [
        {"t": 0, "s": [0, 0, 0], "to": [0, -60, 0], "ti": [0, -60, 0],
         "i": {"x": 1, "y": 1}, "o": {"x": 0, "y": 0}},
        {"t": 30, "s": [100, 0, 0]}]}
    baked = bake_cleanly(animation([layer]))
    x, y, _ = baked_value(baked["layers"][0]["ks"]["p"], 15)
    # half way along the symmetric hump's length is its top: x 50, y -45 (3/4 of 60)
    assert x == pytest.approx(50, abs=0.01) and y == pytest.approx(-45, abs=0.01)


def test_a_precomp_shown_from_later_in_its_time_is_baked_over_the_frames_shown():
    """dna.json shows one precomp many times, each started up to 156 frames earlier; baked
    over the main comp's frames only, every later frame held the last value."""
    inner = shape_layer(1, "rc", (10, 10), (1, 0, 0), (50, 50), (50, 50), last=120)
    inner["ks"]["r"]["x"] = "time * 10"
    holder = {"ddd": 0, "ind": 1, "ty": 0, "nm": "holder", "refId": "inner", "sr": 1,
              "ip": 0, "op": 30, "st": -45, "w": 100, "h": 100,
              "ks": {"o": {"a": 0, "k": 100}, "r": {"a": 0, "k": 0},
                     "p": {"a": 0, "k": [50, 50, 0]}, "a": {"a": 0, "k": [50, 50, 0]},
                     "s": {"a": 0, "k": [100, 100, 100]}}}
    document = animation([holder], last=30, assets=[{"id": "inner", "layers": [inner]}])
    keys = bake_cleanly(document)["assets"][0]["layers"][0]["ks"]["r"]["k"]
    # the main comp's frames 0 to 29 show the precomp's 45 to 74
    assert (keys[0]["t"], keys[-1]["t"]) == (45, 74)
    assert baked_value({"k": keys}, 60) == pytest.approx(20)


def test_a_3d_layer_s_z_rotation_carries_its_points_into_the_comp():
    """mnemonics.json's lines are 3D layers turned by `rz`: their circles, placed by
    toComp, sat off the turned lines."""
    line = shape_layer(1, "rc", (10, 10), (1, 0, 0), (100, 100), (100, 100))
    line["nm"], line["ddd"] = "line", 1
    del line["ks"]["r"]
    line["ks"]["rz"] = {"a": 0, "k": 90}
    dot = shape_layer(2, "el", (10, 10), (0, 0, 1), (0, 0), (0, 0))
    dot["ks"]["p"]["x"] = "thisComp.layer('line').toComp([20, 0])"
    baked = bake_cleanly(animation([line, dot]))
    assert baked_value(baked["layers"][1]["ks"]["p"]) == pytest.approx([100, 120])


def test_a_rig_finds_layers_by_the_names_lottie_web_keeps_in_name():
    """mughead.json's rubber-hose rig names its controller by a content item's `_name` and
    reads `thisLayer._name`."""
    layer = shape_layer(1, "rc", (10, 10), (1, 0, 0), (50, 50), (50, 50))
    layer["nm"] = "hose::A"
    layer["shapes"] = [path_group("Shape 1", square_path())]
    layer["ks"]["o"]["x"] = ("var $bm_rt;\n$bm_rt = thisLayer(2)(1)._name.length * 10 + "
                             "thisLayer._name.split('::')[0].length;")
    baked = bake_cleanly(animation([layer]))
    assert baked_value(baked["layers"][0]["ks"]["o"]) == 7 * 10 + 4
