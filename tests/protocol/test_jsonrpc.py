"""protocol/wire/jsonrpc.py and protocol/wire/mcp_versions.py, driven with bytes and dicts alone."""

import json

from protocol.wire import jsonrpc, mcp_versions


def test_a_request_parses_with_its_id_method_and_params():
    message = jsonrpc.parse_line(b'{"jsonrpc":"2.0","id":7,"method":"ping","params":{"a":1}}')
    assert message == jsonrpc.Request(7, "ping", {"a": 1})


def test_a_message_without_id_is_a_notification():
    message = jsonrpc.parse_line(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
    assert message == jsonrpc.Notification("notifications/initialized", {})


def test_malformed_json_is_a_parse_error_with_null_id():
    message = jsonrpc.parse_line(b'{"jsonrpc":')
    assert isinstance(message, jsonrpc.Invalid)
    assert message.reply["id"] is None
    assert message.reply["error"]["code"] == jsonrpc.PARSE_ERROR


def test_invalid_utf8_is_a_parse_error():
    message = jsonrpc.parse_line(b'{"jsonrpc":"2.0","id":1,"method":"\xff"}')
    assert message.reply["error"]["code"] == jsonrpc.PARSE_ERROR


def test_deep_nesting_is_refused_not_crashed():
    message = jsonrpc.parse_line(b"[" * 100000 + b"]" * 100000)
    assert isinstance(message, jsonrpc.Invalid)
    assert message.reply["error"]["code"] in (jsonrpc.PARSE_ERROR, jsonrpc.INVALID_REQUEST)


def test_a_batch_array_is_an_invalid_request():
    message = jsonrpc.parse_line(b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]')
    assert message.reply["error"]["code"] == jsonrpc.INVALID_REQUEST


def test_a_request_without_method_keeps_its_id_in_the_error():
    message = jsonrpc.parse_line(b'{"jsonrpc":"2.0","id":"x"}')
    assert message.reply == jsonrpc.error("x", jsonrpc.INVALID_REQUEST,
                                          message.reply["error"]["message"])


def test_a_response_sent_to_the_server_is_recognised_and_not_answered():
    assert jsonrpc.parse_line(b'{"jsonrpc":"2.0","id":3,"result":{}}') == jsonrpc.Response(3)


def test_params_must_be_an_object():
    message = jsonrpc.parse_line(b'{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}')
    assert message.reply["error"]["code"] == jsonrpc.INVALID_PARAMS


def test_boolean_and_float_ids_are_refused():
    for raw in (b'{"jsonrpc":"2.0","id":true,"method":"ping"}',
                b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}'):
        assert jsonrpc.parse_line(raw).reply["error"]["code"] == jsonrpc.INVALID_REQUEST


def test_encode_is_one_line_and_refuses_nan():
    line = jsonrpc.encode({"text": "a\nb"})
    assert line.count(b"\n") == 1 and json.loads(line) == {"text": "a\nb"}
    try:
        jsonrpc.encode({"x": float("nan")})
    except ValueError:
        pass
    else:
        raise AssertionError("NaN must not be encoded")


def test_initialize_negotiates_the_requested_version_or_the_latest():
    for version in mcp_versions.HANDSHAKE_VERSIONS:
        assert mcp_versions.negotiate(version) == version
    assert mcp_versions.negotiate("1999-01-01") == "2025-11-25"


def test_modern_requests_are_classified_by_their_meta():
    meta = {mcp_versions.VERSION_KEY: "2026-07-28", mcp_versions.CAPABILITIES_KEY: {}}
    assert mcp_versions.classify({"_meta": meta}) == mcp_versions.Modern("2026-07-28")
    assert mcp_versions.classify({}) is None
    rejected = mcp_versions.classify({"_meta": {mcp_versions.VERSION_KEY: "2030-01-01"}})
    assert rejected["code"] == -32022
    assert rejected["data"] == {"supported": ["2026-07-28"], "requested": "2030-01-01"}


def test_modern_results_carry_result_type_cache_hints_and_the_server_in_meta():
    listed = mcp_versions.stamp_modern("tools/list", {"tools": []}, {}, "1.2.3")
    assert listed["resultType"] == "complete" and listed["ttlMs"] > 0 and listed["cacheScope"]
    assert listed["_meta"][mcp_versions.SERVER_INFO_KEY] == {
        "name": "rendervisor", "title": "rendervisor", "version": "1.2.3"}
    document = mcp_versions.stamp_modern("resources/read", {"contents": []},
                                         {"uri": "rendervisor://document"}, "1")
    layer = mcp_versions.stamp_modern("resources/read", {"contents": []},
                                      {"uri": "rendervisor://layers/Main/Title"}, "1")
    assert document["ttlMs"] == 0 and layer["ttlMs"] == 0
    called = mcp_versions.stamp_modern("tools/call", {"content": []}, {}, "1")
    assert called["resultType"] == "complete" and "ttlMs" not in called
