// js/look.js: how a plane looks on the table (issue 34 item 5) and labels readable on a
// phone (item 4). The silhouette chosen and the card laid under a base agree with the
// Python package (scenarios/web/views/dogfight.py silhouette(), maneuvers/path.py
// card_outline); the rest is plain drawing math. Run by tests/test_js_modules.py.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { close } from "./close.mjs";
import { damageState, laidCard, pxPerUnit, readableFont, silhouetteOf, trailPuffs } from "./look.js";

const cases = JSON.parse(readFileSync(process.env.FURBALL_JS_CASES, "utf8")).look;

test("silhouetteOf picks the rooms' drawing for each plane (balloon, bomber DF.T7, two-seater, fighter)", () => {
  assert.deepEqual(new Set(cases.silhouettes.map((c) => c.expected)), new Set(["balloon", "bomber", "two-seater", "fighter"]));
  for (const c of cases.silhouettes) {
    assert.equal(silhouetteOf(c.plane, c.base), c.expected, JSON.stringify(c));
  }
});

test("laidCard lays the card in front of the base as the engine's card_outline does (DF.M2)", () => {
  assert.ok(cases.cards.length > 0);
  for (const c of cases.cards) close(laidCard(c.pose, c.card), c.expected, `${c.card.id} at ${c.pose}`, 1e-3);
});

test("laidCard: the card's near edge is the base's front edge, its arrow on the card", () => {
  const c = cases.cards[0];
  const [a, , , d] = laidCard([0, 0, 0], c.card);
  assert.ok(Math.abs(a[0] - c.front_mark_mm) < 1e-3 && Math.abs(d[0] - c.front_mark_mm) < 1e-3);
});

test("damageState reads smoke and fire from the effects (DF.D6) and destroyed from the status (DF.D5)", () => {
  assert.deepEqual(damageState({ status: "flying", effects: [] }).names, []);
  assert.deepEqual(damageState({ status: "flying", effects: [{ special: "smoke" }] }).names, ["smoke"]);
  assert.deepEqual(damageState({ status: "flying", effects: [{ special: "fire" }, { special: "smoke" }] }).names,
    ["smoke", "fire"]);
  assert.deepEqual(damageState({ status: "destroyed", effects: [] }).names, ["destroyed"]);
  assert.deepEqual(damageState({ status: "flying", effects: [{ special: "jammed_gun" }] }).names, []);
});

test("trailPuffs: smoke trails behind the base, flames on the other side, both turn with the plane", () => {
  const base = { length_mm: 60, width_mm: 44 };
  const smoke = trailPuffs([0, 0, 0], base, "smoke");
  const fire = trailPuffs([0, 0, 0], base, "fire");
  assert.ok(smoke.every(([x, y]) => x <= -30 && y > 0), JSON.stringify(smoke));
  assert.ok(fire.every(([x, y]) => x < 0 && y < 0), JSON.stringify(fire));
  for (let k = 1; k < smoke.length; k++) assert.ok(smoke[k][2] > smoke[k - 1][2] && smoke[k][0] < smoke[k - 1][0]);
  // heading 90°: behind is -y
  const turned = trailPuffs([100, 200, 90], base, "smoke");
  turned.forEach(([x, y, r], k) => close([x, y, r], [100 - smoke[k][1], 200 + smoke[k][0], smoke[k][2]], "turned", 1e-9));
});

test("pxPerUnit fits the box whole (preserveAspectRatio meet) and readableFont keeps 12 px", () => {
  assert.equal(pxPerUnit([0, 0, 900, 600], 390, 506), 390 / 900);
  assert.equal(pxPerUnit([0, 0, 100, 600], 390, 506), 506 / 600);
  const scale = 390 / 900;
  assert.ok(Math.abs(readableFont(900 / 70, scale) * scale - 12) < 1e-9); // a phone: raised to 12 px
  assert.equal(readableFont(900 / 70, 1.5), 900 / 70); // a desktop: the drawing's own size
  assert.equal(readableFont(5, 0), 5); // not laid out yet
});
