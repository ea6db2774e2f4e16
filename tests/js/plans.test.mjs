// js/plans.js against furball's Python moves (maneuvers/move.py: DF.M2, DF.M3): the
// cards of a plan flown from a pose with the kit the server sends (/api/cards) end
// where the engine puts them, with the engine's arrows and corners.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { close } from "./close.mjs";
import { compose } from "./geometry.js";
import { cardStep, pathGhosts, planSteps, poseAlong } from "./plans.js";

const cases = JSON.parse(readFileSync(process.env.FURBALL_JS_CASES, "utf8")).plans;
// the kit's card geometry comes rounded to 1e-4 mm and degree (scenarios/web/api.py,
// _points): three cards flown one after another stay well within 1e-3
const KIT_TOL = 1e-3;

test("planSteps ends each card where the engine's move does", () => {
  assert.ok(cases.length > 0);
  for (const c of cases) {
    const steps = planSteps(c.start, c.kit, c.cards);
    assert.deepEqual(steps.map((s) => s.card), c.cards);
    steps.forEach((s, k) => {
      const what = `${c.deck} on ${c.kit.base.name}, ${c.cards.slice(0, k + 1)}`;
      close(s.pose, c.poses[k], `${what}: pose`, KIT_TOL);
      close(s.corners, c.corners[k], `${what}: corners`, KIT_TOL);
      close(s.arrow, c.arrows[k], `${what}: arrow`, KIT_TOL);
    });
  }
});

test("planSteps stops at a card the kit does not have", () => {
  const c = cases[0];
  assert.equal(planSteps(c.start, c.kit, [c.cards[0], "no such card", c.cards[1]]).length, 1);
});

test("poseAlong runs from the path's first sample to the card's end", () => {
  for (const c of cases) {
    for (const card of c.kit.cards) {
      close(poseAlong(c.start, card, 0), compose(c.start, card.path[0]), `${card.id} at 0`);
      close(poseAlong(c.start, card, 1), compose(c.start, card.path[card.path.length - 1]), `${card.id} at 1`);
      close(cardStep(c.start, card, c.kit.base).pose, compose(c.start, card.motion), `${card.id}: step`);
    }
  }
});

test("pathGhosts are base outlines along the path", () => {
  const c = cases[0];
  const card = c.kit.cards[0];
  const ghosts = pathGhosts(c.start, card, c.kit.base);
  assert.ok(ghosts.length > 0 && ghosts.every((g) => g.length === 4));
});
