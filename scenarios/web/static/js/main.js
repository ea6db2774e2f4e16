// The web table: set up planes, plan their cards, adjudicate and replay a turn.
//
// The page holds one document (the scenario file's data as JSON, docs/serve.md) and its
// undo history; every change makes a new document. The engine (through the JSON API)
// answers every rule question: tails, firing positions, plan legality, the turn. The
// page only draws, and turns the engine's card geometry by a plane's pose for previews.

import { get, post, upload } from "./api.js";
import { History } from "./history.js";
import { clampToTable, corners, direction, docPose, normHeading, poseOf, poseWithStand, reportPose,
  stand } from "./geometry.js";
import { cardStep, pathGhosts, planSteps } from "./plans.js";
import { drawScene } from "./table.js";

const CARDS = 3; // DF.M1
const DEBOUNCE_MS = 40;
const $ = (id) => document.getElementById(id);

const state = {
  meta: null,
  first: null, // the server's first table (the file given to furball serve, or an empty one)
  history: null,
  live: null, // the document being dragged (not yet in the history)
  selected: null,
  analysis: null,
  zones: null,
  zonesFor: null,
  kits: new Map(),
  hover: null, // {plane, card}
  drag: null,
  replay: null, // {result, steps, index}
  best: null,
  bestFor: null, // {plane, vs}: the Best plans shown, refreshed as the table changes
  edits: 0, // every change of the document, dragging included (a Best plans answer older than the last is dropped)
};

// ---------------------------------------------------------------- the document
const doc = () => state.live || state.history.present;
const planeOf = (d, name) => d.plane.find((p) => p.name === name);
const needsPlan = (p) => (p.kind || "plane") === "plane" && !p.autonomous && (p.status || "flying") === "flying";

/** The document as the server reads it: a plan is sent only when all three cards are picked. */
function serverDoc(d) {
  const out = structuredClone(d);
  for (const p of out.plane) {
    if (p.plan && (p.plan.length !== CARDS || p.plan.some((c) => !c))) {
      delete p.plan;
      delete p.drops;
    }
  }
  return out;
}

function sideColours(d) {
  const sides = [...new Set(d.plane.map((p) => p.side))].sort();
  const palette = state.meta.colours.sides;
  return Object.fromEntries(sides.map((s, i) => [s, palette[i % palette.length]]));
}

/** Apply `mutate` to a copy of the document and record it (one undo step). */
function change(mutate) {
  const next = structuredClone(state.history.present);
  if (mutate(next) === false) return;
  if (state.history.push(next)) documentChanged();
}

function documentChanged() {
  keepTable();
  if (state.replay) closeReplay();
  if (state.selected && !planeOf(doc(), state.selected)) state.selected = null;
  if (state.zonesFor && !planeOf(doc(), state.zonesFor)) state.zonesFor = null;
  state.edits++;
  if (state.bestFor && planeOf(doc(), state.bestFor.plane) && planeOf(doc(), state.bestFor.vs)) refreshBest();
  else state.bestFor = state.best = null;
  renderAll();
  refreshEngine();
}

// ---------------------------------------------------------------- Best plans, kept up to date
const BEST_EVERY_MS = 100;
let bestTimer = null, bestInflight = false, bestAgain = false;

/** Ask for the Best plans shown again as the table changes, dragging included: at most
 *  every 100 ms and one request out at a time; the latest table always follows. An
 *  answer for another plane or enemy is dropped; one for a pose already left is shown
 *  until the next one arrives (the answers come in order). */
function refreshBest() {
  if (bestTimer === null) {
    bestTimer = setTimeout(() => {
      bestTimer = null;
      runBest();
    }, BEST_EVERY_MS);
  }
}

async function runBest() {
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
    const pct = (x) => `${Math.round(100 * x)}%`;
    text = [`Best plans against ${want.vs} (${found.plans} plans, flown as planned):`]
      .concat(found.top.map((r) => `${r.rank}. ${r.plan.join(" ")}: score ${r.score.toFixed(2)}; gives ` +
        `${r.shots_given.short.toFixed(2)} short + ${r.shots_given.long.toFixed(2)} long, takes ` +
        `${r.shots_taken.short.toFixed(2)} + ${r.shots_taken.long.toFixed(2)}; collision ${pct(r.p_collision)}` +
        `, leaves ${pct(r.p_leave)}`)).join("\n");
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

// ---------------------------------------------------------------- status line and messages
/** The engine's summary of the table (replaced by every answer of the engine). */
function status(message, ok = false) {
  const s = $("status");
  s.textContent = message || "";
  s.className = ok ? "ok" : "";
}

/** A message for the user (a refusal, a file saved): it stays until the next message,
 *  whatever the engine answers meanwhile. */
function say(message, ok = false) {
  const s = $("message");
  s.textContent = message || "";
  s.className = ok ? "ok" : "";
}

// ---------------------------------------------------------------- kept in the browser
const STORE_KEY = "furball.table";

/** The table left in this browser for this server's first table, or null. */
function keptTable(first) {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE_KEY) || "null");
    if (kept && kept.first === JSON.stringify(first) && kept.doc && Array.isArray(kept.doc.plane)) return kept.doc;
  } catch (_) { /* nothing usable kept */ }
  return null;
}

/** Keep the table in the browser (a reload starts from it). */
function keepTable() {
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify({ first: JSON.stringify(state.first), doc: state.history.present }));
  } catch (_) { /* storage full or disabled: the table lives as long as the page */ }
}

// ---------------------------------------------------------------- engine data
function kitKey(p) {
  return `${p.deck || ""}|${p.base}`;
}

function kitOf(p) {
  return state.kits.get(kitKey(p));
}

async function ensureKits(d) {
  const missing = [...new Set(d.plane.filter((p) => !state.kits.has(kitKey(p))).map(kitKey))];
  await Promise.all(missing.map(async (key) => {
    const [deck, base] = key.split("|");
    const q = new URLSearchParams({ base });
    if (deck) q.set("deck", deck);
    try {
      state.kits.set(key, await get(`/api/cards?${q}`));
    } catch (err) {
      status(err.message);
    }
  }));
  return missing.length > 0;
}

let timer = null, scheduled = false, inflight = false, again = false, generation = 0;

/** Ask the engine about the current document: debounced, at most one request in flight,
 *  and the latest document always wins. */
function refreshEngine() {
  clearTimeout(timer);
  scheduled = true;
  timer = setTimeout(runRefresh, DEBOUNCE_MS);
}

async function runRefresh() {
  scheduled = false;
  if (inflight) {
    again = true;
    return;
  }
  inflight = true;
  const d = doc();
  const mine = ++generation;
  try {
    if (await ensureKits(d)) renderAll();
    if (!d.plane.length) {
      state.analysis = null;
      state.zones = null;
      status("An empty table: add a plane.", true);
    } else {
      const body = { scenario: serverDoc(d) };
      const analysis = await post("/api/analyse", body);
      const zones = state.zonesFor ? await post("/api/zones", { ...body, plane: state.zonesFor }) : null;
      if (mine === generation) {
        state.analysis = analysis;
        state.zones = zones;
        status(statusLine(analysis), true);
      }
    }
  } catch (err) {
    if (mine === generation) {
      state.analysis = null;
      status(err.message);
    }
  } finally {
    inflight = false;
    renderAll();
    if (again) {
      again = false;
      runRefresh();
    }
  }
}

function statusLine(a) {
  const errors = a.planes.filter((p) => p.plan_error).length;
  const parts = [`${a.tails.length} tail${a.tails.length === 1 ? "" : "s"}`,
    `${a.shots.length} firing position${a.shots.length === 1 ? "" : "s"}`];
  if (a.overlaps.length) parts.push(`${a.overlaps.length} overlap${a.overlaps.length === 1 ? "" : "s"}`);
  if (errors) parts.push(`${errors} illegal plan${errors === 1 ? "" : "s"}`);
  return parts.join(", ");
}

// ---------------------------------------------------------------- the scene
/** A ruling's deciding margin (docs/margins.md): "margin: reach +0.50 mm (DF.T1a)", or "". */
function marginTip(m) {
  if (!m) return "";
  const sign = m.value >= 0 ? "+" : "";
  return `; margin: ${m.kind} ${sign}${m.value.toFixed(2)} ${m.unit}${m.about ? ` (${m.about})` : ""} (${m.rule})`;
}

/** How often a ruling flips when each base is misplaced by a hand (1 mm, 1°; docs/margins.md):
 * "; flips in 12 % of placements (1 mm, 1°): a close call", or "" when not estimated. */
function flipTip(r) {
  if (!r.flip || !r.flip.samples) return "";
  const pct = r.flip.chance < 0.01 && r.flip.chance > 0 ? "under 1" : (100 * r.flip.chance).toFixed(0);
  return `; flips in ${pct} % of placements (1 mm, 1°)${r.close_call ? ": a close call" : ""}`;
}

function checkTip(c) {
  const head = `${c.chaser} → ${c.target}: ${c.distance_mm.toFixed(1)} mm`;
  return (c.ok ? `${head}: can tail (DF.T1)` : `${head}: ${c.reasons.map((r) => `${r.text} (${r.rule})`).join("; ")}`) +
    marginTip(c.margin) + flipTip(c);
}

function ruler(c, kind) {
  return { chaser: c.chaser, target: c.target, from: c.ruler[0], to: c.ruler[1], kind, close: !!c.close_call,
    tip: checkTip(c) };
}

function shotLine(s, auto = false) {
  return { ...s, auto, close: !!s.close_call,
    tip: `${s.shooter} can fire at ${s.target}: ${s.range} range, ${s.distance_mm.toFixed(1)} mm` +
      (auto ? " (autonomous fire, DF.A2)" : " (DF.O2, DF.O3)") + marginTip(s.margin) + flipTip(s) };
}

function planeDrawing(p, pose, colours, extra = {}) {
  const kit = kitOf(p);
  if (!kit) return null;
  return { name: p.name, side: p.side, colour: colours[p.side], base: kit.base, pose,
    altitude: extra.altitude ?? p.altitude, out: (extra.status ?? p.status) === "out", ...extra };
}

/** Where each of a plane's picked cards takes it (DF.M2, DF.M3: pose · motion; js/plans.js). */
function planPreview(p, colour) {
  const kit = kitOf(p);
  if (!kit || !kit.cards.length) return null;
  const steps = planSteps(poseOf(p), kit, p.plan || []);
  const pose = steps.length ? steps[steps.length - 1].pose : poseOf(p);
  const preview = { plane: p.name, colour, steps, ghosts: [], hover: false };
  if (state.hover && state.hover.plane === p.name) {
    const card = kit.cards.find((c) => c.id === state.hover.card);
    if (card) {
      return [preview, { plane: p.name, colour, hover: true, steps: [cardStep(pose, card, kit.base)],
        ghosts: pathGhosts(pose, card, kit.base) }];
    }
  }
  return [preview];
}

function editScene(d) {
  const colours = sideColours(d);
  const a = state.analysis;
  const byName = a ? Object.fromEntries(a.planes.map((p) => [p.name, p])) : {};
  const overlapping = new Set(a ? a.overlaps.flat() : []);
  const planes = d.plane.map((p) => planeDrawing(p, poseOf(p), colours, {
    selected: p.name === state.selected, overlap: overlapping.has(p.name),
    planError: byName[p.name] && byName[p.name].plan_error,
  })).filter(Boolean);
  const previews = d.plane.flatMap((p) => planPreview(p, colours[p.side]) || []);
  let rulers = [], shots = [];
  if (a) {
    const chosen = new Set(a.tails.map((c) => `${c.chaser}>${c.target}`));
    rulers = a.tails.map((c) => ruler(c, "tail"))
      .concat(a.options.filter((c) => !chosen.has(`${c.chaser}>${c.target}`)).map((c) => ruler(c, "option")))
      .concat(a.unmet_wishes.map((c) => ruler(c, "unmet")))
      .concat(a.near_misses.filter((c) => c.chaser === state.selected || c.target === state.selected)
        .map((c) => ruler(c, "near")));
    shots = a.shots.map((s) => shotLine(s));
  }
  return { planes, previews, rulers, shots, zones: state.zonesFor ? state.zones : null, editable: true };
}

function replayScene(d) {
  const step = state.replay.steps[state.replay.index];
  const colours = sideColours(d);
  const planes = step.planes.map((rp) => {
    const p = planeOf(d, rp.name) || rp;
    return planeDrawing({ ...p, side: rp.side }, reportPose(rp), colours,
      { altitude: rp.altitude, status: rp.status, overlap: (step.overlapping || new Set()).has(rp.name) });
  }).filter(Boolean);
  const paths = Object.entries(step.paths || {}).map(([name, path]) => {
    const p = planeOf(d, name);
    const kit = p && kitOf(p);
    return { plane: name, colour: colours[p ? p.side : ""] || "#555", arrow: path.arrow,
      ghosts: kit ? path.poses.filter((_, i) => i % 3 === 1).map((q) => corners(q, kit.base)) : [] };
  });
  return { planes, paths, rulers: step.rulers || [], shots: step.shots || [], collisions: step.collisions || [],
    editable: false };
}

function renderTable() {
  const d = doc();
  const w = d.table.width_mm, h = d.table.height_mm;
  const scene = state.replay ? replayScene(d) : editScene(d);
  Object.assign(scene, { width: w, height: h, font: Math.max(w, h) / 70, handle: Math.max(w, h) / 45,
    colours: state.meta.colours });
  drawScene($("table"), scene);
}

// ---------------------------------------------------------------- dragging (mouse, pen, touch)
function tablePoint(event) {
  const world = document.getElementById("world");
  const pt = $("table").createSVGPoint();
  pt.x = event.clientX;
  pt.y = event.clientY;
  const p = pt.matrixTransform(world.getScreenCTM().inverse());
  return [p.x, p.y];
}

function onPointerDown(event) {
  if (state.replay) return;
  const target = event.target.closest("[data-plane]");
  if (!target) {
    if (state.selected) {
      state.selected = null;
      renderAll();
    }
    return;
  }
  const name = target.dataset.plane;
  const role = event.target.dataset.role || "base";
  state.selected = name;
  const d = structuredClone(state.history.present);
  const p = planeOf(d, name);
  const kit = kitOf(p);
  if (!kit) return;
  const start = tablePoint(event);
  state.drag = { name, role, start, pose: poseOf(p), base: kit.base, moved: false, pointer: event.pointerId };
  state.live = d;
  $("table").setPointerCapture(event.pointerId);
  event.preventDefault();
  renderAll();
}

function onPointerMove(event) {
  const drag = state.drag;
  if (!drag || event.pointerId !== drag.pointer) return;
  const here = tablePoint(event);
  const d = state.live;
  const p = planeOf(d, drag.name);
  const s0 = stand(drag.pose, drag.base);
  let pose;
  if (drag.role === "handle") {
    let heading = direction(s0, here);
    if (event.shiftKey) heading = Math.round(heading / 15) * 15;
    pose = poseWithStand(s0, heading, drag.base);
  } else {
    const s = clampToTable([s0[0] + here[0] - drag.start[0], s0[1] + here[1] - drag.start[1]],
      d.table.width_mm, d.table.height_mm);
    pose = poseWithStand(s, drag.pose[2], drag.base);
  }
  drag.moved = drag.moved || Math.hypot(here[0] - drag.start[0], here[1] - drag.start[1]) > 0.5;
  p.pose = docPose(pose.map((v) => Math.round(v * 1000) / 1000));
  state.edits++;
  renderTable();
  refreshEngine();
  if (state.bestFor) refreshBest();
}

function onPointerUp(event) {
  const drag = state.drag;
  if (!drag || event.pointerId !== drag.pointer) return;
  state.drag = null;
  const live = state.live;
  state.live = null;
  if (drag.moved && state.history.push(live)) documentChanged();
  else renderAll();
}

// ---------------------------------------------------------------- the panel
function fillSelect(select, options, value) {
  select.replaceChildren(...options.map(([v, label]) => {
    const o = document.createElement("option");
    o.value = v;
    o.textContent = label;
    return o;
  }));
  if (value !== undefined) select.value = value;
}

function renderToolbar() {
  const d = doc();
  $("table-name").textContent = `${d.scenario.name || "table"}, turn ${d.scenario.turn || 1}`;
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

function renderEditor() {
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
  fillSelect($("p-tail"), [["", "nearest (DF.T3)"], ...enemies.map((n) => [n, n])], p.tail || "");
  fillSelect($("p-vs"), enemies.map((n) => [n, `vs ${n}`]), $("p-vs").value || enemies[0]);
  $("p-best").disabled = !state.meta.analysis || !enemies.length;
  $("p-best").title = state.meta.analysis ? "the plane's best plans against this enemy"
    : "plan analysis not available yet (scenarios.dogfight.analyze is not installed)";
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
    slots.textContent = p.autonomous ? "draws its cards (DF.A1)" : (p.kind === "balloon" ? "a balloon does not maneuver"
      : `no plan: ${p.status}`);
  } else if (kit) {
    const plan = p.plan || [];
    for (let k = 0; k < CARDS; k++) {
      const b = document.createElement("button");
      b.className = `slot${plan[k] ? "" : " empty"}`;
      b.dataset.slot = k;
      b.textContent = plan[k] || `${k + 1}${["st", "nd", "rd"][k]}`;
      b.title = plan[k] ? "click to take this card back" : "the next card you pick goes here";
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
      b.querySelector(".label").textContent = card.name;
      b.title = `${card.id}: ${card.name}${card.flags.length ? ` [${card.flags.join(", ")}]` : ""}`;
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
      lines.push(`${c.chaser} tails ${c.target} (${c.distance_mm.toFixed(1)} mm, DF.T1, DF.T3)`);
    }
    for (const c of a.unmet_wishes.filter((c) => c.chaser === p.name)) lines.push(`wish not met: ${checkTip(c)}`);
    for (const c of a.near_misses.filter((c) => c.chaser === p.name)) lines.push(`no tail: ${checkTip(c)}`);
    for (const s of a.shots.filter((s) => s.shooter === p.name || s.target === p.name)) {
      lines.push(`${s.shooter} can fire at ${s.target} (${s.range} range, ${s.distance_mm.toFixed(1)} mm)`);
    }
  }
  $("p-tails").replaceChildren(...lines.map((t) => Object.assign(document.createElement("div"), { textContent: t })));
}

function pickCard(name, id) {
  change((d) => {
    const p = planeOf(d, name);
    const plan = (p.plan || []).slice(0, CARDS);
    while (plan.length < CARDS) plan.push(null);
    const k = plan.indexOf(null);
    if (k < 0) {
      say(`${name} already has three cards: click one of them to take it back first.`);
      return false;
    }
    plan[k] = id;
    p.plan = plan;
  });
}

function renderAll() {
  renderToolbar();
  if (!state.replay) renderEditor();
  renderTable();
  $("edit").hidden = !!state.replay;
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
    say(`${input.id}: expected a number`);
    return null;
  }
  return v;
}

function bindEditor() {
  $("p-name").onchange = () => {
    const old = state.selected, name = $("p-name").value.trim();
    if (!name || name === old) {
      $("p-name").value = old;
      return;
    }
    if (planeOf(doc(), name)) {
      say(`name: another plane is already called “${name}”; plane names must differ`);
      $("p-name").value = old;
      return;
    }
    change((d) => {
      planeOf(d, old).name = name;
      for (const q of d.plane) if (q.tail === old) q.tail = name;
    });
    state.selected = name;
    if (state.zonesFor === old) state.zonesFor = name;
    renderAll();
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
    refreshEngine();
  };
  $("p-best").onclick = () => {
    state.bestFor = { plane: state.selected, vs: $("p-vs").value };
    runBest();
  };
}

function bindTableSettings() {
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
        say(`seed: expected a whole number from 0 to 2**53-1, got ${text.slice(0, 30)}`);
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

function freeName(d, stem) {
  const names = new Set(d.plane.map((p) => p.name));
  for (let k = d.plane.length + 1; ; k++) {
    if (!names.has(`${stem} ${k}`)) return `${stem} ${k}`;
  }
}

function bindAddPlane() {
  const m = state.meta;
  fillSelect($("a-deck"), [...m.decks.map((d) => [d.name, `${d.name} (${d.cards} cards, ${d.provenance})`]),
    ["", "(balloon)"]], m.decks[0] && m.decks[0].name);
  const baseOptions = () => {
    const deck = m.decks.find((d) => d.name === $("a-deck").value);
    fillSelect($("a-base"), m.bases.map((b) => [b.name, `${b.name} ${b.length_mm}×${b.width_mm} mm`]),
      deck && deck.base ? deck.base : m.bases[0].name);
  };
  baseOptions();
  $("a-deck").onchange = baseOptions;
  $("add").onclick = () => {
    let added = null;
    change((d) => {
      const n = d.plane.length;
      const name = $("a-name").value.trim() || freeName(d, "Plane");
      if (planeOf(d, name)) {
        say(`name: another plane is already called “${name}”; plane names must differ`);
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
      renderAll();
    }
  };
}

// ---------------------------------------------------------------- adjudication and replay
function moveLine(mv) {
  const events = mv.events.length ? `; ${mv.events.join("; ")}` : "";
  return `${mv.plane} flies ${mv.card} (${mv.card_name}) to ${mv.end.x.toFixed(1)}, ${mv.end.y.toFixed(1)} mm, ` +
    `${mv.end.heading.toFixed(1)}°, altitude ${mv.altitude}${events}`;
}

function collisionLine(c) {
  if (c.balloon) return `${c.a} and ${c.b}: a balloon, the collision cannot be avoided; each takes a C card (DF.C5)`;
  const combos = c.combinations.map((x) => `${x.a}/${x.b} ${x.overlap ? "hit" : "miss"}`).join(", ");
  const drawn = c.drawn ? `drawn ${c.drawn.a}/${c.drawn.b}: ` : "";
  return `collision test ${c.a} / ${c.b}: P = ${c.probability} (${combos}); ${drawn}` +
    `${c.collided ? "they collide, each takes an A card (DF.C4)" : "no collision"} (DF.C3)`;
}

function buildSteps(result) {
  const t = result.turn;
  const steps = [];
  const tailRulers = (checks, kind) => checks.map((c) => ruler(c, kind ?? (c.ok ? "kept" : "lost")));
  steps.push({ kind: "start", title: `Start of turn ${t.turn}: tails (DF.T1, DF.T3)`, planes: t.start.planes,
    rulers: tailRulers(t.start.tails, "tail").concat(tailRulers(t.start.unmet_wishes, "unmet")),
    lines: t.start.tails.map((c) => `${c.chaser} tails ${c.target} (ruler ${c.distance_mm.toFixed(1)} mm)`)
      .concat(t.start.unmet_wishes.map((c) => `${c.chaser} asked to tail ${c.target} but cannot: ` +
        c.reasons.map((r) => `${r.text} (${r.rule})`).join("; ")))
      .concat(t.start.tails.length ? [] : ["no tails"]) });
  let before = t.start.planes;
  t.maneuvers.forEach((m, i) => {
    const frame = result.frames[i];
    const head = `Maneuver ${m.index}`;
    if (m.reveals.length) {
      steps.push({ kind: "reveals", title: `${head}: reveals (DF.T2)`, planes: before,
        lines: m.reveals.map((v) => `${v.target} shows ${v.shown} to ${v.chaser}, who ` +
          (v.before.join() === v.after.join() ? "keeps its order" : `reorders ${v.before} → ${v.after}`) +
          (v.fixed ? " (its own next card is fixed)" : "")) });
    }
    steps.push({ kind: "moves", title: `${head}: everyone moves (DF.M1–M4)`, planes: frame.planes,
      paths: frame.paths, lines: m.moves.map(moveLine).concat(m.left_table.map((n) => `${n} leaves the table (DF.E1)`)) });
    if (m.overlaps.length || m.collisions.length) {
      const at = (a, b) => {
        const pa = frame.planes.find((p) => p.name === a), pb = frame.planes.find((p) => p.name === b);
        return [(pa.x + pb.x) / 2, (pa.y + pb.y) / 2];
      };
      steps.push({ kind: "collisions", title: `${head}: overlaps and collision tests (DF.O1, DF.C1–C5)`,
        planes: frame.planes, paths: frame.paths, overlapping: new Set(m.overlaps.flat()),
        collisions: m.collisions.map((c) => ({ a: c.a, b: c.b, at: at(c.a, c.b), collided: c.collided,
          text: c.balloon ? "balloon: collision" : `P ${c.probability}${c.drawn ? `, drawn ${c.drawn.a}/${c.drawn.b}` : ""}: ` +
            (c.collided ? "collide" : "miss") })),
        lines: m.overlaps.map(([a, b]) => `overlap: ${a} and ${b} (DF.O1; they cannot fire at each other, DF.O2)`)
          .concat(m.collisions.map(collisionLine)) });
    }
    steps.push({ kind: "shots", title: `${head}: firing positions (DF.O2, DF.O3, DF.A2)`, planes: frame.planes,
      shots: m.shots.map((s) => shotLine(s)).concat(m.autonomous_fire.map((s) => shotLine(s, true))),
      lines: (m.shots.length ? m.shots.map((s) => `${s.shooter} can fire at ${s.target} at ${s.range} range ` +
        `(${s.distance_mm.toFixed(1)} mm)`) : ["no firing positions"])
        .concat(m.autonomous_fire.map((s) => `autonomous fire: ${s.shooter} fires gun ${s.arc + 1} at ${s.target} (DF.A2)`))
        .concat(m.bombs.flatMap((b) => b.events.map((e) => `${b.plane} ${e}`))) });
    if (m.tails.length) {
      steps.push({ kind: "tails", title: `${head}: tails checked again (DF.T4)`, planes: frame.planes,
        rulers: tailRulers(m.tails), lines: m.tails.map((c) => c.ok ? `${c.chaser} still tails ${c.target}`
          : `${c.chaser} loses the tail on ${c.target}: ${c.reasons.map((r) => `${r.text} (${r.rule})`).join("; ")}`) });
    }
    before = frame.planes;
  });
  steps.push({ kind: "end", title: `End of turn ${t.turn} (the table for turn ${t.end.turn})`, planes: t.end.planes,
    lines: t.end.planes.map((p) => `${p.name}: ${p.x.toFixed(1)}, ${p.y.toFixed(1)} mm, ${p.heading.toFixed(1)}°, ` +
      `altitude ${p.altitude}${p.damage.length ? `, damage ${p.damage.join(" ")}` : ""} [${p.status}]`) });
  return steps;
}

async function adjudicateTurn() {
  const d = doc();
  $("adjudicate").disabled = true;
  try {
    const result = await post("/api/adjudicate", { scenario: serverDoc(d) });
    state.replay = { result, steps: buildSteps(result), index: 0 };
    state.selected = null;
    say(`turn ${result.turn.turn} adjudicated with seed ${result.turn.seed}`, true);
    renderReplay();
  } catch (err) {
    say(err.message);
  } finally {
    renderToolbar();
  }
}

function renderReplay() {
  const r = state.replay;
  $("replay").hidden = !r;
  $("edit").hidden = !!r;
  if (!r) return;
  const step = r.steps[r.index];
  $("replay-turn").textContent = `${r.result.turn.turn} (seed ${r.result.turn.seed})`;
  $("replay-step").textContent = `${r.index + 1} / ${r.steps.length}`;
  $("replay-step").dataset.kind = step.kind;
  $("replay-step").dataset.index = r.index;
  $("replay-slider").max = r.steps.length - 1;
  $("replay-slider").value = r.index;
  $("replay-title").textContent = step.title;
  $("replay-text").replaceChildren(...step.lines.map((t) => Object.assign(document.createElement("li"), { textContent: t })));
  $("step-back").disabled = $("step-first").disabled = r.index === 0;
  $("step-next").disabled = $("step-last").disabled = r.index === r.steps.length - 1;
  renderTable();
}

function goStep(index) {
  const r = state.replay;
  if (!r) return;
  r.index = Math.max(0, Math.min(r.steps.length - 1, index));
  renderReplay();
}

function closeReplay() {
  state.replay = null;
  $("replay").hidden = true;
  $("edit").hidden = false;
}

function bindReplay() {
  $("step-first").onclick = () => goStep(0);
  $("step-back").onclick = () => goStep(state.replay.index - 1);
  $("step-next").onclick = () => goStep(state.replay.index + 1);
  $("step-last").onclick = () => goStep(state.replay.steps.length - 1);
  $("replay-slider").oninput = () => goStep(Number($("replay-slider").value));
  $("replay-close").onclick = () => { closeReplay(); renderAll(); };
  $("next-turn").onclick = () => {
    const after = state.replay.result.after;
    closeReplay();
    if (state.history.push(after)) documentChanged();
    say("the table after the turn: pick new plans for every plane in the air", true);
  };
}

// ---------------------------------------------------------------- files
async function save() {
  try {
    const text = await post("/api/save", { scenario: serverDoc(doc()) });
    const stem = (doc().scenario.name || "table").replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 60) || "table";
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "application/toml" }));
    link.download = `${stem}.toml`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    say(`saved ${stem}.toml`, true);
  } catch (err) {
    say(err.message);
  }
}

async function openFile(file) {
  if (file.size > state.meta.limits.max_body_bytes) {
    say(`${file.name}: expected at most ${state.meta.limits.max_body_bytes / 1024} KiB`);
    return;
  }
  try {
    const opened = await upload(`/api/open?${new URLSearchParams({ filename: file.name })}`, await file.arrayBuffer());
    state.selected = null;
    state.zonesFor = null;
    if (state.history.push(opened)) documentChanged();
    say(`opened ${file.name}`, true);
  } catch (err) {
    say(err.message);
  }
}

// ---------------------------------------------------------------- start
function undo() {
  if (!state.drag && state.history.undo()) documentChanged();
}

function redo() {
  if (!state.drag && state.history.redo()) documentChanged();
}

function bindKeys() {
  document.addEventListener("keydown", (e) => {
    const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName);
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z" && !typing) {
      e.preventDefault();
      if (e.shiftKey) redo(); else undo();
    } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "y" && !typing) {
      e.preventDefault();
      redo();
    } else if (state.replay && !typing && e.key === "ArrowRight") goStep(state.replay.index + 1);
    else if (state.replay && !typing && e.key === "ArrowLeft") goStep(state.replay.index - 1);
  });
}

async function boot() {
  try {
    state.meta = await get("/api/meta");
    state.first = await get("/api/scenario");
  } catch (err) {
    say(err.message);
    return;
  }
  const kept = keptTable(state.first);
  state.history = new History(kept || state.first);
  if (kept) say("the table as you left it in this browser (Reset starts again from the server's table)", true);
  fillSelect($("policy"), state.meta.policies.map((p) => [p, p]));
  const svg = $("table");
  svg.addEventListener("pointerdown", onPointerDown);
  svg.addEventListener("pointermove", onPointerMove);
  svg.addEventListener("pointerup", onPointerUp);
  svg.addEventListener("pointercancel", onPointerUp);
  $("reset").onclick = () => {
    state.selected = null;
    state.zonesFor = null;
    if (state.history.push(structuredClone(state.first))) documentChanged();
    say("the server's table again (Undo brings yours back)", true);
  };
  $("undo").onclick = undo;
  $("redo").onclick = redo;
  $("save").onclick = save;
  $("open-file").onchange = (e) => {
    if (e.target.files[0]) openFile(e.target.files[0]);
    e.target.value = "";
  };
  $("adjudicate").onclick = adjudicateTurn;
  bindEditor();
  bindTableSettings();
  bindAddPlane();
  bindReplay();
  bindKeys();
  await ensureKits(doc());
  renderAll();
  refreshEngine();
  document.body.dataset.ready = "yes";
}

// for tests and the curious: read-only views of the page's state
window.furball = {
  doc: () => structuredClone(doc()),
  analysis: () => structuredClone(state.analysis),
  turn: () => (state.replay ? structuredClone(state.replay.result.turn) : null),
  step: () => (state.replay ? { index: state.replay.index, kind: state.replay.steps[state.replay.index].kind } : null),
  idle: () => !inflight && !scheduled && !again,
};

boot();
