// The dogfight room (docs/rooms.md, docs/dogfight_game.md): the table drawn from this
// seat's view with the practice table's own drawing code (js/table.js) — planes as
// furball's top-down silhouettes (img/planes.svg) on their bases —, who has locked in,
// this seat's plans only (the server sends nobody else's), the plan chosen card by card
// among the legal continuations the engine gives (`choices.tree`), Best plans computed in
// the server's pool, answered on the room's socket and following a plane dragged on this
// screen alone (dogfight/live.js), and the turn just flown replayed on every seat's
// screen: bases slide along their cards' paths, shots are drawn, damage cards and planes
// lost are shown, and the DF.T2 reveals only on the chaser's side's screen (the server
// sends each side its own replay). Pan and pinch-zoom the table (js/panzoom.js). The
// chaser looks and chooses (DF.T2): while the game waits for a chaser, its seat alone is
// sent the target's next card (`private.reorder`, `choices.reorder`) and orders its
// remaining cards here (click a card to move it first, or keep), with the time left;
// every other seat reads "waiting for a chaser" (`public.waiting`), without the card.
//
// What belongs to a turn goes with it: its Best-plans results and "locked in" notice are
// cleared when the next turn starts; cards picked but not locked are kept in this browser
// (dogfight/picks.js) and survive a reload, as does the last turn's replay, which plays
// again when the page opens.
//
// This module builds the page and shows what the seat sees and its plan;
// dogfight/best.js shows Best plans, dogfight/live.js drags planes and asks on the
// socket, dogfight/state.js holds the page's state, dogfight/scene.js the table's
// drawing, dogfight/replay.js the replay, dogfight/tail.js the tail choice (DF.T3) and
// dogfight/picks.js the kept picks.

import { drawScene, loadSilhouettes } from "../../table.js";
import { PanZoom } from "../../panzoom.js";
import { el } from "../../dom.js";
import { number, t } from "../../i18n.js";
import { pxPerUnit, readableFont } from "../../look.js";
import { closeReplay, goStep, openReplay, pause, play, renderReplayPanel, replayData, replayKey }
  from "./dogfight/replay.js";
import { homeBox, idleScene, replayScene } from "./dogfight/scene.js";
import { CARDS, hooks, kitKey, kitOf, LOST, pickNode, planeNamed, planPlane, priv, pub, s }
  from "./dogfight/state.js";
import { bestPlans, forgetTurn, renderBest } from "./dogfight/best.js";
import { keepPick, keptPicks } from "./dogfight/picks.js";
import { renderTail, tailShift } from "./dogfight/tail.js";
import { bestMessage, bindDrag, liveControls, movedScene } from "./dogfight/live.js";

function ensureKits() {
  for (const p of pub().planes) {
    const key = kitKey(p);
    if (s.kits.has(key) || s.asked.has(key)) continue;
    s.asked.add(key);
    const q = new URLSearchParams({ base: p.base });
    if (p.deck) q.set("deck", p.deck);
    s.ctx.getPublic(`/api/cards?${q}`).then((kit) => {
      s.kits.set(key, kit);
      refresh();
    }).catch((err) => s.ctx.say(err.message));
  }
}

// ---------------------------------------------------------------- the page's skeleton
function build(container) {
  const els = {};
  els.head = el("div", { className: "df-head" });
  els.head.dataset.testid = "df-head";
  els.planes = el("ul", { className: "df-planes" });
  els.planes.dataset.testid = "df-planes";
  els.svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  els.svg.classList.add("df-table");
  els.svg.dataset.testid = "table";
  els.svg.setAttribute("role", "img");
  els.svg.setAttribute("aria-label", t("the table"));
  const zoom = el("div", { className: "df-zoom" },
    el("button", { textContent: "+", title: t("zoom in"), onclick: () => zoomBy(1.4) }),
    el("button", { textContent: "−", title: t("zoom out"), onclick: () => zoomBy(1 / 1.4) }),
    el("button", { textContent: t("Fit"), title: t("the planes (or double-tap the table)"), onclick: () => s.pz.reset() }),
    el("button", { textContent: t("Table"), title: t("the whole table"), onclick: wholeTable }));
  els.board = el("div", { className: "df-board" }, els.svg, zoom);

  els.replayTitle = el("strong", { className: "df-replay-title" });
  els.replayLines = el("ol", { className: "df-lines" });
  els.replayLines.dataset.testid = "replay-lines";
  const button = (text, title, fn, name) => {
    const b = el("button", { textContent: text, title, onclick: fn });
    b.dataset.replay = name;
    return b;
  };
  els.play = button("▶", t("play"), () => (s.replay && s.replay.playing ? pause() : play()), "play");
  els.replayControls = el("div", { className: "row df-controls" },
    button("|◀◀", t("the start of the turn"), () => goStep(0), "first"),
    button("|◀", t("the step before"), () => goStep(s.replay.index - 1), "back"),
    els.play,
    button("▶|", t("the next step"), () => goStep(s.replay.index + 1), "next"),
    button("▶▶|", t("the end of the turn at once"), () => goStep(s.replay.steps.length - 1, true), "last"),
    button(t("Close"), t("back to the table as it is now"), closeReplay, "close"));
  els.replayOpen = el("button", { className: "df-replay-open", onclick: () => openReplay(true) });
  els.replayOpen.dataset.replay = "open";
  els.replay = el("section", { className: "df-replay panel" }, el("div", { className: "row" }, els.replayTitle),
    els.replayControls, els.replayLines);
  els.replay.dataset.testid = "replay";

  els.planTitle = el("summary");
  els.slots = el("div", { className: "df-slots" });
  els.cards = el("div", { className: "df-cards" });
  els.cards.dataset.testid = "cards";
  els.lock = el("button", { className: "primary", textContent: t("Lock this plan"), onclick: lockPlan });
  els.lock.dataset.testid = "lock";
  els.clear = el("button", { textContent: t("Clear"), onclick: () => { s.pick = []; refresh(); } });
  els.planNote = el("p", { className: "muted df-note" });
  els.planPicker = el("div", { className: "row df-plan-planes" });
  els.planPicker.dataset.testid = "plan-planes";
  els.tail = el("div", { className: "row df-tail" });
  els.tail.dataset.testid = "tail";
  els.plan = el("details", { className: "df-plan panel", open: true }, els.planTitle, els.planNote, els.planPicker, els.tail,
    els.slots,
    els.cards, el("div", { className: "row" }, els.lock, els.clear));
  els.plan.dataset.testid = "plan";

  els.reorderTitle = el("strong");
  els.reorderShown = el("p", { className: "df-shown" });
  els.reorderShown.dataset.testid = "reorder-shown";
  els.reorderCards = el("ol", { className: "df-cards df-order" });
  els.reorderCards.dataset.testid = "reorder-cards";
  els.reorderNote = el("p", { className: "muted df-note" });
  els.reorderLeft = el("span", { className: "pill" });
  els.reorderLeft.dataset.testid = "reorder-left";
  els.reorderGo = el("button", { className: "primary", textContent: t("Fly this order"), onclick: () => sendOrder(false) });
  els.reorderGo.dataset.testid = "reorder-go";
  els.reorderKeep = el("button", { textContent: t("Keep my order"), onclick: () => sendOrder(true) });
  els.reorderKeep.dataset.testid = "reorder-keep";
  els.reorder = el("section", { className: "df-reorder panel" }, els.reorderTitle, els.reorderShown, els.reorderCards,
    els.reorderNote, el("div", { className: "row" }, els.reorderGo, els.reorderKeep, els.reorderLeft));
  els.reorder.dataset.testid = "reorder";
  els.waiting = el("p", { className: "df-waiting pill" });
  els.waiting.dataset.testid = "waiting";

  els.vs = el("select", { title: t("the enemy to play against") });
  els.bestGo = el("button", { textContent: t("Best plans"), onclick: bestPlans });
  els.bestGo.dataset.testid = "best-plans";
  els.progress = el("progress", { max: 1, value: 0, hidden: true });
  els.progressText = el("span", { className: "muted" });
  els.bestList = el("ol", { className: "df-best-list" });
  els.best = el("details", { className: "df-best panel" }, el("summary", { textContent: t("Best plans") }),
    el("p", { className: "muted", textContent: t("The plan analysis against the enemy's every legal plan, on the " +
      "table as you see it (computed by the server, in its pool of workers). Click a plan to pick it.") }),
    ...liveControls(els.vs, els.bestGo), el("div", { className: "row" }, els.progress,
      els.progressText), els.bestList);

  els.mineBody = el("div");
  els.mine = el("details", { className: "df-mine panel" }, el("summary", { textContent: t("Your planes") }), els.mineBody);
  els.reportBody = el("ol", { className: "df-lines" });
  els.report = el("details", { className: "df-report panel" }, el("summary", { textContent: t("Last turn's report") }),
    els.reportBody);

  const root = el("div", { className: "df" }, els.head, els.waiting, els.planes, els.board, els.reorder, els.replayOpen,
    els.replay, els.plan,
    els.best, els.mine, els.report);
  root.dataset.testid = "dogfight";
  els.root = root;
  container.replaceChildren(root);
  s.els = els;
  s.pz = new PanZoom(els.svg);
  bindDrag(els.svg, () => els.best.open && !s.replay && !!planPlane() && !!s.view.choices && !s.view.choices.reorder);
}

function wholeTable() {
  const p = pub();
  const pad = Math.max(p.width_mm, p.height_mm) / 70 * 2.5;
  s.pz.view = [-pad, -pad, p.width_mm + 2 * pad, p.height_mm + 2 * pad];
  s.pz.apply();
}

function zoomBy(factor) {
  const [x, y, w, h] = s.pz.current();
  s.pz.zoomAbout([x + w / 2, y + h / 2], factor);
}

// ---------------------------------------------------------------- what the seat sees
function renderHead() {
  const p = pub();
  const me = priv();
  const points = Object.entries(p.scores).map(([side, v]) => `${side} ${v}`).join(" · ");
  let text = t("“{name}”: turn {turn} of {turn_limit}. Points (DF.V2): {points}.",
    { name: p.name, turn: p.turn, turn_limit: p.turn_limit, points });
  if (p.over) {
    text = p.ending || (p.winner === "draw" ? t("Game over: a draw. Points (DF.V2): {points}.", { points })
      : t("Game over: {side} win. Points (DF.V2): {points}.", { side: p.winner, points }));
  }
  if (me) text += " " + t("You fly for {side}.", { side: me.side });
  s.els.head.textContent = text;
  const locked = new Set(p.locked);
  s.els.planes.replaceChildren(...p.planes.map((q) => {
    const plans = q.status === "flying" && q.kind === "plane" && !q.autonomous;
    const state = LOST.has(q.status) ? t(q.status) : plans ? (locked.has(q.name) ? t("locked in") : t("planning…"))
      : q.kind === "balloon" ? t("balloon") : q.autonomous ? t("draws its cards") : t(q.status);
    const li = el("li", {}, el("span", { className: "dot" }), el("strong", { textContent: q.name }),
      el("span", { className: "muted", textContent: ` ${q.side}` }),
      el("span", { className: `pill ${locked.has(q.name) ? "ok" : ""}`, textContent: state }),
      el("span", { className: "muted", textContent: ` ▲${q.altitude}` + (q.damage.length ? " · " +
        (q.damage.length === 1 ? t("1 damage card") : t("{count} damage cards", { count: q.damage.length })) : "") }));
    li.querySelector(".dot").style.background = q.colour;
    li.dataset.plane = q.name;
    li.dataset.locked = locked.has(q.name) ? "yes" : "no";
    return li;
  }));
}

function renderMine() {
  const me = priv();
  s.els.mine.hidden = !me;
  s.els.report.hidden = !me || !me.last_turn.length;
  if (!me) return;
  const rows = Object.entries(me.planes).map(([name, q]) => {
    const p = planeNamed(name);
    const effects = q.effects.map((e) => t("{special} ({left} more)",
      { special: t(e.special.replaceAll("_", " ")), left: e.maneuvers_left }));
    return el("li", { textContent: t("{plane}: damage {taken}/{points}",
      { plane: name, taken: q.damage_taken, points: p.damage_points }) +
      (q.damage.length ? ` (${q.damage.join(" ")})` : "") + (effects.length ? `; ${effects.join(", ")}` : "") +
      ` [${t(p.status)}]` });
  });
  const plans = Object.entries(me.own_plans).map(([name, cards]) => {
    const li = el("li", { textContent: t("{plane} will fly {cards} (locked; only your side sees it)",
      { plane: name, cards: cards.join(", ") }) });
    li.dataset.ownPlan = name;
    return li;
  });
  s.els.mineBody.replaceChildren(el("ul", { className: "df-list" }, ...rows),
    plans.length ? el("ul", { className: "df-list" }, ...plans) : "");
  s.els.reportBody.replaceChildren(...me.last_turn.map((line) => el("li", { textContent: line })));
}

// ---------------------------------------------------------------- choosing the plan card by card
// Everyone plans at once (DF.M1): every seat with a plane to plan has `choices` at the same
// time, one tree per plane (`choices.planes`); a locked plan may be changed (locked again)
// until the last plan of the turn locks.

function renderPlan() {
  const v = s.view;
  const mine = v.choices && !v.choices.reorder && v.version !== undefined && !v.terminal;
  s.els.plan.hidden = !mine;
  s.els.best.hidden = !priv() || pub().over;
  if (!mine) return;
  if (s.planFor !== v.choices.plane) { // a new plane to lock (or a new turn): show it
    s.planFor = v.choices.plane;
    s.planPlane = null;
  }
  const plane = planPlane();
  const entry = (v.choices.planes || {})[plane] || { plans: v.choices.plans, locked: false };
  const key = `${v.version}|${plane}`;
  if (s.pickKey !== key) { // a new position or plane: its picks start empty, or as this browser kept them
    s.pickKey = key;
    const kept = s.restored.has(plane) ? null : keptPicks(pub().turn)[plane];
    s.restored.add(plane);
    s.pick = Array.isArray(kept) ? kept.slice(0, CARDS).map(String) : [];
  }
  if (pickNode() === null) s.pick = [];
  keepPick(pub().turn, plane, s.pick);
  const p = planeNamed(plane);
  const kit = p && kitOf(p);
  const own = (priv() && priv().own_plans[plane]) || null;
  s.els.planTitle.textContent = entry.locked ? t("Change your plan for {plane}", { plane })
    : t("Your plan for {plane}", { plane });
  s.els.plan.dataset.plane = plane;
  s.els.plan.dataset.locked = entry.locked ? "yes" : "no";
  const lockNote = entry.locked ? t("Locked: {plane} will fly {cards}. You may lock another plan until the last plan " +
    "of the turn locks.", { plane, cards: own ? own.join(", ") : "…" }) : t("Everyone plans at once (DF.M1).");
  s.els.planNote.textContent = lockNote + " " + t("{count} legal plans (DF.M1, DF.M5, DF.H3, DF.D6): pick the three " +
    "cards in order; each choice offers only the cards that can still make a legal plan. Nobody else sees it.",
    { count: number(entry.plans, 0) });
  const names = Object.keys(v.choices.planes || {});
  s.els.planPicker.replaceChildren(...(names.length > 1 ? names.map((name) => {
    const b = el("button", { textContent: v.choices.planes[name].locked ? t("{plane} (locked)", { plane: name }) : name,
      className: name === plane ? "primary" : "" });
    b.dataset.planPlane = name;
    b.onclick = () => { s.planPlane = name; refresh(false); };
    return b;
  }) : []));
  renderTail(s.els.tail, plane);
  s.els.slots.replaceChildren(...Array.from({ length: CARDS }, (_, k) => {
    const id = s.pick[k];
    const b = el("button", { className: `slot${id ? "" : " empty"}`, textContent: id || [t("1st"), t("2nd"), t("3rd")][k] });
    b.dataset.slot = k;
    b.title = id ? t("take this card back (and the ones after it)") : t("the next card goes here");
    b.onclick = () => {
      if (!s.pick[k]) return;
      s.pick = s.pick.slice(0, k);
      refresh();
    };
    return b;
  }));
  const node = pickNode();
  const next = s.pick.length < CARDS && node && typeof node === "object" ? Object.keys(node) : [];
  s.els.cards.replaceChildren(...next.map((id) => {
    const card = kit && kit.cards.find((c) => c.id === id);
    const b = el("button", { className: "card" }, el("span", { className: "id", textContent: id }),
      el("span", { className: "label", textContent: card ? t(card.name) : "" }));
    b.dataset.card = id;
    b.title = card ? `${id}: ${t(card.name)}` : id;
    b.onpointerenter = () => { s.hover = id; drawTable(); };
    b.onpointerleave = () => { s.hover = null; drawTable(); };
    b.onclick = () => {
      s.pick = [...s.pick, id];
      s.hover = null;
      refresh();
    };
    return b;
  }));
  s.els.lock.disabled = !(s.pick.length === CARDS && typeof node === "number");
  s.els.clear.disabled = !s.pick.length;
}

async function lockPlan() {
  const node = pickNode();
  if (s.pick.length !== CARDS || typeof node !== "number") return;
  s.els.lock.disabled = true;
  const said = t("{plane} will fly {cards}: locked in (you may change it until the last plan locks).",
    { plane: planPlane(), cards: s.pick.join(", ") });
  const turn = pub().turn;
  if (await s.ctx.act(node + tailShift(planPlane()))) {
    keepPick(turn, planPlane(), []); // locked: the server keeps it now
    if (pub().turn === turn) { // a notice of this turn only (the last lock flies it at once)
      s.ctx.say(said, true);
      s.noticeTurn = turn;
    }
  } else s.els.lock.disabled = false;
}

// ---------------------------------------------------------------- the chaser looks and chooses (DF.T2)
function renderWaiting() {
  const w = pub().waiting;
  const mine = s.view.choices && s.view.choices.reorder && s.view.version !== undefined;
  s.els.waiting.hidden = !w || Boolean(mine);
  s.els.waiting.textContent = w ? t("Waiting for a chaser: {chaser} tails {target} and may reorder its cards (DF.T2).",
    { chaser: w.chaser, target: w.target }) : "";
}

function renderReorder() {
  const v = s.view;
  const r = v.choices && v.choices.reorder;
  const mine = Boolean(r) && v.version !== undefined && !v.terminal;
  s.els.reorder.hidden = !mine;
  clearInterval(s.reorderTick);
  if (!mine) {
    s.order = null;
    return;
  }
  const key = `${v.version}|${r.chaser}|${r.maneuver}`;
  if (s.orderKey !== key) {
    s.orderKey = key;
    s.order = [...r.remaining];
  }
  s.els.reorderTitle.textContent = t("{chaser} tails {target}: order your cards (DF.T2)",
    { chaser: r.chaser, target: r.target });
  s.els.reorderShown.textContent = r.shown_name
    ? t("{target} shows you its card for maneuver {maneuver}: {card} ({name}). Only you see it.",
      { target: r.target, maneuver: r.maneuver, card: r.shown, name: t(r.shown_name) })
    : t("{target} shows you its card for maneuver {maneuver}: {card}. Only you see it.",
      { target: r.target, maneuver: r.maneuver, card: r.shown });
  s.els.reorderShown.dataset.card = r.shown;
  const fixed = r.fixed.map((id) => el("li", { className: "card fixed", textContent: `${id} ${r.names[id] ? t(r.names[id]) : ""}` }));
  s.els.reorderCards.replaceChildren(...fixed, ...s.order.map((id, k) => {
    const b = el("button", { className: "card" }, el("span", { className: "id", textContent: id }),
      el("span", { className: "label", textContent: r.names[id] ? t(r.names[id]) : "" }));
    b.dataset.card = id;
    b.title = k ? t("fly this card earlier") : t("flown next");
    b.onclick = () => { // click: the card moves one place earlier
      if (!k) return;
      s.order = [...s.order.slice(0, k - 1), id, s.order[k - 1], ...s.order.slice(k + 1)];
      renderReorder();
    };
    return el("li", {}, b);
  }));
  const index = r.orders.findIndex((o) => o.join(" ") === s.order.join(" "));
  s.els.reorderGo.disabled = index < 0;
  s.els.reorderNote.textContent = index < 0 ? t("This order is not a legal plan: choose another.") :
    r.orders.length === 1 ? t("Click a card to fly it earlier. 1 legal order; the target never learns whether you " +
      "reordered before the move.") : t("Click a card to fly it earlier. {count} legal orders; the target never " +
      "learns whether you reordered before the move.", { count: r.orders.length });
  const limit = v.choice_limit;
  const show = () => {
    if (!limit || limit.seat !== v.seat) { s.els.reorderLeft.textContent = ""; return; }
    const left = Math.max(0, Math.round(limit.deadline - (s.ctx.now ? s.ctx.now() : Date.now() / 1000)));
    s.els.reorderLeft.textContent = t("{time} left, then your order stays",
      { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` });
    s.els.reorderLeft.dataset.left = left;
  };
  show();
  if (limit) s.reorderTick = setInterval(show, 1000);
}

async function sendOrder(keep) {
  const r = s.view.choices && s.view.choices.reorder;
  if (!r) return;
  const index = keep ? 0 : r.orders.findIndex((o) => o.join(" ") === s.order.join(" "));
  if (index < 0) return;
  s.els.reorderGo.disabled = s.els.reorderKeep.disabled = true;
  const said = t("{plane} will fly {cards}.", { plane: r.chaser, cards: r.orders[index].join(", ") });
  if (await s.ctx.act(index)) s.ctx.say(said, true);
  s.els.reorderGo.disabled = s.els.reorderKeep.disabled = false;
}

// ---------------------------------------------------------------- Best plans (the server's pool)
// ---------------------------------------------------------------- the table
const MIN_LABEL_PX = 12.5; // issue 34 item 4: board labels readable (12 CSS px) at 390 px wide

function drawTable() {
  if (!s.meta || !s.meta.colours) return;
  const p = pub();
  const scene = s.replay ? replayScene() : movedScene(idleScene());
  Object.assign(scene, { width: p.width_mm, height: p.height_mm, font: Math.max(p.width_mm, p.height_mm) / 70,
    handle: Math.max(p.width_mm, p.height_mm) / 45, colours: s.meta.colours, editable: false });
  // labels at least 12 CSS px on the screen as the table is shown (a phone included)
  const r = s.els.svg.getBoundingClientRect();
  const scale = r.width && r.height ? pxPerUnit(s.pz.view || homeBox(scene), r.width, r.height) : 0;
  scene.minFont = readableFont(0, scale, MIN_LABEL_PX);
  scene.font = readableFont(scene.font, scale, MIN_LABEL_PX / 0.8); // the smaller labels are 0.8 of it
  drawScene(s.els.svg, scene);
  s.pz.fit(homeBox(scene));
}

// ---------------------------------------------------------------- the renderer
function refresh(all = true) {
  if (!s.view) return;
  if (all) {
    renderHead();
    renderWaiting();
    renderMine();
    renderReorder();
    renderPlan();
    renderBest();
    renderReplayPanel();
  } else if (s.view.choices && !s.view.choices.reorder) {
    renderPlan();
  }
  drawTable();
}

export default {
  handlesActions: () => true,
  message: (msg) => { if (msg.type === "best") bestMessage(msg); }, // pushed on the room's socket
  // the game over in the room's head: which turns, why, who won, in words that agree with the points
  gameOver: (v) => v.view && v.view.public && v.view.public.ending,

  render(container, view, ctx) {
    Object.assign(hooks, { refresh, drawTable });
    s.ctx = ctx;
    s.view = view;
    if (!s.els || !container.contains(s.els.root)) build(container);
    ensureKits();
    forgetTurn(pub().turn);
    if (!s.meta) {
      s.meta = {};
      ctx.getPublic("/api/meta").then((meta) => { s.meta = meta; refresh(); }).catch((err) => ctx.say(err.message));
      loadSilhouettes().then(() => refresh(false));
    }
    const data = replayData();
    const turn = replayKey(data);
    const isLive = !ctx.live || view === ctx.live();
    if (isLive && turn === s.seenLive && turn !== s.seenTurn) { // back from the game record: now, without a replay
      s.seenTurn = turn;
      if (s.replay) {
        closeReplay();
        return;
      }
    }
    if (isLive) s.seenLive = turn;
    if (turn !== s.seenTurn) { // a turn was just flown, or the page (re)opened after one: everyone watches it
      s.seenTurn = turn;
      if (data) {
        openReplay(true);
        refresh();
        return;
      }
      if (s.replay) { // a view before any turn flew (a record's first steps): no replay of another turn stays up
        closeReplay();
        return;
      }
    }
    refresh();
  },
};
