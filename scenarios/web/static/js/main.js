// The web table: set up planes, plan their cards, adjudicate and replay a turn.
//
// The page holds one document (the scenario file's data as JSON, docs/serve.md) and its
// undo history; every change makes a new document. The engine (through the JSON API)
// answers every rule question: tails, firing positions, plan legality, the turn. The
// page only draws, and turns the engine's card geometry by a plane's pose for previews.
//
// This module starts the page and owns what reacts to a change: the engine's answers,
// dragging, files, keys. The rest lives in practice/: page.js (the state, the document,
// messages, kits), scene.js (the picture), panel.js (toolbar and plane editor) and
// turn.js (adjudication and the replay).

import { get, post, upload } from "./api.js";
import { History } from "./history.js";
import { clampToTable, direction, docPose, poseOf, poseWithStand, stand } from "./geometry.js";
import { bindAddPlane, bindEditor, bindTableSettings, fillSelect, refreshBest, renderEditor, renderToolbar }
  from "./practice/panel.js";
import { $, doc, ensureKits, hooks, keepTable, keptTable, kitOf, planeOf, say, serverDoc, state, status }
  from "./practice/page.js";
import { renderTable } from "./practice/scene.js";
import { loadSilhouettes } from "./table.js";
import { adjudicateTurn, bindReplay, closeReplay, goStep } from "./practice/turn.js";
import { openRecordFile } from "./practice/record.js";
import { startRules } from "./rules.js";
import { languageSwitch, loadLanguage, number, t } from "./i18n.js";

const DEBOUNCE_MS = 40;

// ---------------------------------------------------------------- after every change
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

function renderAll() {
  renderToolbar();
  if (!state.replay) renderEditor();
  renderTable();
  $("edit").hidden = !!state.replay;
}

// ---------------------------------------------------------------- the engine's answers
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
      status(t("An empty table: add a plane."), true);
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
  const n = (count, one, more) => (count === 1 ? one : more);
  const parts = [n(a.tails.length, t("1 tail"), t("{n} tails", { n: a.tails.length })),
    n(a.shots.length, t("1 firing position"), t("{n} firing positions", { n: a.shots.length }))];
  if (a.overlaps.length) parts.push(n(a.overlaps.length, t("1 overlap"), t("{n} overlaps", { n: a.overlaps.length })));
  if (errors) parts.push(n(errors, t("1 illegal plan"), t("{n} illegal plans", { n: errors })));
  return parts.join(", ");
}

/** A reorder policy's name (scenarios/dogfight/policy.py) in the reader's language. */
function policyName(p) {
  if (p === "keep") return t("keep");
  if (p === "best") return t("best");
  return p;
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
    say(t("saved {file}", { file: `${stem}.toml` }), true);
  } catch (err) {
    say(err.message);
  }
}

async function openFile(file) {
  if (file.size > state.meta.limits.max_body_bytes) {
    say(t("{file}: expected at most {size} KiB", { file: file.name, size: number(state.meta.limits.max_body_bytes / 1024, 0) }));
    return;
  }
  try {
    const opened = await upload(`/api/open?${new URLSearchParams({ filename: file.name })}`, await file.arrayBuffer());
    state.selected = null;
    state.zonesFor = null;
    if (state.history.push(opened)) documentChanged();
    say(t("opened {file}", { file: file.name }), true);
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
  Object.assign(hooks, { renderAll, documentChanged, refreshEngine });
  await loadLanguage();  // the page's own words in the reader's language (docs/i18n.md)
  $("language-slot").replaceChildren(languageSwitch());
  try {
    state.meta = await get("/api/meta");
    state.first = await get("/api/scenario");
  } catch (err) {
    say(err.message);
    return;
  }
  loadSilhouettes().then(() => { if (state.history) renderTable(); }); // the planes' own drawings (img/planes.svg)
  const kept = keptTable(state.first);
  state.history = new History(kept || state.first);
  if (kept) say(t("the table as you left it in this browser (Reset starts again from the server's table)"), true);
  fillSelect($("policy"), state.meta.policies.map((p) => [p, policyName(p)]));
  const svg = $("table");
  svg.addEventListener("pointerdown", onPointerDown);
  svg.addEventListener("pointermove", onPointerMove);
  svg.addEventListener("pointerup", onPointerUp);
  svg.addEventListener("pointercancel", onPointerUp);
  $("reset").onclick = () => {
    state.selected = null;
    state.zonesFor = null;
    if (state.history.push(structuredClone(state.first))) documentChanged();
    say(t("the server's table again (Undo brings yours back)"), true);
  };
  $("undo").onclick = undo;
  $("redo").onclick = redo;
  $("save").onclick = save;
  $("open-file").onchange = (e) => {
    if (e.target.files[0]) openFile(e.target.files[0]);
    e.target.value = "";
  };
  $("open-record").onchange = (e) => {
    if (e.target.files[0]) openRecordFile(e.target.files[0]);
    e.target.value = "";
  };
  startRules();
  $("adjudicate").onclick = adjudicateTurn;
  bindEditor();
  bindTableSettings();
  bindAddPlane();
  bindReplay();
  bindKeys();
  await ensureKits(doc());
  renderAll();
  refreshEngine();
  const handed = sessionStorage.getItem("furball-open");  // a scenario handed over by the Capture page
  if (handed) {
    sessionStorage.removeItem("furball-open");
    await openFile(new File([handed], "captured.toml"));
  }
  document.body.dataset.ready = "yes";
}

// for tests and the curious: read-only views of the page's state
window.furball = {
  doc: () => structuredClone(doc()),
  analysis: () => structuredClone(state.analysis),
  turn: () => (state.replay ? structuredClone(state.replay.result.turn) : null),
  replay: () => (state.replay ? structuredClone(state.replay.result.replay) : null),
  step: () => (state.replay ? { index: state.replay.index, kind: state.replay.steps[state.replay.index].kind } : null),
  idle: () => !inflight && !scheduled && !again,
};

boot();
