// The practice table's picture: what js/table.js draws, from the document and the
// engine's answers (editing) or from the step of the turn being replayed.

import { corners, poseOf, reportPose } from "../geometry.js";
import { cardStep, pathGhosts, planSteps } from "../plans.js";
import { laidCard, pxPerUnit, readableFont, silhouetteOf } from "../look.js";
import { drawScene } from "../table.js";
import { $, doc, kitOf, planeOf, rangeName, sideColours, state } from "./page.js";
import { fixed, t } from "../i18n.js";

/** A ruling's deciding margin (docs/margins.md): "margin: reach +0.50 mm (DF.T1a)", or "". */
function marginTip(m) {
  if (!m) return "";
  const sign = m.value >= 0 ? "+" : "";
  const unit = m.unit === "deg" ? t("deg") : m.unit;
  return t("; margin: {kind} {value} {unit}", { kind: marginKind(m.kind), value: `${sign}${fixed(m.value, 2)}`, unit }) + `${m.about ? ` (${m.about})` : ""} (${m.rule})`;
}

/** A margin's kind (maneuvers/margins.py, MarginKind) in the reader's language. */
function marginKind(kind) {
  const words = { reach: t("reach"), "front edge": t("front edge"), "rear edge": t("rear edge"),
    "clear ruler": t("clear ruler"), apart: t("apart"), overlap: t("overlap"), arc: t("arc"), range: t("range"),
    band: t("band"), "line of fire": t("line of fire"), "table edge": t("table edge") };
  return words[kind] || kind;
}

/** How often a ruling flips when each base is misplaced by a hand (1 mm, 1°; docs/margins.md):
 * "; flips in 12 % of placements (1 mm, 1°): a close call", or "" when not estimated. */
function flipTip(r) {
  if (!r.flip || !r.flip.samples) return "";
  const pct = r.flip.chance < 0.01 && r.flip.chance > 0 ? t("under 1") : fixed(100 * r.flip.chance, 0);
  return t("; flips in {pct} % of placements (1 mm, 1°)", { pct }) + (r.close_call ? t(": a close call") : "");
}

export function checkTip(c) {
  const head = `${c.chaser} → ${c.target}: ${fixed(c.distance_mm, 1)} mm`;
  return (c.ok ? `${head}: ${t("can tail (DF.T1)")}` : `${head}: ${c.reasons.map((r) => `${r.text} (${r.rule})`).join("; ")}`) +
    marginTip(c.margin) + flipTip(c);
}

export function ruler(c, kind) {
  return { chaser: c.chaser, target: c.target, from: c.ruler[0], to: c.ruler[1], kind, close: !!c.close_call,
    tip: checkTip(c) };
}

export function shotLine(s, auto = false) {
  return { ...s, auto, close: !!s.close_call,
    tip: t("{shooter} can fire at {target}: {range} range, {distance} mm", { shooter: s.shooter, target: s.target,
      range: rangeName(s.range), distance: fixed(s.distance_mm, 1) }) +
      (auto ? t(" (autonomous fire, DF.A2)") : " (DF.O2, DF.O3)") + marginTip(s.margin) + flipTip(s) };
}

function planeDrawing(p, pose, colours, extra = {}) {
  const kit = kitOf(p);
  if (!kit) return null;
  return { name: p.name, side: p.side, colour: colours[p.side], base: kit.base, pose,
    altitude: extra.altitude ?? p.altitude, out: (extra.status ?? p.status) === "out",
    silhouette: silhouetteOf(p, kit.base), status: p.status, effects: p.effects || [], ...extra };
}

/** Where each of a plane's picked cards takes it (DF.M2, DF.M3: pose · motion; js/plans.js). */
function planPreview(p, colour) {
  const kit = kitOf(p);
  if (!kit || !kit.cards.length) return null;
  const steps = planSteps(poseOf(p), kit, p.plan || []);
  const pose = steps.length ? steps[steps.length - 1].pose : poseOf(p);
  const preview = { plane: p.name, colour, steps, ghosts: [], hover: false };
  if (state.hover && state.hover.plane === p.name) {
    const card = kit.cards.find((c) => c.id === state.hover.card);
    if (card) {
      return [preview, { plane: p.name, colour, hover: true, steps: [cardStep(pose, card, kit.base)],
        ghosts: pathGhosts(pose, card, kit.base) }];
    }
  }
  return [preview];
}

function editScene(d) {
  const colours = sideColours(d);
  const a = state.analysis;
  const byName = a ? Object.fromEntries(a.planes.map((p) => [p.name, p])) : {};
  const overlapping = new Set(a ? a.overlaps.flat() : []);
  const planes = d.plane.map((p) => planeDrawing(p, poseOf(p), colours, {
    selected: p.name === state.selected, overlap: overlapping.has(p.name),
    planError: byName[p.name] && byName[p.name].plan_error,
  })).filter(Boolean);
  const previews = d.plane.flatMap((p) => planPreview(p, colours[p.side]) || []);
  let rulers = [], shots = [];
  if (a) {
    const chosen = new Set(a.tails.map((c) => `${c.chaser}>${c.target}`));
    rulers = a.tails.map((c) => ruler(c, "tail"))
      .concat(a.options.filter((c) => !chosen.has(`${c.chaser}>${c.target}`)).map((c) => ruler(c, "option")))
      .concat(a.unmet_wishes.map((c) => ruler(c, "unmet")))
      .concat(a.near_misses.filter((c) => c.chaser === state.selected || c.target === state.selected)
        .map((c) => ruler(c, "near")));
    shots = a.shots.map((s) => shotLine(s));
  }
  return { planes, previews, rulers, shots, zones: state.zonesFor ? state.zones : null, editable: true };
}

function replayScene(d) {
  const step = state.replay.steps[state.replay.index];
  const colours = state.replay.planes // a record's turns: its planes' own colours
    ? Object.fromEntries(Object.values(state.replay.planes).map((p) => [p.side, p.colour])) : sideColours(d);
  const planes = step.planes.map((rp) => {
    const p = (state.replay.planes && state.replay.planes[rp.name]) || planeOf(d, rp.name) || rp;
    return planeDrawing({ ...p, side: rp.side }, reportPose(rp), colours,
      { altitude: rp.altitude, status: rp.status, overlap: (step.overlapping || new Set()).has(rp.name) });
  }).filter(Boolean);
  const paths = Object.entries(step.paths || {}).map(([name, path]) => {
    const p = planeOf(d, name);
    const kit = p && kitOf(p);
    return { plane: name, colour: colours[p ? p.side : ""] || "#555", arrow: path.arrow,
      ghosts: kit ? path.poses.filter((_, i) => i % 3 === 1).map((q) => corners(q, kit.base)) : [] };
  });
  // each card laid in front of its base (DF.M2), under the base moving along its arrow
  const cards = Object.entries(step.paths || {}).flatMap(([name, path]) => {
    const p = planeOf(d, name);
    const kit = p && kitOf(p);
    const card = kit && path.card && kit.cards.find((c) => c.id === path.card);
    return card && card.outline && path.poses.length ? [{ plane: name, card: card.id, colour: colours[p.side],
      corners: laidCard(path.poses[0], card) }] : [];
  });
  return { planes, paths, cards, rulers: step.rulers || [], shots: step.shots || [], collisions: step.collisions || [],
    editable: false };
}

export function renderTable() {
  const d = doc();
  const table = (state.replay && state.replay.table) || d.table; // a record's turns: its own table
  const w = table.width_mm, h = table.height_mm;
  const scene = state.replay ? replayScene(d) : editScene(d);
  Object.assign(scene, { width: w, height: h, font: Math.max(w, h) / 70, handle: Math.max(w, h) / 45,
    colours: state.meta.colours });
  // labels at least 12 CSS px on the screen (the whole table is shown: a phone makes them larger)
  const svg = $("table");
  const r = svg.getBoundingClientRect();
  const pad = scene.font * 2.5;
  const scale = r.width && r.height ? pxPerUnit([-pad, -pad, w + 2 * pad, h + 2 * pad], r.width, r.height) : 0;
  scene.minFont = readableFont(0, scale, 12.5);
  scene.font = readableFont(scene.font, scale, 12.5 / 0.8);
  drawScene(svg, scene);
}
