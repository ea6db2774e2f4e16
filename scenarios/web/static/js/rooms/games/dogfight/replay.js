// The dogfight room's replay of the turn just flown: the server's replay of this seat's
// side (its steps and lines, js/replay.js), played as an animation or step by step. At a
// second reveal (DF.T2) the turn so far (its start and first maneuver: `flown`) is what
// everyone watches, as at a table before the second card is shown.

import { el } from "../../../dom.js";
import { t } from "../../../i18n.js";
import { replaySteps } from "../../../replay.js";
import { hooks, priv, pub, PAUSE_MS, s, STEP_MS } from "./state.js";

export function replayData() {
  const me = priv();
  return (me && me.flown) || pub().flown || (me && me.replay) || pub().replay;
}

/** Which replay `data` is: its turn, and how far it goes (a turn so far, or the whole turn). */
export function replayKey(data) {
  return data ? `${data.turn}|${data.end ? "end" : data.maneuvers.length}` : null;
}

export function openReplay(autoplay) {
  const data = replayData();
  if (!data) return;
  stopClock();
  s.replay = { data, steps: replaySteps(data), index: 0, started: 0, f: 0, playing: false };
  renderReplayPanel();
  if (autoplay) play();
  else hooks.refresh(false);
}

export function closeReplay() {
  stopClock();
  s.replay = null;
  hooks.refresh();
}

export function play() {
  const r = s.replay;
  if (!r) return;
  if (r.index >= r.steps.length - 1 && r.f >= 1) {
    r.index = 0;
    r.f = 0;
  }
  r.playing = true;
  r.started = performance.now() - r.f * STEP_MS;
  tick();
}

export function pause() {
  if (!s.replay) return;
  s.replay.playing = false;
  stopClock();
  renderReplayPanel();
}

function stopClock() {
  if (s.frame) cancelAnimationFrame(s.frame);
  s.frame = 0;
}

function tick() {
  const r = s.replay;
  if (!r || !r.playing) return;
  const step = r.steps[r.index];
  const length = step.kind === "maneuver" ? STEP_MS : STEP_MS / 2;
  const t = performance.now() - r.started;
  r.f = Math.min(1, t / length);
  if (t >= length + PAUSE_MS) {
    if (r.index >= r.steps.length - 1) {
      r.playing = false;
      r.f = 1;
      renderReplayPanel();
      hooks.drawTable();
      return;
    }
    r.index += 1;
    r.f = 0;
    r.started = performance.now();
    renderReplayPanel();
  }
  hooks.drawTable();
  s.frame = requestAnimationFrame(tick);
}

export function goStep(index, atOnce = false) {
  const r = s.replay;
  if (!r) return;
  stopClock();
  r.playing = false;
  r.index = Math.max(0, Math.min(r.steps.length - 1, index));
  r.f = 1;
  if (atOnce) r.index = r.steps.length - 1;
  renderReplayPanel();
  hooks.drawTable();
}

export function renderReplayPanel() {
  const r = s.replay;
  const data = replayData();
  s.els.replay.hidden = !r;
  s.els.replayOpen.hidden = !!r || !data;
  if (data) {
    s.els.replayOpen.textContent = data.end ? t("Replay turn {turn}", { turn: data.turn })
      : t("Replay turn {turn} so far", { turn: data.turn });
  }
  s.els.root.dataset.replay = !r ? "closed" : r.playing ? "playing" : "paused";
  if (!r) return;
  const step = r.steps[r.index];
  s.els.root.dataset.replayStep = r.index;
  s.els.root.dataset.replayKind = step.kind;
  s.els.replayTitle.textContent = `${step.title} (${r.index + 1} / ${r.steps.length})`;
  s.els.replayLines.replaceChildren(...step.lines.map((line) => el("li", { textContent: line.trim() })));
  s.els.play.textContent = r.playing ? "❚❚" : "▶";
  s.els.play.title = r.playing ? t("pause") : t("play");
}
