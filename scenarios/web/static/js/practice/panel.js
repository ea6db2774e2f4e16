// The practice table's panel: the toolbar, the table's settings, the selected plane's
// editor (name, side, pose, altitude, its plan card by card, its zones and best plans)
// and adding a plane.

import { post } from "../api.js";
import { clampToTable, docPose, normHeading, poseOf } from "../geometry.js";
import { $, CARDS, change, doc, hooks, kitOf, needsPlan, planeOf, rangeName, say, serverDoc, state } from "./page.js";
import { checkTip, renderTable } from "./scene.js";
import { fixed, number, t } from "../i18n.js";

export function fillSelect(select, options, value) {
  select.replaceChildren(...options.map(([v, label]) => {
    const o = document.createElement("option");
    o.value = v;
    o.textContent = label;
    return o;
  }));
  if (value !== undefined) select.value = value;
}

export function renderToolbar() {
  const d = doc();
  const name = d.scenario.name || t("table");
  $("table-name").textContent = t("{name}, turn {turn}", { name, turn: d.scenario.turn || 1 });
  $("undo").disabled = !state.history.canUndo || !!state.drag;
  $("redo").disabled = !state.history.canRedo || !!state.drag;
  const seed = d.scenario.seed;
  if (document.activeElement !== $("seed")) $("seed").value = seed === undefined ? "" : seed;
  $("policy").value = (d.rules && d.rules.reorder_policy) || "keep";
  $("adjudicate").disabled = !d.plane.length;
  for (const [id, value] of [["t-name", d.scenario.name || "table"], ["t-turn", d.scenario.turn || 1],
    ["t-width", d.table.width_mm], ["t-height", d.table.height_mm]]) {
    if (document.activeElement !== $(id)) $(id).value = value;
  }
  fillSelect($("sides"), [...new Set(d.plane.map((p) => p.side))].map((s) => [s, s]));
}

export function renderEditor() {
  const d = doc();
  const p = state.selected && planeOf(d, state.selected);
  $("plane-editor").hidden = !p;
  if (!p) return;
  $("p-title").textContent = `${p.name} (${p.side})`;
  const fields = [["p-name", p.name], ["p-side", p.side], ["p-alt", p.altitude], ["p-counters", p.climb_counters || 0],
    ["p-x", p.pose.x_mm], ["p-y", p.pose.y_mm], ["p-heading", p.pose.heading_deg]];
  for (const [id, value] of fields) {
    if (document.activeElement !== $(id)) $(id).value = value;
  }
  const enemies = d.plane.filter((q) => q.side !== p.side).map((q) => q.name);
  fillSelect($("p-tail"), [["", t("nearest (DF.T3)")], ...enemies.map((n) => [n, n])], p.tail || "");
  fillSelect($("p-vs"), enemies.map((n) => [n, t("vs {plane}", { plane: n })]), $("p-vs").value || enemies[0]);
  $("p-best").disabled = !state.meta.analysis || !enemies.length;
  $("p-best").title = state.meta.analysis ? t("the plane's best plans against this enemy")
    : t("plan analysis not available yet (scenarios.dogfight.analyze is not installed)");
  $("best").textContent = state.best || "";
  $("p-zones").checked = state.zonesFor === p.name;

  const kit = kitOf(p);
  const slots = $("slots");
  slots.replaceChildren();
  const cardsBox = $("cards");
  cardsBox.replaceChildren();
  const analysed = state.analysis && state.analysis.planes.find((q) => q.name === p.name);
  const error = analysed && analysed.plan_error;
  $("plan-error").textContent = error ? `${error.message}` : "";
  $("plan-error").dataset.rule = error ? error.rule : "";
  if (!needsPlan(p)) {
    if (p.autonomous) slots.textContent = t("draws its cards (DF.A1)");
    else if (p.kind === "balloon") slots.textContent = t("a balloon does not maneuver");
    else slots.textContent = t("no plan: {status}", { status: t(p.status) });
  } else if (kit) {
    const plan = p.plan || [];
    for (let k = 0; k < CARDS; k++) {
      const b = document.createElement("button");
      b.className = `slot${plan[k] ? "" : " empty"}`;
      b.dataset.slot = k;
      b.textContent = plan[k] || [t("1st"), t("2nd"), t("3rd")][k];
      b.title = plan[k] ? t("click to take this card back") : t("the next card you pick goes here");
      b.onclick = () => change((nd) => {
        const q = planeOf(nd, p.name);
        if (!q.plan || !q.plan[k]) return false;
        q.plan[k] = null;
      });
      slots.appendChild(b);
    }
    for (const card of kit.cards) {
      const b = document.createElement("button");
      b.className = "card";
      b.dataset.card = card.id;
      b.innerHTML = `<span class="id"></span><span class="label"></span>`;
      b.querySelector(".id").textContent = card.id;
      b.querySelector(".label").textContent = t(card.name);
      const flags = card.flags.length ? ` [${card.flags.map((f) => t(f)).join(", ")}]` : "";
      b.title = `${card.id}: ${t(card.name)}${flags}`;
      b.onpointerenter = () => { state.hover = { plane: p.name, card: card.id }; renderTable(); };
      b.onpointerleave = () => { state.hover = null; renderTable(); };
      b.onclick = () => pickCard(p.name, card.id);
      cardsBox.appendChild(b);
    }
  }
  const a = state.analysis;
  const lines = [];
  if (a) {
    for (const c of a.tails.filter((c) => c.chaser === p.name || c.target === p.name)) {
      lines.push(t("{chaser} tails {target} ({distance} mm, DF.T1, DF.T3)",
        { chaser: c.chaser, target: c.target, distance: fixed(c.distance_mm, 1) }));
    }
    for (const c of a.unmet_wishes.filter((c) => c.chaser === p.name)) lines.push(t("wish not met: {why}", { why: checkTip(c) }));
    for (const c of a.near_misses.filter((c) => c.chaser === p.name)) lines.push(t("no tail: {why}", { why: checkTip(c) }));
    for (const s of a.shots.filter((s) => s.shooter === p.name || s.target === p.name)) {
      lines.push(t("{shooter} can fire at {target} ({range} range, {distance} mm)", { shooter: s.shooter, target: s.target,
        range: rangeName(s.range), distance: fixed(s.distance_mm, 1) }));
    }
  }
  $("p-tails").replaceChildren(...lines.map((line) => Object.assign(document.createElement("div"), { textContent: line })));
}

function pickCard(name, id) {
  change((d) => {
    const p = planeOf(d, name);
    const plan = (p.plan || []).slice(0, CARDS);
    while (plan.length < CARDS) plan.push(null);
    const k = plan.indexOf(null);
    if (k < 0) {
      say(t("{plane} already has three cards: click one of them to take it back first.", { plane: name }));
      return false;
    }
    plan[k] = id;
    p.plan = plan;
  });
}

function editSelected(mutate) {
  const name = state.selected;
  change((d) => {
    const p = planeOf(d, name);
    if (!p) return false;
    return mutate(p, d);
  });
}

function numberOf(input) {
  const v = input.valueAsNumber;
  if (!Number.isFinite(v)) {
    say(t("{field}: expected a number", { field: input.id }));
    return null;
  }
  return v;
}

export function bindEditor() {
  $("p-name").onchange = () => {
    const old = state.selected, name = $("p-name").value.trim();
    if (!name || name === old) {
      $("p-name").value = old;
      return;
    }
    if (planeOf(doc(), name)) {
      say(t("name: another plane is already called “{name}”; plane names must differ", { name }));
      $("p-name").value = old;
      return;
    }
    change((d) => {
      planeOf(d, old).name = name;
      for (const q of d.plane) if (q.tail === old) q.tail = name;
    });
    state.selected = name;
    if (state.zonesFor === old) state.zonesFor = name;
    hooks.renderAll();
  };
  $("p-side").onchange = () => editSelected((p, d) => {
    p.side = $("p-side").value;
    for (const q of d.plane) {
      const target = q.tail && planeOf(d, q.tail);
      if (target && target.side === q.side) delete q.tail;
    }
  });
  for (const [id, key] of [["p-alt", "altitude"], ["p-counters", "climb_counters"]]) {
    $(id).onchange = () => editSelected((p) => {
      const v = numberOf($(id));
      if (v === null) return false;
      p[key] = Math.round(v);
    });
  }
  for (const [id, k] of [["p-x", 0], ["p-y", 1], ["p-heading", 2]]) {
    $(id).onchange = () => editSelected((p) => {
      const v = numberOf($(id));
      if (v === null) return false;
      const pose = poseOf(p);
      pose[k] = k === 2 ? normHeading(v) : v;
      p.pose = docPose(pose);
    });
  }
  $("p-tail").onchange = () => editSelected((p) => {
    if ($("p-tail").value) p.tail = $("p-tail").value;
    else delete p.tail;
  });
  $("p-delete").onclick = () => {
    const name = state.selected;
    change((d) => {
      d.plane = d.plane.filter((p) => p.name !== name);
      for (const q of d.plane) if (q.tail === name) delete q.tail;
    });
  };
  $("p-zones").onchange = () => {
    state.zonesFor = $("p-zones").checked ? state.selected : null;
    state.zones = null;
    hooks.refreshEngine();
  };
  $("p-best").onclick = () => {
    state.bestFor = { plane: state.selected, vs: $("p-vs").value };
    runBest();
  };
}

// ---------------------------------------------------------------- Best plans, kept up to date
const BEST_EVERY_MS = 100;
let bestTimer = null, bestInflight = false, bestAgain = false;

/** Ask for the Best plans shown again as the table changes, dragging included: at most
 *  every 100 ms and one request out at a time; the latest table always follows. An
 *  answer for another plane or enemy is dropped; one for a pose already left is shown
 *  until the next one arrives (the answers come in order). */
export function refreshBest() {
  if (bestTimer === null) {
    bestTimer = setTimeout(() => {
      bestTimer = null;
      runBest();
    }, BEST_EVERY_MS);
  }
}

export async function runBest() {
  const want = state.bestFor;
  if (!want) return;
  if (bestInflight) {
    bestAgain = true;
    return;
  }
  bestInflight = true;
  const edits = state.edits;
  let text = null;
  try {
    const found = await post("/api/best-plans", { scenario: serverDoc(doc()), plane: want.plane, vs: want.vs });
    const pct = (x) => `${number(Math.round(100 * x), 0)}%`;
    const two = (x) => fixed(x, 2);
    text = [t("Best plans against {enemy} ({plans} plans, flown as planned):", { enemy: want.vs, plans: found.plans })]
      .concat(found.top.map((r) => t("{rank}. {plan}: score {score}; gives {short} short + {long} long, takes "
        + "{taken_short} + {taken_long}; collision {collision}, leaves {leaves}", { rank: r.rank, plan: r.plan.join(" "),
        score: two(r.score), short: two(r.shots_given.short), long: two(r.shots_given.long),
        taken_short: two(r.shots_taken.short), taken_long: two(r.shots_taken.long), collision: pct(r.p_collision),
        leaves: pct(r.p_leave) }))).join("\n");
  } catch (err) {
    text = err.message;
  } finally {
    bestInflight = false;
  }
  if (state.bestFor === want) {
    state.best = text;
    renderEditor();
    if (state.edits !== edits) bestAgain = true; // the table moved on meanwhile
  }
  if (bestAgain) {
    bestAgain = false;
    runBest();
  }
}

export function bindTableSettings() {
  $("t-name").onchange = () => change((d) => { d.scenario.name = $("t-name").value; });
  $("t-turn").onchange = () => change((d) => {
    const v = numberOf($("t-turn"));
    if (v === null) return false;
    d.scenario.turn = Math.round(v);
  });
  for (const [id, key] of [["t-width", "width_mm"], ["t-height", "height_mm"]]) {
    $(id).onchange = () => change((d) => {
      const v = numberOf($(id));
      if (v === null) return false;
      d.table[key] = v;
    });
  }
  $("seed").onchange = () => change((d) => {
    const text = $("seed").value.trim();
    if (text === "") delete d.scenario.seed;
    else {
      const v = Number(text);
      if (!Number.isSafeInteger(v) || v < 0) {
        say(t("seed: expected a whole number from 0 to 2**53-1, got {text}", { text: text.slice(0, 30) }));
        return false;
      }
      d.scenario.seed = v;
    }
  });
  $("policy").onchange = () => change((d) => {
    d.rules = d.rules || {};
    d.rules.reorder_policy = $("policy").value;
  });
}

/** A shipped base's name (maneuvers/data/bases.toml: small, large) in the reader's language. */
function baseName(name) {
  if (name === "small") return t("small");
  if (name === "large") return t("large");
  return name;
}

function freeName(d, stem) {
  const names = new Set(d.plane.map((p) => p.name));
  for (let k = d.plane.length + 1; ; k++) {
    if (!names.has(`${stem} ${k}`)) return `${stem} ${k}`;
  }
}

export function bindAddPlane() {
  const m = state.meta;
  fillSelect($("a-deck"), [...m.decks.map((d) => [d.name, t("{deck} ({cards} cards, {provenance})",
    { deck: d.name, cards: d.cards, provenance: t(d.provenance) })]), ["", t("(balloon)")]], m.decks[0] && m.decks[0].name);
  const baseOptions = () => {
    const deck = m.decks.find((d) => d.name === $("a-deck").value);
    fillSelect($("a-base"), m.bases.map((b) => [b.name, `${baseName(b.name)} ${number(b.length_mm)}×${number(b.width_mm)} mm`]),
      deck && deck.base ? deck.base : m.bases[0].name);
  };
  baseOptions();
  $("a-deck").onchange = baseOptions;
  $("add").onclick = () => {
    let added = null;
    change((d) => {
      const n = d.plane.length;
      const name = $("a-name").value.trim() || freeName(d, t("Plane"));
      if (planeOf(d, name)) {
        say(t("name: another plane is already called “{name}”; plane names must differ", { name }));
        return false;
      }
      const side = $("a-side").value.trim() || (n % 2 ? "Central Powers" : "Allies");
      const w = d.table.width_mm, h = d.table.height_mm;
      // side by side, across the heading: a new plane tails nobody until it is moved
      const at = clampToTable([w / 2 + (Math.floor(n / 4) % 4 - 1.5) * 90, h / 2 + ((n % 4) - 1.5) * 90], w, h);
      const deck = $("a-deck").value;
      const plane = { name, side, kind: deck ? "plane" : "balloon", base: $("a-base").value,
        pose: docPose([at[0], at[1], 0]), altitude: Math.round($("a-alt").valueAsNumber || 0) };
      if (deck) plane.deck = deck;
      d.plane.push(plane);
      added = name;
    });
    if (added) {
      state.selected = added;
      $("a-name").value = "";
      hooks.renderAll();
    }
  };
}
