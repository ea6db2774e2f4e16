// The dogfight room's page state and the small helpers its modules share
// (rooms/games/dogfight.js wires them: `hooks` are the page's redraws, set once).

export const CARDS = 3; // DF.M1
export const MOVE_PART = 0.55; // of a maneuver's animation: the bases slide...
export const FIRE_PART = 0.75; // ...then the shots, then damage and losses
export const STEP_MS = 2600;
export const PAUSE_MS = 700;
export const LOST = new Set(["out", "destroyed"]);

export const s = {
  ctx: null, view: null, els: null, meta: null, kits: new Map(), asked: new Set(), pick: [], pickKey: null,
  planPlane: null, planFor: null, hover: null, replay: null, seenTurn: undefined, seenLive: undefined, pz: null, best: null, frame: 0,
  restored: new Set(), noticeTurn: null, bestTurn: undefined, tailPicks: null,
};

export const pub = () => s.view.view.public;
export const priv = () => s.view.view.private; // null for spectators
export const poseOf = (p) => [p.x, p.y, p.heading];
export const kitKey = (p) => `${p.deck || ""}|${p.base}`;
export const kitOf = (p) => s.kits.get(kitKey(p));
export const planeNamed = (name) => pub().planes.find((p) => p.name === name);

/** The page's redraws (rooms/games/dogfight.js sets them): everything, or the table only. */
export const hooks = { refresh: () => {}, drawTable: () => {} };

/** The plane this seat's plan panel shows: the one picked among `choices.planes`, else `choices.plane`. */
export function planPlane() {
  const c = s.view.choices;
  if (!c) return null;
  return s.planPlane && c.planes && s.planPlane in c.planes ? s.planPlane : c.plane;
}

export function planTree() {
  const c = s.view.choices;
  const plane = planPlane();
  return c.planes && c.planes[plane] ? c.planes[plane].tree : c.tree;
}

export function pickNode() {
  let node = planTree();
  for (const id of s.pick) {
    if (!node || typeof node !== "object" || !(id in node)) return null;
    node = node[id];
  }
  return node;
}
