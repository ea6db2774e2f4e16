// How a plane looks on the table, as plain numbers (no DOM, so node's tests run it):
// its damage state at a glance, where the smoke and the flames are drawn, the card laid
// under a moving base, and the label size that stays readable on a phone.

import { apply } from "./geometry.js";

/** The damage state everyone sees of a plane row (`status`, `effects`: [{special}], DF.D5,
 *  DF.D6): `{smoke, fire, destroyed}` booleans; `names` lists the true ones, worst last. */
export function damageState(plane) {
  const specials = new Set((plane.effects || []).map((e) => (typeof e === "string" ? e : e.special)));
  const out = { smoke: specials.has("smoke"), fire: specials.has("fire"), destroyed: plane.status === "destroyed" };
  out.names = ["smoke", "fire", "destroyed"].filter((k) => out[k]);
  return out;
}

/** Table points `[x, y, r]` (mm) of the puffs drawn behind a smoking or burning plane at
 *  `pose` on `base`: a trail off the base's rear edge, growing as it goes; `kind` is
 *  "smoke" (grey puffs, on the left of the fuselage) or "fire" (flames over the wing roots
 *  and the trail's start, on the right), so both show at once. */
export function trailPuffs(pose, base, kind) {
  const side = kind === "fire" ? -1 : 1;
  const w = base.width_mm;
  const rear = -base.length_mm / 2;
  const out = [];
  const n = kind === "fire" ? 3 : 4;
  for (let k = 0; k < n; k++) {
    const x = kind === "fire" ? -0.15 * base.length_mm - k * 0.14 * w : rear - k * 0.16 * w;
    const y = side * (0.08 * w + 0.03 * w * k);
    const [px, py] = apply(pose, [x, y]);
    out.push([px, py, (kind === "fire" ? 0.09 : 0.07) * w * (1 + 0.35 * k)]);
  }
  return out;
}

/** The card of `card` (a kit card, /api/cards: `outline` in the base frame) laid in front
 *  of a base at `pose` (DF.M2): its four table corners (mm). */
export function laidCard(pose, card) {
  return (card.outline || []).map((q) => apply(pose, q));
}

/** Screen pixels per drawing unit when `box` ([x, y, w, h], units) is fitted, whole and
 *  centred, in `widthPx` × `heightPx` (SVG's preserveAspectRatio "xMidYMid meet"). */
export function pxPerUnit(box, widthPx, heightPx) {
  return Math.min(widthPx / box[2], heightPx / box[3]);
}

/** A label size (drawing units) at least `minPx` screen pixels tall at `scale` px per
 *  unit, and never smaller than the drawing's own `nominal` size. */
export function readableFont(nominal, scale, minPx = 12) {
  return scale > 0 ? Math.max(nominal, minPx / scale) : nominal;
}

/** Which of furball's own top-down drawings (img/planes.svg) stands for a plane: its
 *  document row (`kind`, `engines`) and `base` (`firing_arcs`: [centre_deg, half_deg]).
 *  The same choice as the rooms' server (scenarios/web/views/dogfight.py, silhouette()):
 *  "balloon", "bomber" (more than one engine, DF.T7), "two-seater" (an arc facing
 *  backwards: a rear gunner) or "fighter". */
export function silhouetteOf(plane, base) {
  if ((plane.kind || "plane") === "balloon") return "balloon";
  if (plane.engines === "multi") return "bomber";
  const back = (base.firing_arcs || []).some(([centre]) => Math.abs((((centre + 180) % 360) + 360) % 360 - 180) > 90);
  return back ? "two-seater" : "fighter";
}
