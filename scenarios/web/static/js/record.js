// A game record (docs/formats.md, "Game record": a room's whole game, as the server's
// GET /api/rooms/{room}/record gives it) read back in the browser: checked (format,
// version, sizes, fields) and each step's view rebuilt from the changes the file holds.
// The room page steps through it; the practice page opens a downloaded one.

import { t } from "./i18n.js";

export const FORMAT = "furball-game-record";
export const VERSION = 1;
export const MAX_RECORD_BYTES = 32 * 1024 * 1024; // as the server's MAX_RECORD_BYTES
const MAX_VIEWERS = 17;
const MAX_STEPS = 100_001;

function fail(what) {
  throw new Error(t("game record: {problem}", { problem: what }));
}

function isObject(x) {
  return x !== null && typeof x === "object" && !Array.isArray(x);
}

/** `node` with `path`'s value replaced by `value` (or its key removed): a new value
 *  sharing every part not on the path (the server's apply_changes). */
function put(node, path, value, remove) {
  if (!path.length) return value;
  const [key, ...rest] = path;
  if (isObject(node) && typeof key === "string") {
    if (!(key in node) && (rest.length || remove)) fail(t("a change's path {path} is not in the view", { path: JSON.stringify(path) }));
    const out = { ...node };
    if (remove && !rest.length) delete out[key];
    else out[key] = rest.length ? put(node[key], rest, value, remove) : value;
    return out;
  }
  if (Array.isArray(node) && Number.isInteger(key) && key >= 0 && key < node.length && !(remove && !rest.length)) {
    const out = node.slice();
    out[key] = put(node[key], rest, value, remove);
    return out;
  }
  return fail(t("a change's path {path} is not in the view", { path: JSON.stringify(path).slice(0, 60) }));
}

function getAt(node, path) {
  for (const key of path) {
    if (node === null || typeof node !== "object" || !(key in node)) fail(t("a change's path is not in the view"));
    node = node[key];
  }
  return node;
}

/** `view` with a step's `changes` made ([path], [path, value], [path, at, count, items]). */
export function applyChanges(view, changes) {
  if (!Array.isArray(changes)) fail(t("a step after the first needs its 'changes'"));
  for (const c of changes) {
    if (!Array.isArray(c) || !Array.isArray(c[0]) || ![1, 2, 4].includes(c.length) || c[0].length > 64) {
      fail(t("a change is not [path], [path, value] or [path, at, count, items]"));
    }
    if (c.length === 4) {
      const list = getAt(view, c[0]);
      const [, at, count, items] = c;
      if (!Array.isArray(list) || !Array.isArray(items) || !Number.isInteger(at) || !Number.isInteger(count) ||
          at < 0 || count < 0 || at + count > list.length) fail(t("a list change does not fit its list"));
      view = put(view, c[0], [...list.slice(0, at), ...items, ...list.slice(at + count)], false);
    } else {
      if (c.length === 1 && !c[0].length) fail(t("a change removes the whole view"));
      view = put(view, c[0], c[1], c.length === 1);
    }
  }
  return view;
}

/** The record in `text` (a file's text), checked, with each step's `view` whole.
 *  Throws an Error whose message is one line. */
export function readRecord(text) {
  if (text.length > MAX_RECORD_BYTES) fail(t("expected at most {size} MiB", { size: MAX_RECORD_BYTES / 2 ** 20 }));
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return fail(t("not JSON ({problem})", { problem: String(err.message).slice(0, 60) }));
  }
  if (!isObject(doc) || doc.format !== FORMAT) fail(t("field 'format': expected '{format}'", { format: FORMAT }));
  if (!Number.isInteger(doc.version) || doc.version < 1 || doc.version > VERSION) {
    fail(t("field 'version': expected 1 to {version}, got {value}", { version: VERSION, value: String(doc.version).slice(0, 20) }));
  }
  if (typeof doc.game !== "string" || !Array.isArray(doc.labels) || !doc.labels.length ||
      doc.labels.length >= MAX_VIEWERS) fail(t("fields 'game' and 'labels': expected a game and its seats"));
  if (!Array.isArray(doc.viewers) || !doc.viewers.length || doc.viewers.length > MAX_VIEWERS) {
    fail(t("field 'viewers': expected 1 to {most} viewers", { most: MAX_VIEWERS }));
  }
  const viewers = doc.viewers.map((v, k) => {
    if (!isObject(v) || !Array.isArray(v.steps) || !v.steps.length || v.steps.length > MAX_STEPS) {
      fail(t("viewers[{k}]: expected its steps", { k }));
    }
    let view = null;
    const steps = v.steps.map((s, i) => {
      if (!isObject(s) || s.step !== i || !Array.isArray(s.log)) fail(t("viewers[{k}].steps[{i}]: expected step {i}", { k, i }));
      view = i === 0 ? s.view : applyChanges(view, s.changes);
      if (!isObject(view)) fail(t("viewers[{k}].steps[{i}]: expected a view", { k, i }));
      for (const line of s.log) {
        if (!isObject(line) || !Array.isArray(line.lines) || !line.lines.every((text) => typeof text === "string")) {
          fail(t("viewers[{k}].steps[{i}]: expected log entries with lines of text", { k, i }));
        }
      }
      return { step: i, log: s.log, view };
    });
    return { seat: v.seat ?? null, label: String(v.label || ""), steps };
  });
  return { ...doc, viewers };
}

/** A dogfight viewer's turns, each flown turn once, in order: {turn, replay, step}
 *  (the replay as that viewer's side saw it, js/replay.js). */
export function turnReplays(viewer) {
  const turns = [];
  viewer.steps.forEach((s, step) => {
    const v = s.view.view || {};
    const replay = (v.private && v.private.replay) || (v.public && v.public.replay);
    if (replay && !turns.some((seen) => seen.turn === replay.turn)) turns.push({ turn: replay.turn, replay, step });
  });
  return turns;
}
