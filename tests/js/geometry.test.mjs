// js/geometry.js against furball's Python geometry (geometry/pose.py, geometry/base.py).
// Run by tests/test_js_modules.py, which copies the page's modules next to this file
// and writes the Python answers to the JSON file named by FURBALL_JS_CASES.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { close } from "./close.mjs";
import { apply, clampToTable, compose, corners, direction, normHeading, poseWithStand, stand } from "./geometry.js";

const cases = JSON.parse(readFileSync(process.env.FURBALL_JS_CASES, "utf8")).geometry;
test("compose is the engine's pose product a @ b", () => {
  for (const c of cases.compose) close(compose(c.a, c.b), c.expected, `compose(${c.a}, ${c.b})`);
});

test("apply turns a point of a pose's frame into the table frame", () => {
  for (const c of cases.apply) close(apply(c.pose, c.point), c.expected, `apply(${c.pose}, ${c.point})`);
});

test("normHeading is the engine's normalised heading, in [0, 360)", () => {
  for (const c of cases.norm) {
    const h = normHeading(c.heading);
    assert.ok(h >= 0 && h < 360, `normHeading(${c.heading}) = ${h}`);
    assert.ok(Math.abs(h - c.expected) <= 1e-9 || Math.abs(Math.abs(h - c.expected) - 360) <= 1e-9,
      `normHeading(${c.heading}) = ${h}, not ${c.expected}`);
  }
});

test("corners are the engine's base corners, counter-clockwise from front-right", () => {
  for (const c of cases.corners) close(corners(c.pose, c.base), c.expected, `corners(${c.pose}, ${c.base.name})`);
});

test("stand and poseWithStand agree with the engine's stand (turning about the peg)", () => {
  for (const c of cases.stand) {
    close(stand(c.pose, c.base), c.stand, `stand(${c.pose}, ${c.base.name})`);
    close(poseWithStand(c.stand, c.pose[2], c.base), c.pose, `poseWithStand(${c.stand}, ${c.pose[2]})`);
  }
});

test("direction is the heading from a to b", () => {
  for (const c of cases.direction) close([0, 0, direction(c.a, c.b)], [0, 0, c.expected], `direction(${c.a}, ${c.b})`);
});

test("clampToTable keeps a point on the table", () => {
  assert.deepEqual(clampToTable([-5, 950], 900, 600), [0, 600]);
  assert.deepEqual(clampToTable([10, 20], 900, 600), [10, 20]);
});
