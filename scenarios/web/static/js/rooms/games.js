// How a room page shows a game: one renderer per game, chosen by the game's name.
//
// A renderer is { render(container, view, context), handlesActions?(view) }: `view` is the
// room's view of this seat (docs/rooms.md: `text`, `view.public`, `view.private`, `legal`,
// `choices` ...); `context` lets it act (`act(index)`), speak (`say(text, ok)`) and call
// the room's API with the seat's key (`post`, `get`). `handlesActions(view)` true: the
// page offers the legal actions itself, so the room shows no list of buttons. The
// generic renderer below shows the engine's own text of the observation (or, for
// spectators, the public values). A game's page is a module under ./games/ and one line
// in RENDERERS; nothing else changes.

import { el } from "../dom.js";

const RENDERERS = {
  dogfight: () => import("./games/dogfight.js"),
  canuck: () => import("./games/board.js"),
  yorktown: () => import("./games/board.js"),
  "white-christmas": () => import("./games/board.js"),
};


/** Public values as an indented outline (spectators have no observation text). */
function outline(value, depth = 0) {
  const pad = "  ".repeat(depth);
  if (value === null || value === undefined) return "-";
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== "object")) return value.length ? value.join(", ") : "-";
    return value.map((v) => `\n${pad}- ${outline(v, depth + 1).trimStart()}`).join("");
  }
  if (typeof value === "object") {
    return Object.entries(value).map(([k, v]) => `\n${pad}${k.replaceAll("_", " ")}: ${outline(v, depth + 1)}`).join("");
  }
  return String(value);
}

export const generic = {
  render(container, view) {
    const text = view.text ?? outline(view.view && view.view.public).trimStart();
    const pre = container.querySelector("pre.observation") || container.appendChild(el("pre", { className: "observation" }));
    pre.dataset.testid = "observation";
    if (pre.textContent !== text) pre.textContent = text;
  },
};

/** The renderer of `game` (the generic one when the game has none of its own). */
export async function rendererFor(game) {
  const load = RENDERERS[game];
  if (!load) return generic;
  try {
    return (await load()).default;
  } catch (_) {
    return generic;
  }
}
