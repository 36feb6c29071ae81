"""render_start and render_status: a render started at once and followed in calls that each end
in time, whatever the host's request timeout."""


def build(server, tmp_path, seconds=1):
    steps = [{"id": "comp.new", "params": {"name": "Main", "width": 96, "height": 54,
                                           "duration": seconds}}]
    steps += [{"id": "renderQueue.add", "params": {"comp": "$0.comp",
                                                   "output": str(tmp_path / f"{name}.mp4")}}
              for name in ("first", "second")]
    result = server.run("command_batch", {"steps": steps})
    assert not result["isError"], result["content"][0]["text"]
    return [step["result"]["item"] for step in result["structuredContent"]["results"][1:]]


def follow(server, job):
    status = {"state": "rendering"}
    while status["state"] == "rendering":
        status = server.run("render_status", {"job": job, "wait": 30},
                            timeout=120)["structuredContent"]
    return status


def text(result):
    return result["content"][0]["text"]


def test_render_start_renders_the_named_items_and_render_status_follows_them(server, tmp_path):
    first, second = build(server, tmp_path)
    started = server.run("render_start", {"items": [2]})["structuredContent"]
    assert started["items"] == [second]
    status = follow(server, started["job"])
    assert status["state"] == "done" and status["progress"] == status["total"] == 30
    assert [item["item"] for item in status["items"]] == started["items"]
    assert (tmp_path / "second.mp4").exists() and not (tmp_path / "first.mp4").exists()
    # named again, a done item renders again
    again = server.run("render_start", {"items": [second]})["structuredContent"]
    assert follow(server, again["job"])["state"] == "done"
    # the first job is still known, with its end
    assert server.run("render_status", {"job": started["job"]})["structuredContent"] == status


def test_a_wait_false_render_is_a_job_render_status_follows(server, tmp_path):
    build(server, tmp_path)
    started = server.run("command_run", {"id": "renderQueue.render",
                                         "params": {"wait": False}})["structuredContent"]
    assert started["job"].startswith("render-") and len(started["rendering"]) == 2
    status = follow(server, started["job"])
    assert status["state"] == "done" and [i["status"] for i in status["items"]] == ["done"] * 2


def test_render_status_says_what_is_wrong_with_a_job_or_a_wait(server, tmp_path):
    unknown = server.run("render_status", {"job": "render-9"})
    assert unknown["isError"] and text(unknown) == (
        "There is no render job 'render-9'; no render was started in this session "
        "(render_start starts one).")
    # An hour of small frames: a render still running when it is stopped. 20 s of them (1,200
    # frames in the two items) took 4 s here with the machine loaded, workers' start included:
    # a fast idle machine could end the job during the calls below.
    build(server, tmp_path, seconds=3600)
    job = server.run("render_start", {})["structuredContent"]["job"]
    second = server.run("render_start", {})
    assert second["isError"] and "a render is already running" in text(second)
    too_long = server.wait_for(server.call("render_status", {"job": job, "wait": 51}))
    assert too_long["error"]["message"] == (
        "Argument 'wait' of tool render_status must be at most 50, got 51.")
    stopped = server.run("command_run", {"id": "renderQueue.stop"})
    assert stopped["structuredContent"]["stopped"] is True
    assert follow(server, job)["state"] == "stopped"


def test_the_guide_and_the_instructions_teach_render_start_and_render_status(server):
    guide = server.wait_for(server.request("resources/read", {"uri": "rendervisor://guide"}))
    instructions = server.initialize()["result"]["instructions"]
    for taught in (guide["result"]["contents"][0]["text"], instructions):
        assert "render_start" in taught and "render_status {job, wait: 30}" in taught
