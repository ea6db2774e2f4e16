// Best plans over the room's socket, refreshed while a plane is dragged (issue 36;
// docs/rooms.md, "Best plans while dragging").
//
// A request is `{"type": "best", "n": N, "plane", "vs"?, "poses"?}` on the room's socket
// (the room page's `ctx.send`); its answer comes back on the same socket only, pushed
// (`{"type": "best", "n": N, "result"}` or `{..., "error"}`), never polled. Every request
// has a number; an answer whose number is not the last one asked is dropped (the table
// moved on meanwhile). With the Best plans panel open, a plane dragged on the table is
// moved on this page alone (a what-if: nothing is played, no other seat sees it) and the
// plans are asked again at most every EVERY_MS while it moves, the moved poses sent with
// the request. "Put back" returns the planes where they stand; a new turn does too.

import { el } from "../../../dom.js";
import { t } from "../../../i18n.js";
import { hooks, s } from "./state.js";

export const EVERY_MS = 100;

/** The page's live requests: the last number asked, the one shown, how many answers
 *  were dropped as stale, the planes moved (name -> [x_mm, y_mm, heading_deg]), the
 *  current question `want` ({plane, vs}) and `answered(msg)`, set by dogfight.js. */
export const live = { n: 0, shown: 0, dropped: 0, moved: new Map(), want: null, answered: null, drag: null,
  timer: null, turn: undefined, askedAt: 0, roundMs: null, drawnMs: null };

function mark() {
  const d = s.els.root.dataset;
  d.bestAsked = String(live.n);
  d.bestShown = String(live.shown);
  d.bestDropped = String(live.dropped);
  d.moved = [...live.moved.keys()].join(" ");
  if (live.drawnMs !== null) {
    d.bestRoundMs = live.roundMs.toFixed(1);
    d.bestDrawnMs = live.drawnMs.toFixed(1);
  }
}

/** Ask for `want`'s Best plans on the socket (with the moved poses). False when the
 *  socket is not open (the caller then asks over HTTP). */
export function askLive(want) {
  if (!s.ctx.send) return false;
  const msg = { type: "best", n: live.n + 1, plane: want.plane };
  if (want.vs) msg.vs = want.vs;
  if (live.moved.size) msg.poses = Object.fromEntries(live.moved);
  if (!s.ctx.send(msg)) return false;
  live.n += 1;
  live.want = want;
  live.askedAt = performance.now();
  mark();
  return true;
}

/** A `best` message from the socket: handed to `live.answered` if it answers the last
 *  request, else dropped. The page keeps, for the last answer shown, the time from its
 *  request to its arrival (`data-best-round-ms`) and from its arrival to the next frame,
 *  the one that paints it (`data-best-drawn-ms`): benchmarks/bench_web.py reads them. */
export function bestMessage(msg) {
  if (msg.n !== live.n || !live.want || !live.answered) { // a newer request is out, or the turn moved on
    live.dropped += 1;
    mark();
    return;
  }
  const arrived = performance.now();
  live.shown = msg.n;
  live.answered(msg);
  requestAnimationFrame(() => {
    if (live.shown !== msg.n) return;
    live.roundMs = arrived - live.askedAt;
    live.drawnMs = performance.now() - arrived;
    mark();
  });
  mark();
}

function again() {
  if (live.timer !== null || !live.want) return;
  live.timer = setTimeout(() => {
    live.timer = null;
    if (live.want) askLive(live.want);
  }, EVERY_MS);
}

/** The table's planes drawn where this page moved them. */
export function movedScene(scene) {
  for (const p of scene.planes) {
    const pose = live.moved.get(p.name);
    if (pose) Object.assign(p, { pose, selected: true });
  }
  return scene;
}

/** The Best plans panel's row (`vs`, `go` and "Put back") after a line saying a plane may be dragged. */
export function liveControls(vs, go) {
  const back = el("button", { textContent: t("Put back"), title: t("the planes where they stand"),
    onclick: () => putBack() });
  back.dataset.testid = "put-back";
  const hint = t("Drag a plane to try it elsewhere (on your screen only): its best plans follow it.");
  return [el("p", { className: "muted", textContent: hint }), el("div", { className: "row" }, vs, go, back)];
}

/** Back where they stand (a new turn, or "Put back"); asks again if asked before. */
export function putBack(ask = true) {
  if (!live.moved.size) return;
  live.moved.clear();
  mark();
  hooks.drawTable();
  if (ask && live.want) again();
}

/** A new turn: the moves of the last one are forgotten, its question too. */
export function liveTurn(turn) {
  if (live.turn === turn) return;
  live.turn = turn;
  live.want = null;
  putBack(false);
}

function tablePoint(e) {
  const world = s.els.svg.querySelector("#world");
  const m = world && world.getScreenCTM();
  if (!m) return null;
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
  return [p.x, p.y];
}

/** Drag planes on `svg` (the room's table) while `enabled()`: before the pan and zoom
 *  see the pointer (capture), and only on a plane. */
export function bindDrag(svg, enabled) {
  svg.addEventListener("pointerdown", (e) => {
    const g = e.target.closest && e.target.closest("[data-plane]");
    if (!g || !enabled() || (e.pointerType === "mouse" && e.button !== 0)) return;
    const at = tablePoint(e);
    if (!at) return;
    e.stopImmediatePropagation();
    e.preventDefault();
    const name = g.dataset.plane;
    const pose = live.moved.get(name) || [Number(g.dataset.x), Number(g.dataset.y), Number(g.dataset.heading)];
    live.drag = { name, pointer: e.pointerId, from: at, pose };
    svg.setPointerCapture?.(e.pointerId);
  }, { capture: true });
  svg.addEventListener("pointermove", (e) => {
    if (!live.drag || e.pointerId !== live.drag.pointer) return;
    e.stopImmediatePropagation();
    const at = tablePoint(e);
    if (!at) return;
    const { from, pose, name } = live.drag;
    live.moved.set(name, [pose[0] + at[0] - from[0], pose[1] + at[1] - from[1], pose[2]]);
    mark();
    hooks.drawTable();
    again();
  }, { capture: true });
  const end = (e) => {
    if (!live.drag || e.pointerId !== live.drag.pointer) return;
    e.stopImmediatePropagation();
    live.drag = null;
  };
  svg.addEventListener("pointerup", end, { capture: true });
  svg.addEventListener("pointercancel", end, { capture: true });
}
