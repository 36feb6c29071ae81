// The studio's page: follows the session through one event stream ("document", "activity"),
// draws the timeline, and shows frames the server draws on the preview worker. No framework,
// no build step: plain DOM. The viewer asks for one frame at a time and only for the latest
// wanted (scrubbing or playing faster than frames are drawn skips frames, never queues them).
"use strict";

const $ = (id) => document.getElementById(id);
const MIN_SIDE = 64, MAX_SIDE = 2048;

const state = {
  doc: null,          // the last "document" event
  activity: null,     // the last "activity" event
  clockSkew: 0,       // server time - this machine's time, seconds
  comp: null,         // the comp shown (its id)
  frame: 0,
  playing: false,
  playStart: null,    // {at: performance.now(), frame} while playing
  drawing: false,     // a frame request is in flight
  wanted: null,       // the frame wanted once it returns: {comp, frame, side, revision}
  shown: null,        // what the viewer shows now: same shape
};

// -- the stream ------------------------------------------------------------------------------

function follow() {
  const events = new EventSource("events");
  events.addEventListener("open", () => setConnection("live", "live"));
  events.addEventListener("error", () => setConnection("", "reconnecting…"));
  events.addEventListener("document", (e) => onDocument(JSON.parse(e.data)));
  events.addEventListener("activity", (e) => onActivity(JSON.parse(e.data)));
}

function setConnection(cls, text) {
  const el = $("connection");
  el.className = "connection " + cls;
  el.textContent = text;
}

function onDocument(doc) {
  state.doc = doc;
  $("title").textContent = doc.live ? `${doc.title} · ${doc.name}` : doc.title;
  $("revision").textContent = `revision ${doc.revision.split(":")[1]}${doc.modified ? " · unsaved" : ""}`;
  $("problem").hidden = !doc.problem;
  $("problem").textContent = doc.problem || "";
  $("render").hidden = !doc.canRender;
  if (!doc.comps.some((c) => c.id === state.comp)) {
    state.comp = doc.comps.length ? doc.comps[0].id : null;
  }
  drawComps();
  drawTimeline();
  drawQueue();
  setFrame(state.frame);
}

function onActivity(activity) {
  state.activity = activity;
  state.clockSkew = activity.now - Date.now() / 1000;
  drawCalls();
  drawQueue();
  drawRecent();
}

// -- comps and the timeline --------------------------------------------------------------------

function currentComp() {
  return state.doc && state.doc.comps.find((c) => c.id === state.comp);
}

function drawComps() {
  const nav = $("comps");
  nav.replaceChildren(...state.doc.comps.map((comp) => {
    const button = el("button", comp.id === state.comp ? "current" : "", comp.name);
    button.dataset.comp = comp.id;
    button.title = `${comp.width}×${comp.height}, ${comp.frameRate} fps, ${comp.duration} s`;
    button.addEventListener("click", () => { state.comp = comp.id; pause(); onDocument(state.doc); });
    return button;
  }));
}

function drawTimeline() {
  const comp = currentComp();
  const rows = $("layers");
  if (!comp) {
    rows.replaceChildren(el("div", "row", "The project has no comps yet."));
    $("ruler").replaceChildren();
    return;
  }
  const x = (t) => `${(100 * t) / comp.duration}%`;
  const step = niceStep(comp.duration);
  const ticks = [];
  for (let t = 0; t <= comp.duration + 1e-9; t += step) {
    const tick = el("div", "tick", `${+t.toFixed(2)}s`);
    tick.style.left = x(t);
    ticks.push(tick);
  }
  $("ruler").replaceChildren(...ticks);
  rows.replaceChildren(...comp.layers.map((layer) => {
    const row = el("div", layer.enabled ? "row" : "row off");
    row.dataset.layer = layer.id;
    const names = el("div", "names");
    names.append(el("span", "layer-name", layer.name), el("span", "type", layer.type));
    names.title = layer.keys.length
      ? "animated: " + layer.keys.map((k) => k.path).join(", ") : "not animated";
    const track = el("div", "track");
    const span = el("div", "span");
    const from = Math.max(0, layer.inPoint), to = Math.min(comp.duration, layer.outPoint);
    span.style.left = x(from);
    span.style.width = `${(100 * Math.max(0, to - from)) / comp.duration}%`;
    span.title = `in ${layer.inPoint} s, out ${layer.outPoint} s`;
    track.append(span);
    for (const prop of layer.keys) {
      for (const time of prop.times) {
        const key = el("div", "key");
        key.style.left = x(time);
        key.title = `${prop.path} at ${time} s`;
        track.append(key);
      }
    }
    row.append(names, track);
    return row;
  }));
}

function niceStep(duration) {
  for (const step of [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300]) {
    if (duration / step <= 12) return step;
  }
  return 600;
}

function trackToFrame(event) {
  const comp = currentComp();
  const track = $("ruler").getBoundingClientRect();
  if (!comp || event.clientX < track.left) return;
  const fraction = Math.min(1, Math.max(0, (event.clientX - track.left) / track.width));
  pause();
  setFrame(Math.round(fraction * (comp.frames - 1)));
}

// -- the viewer ----------------------------------------------------------------------------------

function setFrame(frame) {
  const comp = currentComp();
  if (!comp) return;
  state.frame = Math.min(Math.max(0, Math.round(frame)), comp.frames - 1);
  const scrub = $("scrub");
  scrub.max = comp.frames - 1;
  scrub.value = state.frame;
  const seconds = state.frame / comp.frameRate;
  $("time").textContent = `frame ${state.frame} · ${seconds.toFixed(2)} s`;
  const track = $("ruler").getBoundingClientRect(), box = $("timeline").getBoundingClientRect();
  const fraction = comp.frames > 1 ? state.frame / (comp.frames - 1) : 0;
  $("playhead").style.left = `${track.left - box.left + fraction * track.width}px`;
  want({comp: comp.id, frame: state.frame, side: viewerSide(comp),
        revision: state.doc.revision});
}

function viewerSide(comp) {
  const box = $("viewer").getBoundingClientRect();
  const scale = Math.min(box.width / comp.width, box.height / comp.height);
  const side = Math.round(Math.max(comp.width, comp.height) * scale * (window.devicePixelRatio || 1));
  return Math.min(MAX_SIDE, Math.max(MIN_SIDE, side || MIN_SIDE));
}

function same(a, b) {
  return a && b && a.comp === b.comp && a.frame === b.frame && a.side === b.side &&
    a.revision === b.revision;
}

function want(frame) {
  state.wanted = frame;
  if (!state.drawing && !same(frame, state.shown)) draw(frame);
}

async function draw(frame) {
  state.drawing = true;
  const query = new URLSearchParams({comp: frame.comp, frame: frame.frame, side: frame.side});
  try {
    const response = await fetch(`preview?${query}`);
    if (response.ok) {
      const image = $("frame");
      const old = image.src;
      image.src = URL.createObjectURL(await response.blob());
      if (old.startsWith("blob:")) URL.revokeObjectURL(old);
      Object.assign(image.dataset, {comp: frame.comp, frame: frame.frame, side: frame.side,
                                    revision: response.headers.get("X-Revision")});
      state.shown = frame;
      showMessage("");
    } else if (response.status !== 503) {
      showMessage((await response.json()).error);
      state.shown = frame;  // not asked again until something changes
    }
  } catch (error) {
    showMessage("The studio is not answering; it may have stopped.");
  } finally {
    state.drawing = false;
  }
  if (state.wanted && !same(state.wanted, state.shown)) {
    draw(state.wanted);
  }
}

function showMessage(text) {
  $("viewer-message").hidden = !text;
  $("viewer-message").textContent = text;
}

// -- playing -------------------------------------------------------------------------------------

function play() {
  const comp = currentComp();
  if (!comp) return;
  if (state.frame >= comp.frames - 1) setFrame(0);
  state.playing = true;
  state.playStart = {at: performance.now(), frame: state.frame};
  $("play").textContent = "❚❚";
  requestAnimationFrame(tick);
}

function pause() {
  state.playing = false;
  $("play").textContent = "▶";
}

function tick(now) {
  const comp = currentComp();
  if (!state.playing || !comp) return;
  const frame = state.playStart.frame +
    Math.floor(((now - state.playStart.at) / 1000) * comp.frameRate);
  if (frame >= comp.frames) {
    setFrame(comp.frames - 1);
    pause();
    return;
  }
  if (frame !== state.frame) setFrame(frame);
  requestAnimationFrame(tick);
}

// -- calls, renders, recent --------------------------------------------------------------------

function drawCalls() {
  const calls = state.activity.calls;
  const list = $("calls");
  if (!calls.length) {
    list.replaceChildren(el("li", "empty", "No call is running."));
    return;
  }
  list.replaceChildren(...calls.map((call) => {
    const item = el("li", "call");
    item.dataset.key = JSON.stringify(call.key);
    item.dataset.tool = call.tool;
    const head = el("div", "call-head");
    const elapsed = el("span", "elapsed");
    elapsed.dataset.started = call.started;
    head.append(el("span", "tool", call.tool), el("span", "dim", call.lane), elapsed);
    const stop = el("button", "stop", "Cancel");
    stop.addEventListener("click", () => stopCall(call.key, stop));
    head.append(stop);
    item.append(head, el("div", "arguments", call.arguments));
    if (call.progress !== undefined) {
      if (call.total) item.append(progressBar(call.progress / call.total));
      const text = call.total ? `${call.progress} of ${call.total}` : `${call.progress}`;
      item.append(el("div", "progress-text",
                     call.message ? `${text} · ${call.message}` : text));
    }
    return item;
  }));
  tickElapsed();
}

function tickElapsed() {
  const now = Date.now() / 1000 + state.clockSkew;
  for (const span of document.querySelectorAll(".elapsed")) {
    span.textContent = `${Math.max(0, now - Number(span.dataset.started)).toFixed(1)} s`;
  }
}

function progressBar(fraction) {
  const bar = el("div", "progress");
  const fill = el("div");
  fill.style.width = `${Math.round(100 * Math.min(1, Math.max(0, fraction || 0)))}%`;
  bar.append(fill);
  return bar;
}

async function stopCall(key, button) {
  button.disabled = true;
  button.textContent = "Cancelling…";
  await post("calls/stop", {key});
}

function drawQueue() {
  if (!state.doc) return;
  const progress = new Map((state.activity ? state.activity.renders : []).map((r) => [r.id, r]));
  const names = new Map(state.doc.comps.map((c) => [c.id, c.name]));
  const items = state.doc.renderQueue;
  const list = $("queue");
  if (!items.length) {
    list.replaceChildren(el("li", "empty", "The render queue is empty."));
  } else {
    list.replaceChildren(...items.map((item) => {
      const live = progress.get(item.id) || {status: item.status, progress: 0};
      const row = el("li", "render-item");
      row.dataset.item = item.id;
      row.dataset.status = live.status;
      row.dataset.progress = live.progress;
      const head = el("div", "call-head");
      head.append(el("span", "tool", names.get(item.comp) || item.comp),
                  el("span", `outcome ${outcomeClass(live.status)}`, live.status),
                  el("span", "percent", `${Math.round(100 * live.progress)}%`));
      row.append(head, el("div", "arguments", item.output || ""), progressBar(live.progress));
      return row;
    }));
  }
  const rendering = [...progress.values()].some((r) => r.status === "rendering");
  $("stop-render").disabled = !rendering;
  $("render").disabled = rendering;
}

function outcomeClass(status) {
  return {done: "done", failed: "error", stopped: "cancelled"}[status] || "";
}

function drawRecent() {
  const recent = state.activity.recent;
  const list = $("recent");
  if (!recent.length) {
    list.replaceChildren(el("li", "empty", "Nothing yet."));
    return;
  }
  list.replaceChildren(...recent.map((call) => {
    const item = el("li", "ended");
    item.dataset.tool = call.tool;
    item.dataset.outcome = call.outcome;
    const head = el("div", "call-head");
    head.append(el("span", "tool", call.tool),
                el("span", `outcome ${call.outcome}`, call.outcome),
                el("span", "duration", `${(call.ended - call.started).toFixed(1)} s`));
    item.append(head, el("div", "arguments", call.arguments));
    if (call.text) item.append(el("div", "result", call.text));
    return item;
  }));
}

// -- small things ------------------------------------------------------------------------------

function el(tag, cls = "", text = null) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== null) node.textContent = text;
  return node;
}

async function post(path, body) {
  const response = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                      body: JSON.stringify(body || {})});
  const value = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(value.error || `${path} failed`);
  return value;
}

async function queueAction(path) {
  const message = $("queue-message");
  message.hidden = true;
  try {
    await post(path);
  } catch (error) {
    message.textContent = error.message;
    message.hidden = false;
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("scrub").addEventListener("input", (e) => { pause(); setFrame(Number(e.target.value)); });
  $("play").addEventListener("click", () => (state.playing ? pause() : play()));
  $("render").addEventListener("click", () => queueAction("render"));
  $("stop-render").addEventListener("click", () => queueAction("render/stop"));
  let dragging = false;
  $("timeline").addEventListener("pointerdown", (e) => { dragging = true; trackToFrame(e); });
  window.addEventListener("pointermove", (e) => dragging && trackToFrame(e));
  window.addEventListener("pointerup", () => { dragging = false; });
  window.addEventListener("resize", () => setFrame(state.frame));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" && e.key !== " ") return;
    if (e.key === " ") { e.preventDefault(); state.playing ? pause() : play(); }
    if (e.key === "ArrowRight") { pause(); setFrame(state.frame + 1); }
    if (e.key === "ArrowLeft") { pause(); setFrame(state.frame - 1); }
  });
  setInterval(tickElapsed, 250);
  follow();
});
