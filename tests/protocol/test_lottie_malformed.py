"""A Lottie file whose parts are of the wrong type (a number where keys belong, a list where an
object does) is read, upgraded and made self-contained without an exception: the import of
such a file must end in a sentence or a drawing, never a traceback."""

import copy

from protocol.model.lottie_files import self_contained, unsupported
from tests.helpers.lottie_documents import old_bodymovin_square

WRONG = (7, "x", None, [], {}, [7, {"t": 0}], [{"t": 0}, 7, "x"])


def paths(node, here=()):
    """The path of every value inside `node`."""
    children = node.items() if isinstance(node, dict) else \
        enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        yield here + (key,)
        yield from paths(child, here + (key,))


def replaced(document, path, value):
    document = copy.deepcopy(document)
    node = document
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return document


def rich_old_file() -> dict:
    """An old Bodymovin file with every part an upgrade or a rule of lottie-web's touches:
    0..255 colours, old-style keys, a mask and a path closed by the shape, a text layer, an
    image asset, a font, a darken mask, 3D rotations, an unrounded rect."""
    document = old_bodymovin_square("4.0.0")
    layer = document["layers"][0]
    layer["ks"].update({"rx": {"k": 0}, "ry": {"k": 0}, "rz": {"k": 45}})
    layer["shapes"][0]["it"][0]["r"] = {"a": 0, "k": 0}
    layer["masksProperties"] = [{"cl": True, "mode": "d", "pt": {"k": [
        {"t": 0, "s": [{"v": [[0, 0]], "i": [[0, 0]], "o": [[0, 0]]}],
         "e": [{"v": [[1, 1]], "i": [[0, 0]], "o": [[0, 0]]}]}, {"t": 5}]}}]
    layer["shapes"][0]["it"].insert(0, {"ty": "sh", "closed": True, "ks": {"k": {
        "v": [[0, 0], [9, 0], [9, 9]], "i": [[0, 0]] * 3, "o": [[0, 0]] * 3}}})
    document["layers"].append({"ty": 5, "ind": 2, "ip": 0, "op": 60, "st": 0, "ks": {},
                               "t": {"d": {"t": "Hi", "f": "Sans", "s": 12},
                                     "p": {"a": 1, "p": 0, "r": 0}}})
    document["assets"] = [{"id": "i", "u": "images/", "p": "a.png"}]
    document["fonts"] = {"list": [{"fName": "Sans", "fPath": "/f.ttf"}]}
    return document


def test_every_part_of_the_wrong_type_is_read_without_an_exception():
    document = rich_old_file()
    checked = 0
    for path in paths(document):
        for value in WRONG:
            mangled = replaced(document, path, value)
            self_contained(mangled, {})
            unsupported(mangled)
            checked += 1
    assert checked > 500
