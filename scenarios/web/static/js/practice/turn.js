// The practice table's turn: adjudicated by the engine (POST /api/adjudicate) and
// replayed step by step. The steps and every line of text are the server's replay
// (js/replay.js, as the dogfight rooms show it); this module adds what the table draws
// at each step: the paths flown, overlaps, collision tests, firing positions, tails.

import { post } from "../api.js";
import { el } from "../dom.js";
import { replaySteps } from "../replay.js";
import { $, doc, hooks, say, serverDoc, state } from "./page.js";
import { renderToolbar } from "./panel.js";
import { renderTable, ruler, shotLine } from "./scene.js";
import { t } from "../i18n.js";

/** The replay's steps (js/replay.js: the server's lines) with what the table draws at
 *  each: the tails at the start; each maneuver's paths, overlaps, collision tests, firing
 *  positions (autonomous fire too) and tails checked again (turn JSON and frames). */
function buildSteps(result) {
  const turn = result.turn;
  const tailRulers = (checks, kind) => checks.map((c) => ruler(c, kind ?? (c.ok ? "kept" : "lost")));
  return replaySteps(result.replay).map((step) => {
    if (step.kind === "start") {
      return { ...step, rulers: tailRulers(turn.start.tails, "tail").concat(tailRulers(turn.start.unmet_wishes, "unmet")) };
    }
    if (step.kind !== "maneuver") return step;
    const m = turn.maneuvers[step.index];
    const frame = result.frames[step.index];
    const at = (a, b) => {
      const pa = frame.planes.find((p) => p.name === a), pb = frame.planes.find((p) => p.name === b);
      return [(pa.x + pb.x) / 2, (pa.y + pb.y) / 2];
    };
    return { ...step, paths: frame.paths, overlapping: new Set(m.overlaps.flat()),
      collisions: m.collisions.map((c) => ({ a: c.a, b: c.b, at: at(c.a, c.b), collided: c.collided,
        text: c.balloon ? t("balloon: collision") : `P ${c.probability}` +
          (c.drawn ? t(", drawn {a}/{b}", { a: c.drawn.a, b: c.drawn.b }) : "") + ": " +
          (c.collided ? t("collide") : t("miss")) })),
      shots: m.shots.map((x) => shotLine(x)).concat(m.autonomous_fire.map((x) => shotLine(x, true))),
      rulers: tailRulers(m.tails) };
  });
}

export async function adjudicateTurn() {
  const d = doc();
  $("adjudicate").disabled = true;
  try {
    const result = await post("/api/adjudicate", { scenario: serverDoc(d) });
    state.replay = { result, steps: buildSteps(result), index: 0 };
    state.selected = null;
    say(t("turn {turn} adjudicated with seed {seed}", { turn: result.turn.turn, seed: result.turn.seed }), true);
    renderReplay();
  } catch (err) {
    say(err.message);
  } finally {
    renderToolbar();
  }
}

/** Step through the turns of a game record (practice/record.js): `rec` holds the
 *  record, its `turns` (js/record.js turnReplays), the turn shown (`at`), the record's
 *  `planes` (their decks and bases) and `table` (its size). */
export function openReplayOf(rec) {
  const shown = rec.turns[rec.at];
  state.replay = { result: { turn: { turn: shown.turn, seed: rec.record.seed ?? t("hidden") }, replay: shown.replay },
    steps: replaySteps(shown.replay), index: 0, record: rec, planes: rec.planes, table: rec.table };
  state.selected = null;
  renderReplay();
}

function renderReplay() {
  const r = state.replay;
  $("replay").hidden = !r;
  $("edit").hidden = !!r;
  if (!r) return;
  const step = r.steps[r.index];
  $("replay-turn").textContent = r.record
    ? t("{turn} of the record {name} ({at} / {turns})", { turn: r.result.turn.turn, name: r.record.name,
      at: r.record.at + 1, turns: r.record.turns.length })
    : t("{turn} (seed {seed})", { turn: r.result.turn.turn, seed: r.result.turn.seed });
  $("next-turn").textContent = r.record ? t("Next turn of the record") : t("Next turn");
  $("next-turn").disabled = !!r.record && r.record.at >= r.record.turns.length - 1;
  document.body.dataset.recordTurn = r.record ? r.result.turn.turn : "";
  $("replay-step").textContent = `${r.index + 1} / ${r.steps.length}`;
  $("replay-step").dataset.kind = step.kind;
  $("replay-step").dataset.index = r.index;
  $("replay-slider").max = r.steps.length - 1;
  $("replay-slider").value = r.index;
  $("replay-title").textContent = step.title;
  $("replay-text").replaceChildren(...step.lines.map((line) => el("li", { textContent: line })));
  $("step-back").disabled = $("step-first").disabled = r.index === 0;
  $("step-next").disabled = $("step-last").disabled = r.index === r.steps.length - 1;
  renderTable();
}

export function goStep(index) {
  const r = state.replay;
  if (!r) return;
  r.index = Math.max(0, Math.min(r.steps.length - 1, index));
  renderReplay();
}

export function closeReplay() {
  state.replay = null;
  $("replay").hidden = true;
  $("edit").hidden = false;
}

export function bindReplay() {
  $("step-first").onclick = () => goStep(0);
  $("step-back").onclick = () => goStep(state.replay.index - 1);
  $("step-next").onclick = () => goStep(state.replay.index + 1);
  $("step-last").onclick = () => goStep(state.replay.steps.length - 1);
  $("replay-slider").oninput = () => goStep(Number($("replay-slider").value));
  $("replay-close").onclick = () => { closeReplay(); hooks.renderAll(); };
  $("next-turn").onclick = () => {
    if (state.replay.record) {
      const rec = state.replay.record;
      if (rec.at < rec.turns.length - 1) openReplayOf({ ...rec, at: rec.at + 1 });
      return;
    }
    const after = state.replay.result.after;
    closeReplay();
    if (state.history.push(after)) hooks.documentChanged();
    say(t("the table after the turn: pick new plans for every plane in the air"), true);
  };
}
