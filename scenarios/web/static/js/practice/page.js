// The practice table's page state: the document and its undo history, the engine's
// answers, the messages, and the card kits of the planes' decks and bases. Every other
// module of the page reads and changes the table through this one (js/main.js wires
// them: `hooks` are the page's own reactions, set once at start).

import { get } from "../api.js";
import { t } from "../i18n.js";

export const CARDS = 3; // DF.M1
export const $ = (id) => document.getElementById(id);

export const state = {
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

/** What the page does after a change (js/main.js sets them): redraw everything, react
 *  to a new document in the history, ask the engine again. */
export const hooks = { renderAll: () => {}, documentChanged: () => {}, refreshEngine: () => {} };

// ---------------------------------------------------------------- the document
export const doc = () => state.live || state.history.present;
export const planeOf = (d, name) => d.plane.find((p) => p.name === name);
export const needsPlan = (p) => (p.kind || "plane") === "plane" && !p.autonomous && (p.status || "flying") === "flying";

/** The document as the server reads it: a plan is sent only when all three cards are picked. */
export function serverDoc(d) {
  const out = structuredClone(d);
  for (const p of out.plane) {
    if (p.plan && (p.plan.length !== CARDS || p.plan.some((c) => !c))) {
      delete p.plan;
      delete p.drops;
    }
  }
  return out;
}

export function sideColours(d) {
  const sides = [...new Set(d.plane.map((p) => p.side))].sort();
  const palette = state.meta.colours.sides;
  return Object.fromEntries(sides.map((s, i) => [s, palette[i % palette.length]]));
}

/** Apply `mutate` to a copy of the document and record it (one undo step). */
export function change(mutate) {
  const next = structuredClone(state.history.present);
  if (mutate(next) === false) return;
  if (state.history.push(next)) hooks.documentChanged();
}

/** A firing range's name (short, long: the server's words) in the reader's language. */
export function rangeName(range) {
  if (range === "short") return t("short");
  if (range === "long") return t("long");
  return range;
}

// ---------------------------------------------------------------- status line and messages
/** The engine's summary of the table (replaced by every answer of the engine). */
export function status(message, ok = false) {
  const s = $("status");
  s.textContent = message || "";
  s.className = ok ? "ok" : "";
}

/** A message for the user (a refusal, a file saved): it stays until the next message,
 *  whatever the engine answers meanwhile. */
export function say(message, ok = false) {
  const s = $("message");
  s.textContent = message || "";
  s.className = ok ? "ok" : "";
}

// ---------------------------------------------------------------- kept in the browser
const STORE_KEY = "furball.table";

/** The table left in this browser for this server's first table, or null. */
export function keptTable(first) {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE_KEY) || "null");
    if (kept && kept.first === JSON.stringify(first) && kept.doc && Array.isArray(kept.doc.plane)) return kept.doc;
  } catch (_) { /* nothing usable kept */ }
  return null;
}

/** Keep the table in the browser (a reload starts from it). */
export function keepTable() {
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify({ first: JSON.stringify(state.first), doc: state.history.present }));
  } catch (_) { /* storage full or disabled: the table lives as long as the page */ }
}

// ---------------------------------------------------------------- engine data
export function kitKey(p) {
  return `${p.deck || ""}|${p.base}`;
}

export function kitOf(p) {
  return state.kits.get(kitKey(p));
}

export async function ensureKits(d) {
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
