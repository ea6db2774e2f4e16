// The dogfight room's table: what js/table.js draws, from this seat's view (the planes,
// this seat's plans card by card) or from the step of the turn being replayed (bases
// sliding along their cards' paths, then shots, then damage and losses).

import { corners } from "../../../geometry.js";
import { laidCard } from "../../../look.js";
import { number, t } from "../../../i18n.js";
import { cardStep, pathGhosts, planSteps, poseAlong } from "../../../plans.js";
import { FIRE_PART, kitOf, LOST, MOVE_PART, planeNamed, poseOf, priv, pub, s } from "./state.js";

function drawn(p, extra = {}) {
  return { name: p.name, side: p.side, colour: p.colour, base: p.geometry, pose: poseOf(p), altitude: p.altitude,
    out: LOST.has(p.status), silhouette: p.silhouette, status: p.status, effects: p.effects || [], ...extra };
}

function withLook(rows) {
  // replay rows carry the plane's state; its drawing (base, colour, silhouette) is public
  // (its damage effects are the row's own: the table's now would show a fire too early)
  return rows.map((row) => ({ ...planeNamed(row.name), effects: [], ...row }));
}

export function idleScene() {
  const flown = pub().flown; // a second reveal (DF.T2): the planes where the first maneuver left them
  if (flown) {
    const rows = withLook(flown.maneuvers[flown.maneuvers.length - 1].planes);
    return { planes: rows.map((p) => drawn(p, { lost: LOST.has(p.status) })), previews: [] };
  }
  const planes = pub().planes.map((p) => drawn(p, { lost: LOST.has(p.status) }));
  const previews = [];
  const me = priv();
  const preview = (p, ids, hover) => {
    const kit = kitOf(p);
    if (!kit || !kit.cards.length) return;
    const steps = planSteps(poseOf(p), kit, ids);
    previews.push({ plane: p.name, colour: p.colour, steps, ghosts: [], hover: false });
    if (hover) {
      const card = kit.cards.find((c) => c.id === hover);
      const pose = steps.length ? steps[steps.length - 1].pose : poseOf(p);
      if (card) {
        previews.push({ plane: p.name, colour: p.colour, hover: true, steps: [cardStep(pose, card, kit.base)],
          ghosts: pathGhosts(pose, card, kit.base) });
      }
    }
  };
  if (me) {
    for (const [name, cards] of Object.entries(me.own_plans)) {
      const p = planeNamed(name);
      if (p) preview(p, cards, null);
    }
  }
  const v = s.view;
  if (v.choices && v.version !== undefined) {
    const p = planeNamed(v.choices.plane);
    if (p) preview(p, s.pick, s.hover);
  }
  return { planes, previews };
}

function tailRulers(checks, kind) {
  return (checks || []).map((c) => ({ chaser: c.chaser, target: c.target, from: c.ruler[0], to: c.ruler[1],
    kind: kind || (c.ok ? "kept" : "lost"), tip: `${c.chaser} → ${c.target}: ${number(c.distance_mm, 1)} mm` }));
}

function shotLine(x, fired) {
  const values = { shooter: x.shooter, target: x.target, range: t(x.range), distance: number(x.distance_mm, 1) };
  return { ...x, auto: false, tip: fired ? t("{shooter} fires at {target}: {range} range, {distance} mm (DF.D3)", values)
    : t("{shooter} can fire at {target}: {range} range, {distance} mm (DF.O2, DF.O3)", values) };
}

function moveFrame(move, f) {
  const start = [move.start.x, move.start.y, move.start.heading];
  const end = [move.end.x, move.end.y, move.end.heading];
  if (f >= 1) return end;
  const p = planeNamed(move.plane);
  const kit = p && kitOf(p);
  const card = kit && kit.cards.find((c) => c.id === move.card);
  if (card) {
    const along = poseAlong(start, card, 1);
    if (Math.hypot(along[0] - end[0], along[1] - end[1]) < 1) return poseAlong(start, card, f);
  }
  let dh = end[2] - start[2];
  if (dh > 180) dh -= 360;
  if (dh < -180) dh += 360;
  return [start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f, start[2] + dh * f];
}

export function replayScene() {
  const r = s.replay;
  const step = r.steps[r.index];
  if (step.kind !== "maneuver") {
    const planes = withLook(step.planes).map((p) => drawn(p, { lost: LOST.has(p.status) }));
    return { planes, rulers: step.kind === "start" ? tailRulers(step.tails, "tail") : [] };
  }
  const m = step.m;
  const f = r.f;
  const moving = Math.min(1, f / MOVE_PART);
  const moves = Object.fromEntries(m.moves.map((mv) => [mv.name || mv.plane, mv]));
  const lostNow = new Set([...m.lost.map((x) => x.plane), ...m.left_table]);
  const before = Object.fromEntries(withLook(step.from).map((p) => [p.name, p]));
  const after = withLook(m.planes);
  const planes = after.map((p) => {
    const mv = moves[p.name];
    const pose = mv ? moveFrame(mv, moving) : poseOf(before[p.name] || p);
    const shown = f >= FIRE_PART ? p : (before[p.name] || p);
    return drawn(shown, { pose, altitude: mv && moving >= 1 ? p.altitude : shown.altitude,
      lost: f >= FIRE_PART && lostNow.has(p.name), out: LOST.has((before[p.name] || p).status) });
  });
  const cards = [];
  const paths = m.moves.map((mv) => {
    const p = planeNamed(mv.plane);
    const kit = p && kitOf(p);
    const card = kit && kit.cards.find((c) => c.id === mv.card);
    const start = [mv.start.x, mv.start.y, mv.start.heading];
    // the card laid in front of the base (DF.M2): the base moves along its arrow onto it
    if (card && card.outline) {
      cards.push({ plane: mv.plane, card: card.id, colour: p.colour, corners: laidCard(start, card) });
    }
    return { plane: mv.plane, colour: p ? p.colour : "#555", arrow: card ? cardStep(start, card, kit.base).arrow : [],
      ghosts: [] };
  });
  const scene = { planes, paths, cards };
  if (f >= MOVE_PART) {
    scene.shots = (m.fire.length ? m.fire : m.shots).map((x) => shotLine(x, m.fire.length > 0));
    scene.collisions = m.collisions.map((c) => {
      const a = planes.find((p) => p.name === c.a), b = planes.find((p) => p.name === c.b);
      return { a: c.a, b: c.b, collided: c.collided, at: a && b ? [(a.pose[0] + b.pose[0]) / 2, (a.pose[1] + b.pose[1]) / 2]
        : [0, 0], text: c.collided ? t("collision") : t("near miss") };
    });
    scene.rulers = tailRulers(m.tails.filter((c) => !c.ok), "lost");
  }
  if (f >= FIRE_PART) {
    const notes = [];
    const font = Math.max(pub().width_mm, pub().height_mm) / 70;
    const per = {};
    for (const d of m.damage) (per[d.plane] = per[d.plane] || []).push(d);
    for (const p of planes) {
      const lines = (per[p.name] || []).map((d) => (d.card ? `${d.card} (${d.points})`
        : d.letter ? t("{letter} card", { letter: d.letter }) : t("fire card")) +
        (d.special ? ` ${t(d.special.replaceAll("_", " "))}` : ""));
      if (lostNow.has(p.name)) lines.push(m.left_table.includes(p.name) ? t("left the table") : t("destroyed"));
      // under the base, clear of its name above it, whatever way the base is turned
      const low = Math.min(...corners(p.pose, p.base).map((c) => c[1]));
      lines.forEach((text, k) => notes.push({ at: [p.pose[0], low - font * (1.0 + 1.1 * k)],
        text, kind: lostNow.has(p.name) && k === lines.length - 1 ? "lost" : "damage", plane: p.name }));
    }
    scene.notes = notes;
  }
  return scene;
}

/** What the table shows unless the user zooms: the planes still in play and the cards
 *  drawn, with room around them, within the whole table. */
export function homeBox(scene) {
  const p = pub();
  const pad = scene.font * 2.5;
  const whole = [-pad, -pad, p.width_mm + 2 * pad, p.height_mm + 2 * pad];
  const points = [];
  for (const q of scene.planes) if (!q.out || s.replay) points.push(q.pose);
  for (const v of scene.previews || []) for (const st of v.steps) points.push(st.centre);
  if (!points.length) return whole;
  const margin = Math.max(140, 0.15 * Math.max(p.width_mm, p.height_mm));
  let x0 = Math.min(...points.map((q) => q[0])) - margin, x1 = Math.max(...points.map((q) => q[0])) + margin;
  let y0 = Math.min(...points.map((q) => q[1])) - margin, y1 = Math.max(...points.map((q) => q[1])) + margin;
  x0 = Math.max(x0, whole[0]); y0 = Math.max(y0, whole[1]);
  x1 = Math.min(x1, whole[0] + whole[2]); y1 = Math.min(y1, whole[1] + whole[3]);
  // table y points up; the drawing's y points down (table.js flips it)
  return [x0, p.height_mm - y1, x1 - x0, y1 - y0];
}
