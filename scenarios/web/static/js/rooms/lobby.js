// The lobby: create a room (a game, its options, a person or a bot per seat), show the
// links to send, list this browser's rooms, join from a link (docs/rooms.md).

import { get, post, remove } from "../api.js";
import { forget, remember, roomLink, savedRooms } from "./saved.js";
import { el } from "../dom.js";
import { lang, languageSwitch, loadLanguage, t } from "../i18n.js";

const $ = (id) => document.getElementById(id);
const state = { games: [] };

function say(text, ok = false) {
  $("message").textContent = text || "";
  $("message").className = ok ? "ok" : "bad";
}


const game = () => state.games.find((g) => g.name === $("game").value);
const UPLOAD = "\u0000upload"; // the scenario select's "a file of mine" entry

/** The seats the chosen options make, each named by what it plays where the game says
 *  (a dogfight seat by its planes): the server reads the options as the room will. */
async function seatNames(g) {
  try {
    const answer = await post(`/api/games/seats?lang=${lang()}`, { game: g.name, options: optionValues() });
    return answer.names || Array.from({ length: answer.seats }, () => "");
  } catch (err) {
    say(err.message);
    return null;
  }
}

function scenarioInput(o) {
  // a shipped scenario by name, or a scenario file of one's own (its text is sent; the
  // server never opens a file a request names)
  const select = el("select");
  select.append(...o.choices.map((c) => el("option", { value: c, textContent: t(c) })),
    el("option", { value: UPLOAD, textContent: t("a file of mine…") }));
  select.value = o.choices.includes("duel") ? "duel" : o.choices[0];
  const file = el("input", { type: "file", accept: ".toml,text/plain", hidden: true });
  file.dataset.upload = o.name;
  select.dataset.option = o.name;
  select.dataset.kind = o.kind;
  select.onchange = () => {
    file.hidden = select.value !== UPLOAD;
    if (select.value !== UPLOAD) renderSeats();
  };
  file.onchange = async () => {
    const f = file.files[0];
    if (!f) return;
    if (f.size > o.max_chars) {
      say(t("{file}: expected at most {size} KiB", { file: f.name, size: Math.round(o.max_chars / 1024) }));
      return;
    }
    select.dataset.text = await f.text();
    select.dataset.file = f.name;
    say(t("{file} read: the room will be made from it.", { file: f.name }), true);
    renderSeats();
  };
  return [select, file];
}

function renderOptions() {
  const g = game();
  $("game-notes").textContent = g.notes || "";
  $("options").replaceChildren(...g.options.map((o) => {
    let inputs;
    if (o.kind === "scenario") {
      inputs = scenarioInput(o);
    } else {
      let input;
      if (o.kind === "bool") {
        input = el("input", { type: "checkbox", checked: !!o.default });
      } else if (o.choices) {
        input = el("select");
        input.append(...o.choices.map((c) => el("option", { value: c === null ? "" : String(c),
          textContent: c === null ? t("(default)") : t(String(c)) })));  // a choice's word where the catalog has it
        input.value = o.default === null ? "" : String(o.default);
      } else {
        input = el("input", { type: o.kind === "int" ? "number" : "text", value: o.default ?? "" });
      }
      input.dataset.option = o.name;
      input.dataset.kind = o.kind;
      input.onchange = renderSeats;
      inputs = [input];
    }
    return el("label", { className: "field", title: o.help }, `${(o.label || o.name).replaceAll("_", " ")} `, ...inputs,
      el("small", { className: "muted", textContent: ` ${o.help}` }));
  }));
  renderSeats();
}

let asking = 0;

async function renderSeats() {
  const g = game();
  const mine = ++asking;
  const names = await seatNames(g);
  if (mine !== asking || names === null) return;
  const n = names.length;
  document.body.dataset.seats = n;
  const old = [...document.querySelectorAll("[data-seat]")].map((s) => s.value);
  $("seats").replaceChildren(...Array.from({ length: n }, (_, i) => {
    const label = names[i] ? `P${i + 1}: ${names[i]}` : `P${i + 1}`;
    const select = el("select", { title: t("who plays {seat}", { seat: label }) });
    select.dataset.seat = i;
    select.append(el("option", { value: "", textContent: t("a person") }),
      ...g.bots.map((b) => el("option", { value: b, textContent: t("bot: {bot}", { bot: b }) })));
    // a new game's P2 starts as the first bot (a game at once); seats the options add are people
    select.value = old[i] ?? (i === 1 && !old.length ? g.bots[0] : "");
    const field = el("label", { className: "field" }, `${label} `, select);
    field.dataset.seatName = names[i] || "";
    return field;
  }));
}

function optionValues() {
  const out = {};
  const g = game();
  for (const input of document.querySelectorAll("[data-option]")) {
    const o = g.options.find((x) => x.name === input.dataset.option);
    if (!o) continue;
    let value = input.type === "checkbox" ? input.checked : input.value;
    if (o.kind === "scenario") {
      out[o.name] = value === UPLOAD ? (input.dataset.text || "") : value;
      continue;
    }
    if (value === "" && (o.default === null || o.default === undefined)) continue; // the game's default
    if (o.kind === "int" && value !== "") value = Number(value);
    if (value !== o.default && String(value) !== String(o.default) && !(o.kind === "bool" && value === !!o.default)) {
      out[o.name] = value;
    }
  }
  return out;
}

function linkItem(label, href, note = "") {
  const input = el("input", { type: "text", readOnly: true, value: href, className: "link" });
  const copy = el("button", { textContent: t("Copy") });
  copy.onclick = async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(href);
      copy.textContent = t("Copied");
    } catch (_) {
      document.execCommand("copy");
      copy.textContent = t("Copied");
    }
  };
  const open = el("a", { className: "button", href, textContent: t("Open"), target: "_blank", rel: "noopener noreferrer" });
  return el("li", {}, el("strong", { textContent: label }), note ? el("span", { className: "muted", textContent: ` ${note}` }) : "",
    el("div", { className: "row" }, input, copy, open));
}

async function createRoom() {
  const g = game();
  const seats = [...document.querySelectorAll("[data-seat]")].map((s) => s.value || null);
  const body = { game: g.name, options: optionValues(), seats };
  const title = $("title").value.trim();
  if (title) body.title = title;
  const seed = $("seed").value.trim();
  if (seed) body.seed = Number(seed);
  $("create-room").disabled = true;
  try {
    const made = await post(`/api/rooms?lang=${lang()}`, body);
    remember({ room: made.room, title: made.title, game: made.game, owner: made.owner,
      seats: made.seats.map((s) => ({ label: s.label, bot: s.bot, token: s.token })) });
    const items = [linkItem(t("Owner"), roomLink(made.room, { owner: made.owner }), t("(for you: seat controls)"))];
    made.seats.forEach((s) => {
      const seat = s.name ? `${s.label}: ${s.name}` : s.label;
      items.push(linkItem(s.bot ? t("{seat} (bot: {bot})", { seat, bot: s.bot }) : seat,
        roomLink(made.room, { seat: s.token }),
        s.bot ? t("(played by a bot; the link lets a person take it back later)") : t("(send to the player)")));
    });
    items.push(linkItem(t("Spectators"), roomLink(made.room), t("(sees only what is public)")));
    $("links").replaceChildren(...items);
    $("made").hidden = false;
    say(t("Room “{title}” created.", { title: made.title }), true);
    renderMine();
    $("made").scrollIntoView({ behavior: "smooth" });
  } catch (err) {
    say(err.message);
  } finally {
    $("create-room").disabled = false;
  }
}

/** The owner deletes a room on the server (after asking), then forgets it here. */
async function deleteRoom(r) {
  const title = r.title || r.room;
  if (!window.confirm(t("Delete the room “{title}” for everyone? Its game cannot be played on.", { title }))) return;
  try {
    await remove(`/api/rooms/${encodeURIComponent(r.room)}?lang=${lang()}`, r.owner);
    say(t("Room “{title}” deleted.", { title }), true);
  } catch (err) {
    if (err.status !== 404) { say(err.message); return; }
    say(t("Room “{title}” was already gone.", { title }), true);
  }
  forget(r.room);
  renderMine();
}

function renderMine() {
  const rooms = savedRooms();
  $("none-yet").hidden = rooms.length > 0;
  $("my-rooms").replaceChildren(...rooms.map((r) => {
    const links = [];
    const mySeats = (r.seats || []).filter((s) => s.token);
    for (const s of mySeats) {
      links.push(el("a", { className: "button", href: roomLink(r.room, { seat: s.token, owner: r.owner || null }),
        textContent: t("play {seat}", { seat: s.label }) }));
    }
    if (r.owner) links.push(el("a", { className: "button", href: roomLink(r.room, { owner: r.owner }), textContent: t("owner") }));
    links.push(el("a", { className: "button", href: roomLink(r.room), textContent: t("watch") }));
    const drop = el("button", { textContent: t("Forget"), title: t("remove from this list (the room stays on the server)") });
    drop.onclick = () => { forget(r.room); renderMine(); };
    const buttons = [drop];
    if (r.owner) {
      const del = el("button", { textContent: t("Delete"), title: t("delete the room on the server, for everyone") });
      del.onclick = () => deleteRoom(r);
      buttons.push(del);
    }
    return el("li", {}, el("strong", { textContent: r.title || r.room }),
      el("span", { className: "muted", textContent: ` ${r.game || ""}` }),
      el("div", { className: "row" }, ...links, ...buttons));
  }));
}

function bindJoin() {
  $("join-open").onclick = () => {
    const text = $("join-link").value.trim();
    try {
      const u = new URL(text, location.origin);
      if (!/^\/rooms\/[A-Za-z0-9_-]+$/.test(u.pathname)) throw new Error(t("not a room link"));
      location.href = `${location.origin}${u.pathname}${u.hash}`;
    } catch (_) {
      say(t("expected a room link such as http://…/rooms/ROOM#seat=…"));
    }
  };
}

async function boot() {
  await loadLanguage();  // the page's own words in the reader's language (docs/i18n.md)
  $("language-slot")?.replaceChildren(languageSwitch());
  try {
    state.games = (await get(`/api/games?lang=${lang()}`)).games;
  } catch (err) {
    say(err.message);
    return;
  }
  $("game").replaceChildren(...state.games.map((g) => el("option", { value: g.name, textContent: g.title })));
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && state.games.some((g) => g.name === wanted)) $("game").value = wanted;
  $("game").onchange = renderOptions;
  $("create-room").onclick = createRoom;
  renderOptions();
  renderMine();
  bindJoin();
  document.body.dataset.ready = "yes";
}

boot();
