// Who to tail (DF.T3): a plane able to tail two or more enemies at the start of the turn
// picks exactly one. The server lists them per plane (`choices.planes[P].tails`:
// [enemy, shift], nearest first) and the plan's action is its leaf in the plan tree plus
// the shift of the enemy chosen. Shown only when there is a choice; the pick is this
// page's until the plan locks, then it is part of the seat's hidden plan
// (`private.own_tails`) until the turn flies.

import { el } from "../../../dom.js";
import { t } from "../../../i18n.js";
import { priv, pub, s } from "./state.js";

function offered(plane) {
  const c = s.view && s.view.choices;
  const entry = c && c.planes && c.planes[plane];
  return entry && entry.tails && entry.tails.length > 1 ? entry.tails : null;
}

/** The enemy `plane` will tail: picked on this page, else its locked plan's, else the nearest. */
export function tailOf(plane) {
  const tails = offered(plane);
  if (!tails) return null;
  const picks = s.tailPicks && s.tailPicks.turn === pub().turn ? s.tailPicks.by : {};
  const locked = priv() && priv().own_tails ? priv().own_tails[plane] : null;
  const name = picks[plane] || locked || tails[0][0];
  return tails.some(([enemy]) => enemy === name) ? name : tails[0][0];
}

/** What to add to a plan's index in the tree for the tail chosen (0: no choice offered). */
export function tailShift(plane) {
  const tails = offered(plane);
  if (!tails) return 0;
  const chosen = tailOf(plane);
  return tails.find(([enemy]) => enemy === chosen)[1];
}

/** Draw the choice of `plane` into `box` (hidden without a choice). */
export function renderTail(box, plane) {
  const tails = offered(plane);
  box.hidden = !tails;
  if (!tails) {
    box.replaceChildren();
    return;
  }
  const select = el("select", { title: t("the enemy this plane tails this turn (DF.T3)") },
    ...tails.map(([enemy], k) => el("option", { value: enemy,
      textContent: k ? enemy : t("{enemy} (nearest)", { enemy }) })));
  select.value = tailOf(plane);
  select.dataset.testid = "tail-select";
  select.onchange = () => {
    if (!s.tailPicks || s.tailPicks.turn !== pub().turn) s.tailPicks = { turn: pub().turn, by: {} };
    s.tailPicks.by[plane] = select.value;
  };
  const label = t("Tail (DF.T3): {plane} may tail several enemies and picks one:", { plane });
  box.replaceChildren(el("label", {}, `${label} `, select));
}
