// How a room page shows a game: one renderer per game, chosen by the game's name.
//
// A renderer is { render(container, view, context), handlesActions?(view) }: `view` is the
// room's view of this seat (docs/rooms.md: `text`, `view.public`, `view.private`, `legal`,
// `choices` ...); `context` lets it act (`act(index)`), speak (`say(text, ok)`) and call
// the room's API with the seat's key (`post`, `get`). `handlesActions(view)` true: the
// page offers the legal actions itself, so the room shows no list of buttons. The
// generic renderer below shows the engine's own text of the observation (or, for
// spectators, the public values). Which module under ./games/ draws a game is the
// server's word: its list of games (GET /api/games) gives each game's `page` (its view
// module's PAGE, e.g. "board"), so a new game's page is a module there and nothing here.

import { el } from "../dom.js";
import { get } from "../api.js";

let pages = null;

/** The page module's name of `game` (null: none of its own), the list asked for once. */
async function pageOf(game) {
  pages ??= get("/api/games").then(({ games }) => new Map(games.map((g) => [g.name, g.page])));
  return (await pages).get(game) ?? null;
}


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
  try {
    const page = await pageOf(game);
    if (!page || !/^[a-z][a-z_-]*$/.test(page)) return generic;
    return (await import(`./games/${page}.js`)).default;
  } catch (_) {
    pages = null; // asked again next time
    return generic;
  }
}
