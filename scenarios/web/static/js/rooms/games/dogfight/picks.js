// The cards this seat has picked but not locked yet, and the enemy each plane picked to
// tail (DF.T3), kept in this browser only (localStorage, one key per room, seat and turn:
// "furball.picks|ROOM|SEAT|TURN" holding {plane: [card ids]}, "furball.tails|..." holding
// {plane: enemy}), so a reload keeps them; the keys of other turns are removed when the
// turn moves on. Never sent anywhere.

import { s } from "./state.js";

const PICKS = "furball.picks|";
const TAILS = "furball.tails|";

const mine = (kind) => `${kind}${s.ctx.room}|${s.view.seat}|`;

function read(key) {
  try {
    const saved = JSON.parse(localStorage.getItem(key) || "{}");
    return saved && typeof saved === "object" && !Array.isArray(saved) ? saved : {};
  } catch (_) {
    return {};
  }
}

function kept(kind, turn) {
  try {
    const prefix = mine(kind);
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i);
      if (key && key.startsWith(prefix) && key !== `${prefix}${turn}`) localStorage.removeItem(key);
    }
    return read(`${prefix}${turn}`);
  } catch (_) {
    return {};
  }
}

function keep(kind, turn, plane, value) {
  try {
    const key = `${mine(kind)}${turn}`;
    const saved = read(key);
    if (value && value.length) saved[plane] = value;
    else delete saved[plane];
    if (Object.keys(saved).length) localStorage.setItem(key, JSON.stringify(saved));
    else localStorage.removeItem(key);
  } catch (_) { /* no storage (private browsing): the picks last as long as the page */ }
}

/** The picks kept for this seat's `turn`, by plane; other turns' are removed. */
export const keptPicks = (turn) => kept(PICKS, turn);

/** Keep `cards` as the pick of `plane` in `turn` (none: forget it). */
export const keepPick = (turn, plane, cards) => keep(PICKS, turn, plane, cards);

/** The enemies picked to tail in this seat's `turn`, by plane (DF.T3); other turns' are removed. */
export const keptTails = (turn) => kept(TAILS, turn);

/** Keep `enemy` as the one `plane` tails in `turn` (none: forget it). */
export const keepTail = (turn, plane, enemy) => keep(TAILS, turn, plane, enemy);
