// js/record.js against furball's Python game records (scenarios/web/record.py): the
// views a page rebuilds from a record file's changes are the views the server recorded.
// Run by tests/test_js_modules.py (FURBALL_JS_CASES names its JSON: `record`, the file's
// text, and `views`, each viewer's views in order).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { readRecord, turnReplays } from "./record.js";

const cases = JSON.parse(readFileSync(process.env.FURBALL_JS_CASES, "utf8")).record;

test("readRecord rebuilds every step's view as the server recorded it", () => {
  const record = readRecord(cases.text);
  assert.equal(record.viewers.length, cases.views.length);
  record.viewers.forEach((v, k) => {
    assert.deepEqual(v.steps.map((s) => s.view), cases.views[k]);
  });
  assert.deepEqual(turnReplays(record.viewers[0]).map((t) => t.turn), cases.turns);
});

test("readRecord refuses another format or version in one line", () => {
  assert.throws(() => readRecord('{"format": "x", "version": 1}'), /field 'format'/);
  assert.throws(() => readRecord('{"format": "furball-game-record", "version": 2}'), /field 'version'/);
  assert.throws(() => readRecord("not json"), /not JSON/);
});
