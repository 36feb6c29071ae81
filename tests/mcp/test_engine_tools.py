"""The engine MCP tools: called directly with a session holding an Engine, and end to end
through a real `rendervisor mcp` process."""

import io
import json

import pytest

from supervisor.engine.engine import Engine
from supervisor.mcp.tools import engine_tools
from supervisor.mcp.tools.registry import TOOLS, CallContext, ToolError

ENGINE_TOOLS = ("command_list", "command_run", "command_batch", "doc_inspect")


class Session:
    def __init__(self):
        self.engine = Engine()


def call(session, name, **args):
    return TOOLS[name].handler(args, CallContext(session=session))


def test_tools_are_declared_with_titles_hints_and_closed_schemas():
    for name in ENGINE_TOOLS:
        listing = TOOLS[name].listing()
        assert listing["title"] and listing["annotations"]["title"] == listing["title"]
        assert listing["inputSchema"]["additionalProperties"] is False
        # Edits and reads take the quick lane; only a call that renders and waits goes long.
        assert TOOLS[name].lane_for({"id": "comp.list", "steps": [{"id": "comp.list"}]}) == "quick"
        for hint in ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"):
            assert isinstance(listing["annotations"][hint], bool)
    assert TOOLS["command_run"].lane_for({"id": "renderQueue.render"}) == "render"
    assert TOOLS["command_run"].lane_for({"id": "renderQueue.render",
                                          "params": {"wait": False}}) == "quick"
    assert TOOLS["command_batch"].lane_for(
        {"steps": [{"id": "comp.new"}, {"id": "renderQueue.render"}]}) == "render"
    assert TOOLS["command_list"].read_only and TOOLS["doc_inspect"].read_only
    assert not TOOLS["command_run"].read_only and TOOLS["command_run"].destructive


def test_command_run_returns_the_result_and_errors_become_tool_errors():
    session = Session()
    assert call(session, "command_run", id="comp.new", params={"name": "Main"})["name"] == "Main"
    with pytest.raises(ToolError, match="comp.new does not take 'fps'; it takes name"):
        call(session, "command_run", id="comp.new", params={"fps": 3})
    with pytest.raises(ToolError, match="there is no engine command 'comp.make'"):
        call(session, "command_run", id="comp.make")


def test_command_list_filters_and_shapes():
    session = Session()
    full = call(session, "command_list")
    assert full["count"] == len(full["commands"]) >= 40
    ids = {c["id"] for c in full["commands"]}
    for required in ("project.new", "project.open", "project.save", "project.info", "comp.new",
                     "comp.set", "comp.remove", "comp.duplicate", "comp.list",
                     "comp.saveFrameAs", "layer.add", "layer.set", "layer.remove",
                     "layer.duplicate", "layer.move", "layer.list", "prop.set", "prop.addKey",
                     "prop.removeKey", "prop.get", "effect.add", "effect.set", "effect.remove",
                     "footage.import", "footage.list", "footage.replace", "footage.remove",
                     "renderQueue.add", "renderQueue.set", "renderQueue.list",
                     "renderQueue.remove", "renderQueue.duplicate", "renderQueue.formats",
                     "renderQueue.render", "renderQueue.stop", "render.preRender",
                     "file.createProxy", "edit.undo", "edit.redo", "edit.history"):
        assert required in ids
    layers = call(session, "command_list", filter="layer.")
    assert {c["id"] for c in layers["commands"]} >= {"layer.add", "layer.move"}
    assert all("layer" in json.dumps(c).lower() for c in layers["commands"])
    with_schemas = call(session, "command_list", filter="prop.addKey", schemas=True)
    schema = with_schemas["commands"][0]["schema"]
    assert schema["required"] == ["comp", "layer", "path", "time", "value"]
    assert schema["additionalProperties"] is False
    compact = call(session, "command_list", compact=True)
    assert "layer.move {comp, layer, index}" in compact["commands"]
    enabled = call(session, "command_list", enabled_only=True)
    assert "renderQueue.render" not in {c["id"] for c in enabled["commands"]}


def test_command_batch_with_a_failed_step_has_per_step_results():
    session = Session()
    result = call(session, "command_batch", steps=[
        {"id": "comp.new", "params": {"name": "Main"}},
        {"id": "layer.add", "params": {"comp": "$0.comp", "type": "bogus"}},
    ])
    assert result["failed"] == 1 and result["completed"] == 1
    assert result["results"][1]["status"] == "failed"
    assert "type must be one of" in result["results"][1]["error"]


def test_the_resources_equal_doc_inspect_and_command_list():
    session = Session()
    call(session, "command_run", id="comp.new", params={"name": "Main"})
    call(session, "command_run", id="layer.add", params={"comp": "Main", "type": "null"})
    assert engine_tools.document_resource(session) == call(session, "doc_inspect")
    assert engine_tools.commands_resource(session) == call(session, "command_list")
    overview = call(session, "doc_inspect")
    assert overview["project"]["comps"] == 1
    assert overview["comps"][0]["layers"][0]["name"] == "Null 1"


def test_the_cli_catalog_prints_text_and_json():
    text = io.StringIO()
    engine_tools.print_catalog(False, text)
    assert "layer.add" in text.getvalue() and "(disabled)" not in text.getvalue()
    as_json = io.StringIO()
    engine_tools.print_catalog(True, as_json)
    catalog = json.loads(as_json.getvalue())
    assert catalog["count"] == len(catalog["commands"])
    assert all("schema" in c and "enabled" not in c for c in catalog["commands"])


def test_engine_tools_end_to_end_through_the_mcp_server(server, tmp_path):
    tools = server.wait_for(server.request("tools/list", {}))["result"]["tools"]
    assert set(ENGINE_TOOLS) <= {t["name"] for t in tools}
    result = server.run("command_batch", {"steps": [
        {"id": "comp.new", "params": {"name": "Main", "width": 320, "height": 240}},
        {"id": "layer.add", "params": {"comp": "$0.comp", "type": "text", "text": "hi"}},
        {"id": "project.save", "params": {"path": str(tmp_path / "p.rvproj")}},
    ]})
    assert result["isError"] is False
    assert result["structuredContent"]["completed"] == 3
    failed = server.run("command_batch", {"steps": [{"id": "layer.add", "params": {
        "comp": "Nope", "type": "null"}}]})
    assert failed["isError"] is True
    assert failed["structuredContent"]["results"][0]["status"] == "failed"
    bad = server.run("command_run", {"id": "comp.set", "params": {"comp": "Main", "w": 1}})
    assert bad["isError"] is True and "comp.set does not take 'w'" in bad["content"][0]["text"]
    inspected = server.run("doc_inspect", {})["structuredContent"]
    document = server.wait_for(server.request("resources/read", {
        "uri": "rendervisor://document"}))["result"]["contents"][0]
    assert json.loads(document["text"]) == inspected
    assert inspected["project"]["path"] == str(tmp_path / "p.rvproj")


def test_mcp_project_flag_opens_the_project_at_start(tmp_path):
    from tests.helpers.mcp_process import McpProcess

    engine = Engine()
    engine.run("comp.new", {"name": "Opened"})
    engine.run("project.save", {"path": str(tmp_path / "start.rvproj")})
    process = McpProcess("--project", str(tmp_path / "start.rvproj"))
    try:
        process.initialize()
        overview = process.run("doc_inspect", {})["structuredContent"]
        assert [c["name"] for c in overview["comps"]] == ["Opened"]
        assert overview["project"]["path"] == str(tmp_path / "start.rvproj")
    finally:
        process.stop()
