// A plane's cards on the table: where each picked card takes its base (DF.M2, DF.M3:
// pose · motion, the product the engine uses), for previews in the practice table and
// the dogfight rooms. `kit` is the answer of /api/cards for the plane's deck and base
// (card geometry in the base's own frame).

import { apply, compose, corners } from "./geometry.js";

/** One card flown from `pose`: its laid arrow, the base's corners and pose at the end. */
export function cardStep(pose, card, base) {
  const next = compose(pose, card.motion);
  return { card: card.id, arrow: card.arrow.map((q) => apply(pose, q)), corners: corners(next, base), centre: next,
    pose: next };
}

/** The steps of the cards `ids` flown one after another from `pose` (stops at an unknown card). */
export function planSteps(pose, kit, ids) {
  const steps = [];
  for (const id of ids) {
    const card = id && kit.cards.find((c) => c.id === id);
    if (!card) break;
    const step = cardStep(pose, card, kit.base);
    steps.push(step);
    pose = step.pose;
  }
  return steps;
}

/** Ghost outlines of the base along a card's path from `pose` (every `every`-th sample). */
export function pathGhosts(pose, card, base, every = 4) {
  return card.path.filter((_, i) => i % every === every - 2).map((q) => corners(compose(pose, q), base));
}

/** The pose a fraction `f` (0..1) along a card's sampled path from `pose`. */
export function poseAlong(pose, card, f) {
  const path = card.path;
  if (!path.length) return pose;
  const x = Math.max(0, Math.min(1, f)) * (path.length - 1);
  const i = Math.min(path.length - 2, Math.floor(x));
  if (path.length === 1) return compose(pose, path[0]);
  const t = x - i;
  const a = path[i], b = path[i + 1];
  let dh = b[2] - a[2];
  if (dh > 180) dh -= 360;
  if (dh < -180) dh += 360;
  return compose(pose, [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + dh * t]);
}
