"""Who may talk to the studio: the token, the Host header and the Origin, checked by a pure
function (first) and against a real `rendervisor studio` (then)."""

from __future__ import annotations

import json
import urllib.request

import pytest

from supervisor.studio.guard import Guard, hosts_for
from tests.helpers.cli_projects import small_project
from tests.helpers.studio_process import StudioProcess, http

GUARD = Guard("s3cret", hosts_for("127.0.0.1", 8123))
OURS = {"host": "127.0.0.1:8123"}


def test_a_request_with_the_token_from_the_studio_itself_passes():
    assert GUARD.refusal("/s3cret/", OURS) is None
    assert GUARD.refusal("/s3cret/events", {**OURS, "origin": "http://127.0.0.1:8123"}) is None
    assert GUARD.refusal("/s3cret/", {"host": "localhost:8123"}) is None


@pytest.mark.parametrize("path", ["/", "/s3cre/", "/s3cret2/", "/S3CRET/", "/x/s3cret/"])
def test_a_request_without_the_token_is_refused(path):
    status, sentence = GUARD.refusal(path, OURS)
    assert status == 403 and "token" in sentence


def test_a_request_naming_another_host_is_refused_token_or_not():
    # DNS rebinding: evil.example resolving to 127.0.0.1 sends its own name as Host.
    assert GUARD.refusal("/s3cret/", {"host": "evil.example:8123"})[0] == 421
    assert GUARD.refusal("/s3cret/", {"host": "127.0.0.1:9999"})[0] == 421
    assert GUARD.refusal("/s3cret/", {})[0] == 421


def test_a_request_from_another_pages_origin_is_refused():
    for origin in ("http://evil.example", "http://127.0.0.1:9999", "null",
                   "https://127.0.0.1:8123"):
        status, sentence = GUARD.refusal("/s3cret/render", {**OURS, "origin": origin})
        assert status == 403 and origin in sentence


def test_a_studio_on_every_interface_takes_any_host_but_still_the_token_and_origin():
    guard = Guard("s3cret", hosts_for("0.0.0.0", 8123))
    assert guard.refusal("/s3cret/", {"host": "studio.lan:8123"}) is None
    assert guard.refusal("/", {"host": "studio.lan:8123"})[0] == 403
    assert guard.refusal("/s3cret/", {"host": "studio.lan:8123",
                                      "origin": "http://evil.example"})[0] == 403


def test_the_studio_refuses_requests_without_its_token_or_from_a_foreign_origin(tmp_path):
    output = tmp_path / "out.mp4"
    studio = StudioProcess(small_project(tmp_path / "p.rvproj",
                                         queue=[{"output": str(output)}]))
    try:
        token_part = studio.url.rstrip("/").rsplit("/", 1)[1]
        root = studio.url[: -len(token_part) - 1]
        with urllib.request.urlopen(studio.url, timeout=30) as page:
            # The page can be neither framed by another (a Cancel clicked through a hidden
            # frame) nor given scripts from elsewhere.
            policy = page.headers["Content-Security-Policy"]
            assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy
        assert http(studio.url + "state")[0] == 200
        for url in (root, root + "state", root + "x" + token_part + "/state"):
            status, body = http(url)
            assert status == 403 and b"token" in body, url
        status, body = http(studio.url + "state", headers={"Origin": "http://evil.example"})
        assert status == 403 and b"another page" in body
        # A page elsewhere posting to the studio (a stop, a render) is refused before it acts.
        status, _ = http(studio.url + "render", data=b"{}",
                         headers={"Origin": "http://evil.example"})
        assert status == 403
        status, _ = http(studio.url + "state", headers={"Host": "evil.example"})
        assert status == 421
        # Nothing was started by the refused post.
        status, body = http(studio.url + "state")
        assert [item["status"] for item in json.loads(body)["activity"]["renders"]] == ["queued"]
        assert not output.exists()
    finally:
        assert studio.stop() == 0
