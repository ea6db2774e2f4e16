// Comparing the page's numbers with the engine's: within geometry.tolerance.TOLERANCE_MM
// (1e-6 mm, and degrees alike) unless told; a pose's heading (its third number) modulo 360.

import assert from "node:assert/strict";

const TOL_MM = 1e-6;

/** Assert that `actual` (a number array, or nested arrays of them) matches `expected`
 *  within `tol` (mm or degrees). */
export function close(actual, expected, what, tol = TOL_MM) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  actual.forEach((v, i) => {
    if (Array.isArray(v)) return close(v, expected[i], `${what}[${i}]`, tol);
    // headings (the third of a pose) agree modulo 360
    const d = i === 2 && actual.length === 3 && !Array.isArray(expected[0]) ? Math.abs(((v - expected[i]) % 360 + 540) % 360 - 180)
      : Math.abs(v - expected[i]);
    assert.ok(d <= tol, `${what}[${i}]: ${v} != ${expected[i]}`);
  });
}

