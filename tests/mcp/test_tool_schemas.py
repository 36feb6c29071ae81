"""Typed results: every tool's input schema is JSON Schema 2020-12 that strict validators accept
(no type arrays), every tool that answers JSON declares an outputSchema, and every answer it
gives validates against it (checked with jsonschema, an implementation of its own)."""

import base64
import struct
import wave

import pytest
from jsonschema import Draft202012Validator

from supervisor.mcp.tools.registry import TOOLS
from tests.helpers.mcp_process import McpProcess


def schemas_in(schema):
    """Every subschema, the schema itself first."""
    yield schema
    for key, value in schema.items():
        if key in ("properties", "$defs"):
            for sub in value.values():
                yield from schemas_in(sub)
        elif key in ("items", "additionalProperties", "not") and isinstance(value, dict):
            yield from schemas_in(value)
        elif key in ("anyOf", "oneOf", "allOf"):
            for sub in value:
                yield from schemas_in(sub)


@pytest.mark.parametrize("name", sorted(TOOLS))
def test_every_input_and_output_schema_is_2020_12_without_type_arrays(name):
    tool = TOOLS[name]
    for schema in (tool.input_schema, tool.output):
        if schema is None:
            continue
        Draft202012Validator.check_schema(schema)
        arrays = [sub for sub in schemas_in(schema) if isinstance(sub.get("type"), list)]
        assert arrays == [], f"{name} uses a type array (ajv strict refuses it): {arrays}"
        # ajv strict: a keyword that applies to one type sits beside that type
        for sub in schemas_in(schema):
            if "properties" in sub or "required" in sub:
                assert sub.get("type") == "object", (name, sub)
            if "items" in sub:
                assert sub.get("type") == "array", (name, sub)
            if {"minimum", "maximum", "exclusiveMinimum"} & set(sub):
                assert sub.get("type") in ("number", "integer"), (name, sub)


def test_only_read_file_answers_without_json():
    assert [name for name, tool in TOOLS.items() if tool.output is None] == ["read_file"]


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    folder = tmp_path_factory.mktemp("typed")
    server = McpProcess()
    server.initialize()
    listed = server.wait_for(server.request("tools/list"))["result"]["tools"]
    yield server, folder, {tool["name"]: tool for tool in listed}
    server.stop()


def tone(path, seconds=1.0, rate=8000):
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(b"".join(struct.pack("<h", 8000 if i % 20 < 10 else -8000)
                                 for i in range(int(seconds * rate))))


def test_every_tools_result_validates_against_its_declared_output_schema(session):
    server, folder, listed = session
    (folder / "notes.txt").write_text("alpha\nbeta\n")
    tone(folder / "tone.wav")
    steps = [
        {"id": "comp.new", "params": {"name": "Main", "width": 160, "height": 90,
                                      "duration": 1, "background": "#223344"}},
        {"id": "layer.add", "params": {"comp": "$0.comp", "type": "text", "name": "Title",
                                       "text": "Hi", "size": 20, "fill": "#ffffff"}},
        {"id": "layer.add", "params": {"comp": "$0.comp", "type": "audio",
                                       "path": str(folder / "tone.wav")}},
        {"id": "renderQueue.add", "params": {"comp": "$0.comp",
                                             "output": str(folder / "main.mp4")}},
    ]
    calls = [
        ("write_file", {"path": str(folder / "new.txt"), "content": "x"}),
        ("edit_file", {"path": str(folder / "notes.txt"), "old_string": "beta",
                       "new_string": "gamma"}),
        ("list_dir", {"path": str(folder)}),
        ("search_files", {"path": str(folder), "content": "gam"}),
        ("shell", {"command": "echo typed"}),
        ("command_list", {"filter": "layer."}),
        ("command_list", {"compact": True}),
        ("command_batch", {"steps": steps}),
        ("command_batch", {"steps": [{"id": "layer.add", "params": {"comp": "Main",
                                                                   "type": "nope"}}],
                           "atomic": True}),
        ("command_run", {"id": "comp.list"}),
        ("doc_inspect", {}),
        ("render_preview", {"comp": "Main", "max_side": 64}),
        ("audio_levels", {"comp": "Main"}),
        ("render_filmstrip", {"comp": "Main", "count": 2, "max_side": 256}),
        ("layout_check", {"comp": "Main"}),
        ("render_start", {}),
    ]
    checked = set()
    for tool, arguments in calls:
        result = server.run(tool, arguments, timeout=120)
        failing = tool == "command_batch" and bool(arguments.get("atomic"))
        assert result["isError"] is failing, (tool, result["content"][0])
        schema = listed[tool]["outputSchema"]
        Draft202012Validator(schema).validate(result["structuredContent"])
        checked.add(tool)
    job = result["structuredContent"]["job"]
    status = {"state": "rendering"}
    while status["state"] == "rendering":
        answer = server.run("render_status", {"job": job, "wait": 20}, timeout=120)
        status = answer["structuredContent"]
        Draft202012Validator(listed["render_status"]["outputSchema"]).validate(status)
    checked.add("render_status")
    assert status["state"] == "done" and status["progress"] == status["total"] == 30
    (link,) = [block for block in answer["content"] if block["type"] == "resource_link"]
    assert link["uri"] == (folder / "main.mp4").as_uri() and link["mimeType"] == "video/mp4"
    assert link["size"] == (folder / "main.mp4").stat().st_size
    (thumbnail,) = [block for block in answer["content"] if block["type"] == "image"]
    assert base64.b64decode(thumbnail["data"])[:3] == b"\xff\xd8\xff"  # a JPEG
    assert checked == set(TOOLS) - {"read_file"}
