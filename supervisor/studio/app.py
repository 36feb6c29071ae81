"""The studio's web app (Starlette): the page, its event stream, the viewer's frames, and the
few things a person may do (stop a call, start or stop the render queue).

    GET  /TOKEN/                 the page (assets/index.html) and GET /TOKEN/assets/*
    GET  /TOKEN/events           server-sent events: "document" when the revision moves,
                                 "activity" (calls, renders) when a call starts, moves or ends
    GET  /TOKEN/state            the same two, once, as JSON
    GET  /TOKEN/preview          ?comp=ID&frame=N&side=PX: a PNG drawn by the preview worker
    POST /TOKEN/calls/stop       {key}: cancel a live session's call as its client's cancel does
    POST /TOKEN/render           start the render queue (rendervisor studio only)
    POST /TOKEN/render/stop      renderQueue.stop

Everything runs on the studio's event loop, on its own thread; what blocks (the engine's lock,
the preview worker, a stop) runs on the loop's worker threads, so a page never holds anything
of the session but the lock's few microseconds a read takes. Bounds: MAX_STREAMS pages follow
at once; one frame is drawn at a time for all of them (the preview worker is the session's
too: an agent's render_preview waits behind at most one studio frame) with a short queue
behind it; a request body is at most MAX_BODY bytes.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from importlib.resources import files

from anyio import to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from protocol.model.keyframes import frame_time
from supervisor.engine.commands.lookup import find_comp
from supervisor.errors import CommandError
from supervisor.render.frame_choice import checked_frame
from supervisor.render.preview_jobs import draw_preview, why_not_drawn
from supervisor.runtime.pool import JobFailed
from supervisor.studio.activity import Activity
from supervisor.studio.changes import Changes
from supervisor.studio.guard import Guard, Guarded
from supervisor.studio.project_reload import INTERVAL, ProjectReload
from supervisor.studio.source import Source
from supervisor.studio.timeline import timeline

ASSETS = files("supervisor.studio") / "assets"

# Pages following at once. Each is one open connection and a little work per change; a tab
# left open in every browser of a team is 8, and a page that opens streams in a loop is held
# at that.
MAX_STREAMS = 8
# A stream sends at most one update this often, however fast the session changes: a render's
# per-frame progress or a burst of edits costs the supervisor ten wake-ups a second at most.
STREAM_INTERVAL = 0.1
# A comment on an idle stream this often, so a page whose machine went away is noticed.
KEEPALIVE = 15.0
# While a render runs, its items' progress is read this often (it moves without an event).
RENDER_TICK = 0.25
# Frames waiting for the one being drawn; past it a request is answered 503 at once (a page
# that scrubs asks again for the frame it wants now).
MAX_WAITING_PREVIEWS = 4
MAX_PREVIEW_SIDE = 4096
MAX_BODY = 4096  # bytes: a stop's key is all a body ever holds


class Studio:
    def __init__(self, source: Source) -> None:
        self.source = source
        self.token = secrets.token_urlsafe(18)
        self.changes = Changes()
        # The MCP server's watcher (rendervisor mcp --studio): calls in flight, the last ended.
        self.activity = Activity(lambda: self.changes.poke("activity"))
        source.engine.watchers.append(lambda: self.changes.poke("document"))
        self.reload = (ProjectReload(source.engine, source.project_file)
                       if source.project_file else None)
        self._streams = 0  # streams being served now
        self._previews = 0  # frames asked for now: the one drawing and those waiting
        self._preview_slot: asyncio.Semaphore | None = None
        self._document: tuple | None = None  # ((revision, problem), its "document" event)

    def app(self, hosts: frozenset | None):
        routes = [Route("/", self.page), Route("/events", self.events),
                  Route("/state", self.state), Route("/preview", self.preview),
                  Route("/calls/stop", self.stop_call, methods=["POST"]),
                  Route("/render", self.render, methods=["POST"]),
                  Route("/render/stop", self.stop_render, methods=["POST"]),
                  Mount("/assets", StaticFiles(directory=str(ASSETS)))]
        app = Starlette(routes=[Mount(f"/{self.token}", routes=routes)])
        return Guarded(app, Guard(self.token, hosts))

    async def start(self) -> None:
        """On the studio's loop, before it serves: streams wake on it from now on."""
        self.changes.attach(asyncio.get_running_loop())
        self._preview_slot = asyncio.Semaphore(1)
        if self.reload is not None:
            asyncio.get_running_loop().create_task(self._follow_file())

    async def _follow_file(self) -> None:
        while True:
            await asyncio.sleep(INTERVAL)
            if await to_thread.run_sync(self.reload.check):
                self.changes.poke("document")

    # -- what the page shows ------------------------------------------------------------------

    def document_json(self) -> str:
        """The "document" event: the project's timeline at its revision (and why the file
        could not be read again, if it could not), made once whichever page asks."""
        engine = self.source.engine
        with engine.lock:  # the text is made once per revision by the engine itself
            revision, text = engine.revision, engine.document_text()
            snapshot = f"{engine.identity}:{revision}"
            info = {"path": engine.project_path, "modified": engine.modified}
        problem = self.reload.problem if self.reload else None
        cached = self._document
        if cached is not None and cached[0] == (revision, problem):
            return cached[1]
        shown = {"title": self.source.title, "revision": snapshot, **info, "problem": problem,
                 "canRender": self.source.can_render,
                 "live": self.source.stop_call is not None, **timeline(json.loads(text))}
        made = json.dumps(shown, ensure_ascii=False)
        self._document = ((revision, problem), made)
        return made

    def activity_view(self) -> dict:
        engine = self.source.engine
        with engine.lock:
            items = [{"id": item["id"], "status": item["status"],
                      "progress": engine.item_progress.get(
                          item["id"], 1.0 if item["status"] == "done" else 0.0)}
                     for item in engine.doc["renderQueue"]]
        return {"now": time.time(), "renders": items, **self.activity.view()}

    async def state(self, request: Request) -> Response:
        document = await to_thread.run_sync(self.document_json)
        return JSONResponse({"document": json.loads(document),
                             "activity": await to_thread.run_sync(self.activity_view)})

    async def page(self, request: Request) -> Response:
        return FileResponse(str(ASSETS / "index.html"), headers={"Cache-Control": "no-store"})

    async def events(self, request: Request) -> Response:
        if self._streams >= MAX_STREAMS:
            return _sentence(503, f"The studio is followed by {MAX_STREAMS} pages already; "
                             "close one and reload this page.")
        return StreamingResponse(self._stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    async def _stream(self):
        # Counted from the stream's first step, where its `finally` is sure to run: a page gone
        # before its stream started would otherwise be counted for ever.
        self._streams += 1
        try:
            seen: dict = {}
            rendering = False
            while True:
                versions = await self.changes.wait(seen, RENDER_TICK if rendering else KEEPALIVE)
                sent = False
                if versions["document"] != seen.get("document"):
                    yield _event("document", await to_thread.run_sync(self.document_json))
                    sent = True
                if versions["activity"] != seen.get("activity") or rendering or not sent:
                    view = await to_thread.run_sync(self.activity_view)
                    rendering = any(item["status"] == "rendering" for item in view["renders"])
                    yield _event("activity", json.dumps(view, ensure_ascii=False))
                seen = versions
                await asyncio.sleep(STREAM_INTERVAL)
        finally:
            self._streams -= 1

    # -- the viewer ---------------------------------------------------------------------------

    async def preview(self, request: Request) -> Response:
        query = request.query_params
        try:
            frame = int(query.get("frame", "0"))
            side = int(query.get("side", "960"))
        except ValueError:
            return _sentence(400, "frame and side must be whole numbers.")
        if not 16 <= side <= MAX_PREVIEW_SIDE:
            return _sentence(400, f"side must be 16 to {MAX_PREVIEW_SIDE} pixels.")
        if self._previews > MAX_WAITING_PREVIEWS:
            return _sentence(503, "Frames are being drawn for other requests; ask again.")
        self._previews += 1
        try:
            async with self._preview_slot:
                drawn = await to_thread.run_sync(self._draw, query.get("comp"), frame, side)
        finally:
            self._previews -= 1
        if isinstance(drawn, tuple):
            return _sentence(*drawn)
        return Response(drawn["png"], media_type="image/png",
                        headers={"Cache-Control": "no-store",
                                 "X-Revision": drawn["revision"]})

    def _draw(self, comp_ref, frame: int, side: int):
        """{png, revision} of the frame, or (status, sentence)."""
        engine, pool = self.source.engine, self.source.pool
        if not comp_ref:
            return 400, "Name the comp: ?comp=ID."
        try:
            snapshot_id, document = engine.snapshot()
            comp = find_comp(document, comp_ref)
            checked_frame(comp, frame)
        except CommandError as error:
            return 409, str(error)
        time_ = frame_time(frame, comp["frameRate"])
        try:
            drawn = draw_preview(pool, snapshot_id, document, comp, time_, side,
                                 transparent=False)
        except JobFailed as error:
            return 500, why_not_drawn(error, pool, comp, time_, "the viewer's size")
        return {"png": drawn["png"], "revision": snapshot_id}

    # -- what a person may do -----------------------------------------------------------------

    async def stop_call(self, request: Request) -> Response:
        if self.source.stop_call is None:
            return _sentence(404, "This studio shows a project, not a live session: there are "
                             "no calls to stop.")
        body = await _json_body(request)
        if not isinstance(body, dict) or "key" not in body:
            return _sentence(400, 'Send {"key": KEY}, the call\'s key as the page shows it.')
        stopped = await to_thread.run_sync(self.source.stop_call, body["key"])
        return JSONResponse({"stopped": stopped})

    async def render(self, request: Request) -> Response:
        if not self.source.can_render:
            return _sentence(403, "Renders are started by the session's client here; the "
                             "studio only follows and stops them.")
        return await self._engine_command("renderQueue.render", {"wait": False})

    async def stop_render(self, request: Request) -> Response:
        return await self._engine_command("renderQueue.stop", {})

    async def _engine_command(self, command: str, params: dict) -> Response:
        try:
            result = await to_thread.run_sync(self.source.engine.run, command, params)
        except CommandError as error:
            return _sentence(409, str(error))
        self.changes.poke("activity")
        return JSONResponse(result)


def _event(name: str, data: str) -> str:
    return f"event: {name}\ndata: {data}\n\n"


def _sentence(status: int, text: str) -> Response:
    return JSONResponse({"error": text}, status_code=status)


async def _json_body(request: Request):
    """The request's JSON body, read no further than MAX_BODY bytes; None if it is not JSON
    or is longer."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    try:
        return json.loads(body)
    except ValueError:
        return None
