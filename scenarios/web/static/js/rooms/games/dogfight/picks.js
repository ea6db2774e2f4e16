// The cards this seat has picked but not locked yet, kept in this browser only
// (localStorage, one key per room, seat and turn: "furball.picks|ROOM|SEAT|TURN" holding
// {plane: [card ids]}), so a reload keeps them; the keys of other turns are removed when
// the turn moves on. Never sent anywhere.

import { s } from "./state.js";

const PREFIX = "furball.picks|";

const mine = () => `${PREFIX}${s.ctx.room}|${s.view.seat}|`;

function read(key) {
  try {
    const saved = JSON.parse(localStorage.getItem(key) || "{}");
    return saved && typeof saved === "object" && !Array.isArray(saved) ? saved : {};
  } catch (_) {
    return {};
  }
}

/** The picks kept for this seat's `turn`, by plane; other turns' are removed. */
export function keptPicks(turn) {
  try {
    const prefix = mine();
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i);
      if (key && key.startsWith(prefix) && key !== `${prefix}${turn}`) localStorage.removeItem(key);
    }
    return read(`${prefix}${turn}`);
  } catch (_) {
    return {};
  }
}

/** Keep `cards` as the pick of `plane` in `turn` (none: forget it). */
export function keepPick(turn, plane, cards) {
  try {
    const key = `${mine()}${turn}`;
    const kept = read(key);
    if (cards.length) kept[plane] = cards;
    else delete kept[plane];
    if (Object.keys(kept).length) localStorage.setItem(key, JSON.stringify(kept));
    else localStorage.removeItem(key);
  } catch (_) { /* no storage (private browsing): the picks last as long as the page */ }
}
