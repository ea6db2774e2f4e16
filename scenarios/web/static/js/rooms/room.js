// A game room: this seat's view pushed by the server over a WebSocket, the legal actions
// as buttons (the engine's own words) or the game's own page (./games/), the log, who is
// to act, the owner's seat controls, and "your turn" in the tab's title and favicon with
// opt-in notifications, sound and the owner's webhook (./alerts.js; docs/rooms.md). The
// link's fragment holds the credentials (#seat=..., #owner=...): a fragment never reaches
// a server log or another site.

import { ApiError, get, post } from "../api.js";
import { rendererFor } from "./games.js";
import { remember } from "./saved.js";
import { renderAlerts, signal } from "./alerts.js";
import { el } from "../dom.js";
import { lang, languageSwitch, loadLanguage, t } from "../i18n.js";
import { bindRecord, recordView } from "./record.js";
import { startRules } from "../rules.js";

const $ = (id) => document.getElementById(id);
const room = decodeURIComponent(location.pathname.split("/").pop());
const keys = new URLSearchParams(location.hash.slice(1));
const seatToken = keys.get("seat");
const ownerToken = keys.get("owner");

const state = {
  view: null, present: [], owner: false, log: [], socket: null, retry: 0, renderer: null, busy: false,
  updates: 0, skew: 0, tick: 0, chat: [], rematch: null,
};


/** The room's API address of `path`, with the page's language: the server's one-line
 *  refusals come back in it (docs/i18n.md). */
function roomApi(path) {
  return `/api/rooms/${encodeURIComponent(room)}${path}${path.includes("?") ? "&" : "?"}lang=${lang()}`;
}

/** A message that stays until the next one (or until dismissed). */
function say(text, ok = false) {
  $("message").textContent = text || "";
  $("message").className = `message ${ok ? "ok" : "bad"}`;
}

function connection(text, ok) {
  $("connection").textContent = text;
  $("connection").className = `pill ${ok ? "ok" : "bad"}`;
}

// ---------------------------------------------------------------- the socket
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/api/rooms/${encodeURIComponent(room)}/ws`);
  state.socket = ws;
  let pinging = null;
  ws.onopen = () => {
    ws.send(JSON.stringify({ type: "hello", token: seatToken, owner: ownerToken, seen: state.log.length,
                             lang: lang(), chat_seen: state.chat.length }));
    // the server closes a socket that says nothing for a few minutes (docs/rooms.md, Security)
    pinging = setInterval(() => { if (ws.readyState === WebSocket.OPEN) ws.send('{"type":"ping"}'); }, 30000);
  };
  ws.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "update") {
      state.retry = 0;
      connection(t("connected"), true);
      update(msg);
    } else if (msg.type === "chat") {
      chatArrived(msg);
    } else if (msg.type === "best" && state.renderer && state.renderer.message) {
      state.renderer.message(msg); // a game's own answer, for this socket alone (the dogfight's Best plans)
    } else if (msg.type === "error") {
      say(msg.error);
      if (msg.status === 404) {
        state.retry = -1;
        connection(t("no such room"), false);
      }
    }
  };
  ws.onclose = () => {
    clearInterval(pinging);
    if (state.socket !== ws) return;
    state.socket = null;
    if (state.retry < 0) return;
    const wait = Math.min(10000, 500 * 2 ** state.retry++);
    connection(t("disconnected: retrying in {seconds} s", { seconds: Math.round(wait / 1000) }), false);
    setTimeout(connect, wait);
  };
}

// ---------------------------------------------------------------- what arrives
async function update(msg) {
  if (msg.log_from === state.log.length) state.log.push(...msg.log);
  else if (msg.log_from < state.log.length) state.log.splice(msg.log_from, Infinity, ...msg.log);
  state.view = msg.view;
  state.present = msg.present;
  state.owner = msg.owner;
  state.rematch = msg.rematch ?? null;
  state.outcome = msg.outcome ?? null; // the game's end in this page's language (the view's is English)
  if (typeof msg.now === "number") state.skew = msg.now - Date.now() / 1000; // the server's clock minus ours
  if (!state.renderer) {
    state.renderer = await rendererFor(msg.view.game);
    const v = msg.view;
    remember({ room, title: v.title, game: v.game, owner: ownerToken || undefined,
      seats: v.labels.map((l, i) => (i === v.seat && seatToken ? { label: l, token: seatToken } : { label: l })) });
  }
  state.updates += 1;
  render();
  if (state.updates === 1 || state.alertsOwner !== (state.owner && !!ownerToken)) {
    state.alertsOwner = state.owner && !!ownerToken;
    renderAlerts($("alerts-box"), { seat: msg.view.seat, owner: state.alertsOwner, ctx: context });
  }
}

function label(seat) {
  return seat === null || seat === undefined ? t("set-up") : state.view.labels[seat];
}

function render() {
  const v = state.view;
  signal(v.title, myTurn(v) && awaited(v).includes(v.seat)); // "your turn": the tab's title and favicon (alerts.js)
  $("room-title").textContent = v.title;
  $("who").textContent = v.seat === null ? (state.owner ? t("owner (watching)") : t("spectator"))
    : t("you are {seat}", { seat: label(v.seat) });
  let turn;
  const over = v.terminal && state.renderer && state.renderer.gameOver && state.renderer.gameOver(v);
  if (v.terminal) {
    turn = over ? t("{ending} (seed {seed})", { ending: over, seed: v.seed })
      : t("Game over. {outcome} (seed {seed})", { outcome: (state.outcome || v.outcome || []).join(" · "), seed: v.seed });
  } else if (myTurn(v) && awaited(v).includes(v.seat)) {
    turn = awaited(v).length > 1 ? t("Your turn: choose an action (everyone acts at once).") : t("Your turn: choose an action.");
  } else {
    // a simultaneous node (the dogfight's planning): everyone it waits for acts at once
    const names = awaited(v).map((i) => (v.seats[i].bot ? t("{seat} (the {bot} bot)", { seat: label(i), bot: v.seats[i].bot })
      : label(i))).join(", ");
    turn = t("{seats} to act…", { seats: names });
    if (myTurn(v)) turn = t("Done: waiting for {seats}… (you may still change your choice)", { seats: names });
  }
  $("turn").textContent = turn;
  $("turn").className = `turn${myTurn(v) ? " mine" : ""}`;
  document.body.dataset.toAct = v.to_act === null ? "" : String(v.to_act);
  document.body.dataset.awaited = awaited(v).join(" ");
  document.body.dataset.version = v.version ?? "";
  document.body.dataset.game = v.game;
  renderActions();
  state.renderer.render($("game-view"), recordView() || v, context); // a step of the game record, or now
  renderSeats();
  renderLog();
  renderClock();
  renderTakeBack();
  renderRematch();
  $("chat-form").hidden = v.seat === null;
}

// ---------------------------------------------------------------- a real-time game clock (YT.S4)
/** Seconds on the game clock now: the server's reading plus the time since, while it runs. */
function clockNow(c) {
  if (!c.running || c.since === null) return c.reading_s;
  const now = Date.now() / 1000 + state.skew;
  return Math.min(c.limit_s, c.reading_s + Math.max(0, Math.floor(now - c.since)));
}

const mmss = (t) => `${Math.floor(t / 60)}:${String(Math.floor(t % 60)).padStart(2, "0")}`;

function renderClock() {
  const c = state.view && state.view.clock;
  $("clock").hidden = !c;
  const control = $("clock-control");
  control.hidden = !(c && c.pausing && state.owner && ownerToken && !state.view.terminal);
  clearInterval(state.tick);
  if (!c) return;
  const show = () => {
    const left = c.limit_s - clockNow(c);
    const what = c.paused ? t("clock: {time} paused", { time: mmss(left) })
      : (c.since === null ? t("clock: {time} starts with the first action", { time: mmss(left) })
        : t("clock: {time} left", { time: mmss(left) }));
    $("clock").textContent = what;
    $("clock").className = `pill ${left < 120 ? "bad" : c.running ? "ok" : ""}`;
    $("clock").dataset.left = left;
  };
  show();
  if (c.running) state.tick = setInterval(show, 1000);
  control.textContent = c.paused ? t("Restart the clock") : t("Pause the clock");
  control.onclick = async () => {
    try {
      await post(roomApi("/clock"), { paused: !c.paused }, ownerToken);
    } catch (err) {
      say(err.message);
    }
  };
}

/** The seats the game waits for now (several at a simultaneous node; older servers: `to_act`). */
function awaited(v) {
  if (v.terminal) return [];
  return v.awaited || (v.to_act === null || v.to_act === undefined ? [] : [v.to_act]);
}

/** Whether this seat may act now (the server sends `version` to such a seat only). */
function myTurn(v) {
  return v.version !== undefined && v.version !== null && !v.terminal;
}

function renderActions() {
  const v = state.view;
  const box = $("actions");
  if (!v.legal || recordView() || (state.renderer.handlesActions && state.renderer.handlesActions(v))) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(...v.legal.map((text, i) => {
    const b = el("button", { textContent: text, className: "action" });
    b.dataset.action = i;
    b.onclick = () => act(v.version, i);
    return b;
  }));
}

async function act(version, index) {
  if (state.busy) return false;
  state.busy = true;
  for (const b of $("actions").querySelectorAll("button")) b.disabled = true;
  try {
    await post(roomApi("/act"), { version, action: index }, seatToken);
    say("");
    return true;
  } catch (err) {
    say(err.message);
    for (const b of $("actions").querySelectorAll("button")) b.disabled = false;
    return false;
  } finally {
    state.busy = false;
  }
}

/** What a game's page may do (./games/*.js): act by index in the view's legal actions,
 *  show a message, call the room's API with this seat's key. */
const context = {
  room,
  act: (index) => act(state.view.version, index),
  now: () => Date.now() / 1000 + state.skew, // the server's clock (a choice's time limit)
  say,
  post: (path, body) => post(roomApi(path), body, seatToken),
  get: (path) => fetch(roomApi(path),
    { headers: seatToken ? { Authorization: `Bearer ${seatToken}` } : {} }).then(async (r) => {
    const body = await r.json().catch(() => ({}));
    if (!r.ok) throw new ApiError(body.error || `${r.status} ${r.statusText}`, r.status);
    return body;
  }),
  getPublic: (path) => get(path),
  ownerPost: (path, body) => post(roomApi(path), body, ownerToken),
  ownerGet: (path) => fetch(roomApi(path),
    { headers: { Authorization: `Bearer ${ownerToken}` } }).then((r) => r.json()),
  busy: () => state.busy,
  live: () => state.view, // the live view (what render() shows unless a step of the game record is shown)
  // a message on the room's socket (false when it is not open)
  send: (msg) => {
    const ws = state.socket;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(msg));
    return true;
  },
};

function renderSeats() {
  const v = state.view;
  $("seats").replaceChildren(...v.seats.map((s, i) => {
    const who = s.bot ? t("bot: {bot}", { bot: s.bot }) : t("a person");
    // a bot is always at the table: only a person's page is connected or away
    const here = s.bot ? t("plays here") : state.present[i] ? t("connected") : t("away");
    const li = el("li", {}, el("strong", { textContent: s.name ? `${s.label}: ${s.name}` : s.label }),
      el("span", { textContent: ` ${who}` }),
      el("span", { className: `pill ${s.bot || state.present[i] ? "ok" : ""}`, textContent: here }));
    if (awaited(v).includes(i)) li.classList.add("to-act");
    if (i === v.seat) li.classList.add("me");
    if (state.owner && ownerToken && !v.terminal) {
      const b = el("button");
      if (s.bot) {
        b.textContent = t("Give back to its person");
        b.onclick = () => control(i, null);
      } else {
        b.textContent = t("Hand to a bot");
        b.onclick = () => control(i, v.bots[0]);
      }
      b.dataset.control = i;
      li.append(b);
    }
    return li;
  }));
}

async function control(seat, bot) {
  try {
    await post(roomApi(`/seats/${seat}`), { bot }, ownerToken);
    say(bot ? t("{seat} is now played by the {bot} bot.", { seat: label(seat), bot })
      : t("{seat} is back with its person.", { seat: label(seat) }), true);
  } catch (err) {
    say(err instanceof ApiError ? err.message : String(err));
  }
}

function renderLog() {
  const list = $("log");
  const shown = list.children.length;
  if (shown > state.log.length) list.replaceChildren();
  for (const entry of state.log.slice(list.children.length)) {
    const li = el("li");
    if (entry.action) li.append(el("div", { className: "mine", textContent: `${label(entry.seat)}: ${entry.action}` }));
    for (const line of entry.lines) li.append(el("div", { textContent: line }));
    list.append(li);
  }
  // the log's own box scrolls to its newest line; the page never jumps to it (a phone's
  // table, planes and question stay on screen, issue 34 item 4)
  if (list.children.length !== shown) list.scrollTop = list.scrollHeight;
}

// ---------------------------------------------------------------- chat, take-backs, rematch
// Chat lines come in their own messages, numbered in the chat's own sequence; their text
// is set as text (never parsed as HTML).
function chatArrived(msg) {
  if (msg.chat_from === state.chat.length) state.chat.push(...msg.chat);
  else if (msg.chat_from < state.chat.length) state.chat.splice(msg.chat_from, Infinity, ...msg.chat);
  const list = $("chat");
  if (list.children.length > state.chat.length) list.replaceChildren();
  for (const line of state.chat.slice(list.children.length)) {
    list.append(el("li", {}, el("span", { className: "who", textContent: `${line.label}:` }),
      el("span", { className: "text", textContent: line.text })));
  }
  list.scrollTop = list.scrollHeight;  // within its own box: the page never jumps (issue 34 item 4)
}

$("chat-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = $("chat-text");
  if (!input.value.trim()) return;
  try {
    await post(roomApi("/chat"), { text: input.value }, seatToken);
    input.value = "";
  } catch (err) {
    say(err.message);
  }
});

async function takeBack(what) {
  try {
    await post(roomApi("/take-back"), { what }, seatToken);
  } catch (err) {
    say(err.message);
  }
}

/** The take-back request now (every page), this seat's answer buttons, or its own request button. */
function renderTakeBack() {
  const v = state.view;
  const box = $("take-back");
  const asked = v.take_back;
  const parts = [];
  if (asked) {
    const waiting = asked.waiting.map(label).join(", ");
    parts.push(el("span", { textContent: t("{seat} asks to take back its last action (waiting for {seats}).",
      { seat: label(asked.asked_by), seats: waiting }) }));
    if (asked.waiting.includes(v.seat)) {
      parts.push(el("button", { textContent: t("Accept"), onclick: () => takeBack("accept") }),
        el("button", { textContent: t("Refuse"), onclick: () => takeBack("refuse") }));
      parts[1].dataset.takeBack = "accept";
      parts[2].dataset.takeBack = "refuse";
    }
  } else if (v.can_take_back) {
    const b = el("button", { textContent: t("Ask to take back my last action"), onclick: () => takeBack("ask") });
    b.dataset.takeBack = "ask";
    parts.push(b);
  }
  box.replaceChildren(...parts);
  box.hidden = parts.length === 0;
}

/** After the game: a button for a rematch (seats and the owner), then the new room's link for everyone. */
function renderRematch() {
  const v = state.view;
  const box = $("rematch");
  const parts = [];
  if (state.rematch) {
    const keys = new URLSearchParams();
    if (seatToken) keys.set("seat", seatToken);
    if (ownerToken) keys.set("owner", ownerToken);
    const href = `/rooms/${encodeURIComponent(state.rematch)}${keys.toString() ? `#${keys}` : ""}`;
    parts.push(el("a", { className: "button", href, textContent: t("Rematch: open the new room") }));
  } else if (v.terminal && (seatToken || ownerToken) && (v.seat !== null || state.owner)) {
    parts.push(el("button", {
      textContent: t("Rematch"),
      onclick: async () => {
        try {
          await post(roomApi("/rematch"), {}, seatToken || ownerToken);
        } catch (err) {
          say(err.message);
        }
      },
    }));
  }
  box.replaceChildren(...parts);
  box.hidden = parts.length === 0;
}

async function boot() {
  await loadLanguage();  // the log arrives in the page's language (the hello says which)
  $("language-slot")?.replaceChildren(languageSwitch());
  connect();
  bindRecord({ room, token: seatToken, seat: () => (state.view ? state.view.seat : null),
    refresh: () => { if (state.view && state.renderer) render(); } });
  startRules();
  document.body.dataset.ready = "yes";
}

// for tests and the curious: read-only views of the page's state
window.furball = {
  view: () => structuredClone(state.view),
  log: () => structuredClone(state.log),
  chat: () => structuredClone(state.chat),
  updates: () => state.updates,
};

boot();
