// The dogfight room's Best plans (docs/rooms.md, "Best plans while dragging"): asked on the
// room's socket (dogfight/live.js; the polled HTTP job while the socket is down), shown
// as a ranked list whose plans pick themselves into the plan panel, and gone with their
// turn (forgetTurn, with the turn's "locked in" notice).

import { el } from "../../../dom.js";
import { number, t } from "../../../i18n.js";
import { askLive, live, liveTurn } from "./live.js";
import { hooks, LOST, pickNode, planPlane, priv, pub, s } from "./state.js";

const refresh = (all) => hooks.refresh(all);

export function renderBest() {
  const me = priv();
  if (!me || pub().over) return;
  const enemies = pub().planes.filter((p) => p.side !== me.side && !LOST.has(p.status));
  const old = s.els.vs.value;
  s.els.vs.replaceChildren(el("option", { value: "", textContent: t("every enemy within reach") }),
    ...enemies.map((p) => el("option", { value: p.name, textContent: t("vs {plane}", { plane: p.name }) })));
  s.els.vs.value = enemies.some((p) => p.name === old) ? old : "";
  const planning = s.view.choices && !s.view.choices.reorder && s.view.version !== undefined;
  s.els.bestGo.disabled = !planning || (s.best && s.best.running);
  s.els.bestGo.title = planning ? t("the plan analysis for the plane you plan now") : t("when it is your turn to plan");
}

export async function bestPlans() {
  const plane = planPlane();
  if (!plane) return;
  const body = { plane };
  if (s.els.vs.value) body.vs = s.els.vs.value;
  s.best = { running: true, plane, version: s.view.version, turn: pub().turn };
  s.els.bestGo.disabled = true;
  s.els.bestList.replaceChildren();
  s.els.progress.hidden = false;
  s.els.progress.removeAttribute("value"); // indeterminate until the first figure
  s.els.progressText.textContent = t("asking the server…");
  s.els.root.dataset.best = "running";
  if (askLive({ plane, vs: body.vs })) return; // pushed on the socket: bestAnswered
  try {
    let job = await s.ctx.post("/analysis", body);
    while (job.state === "running") {
      showProgress(job);
      await new Promise((r) => setTimeout(r, 250));
      job = await s.ctx.get(`/analysis/${encodeURIComponent(job.job)}`);
    }
    if (job.state === "failed") throw new Error(job.error);
    if (pub().turn !== s.best.turn) { // the turn has moved on: its results are gone with it
      forgetTurn(pub().turn);
      s.els.progress.hidden = true;
      s.els.progressText.textContent = "";
      return;
    }
    showProgress(job);
    showBest(job.result);
    s.els.root.dataset.best = "done";
  } catch (err) {
    s.els.progressText.textContent = err.message;
    s.els.root.dataset.best = "failed";
  } finally {
    s.best.running = false;
    renderBest();
  }
}

/** The answer to the last request asked on the socket (dogfight/live.js drops the others). */
function bestAnswered(msg) {
  s.best = { ...(s.best || {}), running: false };
  s.els.progress.hidden = false;
  if (msg.error) {
    s.els.progressText.textContent = msg.error;
    s.els.root.dataset.best = "failed";
  } else {
    s.els.progress.max = 1;
    s.els.progress.value = 1;
    s.els.progressText.textContent = t("done in {seconds} s", { seconds: number(msg.result.seconds, 1) });
    showBest(msg.result);
    s.els.root.dataset.best = "done";
  }
  renderBest();
}
live.answered = bestAnswered;

function showProgress(job) {
  if (job.total) {
    s.els.progress.max = job.total;
    s.els.progress.value = job.done;
  }
  const seconds = number(job.seconds, 1);
  const part = job.total ? t("{done} of {total} parts", { done: job.done, total: job.total }) : t("starting");
  s.els.progressText.textContent = job.state === "done" ? t("done in {seconds} s", { seconds })
    : t("{part}, {seconds} s", { part, seconds });
}

function showBest(found) {
  const pct = (x) => `${number(Math.round(100 * x), 0)}%`;
  s.els.bestList.replaceChildren(...found.top.map((r) => {
    const b = el("button", { className: "df-best-plan", textContent: `${r.plan.join(" ")}` });
    b.dataset.plan = r.plan.join(" ");
    b.title = t("pick this plan");
    b.onclick = () => {
      if (!(s.view.choices && planPlane() === found.plane)) return;
      s.pick = [];
      for (const id of r.plan) {
        const node = pickNode();
        if (!node || typeof node !== "object" || !(id in node)) break;
        s.pick.push(id);
      }
      s.els.plan.open = true;
      refresh();
    };
    return el("li", {}, b, el("span", { className: "muted", textContent: " " + t("score {score}: gives {short} " +
      "short + {long} long, takes {taken_short} + {taken_long}; collision {collision}, leaves the table {leave}", {
      score: number(r.score, 2), short: number(r.shots_given.short, 2), long: number(r.shots_given.long, 2),
      taken_short: number(r.shots_taken.short, 2), taken_long: number(r.shots_taken.long, 2),
      collision: pct(r.p_collision), leave: pct(r.p_leave) }) }));
  }));
}

/** Best plans' results and the "locked in" notice belong to their turn: gone with it. */
export function forgetTurn(turn) {
  if (s.noticeTurn !== null && s.noticeTurn !== turn) {
    s.ctx.say("");
    s.noticeTurn = null;
  }
  if (s.bestTurn !== turn) {
    s.bestTurn = turn;
    liveTurn(turn);
    s.els.bestList.replaceChildren();
    s.els.progress.hidden = true;
    s.els.progressText.textContent = "";
    delete s.els.root.dataset.best;
  }
}
