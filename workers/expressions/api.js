// After Effects' expression API, run inside QuickJS by workers/expressions/sandbox.py.
//
// Nothing here can call out of the engine: there are no host functions at all. What an
// expression needs of the document (a property's own value at a time, before its expression;
// a property's keys; a layer's content box) it asks as a question, and the sandbox answers
// between runs:
//   ["v", KEY, TIME]       the value of property KEY ("COMP/LAYER/PATH") at TIME
//   ["k", KEY, 0]          its keyframes, [[time, value], ...]
//   ["r", LAYERKEY, TIME]  the layer's content box {top, left, width, height}
// A run that met a question with no answer yet goes on with a stand-in, and its result is
// thrown away: the sandbox answers every question it asked and runs it again, until a run
// asks nothing new. Only a run that had every answer counts, so a result is a pure function
// of (property, time) whatever was answered before.
//
// The scene, loaded once per document by __load: comps, their layers, each layer's property
// paths and the expressions on them.
//
// Nothing an expression leaves in the globals survives it (they are swept after each run),
// the built-ins and the scene are frozen, and randomness is seeded by the layer, the
// property, the time and the expression's own seed. So a frame's values are the same
// whichever worker, chunk or order evaluates them.
(function () {
"use strict";

var global = globalThis;
// Math's functions the hot paths call, held here: a global's property looked up each call
// costs QuickJS more than the arithmetic.
var imul = Math.imul, floor = Math.floor;
var RealDate = Date;
var scene = {comps: {}};
var slots = {};       // property key -> {key, layer, prop, run, runnerName, lineOffset}
var stack = [];       // the evaluations under way, innermost last
var E = null;         // the innermost evaluation: {slot, time, value, hasValue, random}
var propertyCache = new WeakMap();   // Layer -> {path: Property}
var wiggleSeeds = new WeakMap();     // Property -> its noises' seeds, by dimension and octave
var answers = new Map();   // kind + "\n" + key -> Map(time -> {value} or {problem: sentence})
var answerCount = 0;
var asked = [];            // the questions this run met with no answer: [kind, key, time]
var askedAlready = new Map();
var lastValue = new Map(); // property key -> a value it had: the stand-in for another time

// -- questions to the host ------------------------------------------------------------------

function table(store, kind, key) {
  var name = kind + "\n" + key, found = store.get(name);
  if (found === undefined) store.set(name, found = new Map());
  return found;
}

// Times are kept by their text: QuickJS's Map hashes number keys poorly (a Map of a few
// thousand times costs tens of microseconds a look-up), and strings well.
function ask(kind, key, t, standIn) {
  // Its own value now is given afresh for each evaluation, so it is handed over as it is.
  if (kind === "v" && t === ownTime && key === ownKey) return ownValue;
  var found = table(answers, kind, key).get("" + t);
  if (found === undefined) {
    missed = true;
    var seen = table(askedAlready, kind, key);
    if (!seen.has("" + t)) { seen.set("" + t, true); asked.push([kind, key, t]); }
    return standIn;
  }
  if (found.problem !== undefined) throw fault(found.problem);
  return copy(found.value);
}
// The property's own value at the time being evaluated, which most expressions read.
var ownKey = null, ownTime = null, ownValue = null;
function remember(kind, key, t, answer) {  // an answer: a value, or {problem: sentence}
  if (answerCount > MAX_ANSWERS) { answers = new Map(); answerCount = 0; }
  var entry = answer !== null && typeof answer === "object" && typeof answer.problem === "string"
    ? {problem: answer.problem} : {value: answer};
  table(answers, kind, key).set("" + t, entry);
  answerCount++;
  if (kind === "v" && entry.problem === undefined) lastValue.set(key, answer);
}
function hostValue(key, t) { return ask("v", key, t, lastValue.has(key) ? copy(lastValue.get(key)) : 0); }
function hostKeys(key) { return ask("k", key, 0, []); }
function hostRect(key, t) { return ask("r", key, t, {top: 0, left: 0, width: 0, height: 0}); }

// -- errors ---------------------------------------------------------------------------------

function fault(message) {
  var error = new Error(message);
  // defined, not assigned: Error.prototype is frozen, so its `name` cannot be assigned over
  Object.defineProperty(error, "name", {value: "ExpressionError"});
  return error;
}

function plainNumber(x, what) {
  if (typeof x !== "number" || !isFinite(x)) throw fault(what + " must be a finite number, not " + show(x));
  return x;
}

function show(x) {
  if (typeof x === "string") return JSON.stringify(x.length > 40 ? x.slice(0, 40) + "..." : x);
  if (Array.isArray(x)) return "[" + x.slice(0, 6).map(show).join(", ") + (x.length > 6 ? ", ..." : "") + "]";
  if (x === null || x === undefined) return String(x);
  if (typeof x === "object") return "an object";
  if (typeof x === "function") return "a function";
  return String(x);
}

// A value's own copy, so an expression that changes what it was given changes nothing kept.
function copy(v) {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) {
    var out = new Array(v.length);
    for (var i = 0; i < v.length; i++) out[i] = typeof v[i] === "object" ? copy(v[i]) : v[i];
    return out;
  }
  return JSON.parse(JSON.stringify(v));
}

// -- vectors --------------------------------------------------------------------------------

function isArray(a) { return Array.isArray(a) || ArrayBuffer.isView(a); }

function zip(a, b, op) {
  if (isArray(a) && isArray(b)) {
    var n = Math.max(a.length, b.length), out = new Array(n);
    for (var i = 0; i < n; i++) out[i] = op(i < a.length ? +a[i] : 0, i < b.length ? +b[i] : 0);
    return out;
  }
  if (isArray(a)) return Array.prototype.map.call(a, function (x) { return op(+x, +b); });
  if (isArray(b)) return Array.prototype.map.call(b, function (y) { return op(+a, +y); });
  return op(+a, +b);
}

function add(a, b) { return zip(a, b, function (x, y) { return x + y; }); }
function sub(a, b) { return zip(a, b, function (x, y) { return x - y; }); }
function mul(a, b) { return zip(a, b, function (x, y) { return x * y; }); }
function div(a, b) { return zip(a, b, function (x, y) { return x / y; }); }
function clamp(v, low, high) {
  if (isArray(v))
    return Array.prototype.map.call(v, function (x, i) {
      return clamp(+x, isArray(low) ? low[i] : low, isArray(high) ? high[i] : high); });
  return Math.min(Math.max(+v, low), high);
}
function dot(a, b) { var s = 0; for (var i = 0; i < Math.min(a.length, b.length); i++) s += a[i] * b[i]; return s; }
function cross(a, b) { return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]; }
function length(a, b) {
  if (b !== undefined) a = sub(a, b);
  if (!isArray(a)) return Math.abs(a);
  var s = 0;
  for (var i = 0; i < a.length; i++) s += a[i] * a[i];
  return Math.sqrt(s);
}
function normalize(a) { return div(a, length(a)); }
function degreesToRadians(d) { return d * Math.PI / 180; }
function radiansToDegrees(r) { return r * 180 / Math.PI; }

// -- interpolation: linear exactly as After Effects; the eases as its Easy Ease keys --------

// y for x on the CSS cubic-bezier(x1, y1, x2, y2), solved as protocol/model/keyframes.py does.
function cubicBezier(x1, y1, x2, y2, x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  function sample(a1, a2, s) { return 3 * a1 * (1 - s) * (1 - s) * s + 3 * a2 * (1 - s) * s * s + s * s * s; }
  function slope(a1, a2, s) { return 3 * a1 * (1 - s) * (1 - s) + 6 * (a2 - a1) * (1 - s) * s + 3 * (1 - a2) * s * s; }
  var s = x, i;
  for (i = 0; i < 16; i++) {
    var error = sample(x1, x2, s) - x;
    if (Math.abs(error) < 1e-15) return sample(y1, y2, s);
    var d = slope(x1, x2, s);
    if (Math.abs(d) < 1e-9) break;
    s -= error / d;
  }
  if (!(s >= 0 && s <= 1) || Math.abs(sample(x1, x2, s) - x) > 1e-12) {
    var low = 0, high = 1;
    s = x;
    for (i = 0; i < 60; i++) {
      if (sample(x1, x2, s) < x) low = s; else high = s;
      s = (low + high) / 2;
    }
  }
  return sample(y1, y2, s);
}

function interpolate(curve, args) {
  var t = +args[0], tMin, tMax, v1, v2;
  if (args.length <= 3) { tMin = 0; tMax = 1; v1 = args[1]; v2 = args[2]; }
  else { tMin = +args[1]; tMax = +args[2]; v1 = args[3]; v2 = args[4]; }
  if (tMin > tMax) { var swap = tMin; tMin = tMax; tMax = swap; swap = v1; v1 = v2; v2 = swap; }
  if (t <= tMin) return copy(v1);
  if (t >= tMax) return copy(v2);
  var f = curve((t - tMin) / (tMax - tMin));
  return zip(v1, v2, function (a, b) { return a + (b - a) * f; });
}

// The eases' cubic beziers: After Effects' Easy Ease keys (33.33% influence) at both ends, at
// the start only (easeIn), at the end only (easeOut).
var EASES = {ease: [1 / 3, 0, 2 / 3, 1], easeIn: [1 / 3, 0, 1, 1], easeOut: [0, 0, 2 / 3, 1]};
function eased(c) { return function (f) { return cubicBezier(c[0], c[1], c[2], c[3], f); }; }
function linear() { return interpolate(function (f) { return f; }, arguments); }
function ease() { return interpolate(eased(EASES.ease), arguments); }
function easeIn() { return interpolate(eased(EASES.easeIn), arguments); }
function easeOut() { return interpolate(eased(EASES.easeOut), arguments); }

// -- seeded randomness and noise ------------------------------------------------------------

// A 32-bit hash of a string: FNV-1a, then murmur3's finaliser to spread the bits.
function hash(text) {
  var h = 0x811c9dc5;
  for (var i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b); h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

// mulberry32: a small generator whose whole state is one 32-bit number.
function generator(seed) {
  var state = seed >>> 0;
  return function () {
    state = (state + 0x6D2B79F5) >>> 0;
    var t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function reseed(seed, timeless) {
  E.random = generator(hash(E.slot.key + "|" + seed + (timeless ? "" : "|" + E.time)));
}
function seedRandom(seed, timeless) { reseed(plainNumber(+seed, "seedRandom's seed"), !!timeless); }
function uniform() {
  if (E.random === null) reseed(0, false);
  return E.random();
}

function scaled(u, a, b) {
  if (a === undefined) return u;
  if (b === undefined) { b = a; a = isArray(b) ? Array.prototype.map.call(b, function () { return 0; }) : 0; }
  if (isArray(a) || isArray(b)) {
    var n = Math.max(isArray(a) ? a.length : 0, isArray(b) ? b.length : 0), out = [];
    for (var i = 0; i < n; i++) {
      var lo = isArray(a) ? +a[i] : +a, hi = isArray(b) ? +b[i] : +b;
      out.push(lo + (hi - lo) * (i === 0 ? u : uniform()));
    }
    return out;
  }
  return +a + (+b - +a) * u;
}
function random(a, b) { return scaled(uniform(), a, b); }

// A normal deviate about 0.5 with 90% of its values in [0, 1], as After Effects' gaussRandom
// is described (Box-Muller; 1.6449 is the normal's 95th percentile).
function gauss() {
  var u = 1 - uniform(), v = uniform();
  return 0.5 + Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v) * (0.5 / 1.6448536269514722);
}
function gaussRandom(a, b) { return scaled(gauss(), a, b); }

// Smooth 1D gradient noise in [-1, 1]: a gradient at each whole x from a hash of (seed, x),
// blended with the quintic fade, so it and its slope are continuous everywhere. `seed` is a
// 32-bit number (seedOf), which also puts each seed on its own stretch of the line (the noise
// is 0 at whole x, and would be at t = 0 for every seed).
var seeds = new Map();
function seedOf(text) {
  var seed = seeds.get(text);
  if (seed === undefined) {
    if (seeds.size > 10000) seeds.clear();
    seeds.set(text, seed = hash(text));
  }
  return seed;
}
function mix(seed, i) {
  var h = imul(seed ^ imul(i | 0, -1640531535), -2048144789);  // 0x9E3779B1, 0x85EBCA6B
  h ^= h >>> 13; h = imul(h, -1028477387); h ^= h >>> 16;       // 0xC2B2AE35
  return (h >>> 0) / 4294967296 * 2 - 1;
}
function noise1(seed, x) {
  x += (seed >>> 22) + (seed & 0x3ff) / 1024 + 0.5;
  var i = floor(x), f = x - i;
  var a = mix(seed, i) * f, b = mix(seed, i + 1) * (f - 1);
  var fade = f * f * f * (f * (f * 6 - 15) + 10);
  return 2 * (a + (b - a) * fade);
}
function noise(x) {
  var p = isArray(x) ? x : [x], s = 0;
  for (var i = 0; i < p.length; i++) s += noise1(seedOf("noise" + i), +p[i]);
  return Math.max(-1, Math.min(1, s / Math.sqrt(p.length)));
}

// -- time -----------------------------------------------------------------------------------

function timeToFrames(t, fps, isDuration) {
  if (t === undefined) t = E.time;
  if (fps === undefined) fps = E.slot.layer.comp.data.frameRate;
  var frames = t * fps;
  // A time computed as n / fps can land a hair below n: it is frame n.
  return isDuration ? Math.round(frames) : Math.floor(frames + 1e-9);
}
function framesToTime(frames, fps) {
  if (fps === undefined) fps = E.slot.layer.comp.data.frameRate;
  return frames / fps;
}
// The rest of the expression sees time (and value) held to steps of 1/fps.
function posterizeTime(fps) {
  fps = plainNumber(fps, "posterizeTime's frames per second");
  if (fps > 0) {
    E.time = Math.floor(E.time * fps + 1e-9) / fps;
    E.hasValue = false;
    global.time = E.time;
  }
  return currentValue();
}

// -- colors ---------------------------------------------------------------------------------

function rgbToHsl(c) {
  var r = c[0], g = c[1], b = c[2], max = Math.max(r, g, b), min = Math.min(r, g, b);
  var h = 0, s = 0, l = (max + min) / 2, d = max - min;
  if (d > 0) {
    s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
    if (max === r) h = (g - b) / d + (g < b ? 6 : 0);
    else if (max === g) h = (b - r) / d + 2;
    else h = (r - g) / d + 4;
    h /= 6;
  }
  return [h, s, l, c.length > 3 ? c[3] : 1];
}
function hslToRgb(c) {
  var h = c[0], s = c[1], l = c[2], a = c.length > 3 ? c[3] : 1;
  function hue(p, q, t) {
    t = t - Math.floor(t);
    if (t < 1 / 6) return p + (q - p) * 6 * t;
    if (t < 1 / 2) return q;
    if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
    return p;
  }
  if (s === 0) return [l, l, l, a];
  var q = l < 0.5 ? l * (1 + s) : l + s - l * s, p = 2 * l - q;
  return [hue(p, q, h + 1 / 3), hue(p, q, h), hue(p, q, h - 1 / 3), a];
}
function hexToRgb(hex) {
  var m = /^#?([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(String(hex));
  if (!m) throw fault("hexToRgb needs \"#rrggbb\" or \"#rrggbbaa\", not " + show(hex));
  var n = parseInt(m[1], 16);
  return [(n >> 16 & 255) / 255, (n >> 8 & 255) / 255, (n & 255) / 255, m[2] ? parseInt(m[2], 16) / 255 : 1];
}

// -- paths ----------------------------------------------------------------------------------

function createPath(points, inTangents, outTangents, isClosed) {
  points = points || [];
  function zeros() { return points.map(function () { return [0, 0]; }); }
  return {points: copy(points), inTangents: inTangents ? copy(inTangents) : zeros(),
          outTangents: outTangents ? copy(outTangents) : zeros(),
          closed: isClosed === undefined ? true : !!isClosed};
}

// -- properties -----------------------------------------------------------------------------

// A small step in seconds: a velocity is the slope over it.
var STEP = 1e-3;

function Property(layer, path) {
  this.layer = layer;
  this.path = path;
  this.id = layer.key + "/" + path;
  Object.freeze(this);
}
var P = Property.prototype;

// The value at t: its expression's result when it has one that is not under way, else its own
// value. A property reads its own value before its expression (as After Effects does), and so
// does one read while its expression is being evaluated, which ends any loop of reads.
P.valueAtTime = function (t) {
  t = plainNumber(+t, "valueAtTime's time");
  var slot = slots[this.id];
  if (slot !== undefined && !evaluating(slot)) return run(slot, t);
  return this.ownValueAt(t);
};
P.ownValueAt = function (t) { return hostValue(this.id, t); };
P.velocityAtTime = function (t) {
  t = plainNumber(+t, "velocityAtTime's time");
  return div(sub(this.valueAtTime(t + STEP), this.valueAtTime(t - STEP)), 2 * STEP);
};
P.speedAtTime = function (t) { return length(this.velocityAtTime(t)); };
P.keys = function () { return hostKeys(this.id); };
// The group a property of a Lottie shape belongs to: 1 its item (the trim its `end` is in),
// 2 that item's group, and so on up; an effect's param's, its effect.
P.propertyGroup = function (n) {
  var levels = n === undefined ? 1 : plainNumber(+n, "propertyGroup's level");
  var effect = /^effects\.([^.]+)\./.exec(this.path);
  if (effect !== null && levels === 1) return this.layer.effect(effect[1]);
  var found = contentsOf(this.layer), at = this.path.replace(/\.[^.]+$/, "");
  for (var i = 1; i < levels; i++) {
    var up = at.replace(/\.it\.\d+$/, "");
    if (up === at) return found.root;
    at = up;
  }
  if (found.byPath[at] === undefined) throw fault(this.path + " belongs to no shape group");
  return found.byPath[at];
};
Object.defineProperty(P, "propertyIndex", {get: function () {
  var index = contentsOf(this.layer).indices[this.path];
  if (index === undefined || index === null) throw fault(this.path + " has no property index");
  return index;
}});
P.key = function (n) {
  var keys = this.keys();
  if (typeof n !== "number" || n !== Math.floor(n) || n < 1 || n > keys.length)
    throw fault("key(" + show(n) + "): " + this.path + " has " + (keys.length ? "keys 1 to " + keys.length : "no keys"));
  return {time: keys[n - 1][0], value: copy(keys[n - 1][1]), index: n};
};
P.nearestKey = function (t) {
  var keys = this.keys();
  if (!keys.length) throw fault("nearestKey: " + this.path + " has no keys");
  var best = 0;
  for (var i = 1; i < keys.length; i++) if (Math.abs(keys[i][0] - t) < Math.abs(keys[best][0] - t)) best = i;
  return this.key(best + 1);
};
// wiggle: the value at t plus smooth noise, `freq` wiggles a second of up to about `amp`, with
// `octaves` finer layers each `ampMult` as strong; its own noise for each layer, property and
// dimension.
P.wiggle = function (freq, amp, octaves, ampMult, t) {
  octaves = octaves === undefined ? 1 : octaves;
  ampMult = ampMult === undefined ? 0.5 : ampMult;
  t = t === undefined ? E.time : plainNumber(+t, "wiggle's time");
  freq = plainNumber(+freq, "wiggle's frequency");
  amp = plainNumber(+amp, "wiggle's amplitude");
  octaves = Math.max(1, Math.min(10, Math.floor(plainNumber(+octaves, "wiggle's octaves"))));
  ampMult = plainNumber(+ampMult, "wiggle's amplitude multiplier");
  var base = this.ownValueAt(t), vector = isArray(base), dims = vector ? base.length : 1, out = [];
  var seeds = wiggleSeeds.get(this);
  if (seeds === undefined) wiggleSeeds.set(this, seeds = []);
  for (var d = 0; d < dims; d++) {
    var sum = 0, weight = 1, scale = t * freq;
    for (var o = 0; o < octaves; o++) {
      var n = d * 10 + o;
      if (seeds[n] === undefined) seeds[n] = hash(this.id + "|wiggle|" + d + "|" + o);
      sum += noise1(seeds[n], scale) * weight;
      weight *= ampMult;
      scale *= 2;
    }
    out.push((vector ? base[d] : base) + sum * amp);
  }
  return vector ? out : out[0];
};
// loopOut / loopIn: the keyed stretch played again after the last key (before the first).
P.loop = function (out, type, count, duration) {
  type = type === undefined ? "cycle" : type;
  var name = out ? "loopOut" : "loopIn";
  if (["cycle", "pingpong", "offset", "continue"].indexOf(type) < 0)
    throw fault(name + "(" + show(type) + "): the type is \"cycle\", \"pingpong\", \"offset\" or \"continue\"");
  var keys = this.keys(), t = E.time;
  if (keys.length < 2) return this.ownValueAt(t);
  var first = keys[0][0], last = keys[keys.length - 1][0], start, end;
  if (out) {
    if (t <= last) return this.ownValueAt(t);
    end = last;
    start = duration !== undefined ? Math.max(first, last - duration)
      : count > 0 ? keys[Math.max(0, keys.length - 1 - count)][0] : first;
  } else {
    if (t >= first) return this.ownValueAt(t);
    start = first;
    end = duration !== undefined ? Math.min(last, first + duration)
      : count > 0 ? keys[Math.min(keys.length - 1, count)][0] : last;
  }
  var span = end - start;
  if (!(span > 0)) return this.ownValueAt(t);
  if (type === "continue") {
    // On along the slope the value has at the key it leaves from.
    var edge = out ? end : start;
    var slope = out ? div(sub(this.ownValueAt(end), this.ownValueAt(end - STEP)), STEP)
                    : div(sub(this.ownValueAt(start + STEP), this.ownValueAt(start)), STEP);
    return add(this.ownValueAt(edge), mul(slope, t - edge));
  }
  var laps = Math.floor((t - start) / span), within = (t - start) - laps * span;
  if (type === "pingpong") return this.ownValueAt(laps % 2 === 0 ? start + within : end - within);
  var v = this.ownValueAt(start + within);
  if (type === "offset") v = add(v, mul(sub(this.ownValueAt(end), this.ownValueAt(start)), laps));
  return v;
};
P.loopOut = function (type, count) { return this.loop(true, type, +(count || 0)); };
P.loopIn = function (type, count) { return this.loop(false, type, +(count || 0)); };
P.loopOutDuration = function (type, d) { return this.loop(true, type, 0, d === undefined ? Infinity : +d); };
P.loopInDuration = function (type, d) { return this.loop(false, type, 0, d === undefined ? Infinity : +d); };
Object.defineProperty(P, "value", {get: function () { return this.valueAtTime(E.time); }});
Object.defineProperty(P, "velocity", {get: function () { return this.velocityAtTime(E.time); }});
Object.defineProperty(P, "speed", {get: function () { return this.speedAtTime(E.time); }});
Object.defineProperty(P, "numKeys", {get: function () { return this.keys().length; }});

// A property as an expression reads it: its value, carrying the property's functions, as After
// Effects hands them (`position[0]`, `position.valueAtTime(1)`, `opacity * 2`).
var METHODS = ["valueAtTime", "velocityAtTime", "speedAtTime", "key", "nearestKey", "wiggle",
               "loopOut", "loopIn", "loopOutDuration", "loopInDuration", "propertyGroup"];
var GETTERS = ["velocity", "speed", "numKeys", "propertyIndex"];
function asValue(prop, v) {
  if (v === undefined) v = prop.value;
  var boxed;
  if (isPathValue(v)) {
    // a path: its points, tangents and the points along it, as functions
    boxed = copy(v);
    var methods = pathMethods(prop, v);
    Object.keys(methods).forEach(function (name) {
      Object.defineProperty(boxed, name, {value: methods[name]});
    });
  } else if (Array.isArray(v)) boxed = v.slice();
  else if (typeof v === "number") boxed = new Number(v);
  else if (typeof v === "string") boxed = new String(v);
  else if (typeof v === "boolean") boxed = new Boolean(v);
  else return v;
  METHODS.forEach(function (name) {
    Object.defineProperty(boxed, name, {value: function () { return prop[name].apply(prop, arguments); }});
  });
  GETTERS.forEach(function (name) {
    Object.defineProperty(boxed, name, {get: function () { return prop[name]; }});
  });
  Object.defineProperty(boxed, "value", {get: function () { return v; }});
  return boxed;
}

// -- layers and comps -----------------------------------------------------------------------

var TRANSFORM = {anchorPoint: "transform.anchor", position: "transform.position",
                 scale: "transform.scale", rotation: "transform.rotation",
                 opacity: "transform.opacity"};

// A layer is also a function, as After Effects' layers are: thisLayer("Effects"), layer(2)
// (its contents), layer("ADBE Transform Group").
function Layer(comp, data) {
  var self = function (ref) { return self.group(ref); }, transform = {};
  delete self.name;    // the function's own: the layer's `name` is L's getter
  delete self.length;
  Object.setPrototypeOf(self, L);
  self.comp = comp;
  self.data = data;
  self.key = comp.data.id + "/" + data.id;
  Object.keys(TRANSFORM).forEach(function (name) {
    Object.defineProperty(transform, name, {enumerable: true,
      get: function () { return asValue(self.property(TRANSFORM[name])); }});
  });
  self.transform = Object.freeze(transform);
  propertyCache.set(self, {});
  return Object.freeze(self);
}
var L = Layer.prototype;
L.property = function (path) {
  var cache = propertyCache.get(this), found = cache[path];
  if (found === undefined) {
    if (this.data.paths.indexOf(path) < 0)
      throw fault("layer " + JSON.stringify(this.data.name) + " has no property " + JSON.stringify(path));
    found = cache[path] = new Property(this, path);
  }
  return found;
};
// A layer's effect or mask by its id, its name, its match name, or its 1-based index.
L.part = function (list, ref, what) {
  for (var i = 0; i < list.length; i++)
    if (list[i].id === ref || list[i].name === ref || (list[i].matchName && list[i].matchName === ref)) return list[i];
  if (typeof ref === "number" && ref >= 1 && ref <= list.length && ref === floor(ref)) return list[ref - 1];
  throw fault("layer " + JSON.stringify(this.data.name) + " has no " + what + " " + show(ref) +
              (list.length ? "; it has " + list.map(function (e) { return JSON.stringify(e.name); }).join(", ") : ""));
};
L.effect = function (ref) {
  var layer = this, fx = this.part(this.data.effects, ref, "effect");
  function param(which) {
    var name = typeof which === "number" ? fx.params[which - 1] : which;
    var byMatch = (fx.paramMatchNames || []).indexOf(which);
    if (fx.params.indexOf(name) < 0 && byMatch >= 0) name = fx.params[byMatch];
    if (fx.params.indexOf(name) < 0)
      throw fault("effect " + JSON.stringify(fx.name) + " has no param " + show(which) + "; it has " + fx.params.join(", "));
    var prop = layer.property("effects." + fx.id + "." + name);
    // A Layer Control's value is a layer's index: it reads as that layer.
    if ((fx.layerParams || []).indexOf(name) >= 0) return layer.comp.byIndexOrNull(prop.value);
    return asValue(prop);
  }
  param.param = param;
  return param;
};
L.mask = function (ref) {
  var layer = this, found = this.part(this.data.masks, ref, "mask"), mask = {};
  [["maskPath", "path"], ["maskFeather", "feather"], ["maskOpacity", "opacity"], ["maskExpansion", "expansion"]]
    .forEach(function (pair) {
      Object.defineProperty(mask, pair[0], {get: function () {
        return asValue(layer.property("masks." + found.id + "." + pair[1])); }});
    });
  return mask;
};
L.sourceRectAtTime = function (t) {
  return hostRect(this.key, t === undefined ? E.time : plainNumber(+t, "sourceRectAtTime's time"));
};
function getter(proto, name, read) { Object.defineProperty(proto, name, {get: read}); }
getter(L, "name", function () { return this.data.name; });
getter(L, "_name", function () { return this.data.name; });  // lottie-web's, read by rigs
getter(L, "index", function () { return this.data.index; });
getter(L, "inPoint", function () { return this.data.inPoint; });
getter(L, "outPoint", function () { return this.data.outPoint; });
getter(L, "startTime", function () { return this.data.startTime; });
getter(L, "width", function () { return this.data.width; });
getter(L, "height", function () { return this.data.height; });
getter(L, "enabled", function () { return this.data.enabled; });
getter(L, "hasParent", function () { return this.data.parent !== null; });
getter(L, "parent", function () {
  if (this.data.parent === null) throw fault("layer " + JSON.stringify(this.data.name) + " has no parent");
  return this.comp.byId(this.data.parent);
});
getter(L, "marker", function () { return markers(this.data.markers); });
Object.keys(TRANSFORM).forEach(function (name) {
  getter(L, name, function () { return this.transform[name]; });
});
getter(L, "text", function () {
  var layer = this;
  if (layer.data.textPath === null) throw fault("layer " + JSON.stringify(layer.data.name) + " is not a text layer");
  return Object.freeze({get sourceText() { return asValue(layer.property(layer.data.textPath)); }});
});

// -- a Lottie layer's shape contents, paths, and the layer's space ----------------------------
//
// What lottie-web's expressions reach in a shape layer (a Lottie file's expressions, baked by
// workers/expressions/lottie_bake.py, whose scene gives each layer its `content`):
// content("Group 1") by name, match name or 1-based index, a group's own `content` and
// `transform`, each item's properties by name ("path", "Start", "ADBE Vector Trim End").
// A layer of a rendervisor document has no `content`.

var contentCache = new WeakMap();  // Layer -> {root, byPath: {item path: interface}, indices}

function contentsOf(layer) {
  var found = contentCache.get(layer);
  if (found === undefined) {
    found = {byPath: {}, indices: {}};
    found.root = contentsInterface(layer, layer.data.content || [], found);
    contentCache.set(layer, found);
  }
  return found;
}

// A function that is also an object of getters, as lottie-web's interfaces are.
function lookupFunction(find, getters) {
  var f = function (ref) { return find(ref); };
  delete f.name;
  delete f.length;
  Object.keys(getters).forEach(function (name) {
    Object.defineProperty(f, name, {get: getters[name], enumerable: true});
  });
  return Object.freeze(f);
}

function contentsInterface(layer, nodes, found) {
  var items = nodes.map(function (node) { return itemInterface(layer, node, found); });
  function find(ref) {
    for (var i = 0; i < nodes.length; i++)
      if (nodes[i].name === ref || (nodes[i].matchName && nodes[i].matchName === ref)) return items[i];
    if (typeof ref === "number" && ref >= 1 && ref <= items.length && ref === floor(ref)) return items[ref - 1];
    throw fault("layer " + JSON.stringify(layer.data.name) + " has no content " + show(ref) +
                (nodes.length ? "; it has " + nodes.map(function (n) { return JSON.stringify(n.name); }).join(", ") : ""));
  }
  return lookupFunction(find, {numProperties: function () { return items.length; }});
}

var CONTENTS_NAMES = ["ADBE Vectors Group", "Contents", 2];
var TRANSFORM_NAMES = ["ADBE Vector Transform Group", "Transform", "transform"];

function itemInterface(layer, node, found) {
  var made;
  if (node.items !== undefined) {  // a group: its contents and its transform
    var contents = contentsInterface(layer, node.items, found), transform = null;
    node.items.forEach(function (item, i) {
      if (item.type === "tr") transform = contents(i + 1);
    });
    made = lookupFunction(function (ref) {
      if (CONTENTS_NAMES.indexOf(ref) >= 0) return contents;
      if (TRANSFORM_NAMES.indexOf(ref) >= 0 && transform !== null) return transform;
      return contents(ref);
    }, {content: function () { return contents; },
        transform: function () {
          if (transform === null) throw fault("group " + JSON.stringify(node.name) + " has no transform");
          return transform;
        },
        name: function () { return node.name; }, _name: function () { return node.name; },
        propertyIndex: function () { return node.index; },
        numProperties: function () { return node.items.length; }});
  } else {  // a shape, a fill, a trim, a transform...: its properties
    var getters = {name: function () { return node.name; }, _name: function () { return node.name; },
                   propertyIndex: function () { return node.index; },
                   numProperties: function () { return node.properties.length; }};
    node.properties.forEach(function (prop) {
      found.indices[prop.path] = prop.index;
      getters[prop.names[0]] = function () { return asValue(layer.property(prop.path)); };
    });
    made = lookupFunction(function (ref) {
      for (var i = 0; i < node.properties.length; i++) {
        var prop = node.properties[i];
        if (prop.names.indexOf(ref) >= 0 || (prop.index !== null && prop.index === ref))
          return asValue(layer.property(prop.path));
      }
      throw fault(JSON.stringify(node.name) + " has no property " + show(ref) + "; it has " +
                  node.properties.map(function (p) { return JSON.stringify(p.names[1]); }).join(", "));
    }, getters);
  }
  found.byPath[node.path] = made;
  return made;
}

L.content = function (ref) {
  var root = contentsOf(this).root;
  return ref === undefined ? root : root(ref);
};
// The layer called as a function: its groups by After Effects' names and indices.
L.group = function (ref) {
  var layer = this;
  if (["ADBE Root Vectors Group", "Contents", 2].indexOf(ref) >= 0) return contentsOf(layer).root;
  if (["ADBE Transform Group", "Transform", "transform", 1, 6].indexOf(ref) >= 0) return layerTransform(layer);
  if (["ADBE Effect Parade", "Effects", "effects", 4].indexOf(ref) >= 0)
    return function (which) { return layer.effect(which); };
  throw fault("layer " + JSON.stringify(layer.data.name) + " has no group " + show(ref));
};
var LAYER_TRANSFORM_NAMES = {anchorPoint: ["Anchor Point", "ADBE Anchor Point"],
  position: ["Position", "ADBE Position"], scale: ["Scale", "ADBE Scale"],
  rotation: ["Rotation", "ADBE Rotate Z"], opacity: ["Opacity", "ADBE Opacity"]};
function layerTransform(layer) {
  return function (ref) {
    for (var name in LAYER_TRANSFORM_NAMES)
      if (name === ref || LAYER_TRANSFORM_NAMES[name].indexOf(ref) >= 0) return layer.transform[name];
    throw fault("layer " + JSON.stringify(layer.data.name) + "'s transform has no " + show(ref));
  };
}
getter(L, "timeRemap", function () { return asValue(this.property("timeRemap")); });

// The layer's own transform at t, as an affine matrix [a, b, c, d, e, f] (x' = a x + c y + e,
// y' = b x + d y + f): its anchor moved to its position, scaled, rotated; then its parents'.
L.matrixAt = function (t) {
  var layer = this;
  function read(path, fallback) {
    return layer.data.paths.indexOf(path) >= 0 ? layer.property(path).valueAtTime(t) : fallback;
  }
  var anchor = read("transform.anchor", [0, 0]), position = read("transform.position", [0, 0]);
  var scale = read("transform.scale", [100, 100]), turn = degreesToRadians(+read("transform.rotation", 0));
  var cos = Math.cos(turn), sin = Math.sin(turn), sx = scale[0] / 100, sy = scale[1] / 100;
  var m = [cos * sx, sin * sx, -sin * sy, cos * sy, 0, 0];
  m[4] = position[0] - (m[0] * anchor[0] + m[2] * anchor[1]);
  m[5] = position[1] - (m[1] * anchor[0] + m[3] * anchor[1]);
  return layer.data.parent === null ? m : multiplied(layer.parent.matrixAt(t), m);
};
function multiplied(p, m) {
  return [p[0] * m[0] + p[2] * m[1], p[1] * m[0] + p[3] * m[1],
          p[0] * m[2] + p[2] * m[3], p[1] * m[2] + p[3] * m[3],
          p[0] * m[4] + p[2] * m[5] + p[4], p[1] * m[4] + p[3] * m[5] + p[5]];
}
function applied(m, point) {
  var out = [m[0] * point[0] + m[2] * point[1] + m[4], m[1] * point[0] + m[3] * point[1] + m[5]];
  return point.length > 2 ? out.concat(Array.prototype.slice.call(point, 2)) : out;
}
function inverted(m) {
  var det = m[0] * m[3] - m[1] * m[2];
  if (det === 0) throw fault("the layer is scaled to nothing: a point cannot be carried back into it");
  return [m[3] / det, -m[1] / det, -m[2] / det, m[0] / det,
          (m[2] * m[5] - m[3] * m[4]) / det, (m[1] * m[4] - m[0] * m[5]) / det];
}
function timeArg(t) { return t === undefined ? E.time : plainNumber(+t, "the time"); }
L.toComp = function (point, t) { return applied(this.matrixAt(timeArg(t)), point); };
L.fromComp = function (point, t) { return applied(inverted(this.matrixAt(timeArg(t))), point); };
L.toWorld = L.toComp;
L.fromWorld = L.fromComp;
L.fromCompToSurface = L.fromComp;

// A path's value as expressions read it: Lottie's {v, i, o, c} or createPath's
// {points, inTangents, outTangents, closed}.
function isPathValue(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v) &&
    (Array.isArray(v.v) || Array.isArray(v.points));
}
function pathParts(v) {
  return Array.isArray(v.points)
    ? {v: v.points, i: v.inTangents, o: v.outTangents, c: !!v.closed}
    : {v: v.v, i: v.i || [], o: v.o || [], c: !!v.c};
}
// Each segment's cubic (absolute control points) and its length sampled as lottie-web does
// (150 steps), so a point at a fraction of the path's length lands where lottie-web puts it.
var CURVE_STEPS = 150;
function segmentsOf(p) {
  var n = p.v.length, segments = [], total = 0;
  for (var k = 0; k < (p.c ? n : n - 1); k++) {
    var a = p.v[k], b = p.v[(k + 1) % n], o = p.o[k] || [0, 0], i = p.i[(k + 1) % n] || [0, 0];
    var curve = [a, [a[0] + o[0], a[1] + o[1]], [b[0] + i[0], b[1] + i[1]], b];
    var lengths = [0], last = a, sum = 0;
    for (var s = 1; s < CURVE_STEPS; s++) {
      var here = bezierPoint(curve, s / (CURVE_STEPS - 1));
      sum += Math.sqrt((here[0] - last[0]) * (here[0] - last[0]) + (here[1] - last[1]) * (here[1] - last[1]));
      lengths.push(sum);
      last = here;
    }
    segments.push({curve: curve, lengths: lengths, length: sum});
    total += sum;
  }
  return {segments: segments, total: total};
}
function bezierPoint(c, t) {
  var u = 1 - t, a = u * u * u, b = 3 * u * u * t, d = 3 * u * t * t, e = t * t * t;
  return [a * c[0][0] + b * c[1][0] + d * c[2][0] + e * c[3][0],
          a * c[0][1] + b * c[1][1] + d * c[2][1] + e * c[3][1]];
}
function bezierSlope(c, t) {
  var u = 1 - t;
  return [0, 1].map(function (k) {
    return 3 * u * u * (c[1][k] - c[0][k]) + 6 * u * t * (c[2][k] - c[1][k]) + 3 * t * t * (c[3][k] - c[2][k]);
  });
}
// The segment and its parameter at `perc` of the path's length.
function placeOnPath(p, perc) {
  var all = segmentsOf(p), at = plainNumber(+perc, "the fraction of the path") * all.total;
  for (var k = 0; k < all.segments.length; k++) {
    var seg = all.segments[k];
    if (at < seg.length || k === all.segments.length - 1) {
      var lengths = seg.lengths, j = 1;
      while (j < lengths.length - 1 && lengths[j] < at) j++;
      var span = lengths[j] - lengths[j - 1], f = span > 0 ? (at - lengths[j - 1]) / span : 0;
      var t = Math.min(1, Math.max(0, (j - 1 + f) / (CURVE_STEPS - 1)));
      return {curve: seg.curve, t: t};
    }
    at -= seg.length;
  }
  return null;
}
function pathMethods(prop, v) {
  function parts(t) { return pathParts(t === undefined || prop === null ? v : prop.valueAtTime(t)); }
  function tangent(perc, t) {
    var place = placeOnPath(parts(t), perc);
    return place === null ? [0, 0] : normalize(bezierSlope(place.curve, place.t));
  }
  return {
    points: function (t) { return copy(parts(t).v); },
    inTangents: function (t) { return copy(parts(t).i); },
    outTangents: function (t) { return copy(parts(t).o); },
    isClosed: function () { return parts().c; },
    pointOnPath: function (perc, t) {
      var p = parts(t), place = placeOnPath(p, perc === undefined ? 0.5 : perc);
      return place === null ? copy(p.v[0] || [0, 0]) : bezierPoint(place.curve, place.t);
    },
    tangentOnPath: function (perc, t) { return tangent(perc === undefined ? 0.5 : perc, t); },
    normalOnPath: function (perc, t) {
      var d = tangent(perc === undefined ? 0.5 : perc, t);
      return [-d[1], d[0]];
    },
    createPath: createPath
  };
}

function markers(list) {
  var sorted = list.slice().sort(function (a, b) { return a.time - b.time; });
  function key(n) {
    if (typeof n !== "number" || n < 1 || n > sorted.length || n !== Math.floor(n))
      throw fault("marker.key(" + show(n) + "): there " + (sorted.length === 1 ? "is 1 marker" : "are " + sorted.length + " markers"));
    var m = sorted[n - 1];
    return {time: m.time, duration: m.duration, comment: m.name, name: m.name, index: n};
  }
  return {
    numKeys: sorted.length,
    key: function (ref) {
      if (typeof ref === "string") {
        for (var i = 0; i < sorted.length; i++) if (sorted[i].name === ref) return key(i + 1);
        throw fault("there is no marker " + JSON.stringify(ref));
      }
      return key(ref);
    },
    nearestKey: function (t) {
      if (!sorted.length) throw fault("nearestKey: there are no markers");
      var best = 0;
      for (var i = 1; i < sorted.length; i++) if (Math.abs(sorted[i].time - t) < Math.abs(sorted[best].time - t)) best = i;
      return key(best + 1);
    }
  };
}

function Comp(data) {
  this.data = data;
  this.layers = Object.freeze(data.layers.map(function (layer) { return new Layer(this, layer); }, this));
  Object.freeze(this);
}
var C = Comp.prototype;
C.layer = function (ref) {
  var layers = this.layers, i;
  if (typeof ref === "number") {
    if (ref >= 1 && ref <= layers.length && ref === Math.floor(ref)) return layers[ref - 1];
    throw fault("layer(" + ref + "): comp " + JSON.stringify(this.data.name) + " has layers 1 to " + layers.length);
  }
  for (i = 0; i < layers.length; i++) if (layers[i].data.name === ref) return layers[i];
  throw fault("comp " + JSON.stringify(this.data.name) + " has no layer " + show(ref));
};
C.byIndexOrNull = function (index) {
  var wanted = String(+index);
  for (var i = 0; i < this.layers.length; i++) if (this.layers[i].data.id === wanted) return this.layers[i];
  return null;
};
C.byId = function (id) {
  for (var i = 0; i < this.layers.length; i++) if (this.layers[i].data.id === id) return this.layers[i];
  throw fault("comp " + JSON.stringify(this.data.name) + " has no layer " + show(id));
};
getter(C, "name", function () { return this.data.name; });
getter(C, "width", function () { return this.data.width; });
getter(C, "height", function () { return this.data.height; });
getter(C, "duration", function () { return this.data.duration; });
getter(C, "frameDuration", function () { return 1 / this.data.frameRate; });
getter(C, "numLayers", function () { return this.layers.length; });
getter(C, "pixelAspect", function () { return 1; });
getter(C, "displayStartTime", function () { return 0; });
getter(C, "marker", function () { return markers(this.data.markers); });

function comp(name) {
  for (var id in scene.comps) if (scene.comps[id].data.name === name) return scene.comps[id];
  throw fault("there is no comp " + show(name));
}

// -- evaluation -----------------------------------------------------------------------------

function evaluating(slot) {
  for (var i = 0; i < stack.length; i++) if (stack[i].slot === slot) return true;
  return false;
}

function currentValue() {
  if (!E.hasValue) { E.value = E.slot.prop.ownValueAt(E.time); E.hasValue = true; }
  return E.value;
}

function run(slot, t) {
  var e = {slot: slot, time: t, value: null, hasValue: false, random: null};
  var outer = E;
  stack.push(e);
  E = e;
  global.time = t;
  var result;
  try {
    result = slot.run();
  } catch (error) {
    if (isBound(error)) throw error;  // as it is: marking it could need memory there is none of
    throw annotated(error, slot, t);
  } finally {
    stack.pop();
    E = outer;
    if (outer !== null) global.time = outer.time;
  }
  return checked(result, slot, t);
}

function checked(result, slot, t) {
  var bad = null, type = typeof result;
  if (type === "number") {
    if (result - result !== 0) bad = String(result);  // NaN or an infinity
  } else if (Array.isArray(result)) {
    for (var i = 0; i < result.length && bad === null; i++) {
      var x = result[i];
      if (typeof x === "object" && x instanceof Number) result[i] = x = x.valueOf();
      if (typeof x === "number" && x - x !== 0) bad = show(result) + " (item " + (i + 1) + " is " + x + ")";
    }
  } else if (type === "object" && result !== null) {
    if (result instanceof Number || result instanceof String || result instanceof Boolean) result = result.valueOf();
    else if (ArrayBuffer.isView(result)) return checked(Array.prototype.slice.call(result), slot, t);
  } else if (result === undefined) bad = "no value (undefined): its last statement must be the value";
  else if (type === "function") bad = "a function, not a value";
  if (bad !== null) throw annotated(fault("it gave " + bad), slot, t);
  return result;
}

// An error, marked with the property whose expression raised it, the time, and the place in
// that expression: the innermost evaluation marks it, the outer ones pass it on.
function annotated(error, slot, t) {
  if (error !== null && typeof error === "object" && Object.isExtensible(error) && error.__slot !== undefined) return error;
  var marked = (error instanceof Error && Object.isExtensible(error)) ? error : fault(String(error));
  marked.__slot = slot.key;
  marked.__time = t;
  if (marked.__at === undefined) marked.__at = place(error, slot);
  return marked;
}

// [line, column] in the expression's own text of the frame the runner called (the
// expression's top level), from QuickJS's stack lines "at NAME (<input>:LINE:COLUMN)"; null
// for an error raised outside the runner (a result checked after the expression returned),
// whose frames are the API's own lines, not the expression's.
function place(error, slot) {
  var lines = String((error && error.stack) || "").split("\n"), found = null, match;
  for (var i = 0; i < lines.length; i++) {
    if (lines[i].indexOf("at " + slot.runnerName + " ") >= 0) {
      return found === null ? null : [found[0] - slot.lineOffset, found[1]];
    }
    match = /<input>:(\d+):(\d+)/.exec(lines[i]);
    if (match) found = [+match[1], +match[2]];
  }
  return null;
}

// What an evaluation can leave behind is a global made by assigning to an undeclared name;
// the API's own globals are not enumerable, so whatever `for in` finds is such a one. Swept
// before each evaluation the sandbox asks for (not after each nested one: within one, the
// reads happen in the same order every time, so what they leave is the same every time).
function sweep() {
  for (var name in global) delete global[name];
}

// Runs `source` with eval, whose completion value is what After Effects takes from an
// expression of several statements (`var f = 2; wiggle(f, 30)`, `if (a) 1 else 2`). Made by
// the Function constructor so that it is not strict: `with` needs that.
var evalIn = new Function("__layer", "__source", "with (__layer) { return eval(__source) }");

// Compile an expression once: as a function returning it when it is a single expression (most
// are: `wiggle(2, 30)`, `time * 90`), else to be run by eval each time.
function compile(slot, source) {
  var trimmed = source.replace(/[\s;]+$/, "");
  // A leading `{` or `function` is a block or a declaration to eval, but an object literal or
  // a function expression to `return (...)`: leave those to eval.
  var fast = null;
  if (!/^\s*(\{|function\b|class\b)/.test(trimmed)) {
    // Without `with` when the layer's own names are not used: names then resolve to the
    // globals directly, which is much quicker in QuickJS.
    var scoped = SCOPE_NAMES.test(trimmed);
    try {
      fast = new Function("__layer", (scoped ? "with (__layer) " : "") + "{ return (\n" +
                          trimmed + "\n) }");
    } catch (ignored) {
      fast = null;
    }
  }
  var scope = scopeOf(slot.layer);
  if (fast !== null) {
    // The user's first line is the function's fourth: "function anonymous(__layer\n) {\n
    // with (__layer) { return (\n".
    slot.runnerName = "fastRunner";
    slot.lineOffset = 3;
    slot.run = function fastRunner() { return fast(scope); };
    return;
  }
  try {
    new Function("__layer", source);  // parsed only, for a syntax error's place
  } catch (error) {
    var match = /<input>:(\d+):(\d+)/.exec(String(error.stack || ""));
    var problem = fault(error.message);
    problem.__kind = error.name;
    problem.__at = match ? [+match[1] - 2, +match[2]] : null;
    throw annotated(problem, slot, null);
  }
  slot.runnerName = "anonymous";  // evalIn's frame; the expression's own are "<eval>"
  slot.lineOffset = 0;
  slot.run = function evalRunner() { return evalIn(scope, source); };
}

var SCOPE_NAMES = /\b(anchorPoint|position|scale|rotation|opacity|marker|text|parent|effect|mask|sourceRectAtTime|content|timeRemap|toComp|fromComp|toWorld|fromWorld|fromCompToSurface)\b/;

// The scope an expression runs in: the layer's own names (position, effect(), ...), then the
// globals. A null prototype, so nothing of Object.prototype shadows a global.
function scopeOf(layer) {
  var scope = Object.create(null);
  Object.keys(TRANSFORM).concat(["marker", "text", "parent", "timeRemap"]).forEach(function (name) {
    Object.defineProperty(scope, name, {get: function () { return layer[name]; }});
  });
  ["effect", "mask", "sourceRectAtTime", "content", "toComp", "fromComp", "toWorld",
   "fromWorld", "fromCompToSurface"].forEach(function (name) {
    scope[name] = function () { return layer[name].apply(layer, arguments); };
  });
  return Object.freeze(scope);
}

// -- the calls the sandbox makes ------------------------------------------------------------

function deepFreeze(value) {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    Object.keys(value).forEach(function (k) { deepFreeze(value[k]); });
  }
  return value;
}

// Load a document's scene; returns the problems of expressions that do not compile (each a
// report, as below).
function load(sceneJson) {
  var data = deepFreeze(JSON.parse(sceneJson));
  scene = {comps: {}};
  slots = {};
  answers = new Map();
  answerCount = 0;
  lastValue = new Map();
  data.comps.forEach(function (compData) { scene.comps[compData.id] = new Comp(compData); });
  var problems = [];
  Object.keys(scene.comps).forEach(function (id) {
    scene.comps[id].layers.forEach(function (layer) {
      var expressions = layer.data.expressions;
      Object.keys(expressions).forEach(function (path) {
        var slot = {key: layer.key + "/" + path, layer: layer, prop: layer.property(path)};
        try {
          compile(slot, expressions[path]);
        } catch (error) {
          problems.push(report(error));
          slot.runnerName = "brokenRunner";
          slot.lineOffset = 0;
          slot.run = function brokenRunner() { throw error; };
        }
        slots[slot.key] = slot;
      });
    });
  });
  return "[" + problems.join(",") + "]";
}

// An error as the sandbox reads it: {slot, time, line, column, kind, message}.
function report(error) {
  var at = error.__at || null;
  var kind = error.__kind || (error.name === "ExpressionError" ? "" : String(error.name || "Error"));
  return JSON.stringify({slot: error.__slot === undefined ? null : error.__slot,
                         time: error.__time === undefined ? null : error.__time,
                         line: at ? at[0] : null, column: at ? at[1] : null,
                         kind: kind, message: String(error.message)});
}

// Answers to questions: the JSON list [[kind, key, time, answer], ...], an answer being the
// value or {problem: sentence}. Kept for the document; past MAX_ANSWERS they are dropped:
// asked again, they are answered again, the same.
var MAX_ANSWERS = 100000;
function answer(json) {
  JSON.parse(json).forEach(function (item) { remember(item[0], item[1], item[2], item[3]); });
}

// Runs of the expression on property `key` at each of `times` (JSON), with the property's own
// value at each (JSON, in the same order: most expressions read it). Returns the JSON
// {results: [["v", value] | ["e", report] | ["?"], ...], asked: [[kind, key, time], ...]}:
// "?" for a run that met a question with no answer (its result does not count; `asked` lists
// the questions). A batch stops after BATCH_MS, and the rest of its results are left out, so
// each call stays far within the time limit; the sandbox asks again for the rest. The
// bounds' own errors (time, memory, stack) pass through as they are, unless the run had
// questions; `running` then says which run it was and what it had asked.
var BATCH_MS = 50;
var clockNow = RealDate.now;  // the API's own, for BATCH_MS only: no result depends on it
var current = -1;
var missed = false;

function evaluate(key, timesJson, ownsJson) {
  var slot = slots[key];
  if (slot === undefined) throw new Error("no expression on " + key);
  var times = JSON.parse(timesJson), owns = JSON.parse(ownsJson), results = [];
  var started = clockNow();
  asked = [];
  askedAlready = new Map();
  for (var i = 0; i < times.length; i++) {
    current = i;
    ownKey = key;
    ownTime = times[i];
    ownValue = owns[i];
    lastValue.set(key, owns[i]);
    results.push(once(slot, times[i]));
    if (clockNow() - started > BATCH_MS) break;
  }
  current = -1;
  return JSON.stringify({results: results, asked: asked});
}

function once(slot, t) {
  stack = [];
  E = null;
  missed = false;
  sweep();
  var outcome;
  try {
    outcome = ["v", run(slot, t)];
  } catch (error) {
    var bound = isBound(error);
    if (bound && !missed) throw error;
    outcome = bound ? ["?"] : ["e", JSON.parse(report(error))];
  }
  return missed ? ["?"] : outcome;
}

// The bounds' errors: out of memory, interrupted (the time limit), too deep. QuickJS throws
// null where it runs out of memory making the error itself.
function isBound(error) {
  return error === null || error instanceof InternalError ||
    (error instanceof RangeError && /stack/.test(error.message));
}

// After a bound stopped `evaluate`: the run it stopped, and whether that run had questions
// (then it counts only once they are answered): {index, asked}.
function running() {
  return JSON.stringify({index: current, asked: missed ? asked : []});
}

// -- the globals ----------------------------------------------------------------------------

// A Date that has no "now": the current time would make a frame differ from render to render.
function SafeDate() {
  if (arguments.length === 0)
    throw fault("the current date and time are not available to expressions, so that every render gives the same frames; give Date a date (new Date(2024, 0, 1))");
  if (new.target === undefined) throw fault("Date() gives the current date, which expressions do not have; use new Date(...) with a date");
  return Reflect.construct(RealDate, arguments, new.target);
}
SafeDate.prototype = RealDate.prototype;
SafeDate.UTC = RealDate.UTC;
SafeDate.parse = RealDate.parse;
RealDate.prototype.constructor = SafeDate;

function expose(name, value, writable) {
  Object.defineProperty(global, name, {value: value, writable: !!writable, enumerable: false, configurable: false});
}
function exposeGetter(name, read) {
  Object.defineProperty(global, name, {get: read, set: function () {}, enumerable: false, configurable: false});
}

var api = {add: add, sub: sub, mul: mul, div: div, clamp: clamp, dot: dot, cross: cross,
  length: length, normalize: normalize, degreesToRadians: degreesToRadians,
  radiansToDegrees: radiansToDegrees, linear: linear, ease: ease, easeIn: easeIn,
  easeOut: easeOut, random: random, gaussRandom: gaussRandom, seedRandom: seedRandom,
  noise: noise, timeToFrames: timeToFrames, framesToTime: framesToTime,
  posterizeTime: posterizeTime, rgbToHsl: rgbToHsl, hslToRgb: hslToRgb, hexToRgb: hexToRgb,
  createPath: createPath, comp: comp,
  // thisProperty's functions, called bare
  valueAtTime: function (t) { return E.slot.prop.valueAtTime(t); },
  velocityAtTime: function (t) { return E.slot.prop.velocityAtTime(t); },
  speedAtTime: function (t) { return E.slot.prop.speedAtTime(t); },
  key: function (n) { return E.slot.prop.key(n); },
  nearestKey: function (t) { return E.slot.prop.nearestKey(t); },
  wiggle: function (f, a, o, m, t) { return E.slot.prop.wiggle(f, a, o, m, t); },
  loopOut: function (type, n) { return E.slot.prop.loopOut(type, n); },
  loopIn: function (type, n) { return E.slot.prop.loopIn(type, n); },
  loopOutDuration: function (type, d) { return E.slot.prop.loopOutDuration(type, d); },
  loopInDuration: function (type, d) { return E.slot.prop.loopInDuration(type, d); },
  // The operators the bodymovin exporter writes into Lottie files' expressions.
  $bm_sum: function (a, b) { return isArray(a) || isArray(b) ? add(a, b) : a + b; },
  $bm_sub: sub, $bm_mul: mul, $bm_div: div,
  $bm_mod: function (a, b) { return zip(a, b, function (x, y) { return x % y; }); },
  $bm_neg: function (a) { return mul(a, -1); },
  $bm_isInstanceOfArray: isArray,
  __load: load, __evaluate: evaluate, __answer: answer, __running: running};
api.sum = api.$bm_sum;
api.mod = api.$bm_mod;  // bodymovin writes % as mod() too
Object.keys(api).forEach(function (name) { expose(name, api[name]); });
expose("time", 0, true);
Object.defineProperty(global, "value", {get: currentValue,
  set: function (v) { E.value = v; E.hasValue = true; }, enumerable: false, configurable: false});
var current = {
  thisLayer: function () { return E.slot.layer; },
  thisComp: function () { return E.slot.layer.comp; },
  thisProperty: function () { return asValue(E.slot.prop, E.slot.prop.valueAtTime(E.time)); },
  velocity: function () { return E.slot.prop.velocity; },
  speed: function () { return E.slot.prop.speed; },
  numKeys: function () { return E.slot.prop.numKeys; },
  index: function () { return E.slot.layer.index; },
  name: function () { return E.slot.layer.name; },
  inPoint: function () { return E.slot.layer.inPoint; },
  outPoint: function () { return E.slot.layer.outPoint; },
  startTime: function () { return E.slot.layer.startTime; },
  width: function () { return E.slot.layer.width; },
  height: function () { return E.slot.layer.height; },
  hasParent: function () { return E.slot.layer.hasParent; },
  transform: function () { return E.slot.layer.transform; }
};
Object.keys(current).forEach(function (name) { exposeGetter(name, current[name]); });

// No clock, no entropy, no timers: what could make one render differ from another.
Math.random = function () { return uniform(); };
delete RealDate.now;
expose("Date", SafeDate, false);
["performance", "WeakRef", "FinalizationRegistry", "queueMicrotask"].forEach(function (name) {
  delete global[name];
});

// Frozen built-ins: an expression that changes Math.sin or Array.prototype cannot change what
// the next evaluation computes.
Object.getOwnPropertyNames(global).forEach(function (name) {
  var d = Object.getOwnPropertyDescriptor(global, name);
  if (d && "value" in d && d.value !== global && d.value !== null &&
      (typeof d.value === "object" || typeof d.value === "function")) {
    Object.freeze(d.value);
    if (d.value.prototype) Object.freeze(d.value.prototype);
  }
  if (d && d.configurable) {
    if ("value" in d) d.writable = false;
    d.enumerable = false;
    d.configurable = false;
    Object.defineProperty(global, name, d);
  }
});
// And then everything reachable from them, from the API's classes (whose constructors an
// expression reaches as thisComp.constructor) and from syntax alone (a generator function's
// prototype, an async function's constructor, %TypedArray%, the iterators): a property left
// on any of those would carry a count from one evaluation to the next, and a frame would then
// depend on which frames its worker drew before it (and so on the number of workers).
harden([global, P, L, C, function* () {}, async function () {}, async function* () {},
        (function* () {})(), (async function* () {})(), Int8Array, [][Symbol.iterator](),
        new Map().entries(), new Set().values(), ""[Symbol.iterator](),
        /a/[Symbol.matchAll](""), Promise.resolve()]);

function harden(roots) {
  var seen = new Set(), todo = roots.slice();
  while (todo.length) {
    var node = todo.pop();
    if (node === null || node === undefined || seen.has(node) ||
        (typeof node !== "object" && typeof node !== "function")) continue;
    seen.add(node);
    if (node !== global) Object.freeze(node);  // the global's names were settled above
    todo.push(Object.getPrototypeOf(node));
    Reflect.ownKeys(node).forEach(function (name) {
      var d = Object.getOwnPropertyDescriptor(node, name);
      if (d) todo.push(d.value, d.get, d.set);
    });
  }
}
})();
