// The steps of a dogfight turn's replay, for the practice table and the dogfight rooms.
//
// `replay` is the server's replay of the turn (scenarios/dogfight/report.py, replay_json:
// the practice table's POST /api/adjudicate and a room's view both send it). Every text
// shown is one of the server's report lines, but the steps' titles (through t(), docs/i18n.md).

import { t } from "./i18n.js";

/** The steps of `replay`: the start (tails), one step per maneuver, the end.
 *  Each: {kind: "start"|"maneuver"|"end", title, lines, planes}; a maneuver step also
 *  has `m` (the server's maneuver), `index` (its position) and `from` (the planes before it). */
export function replaySteps(replay) {
  const steps = [{ kind: "start", title: t("Turn {turn}: the start (tails, DF.T1, DF.T3)", { turn: replay.turn }),
    lines: replay.start.lines, planes: replay.start.planes, tails: replay.start.tails }];
  let before = replay.start.planes;
  replay.maneuvers.forEach((m, index) => {
    steps.push({ kind: "maneuver", title: t("Turn {turn}: maneuver {index}", { turn: replay.turn, index: m.index }), lines: m.lines, from: before,
      m, index, planes: m.planes });
    before = m.planes;
  });
  steps.push({ kind: "end", title: t("Turn {turn}: the end (the table for turn {next})", { turn: replay.turn, next: replay.end.turn }),
    lines: replay.end.lines, planes: replay.end.planes });
  return steps;
}
