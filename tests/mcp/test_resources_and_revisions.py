"""Resources that follow the work (templates, subscriptions in both eras, completions) and the
2026-07-28 revision's details, driven by hand over stdio."""

import pytest

from tests.helpers.mcp_process import McpProcess

MODERN = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {}}
STEPS = [{"id": "comp.new", "params": {"name": "Intro / Act 1", "width": 160, "height": 90,
                                       "duration": 1}},
         {"id": "layer.add", "params": {"comp": "$0.comp", "type": "solid", "name": "Sky",
                                        "color": "#88aaff"}},
         {"id": "layer.add", "params": {"comp": "$0.comp", "type": "text", "name": "Title",
                                        "text": "Hello", "size": 20}},
         {"id": "renderQueue.add", "params": {"comp": "$0.comp", "output": "/tmp/never.mp4"}}]


@pytest.fixture
def server():
    process = McpProcess()
    yield process
    process.stop()


def answer(server, method, params=None):
    return server.wait_for(server.request(method, params))


def test_templates_read_a_queue_items_render_state_and_a_layer(server):
    server.run("command_batch", {"steps": STEPS})
    listed = answer(server, "resources/templates/list")["result"]["resourceTemplates"]
    assert [t["uriTemplate"] for t in listed] == [
        "rendervisor://renders/{item}", "rendervisor://layers/{comp}/{layer}"]
    item = answer(server, "resources/read", {"uri": "rendervisor://renders/1"})
    assert '"status": "queued"' in item["result"]["contents"][0]["text"]
    layer = answer(server, "resources/read",
                   {"uri": "rendervisor://layers/Intro%20%2F%20Act%201/Title"})
    assert '"name": "Title"' in layer["result"]["contents"][0]["text"]
    missing = answer(server, "resources/read", {"uri": "rendervisor://layers/Intro/Nope"})
    assert missing["error"]["code"] == -32002 and "there is no comp" in \
        missing["error"]["message"]


@pytest.mark.parametrize("name", ["%C2%B2", "1" * 5000])
def test_a_name_of_digits_no_index_can_be_is_a_name_not_found(server, name):
    # A superscript two is a digit to Python's isdigit but no int; 5000 digits are past int()'s
    # limit. Both are names, refused as resources not found, never an internal error.
    server.run("command_batch", {"steps": STEPS})
    for uri in (f"rendervisor://renders/{name}", f"rendervisor://layers/Intro%20%2F%20Act%201/"
                                                 f"{name}", f"rendervisor://layers/{name}/Sky"):
        missing = answer(server, "resources/read", {"uri": uri})
        assert missing["error"]["code"] == -32002, missing
        assert "there is no" in missing["error"]["message"]
    completed = answer(server, "completion/complete", {
        "ref": {"type": "ref/resource", "uri": "rendervisor://layers/{comp}/{layer}"},
        "argument": {"name": "layer", "value": ""}, "context": {"arguments": {"comp": name}}})
    assert completed["result"]["completion"]["values"] == []


def test_completions_offer_comp_layer_item_and_preset_names(server):
    server.run("command_batch", {"steps": STEPS})
    layer_ref = {"type": "ref/resource", "uri": "rendervisor://layers/{comp}/{layer}"}

    def values(ref, name, value, context=None):
        params = {"ref": ref, "argument": {"name": name, "value": value}}
        if context:
            params["context"] = {"arguments": context}
        return answer(server, "completion/complete", params)["result"]["completion"]["values"]

    assert values(layer_ref, "comp", "in") == ["Intro / Act 1"]
    assert values(layer_ref, "layer", "", {"comp": "Intro / Act 1"}) == ["Title", "Sky"]
    assert values({"type": "ref/resource", "uri": "rendervisor://renders/{item}"}, "item",
                  "") == ["item4"]
    prompt = {"type": "ref/prompt", "name": "animate-layer"}
    assert "fadeIn" in values(prompt, "preset", "fade")
    assert values(prompt, "layer", "s") == ["Sky"]
    initialized = server.initialize()["result"]
    assert initialized["capabilities"]["completions"] == {}


def test_a_subscribed_resource_is_told_of_each_edit_in_the_handshake_era(server):
    server.initialize()
    server.run("command_batch", {"steps": STEPS})
    uri = "rendervisor://layers/Intro%20%2F%20Act%201/Title"
    assert answer(server, "resources/subscribe", {"uri": uri})["result"] == {}
    assert answer(server, "resources/subscribe", {"uri": "rendervisor://document"})
    server.run("command_run", {"id": "layer.set", "params": {
        "comp": "Intro / Act 1", "layer": "Sky", "color": "#000000"}})
    server.wait_for_notification("notifications/resources/updated",
                                 lambda params: params["uri"] == "rendervisor://document")
    # the title did not change: only what reads differently is told
    assert [n for n in server.notifications("notifications/resources/updated")
            if n["params"]["uri"] == uri] == []
    server.run("command_run", {"id": "layer.set", "params": {
        "comp": "Intro / Act 1", "layer": "Title", "text": "Bye"}})
    server.wait_for_notification("notifications/resources/updated",
                                 lambda params: params["uri"] == uri)
    refused = answer(server, "resources/subscribe", {"uri": "rendervisor://nothing"})
    assert refused["error"]["code"] == -32002


def test_a_2026_listen_stream_is_acknowledged_tagged_and_answered_at_the_end(server):
    server.run("command_batch", {"steps": STEPS})
    stream = server.request("subscriptions/listen", {"_meta": MODERN, "notifications": {
        "resourceSubscriptions": ["rendervisor://renders/1", "rendervisor://nowhere"],
        "toolsListChanged": True}}, id="listen-1")
    ack = server.wait_for_notification("notifications/subscriptions/acknowledged")
    assert ack["_meta"]["io.modelcontextprotocol/subscriptionId"] == "listen-1"
    assert ack["notifications"] == {"resourceSubscriptions": ["rendervisor://renders/1"]}
    changed = server.run("command_run", {"id": "renderQueue.set", "params": {
        "item": 1, "output": "/tmp/other.mp4"}})
    assert not changed["isError"]
    updated = server.wait_for_notification("notifications/resources/updated")
    assert updated == {"uri": "rendervisor://renders/1",
                       "_meta": {"io.modelcontextprotocol/subscriptionId": "listen-1"}}
    server.close_stdin()
    closed = server.wait_for(stream)
    assert closed["result"]["resultType"] == "complete"
    assert closed["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "listen-1"


def test_the_2026_revision_exactly(server):
    discovered = answer(server, "server/discover", {"_meta": MODERN})["result"]
    assert "serverInfo" not in discovered
    assert discovered["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "rendervisor"
    assert discovered["capabilities"]["extensions"] == {"io.modelcontextprotocol/tasks": {}}
    assert "tasks" not in discovered["capabilities"]
    for method in ("ping", "logging/setLevel", "resources/subscribe", "initialize"):
        refused = answer(server, method, {"_meta": MODERN, "level": "info",
                                          "uri": "rendervisor://document"})
        assert refused["error"]["code"] == -32601, method
        assert "removed" in refused["error"]["message"]
    unknown = answer(server, "resources/read", {"_meta": MODERN, "uri": "rendervisor://nope"})
    assert unknown["error"]["code"] == -32602
    for method in ("tools/list", "resources/list", "prompts/list",
                   "resources/templates/list"):
        cursor = answer(server, method, {"_meta": MODERN, "cursor": "abc"})
        assert cursor["error"]["code"] == -32602 and "'abc'" in cursor["error"]["message"]
    tools = answer(server, "tools/list", {"_meta": MODERN})["result"]["tools"]
    assert all("execution" not in tool for tool in tools)
    # the handshake era keeps what it had
    assert answer(server, "ping")["result"] == {}
    assert answer(server, "resources/read", {"uri": "rendervisor://nope"})["error"][
        "code"] == -32002
    assert answer(server, "subscriptions/listen", {"notifications": {}})["error"][
        "code"] == -32601
