// A card game's page (Operation Canuck, 1942 USS Yorktown, 1975 White Christmas), drawn
// from this seat's view alone (docs/rooms.md):
//
// * the table: `view.public.board`, the drawing description that `furball play GAME
//   --plot` draws too (js/sketch.js), every piece placed; pan and pinch-zoom it;
// * the panels: `public.panels` and this seat's own `private.panels` (its hand, radar
//   tokens, expert tiles...), reference tables included; others' hidden things come as
//   counts or card backs;
// * the legal actions on the pieces they concern: `choices.actions[i].targets` lists the
//   ids to click, in order, to choose legal action i (an island, then nothing more: fly
//   there; a Group token, then an area: move it); pieces a click may choose are
//   highlighted; an action with no piece is a button in the engine's words; a click on a
//   piece no action concerns asks the server why not and shows the engine's one line.

import { drawSketch } from "../../sketch.js";
import { PanZoom } from "../../panzoom.js";
import { el } from "../../dom.js";
import { number, t } from "../../i18n.js";
import { pxPerUnit, readableFont } from "../../look.js";

const MIN_LABEL_PX = 12.5; // issue 34 item 4: board labels readable (12 CSS px) at 390 px wide

const s = { ctx: null, view: null, els: null, pz: null, path: [], key: null };


const mine = () => s.view && s.view.version !== undefined && s.view.version !== null && !s.view.terminal;
const actions = () => (mine() && s.view.choices ? s.view.choices.actions : []);
const texts = () => s.view.legal || [];

/** The legal actions whose targets begin with the clicks so far, with their indices. */
function candidates(path = s.path) {
  return actions().map((a, i) => ({ ...a, index: i }))
    .filter((a) => path.every((id, k) => a.targets[k] === id));
}

/** The ids a click may choose next. */
function nextTargets() {
  const out = new Set();
  for (const a of candidates()) if (a.targets.length > s.path.length) out.add(a.targets[s.path.length]);
  return out;
}

function build(container) {
  const els = {};
  els.svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  els.svg.classList.add("bd-table");
  els.svg.dataset.testid = "board";
  els.svg.setAttribute("role", "img");
  els.svg.addEventListener("click", (e) => {
    // a piece may lie on another (a token on its island): the click goes to the topmost
    // shape under the pointer that a legal action concerns, else to the topmost piece
    const next = nextTargets();
    const under = document.elementsFromPoint(e.clientX, e.clientY).map((n) => n.closest && n.closest("[data-id]"))
      .filter(Boolean);
    const offered = under.filter((n) => next.has(n.dataset.id));
    const centre = (n) => {
      const r = n.getBoundingClientRect();
      return Math.hypot(r.left + r.width / 2 - e.clientX, r.top + r.height / 2 - e.clientY);
    };
    offered.sort((a, b) => centre(a) - centre(b)); // the piece nearest the finger
    const hit = offered[0] || under.find((n) => !n.classList.contains("hit")) || e.target.closest("[data-id]");
    if (hit) clicked(hit.dataset.id);
  });
  const zoom = el("div", { className: "df-zoom" },
    el("button", { textContent: "+", title: t("zoom in"), onclick: () => zoomBy(1.4) }),
    el("button", { textContent: "−", title: t("zoom out"), onclick: () => zoomBy(1 / 1.4) }),
    el("button", { textContent: t("Fit"), title: t("the whole table (or double-tap it)"), onclick: () => s.pz.reset() }));
  els.board = el("div", { className: "df-board bd-board" }, els.svg, zoom);
  els.choose = el("section", { className: "panel bd-choose" });
  els.choose.dataset.testid = "choose";
  els.panels = el("div", { className: "bd-panels" });
  els.allList = el("div", { className: "actions" });
  els.all = el("details", { className: "panel bd-all" }, el("summary", { textContent: t("Every legal action") }),
    el("p", { className: "muted", textContent: t("The same choices as on the table, in the engine's words.") }),
    els.allList);
  els.legend = el("details", { className: "panel bd-legend" }, el("summary", { textContent: t("Legend") }));
  els.caption = el("p", { className: "muted bd-caption" });
  els.root = el("div", { className: "bd" }, els.board, els.caption, els.choose, els.panels, els.all, els.legend);
  els.root.dataset.testid = "card-game";
  container.replaceChildren(els.root);
  s.els = els;
  s.pz = new PanZoom(els.svg);
}

function zoomBy(factor) {
  const [x, y, w, h] = s.pz.current();
  s.pz.zoomAbout([x + w / 2, y + h / 2], factor);
}

// ---------------------------------------------------------------- choosing by clicking pieces
async function clicked(id) {
  if (!mine()) return;
  const next = nextTargets();
  if (!next.has(id)) {
    await explain([...s.path, id]);
    return;
  }
  s.path = [...s.path, id];
  const cands = candidates();
  const done = cands.filter((a) => a.targets.length === s.path.length);
  const more = cands.filter((a) => a.targets.length > s.path.length);
  if (done.length === 1 && more.length === 0) {
    const index = done[0].index;
    s.path = [];
    await choose(index);
    return;
  }
  render();
}

async function choose(index) {
  s.els.root.dataset.acting = "yes";
  const ok = await s.ctx.act(index);
  s.els.root.dataset.acting = "";
  if (!ok) render();
}

async function explain(targets) {
  try {
    const answer = await s.ctx.post("/why", { targets });
    s.ctx.say(answer.reason);
    s.els.root.dataset.why = answer.reason;
  } catch (err) {
    s.ctx.say(err.message);
  }
}

/** A piece's name as the page shows it, in the reader's language: its panel item's text
 *  or its drawing's tip, else the name in its id. */
function label(id) {
  const node = s.els && s.els.root.querySelector(`[data-id="${CSS.escape(id)}"]:not(.hit)`);
  const shown = node && (node instanceof SVGElement ? node.querySelector("title")?.textContent : node.textContent);
  if (shown) return shown;
  const [, rest] = id.split(/:(.*)/s);
  return rest || id;
}

function renderChoose() {
  const box = s.els.choose;
  box.hidden = !mine();
  if (!mine()) return;
  const cands = candidates();
  const done = cands.filter((a) => a.targets.length === s.path.length);
  const targets = nextTargets();
  const chosen = s.path.map(label).join(" → ");
  let head;
  if (s.path.length) {
    head = targets.size ? t("{chosen}: now click where (highlighted)", { chosen }) : t("{chosen}: choose", { chosen });
  } else {
    head = targets.size ? t("Click a highlighted piece, or choose below.") : t("Choose:");
  }
  const buttons = done.map((a) => {
    const b = el("button", { className: "action", textContent: texts()[a.index] || t("action {n}", { n: a.index + 1 }) });
    b.dataset.action = a.index;
    b.onclick = () => { s.path = []; choose(a.index); };
    return b;
  });
  const back = s.path.length ? el("button", { textContent: t("Back"), onclick: () => { s.path = []; render(); } }) : null;
  if (back) back.dataset.testid = "back";
  // the same pieces as buttons (a small screen, a keyboard, a screen reader)
  const pieces = [...targets].map((id) => {
    const b = el("button", { className: "piece", textContent: label(id) });
    b.dataset.piece = id;
    b.onclick = () => clicked(id);
    return b;
  });
  const list = pieces.length ? el("details", { className: "bd-pieces" },
    el("summary", { textContent: pieces.length === 1 ? t("the 1 piece as a list")
      : t("the {n} pieces as a list", { n: pieces.length }) }),
    el("div", { className: "actions" }, ...pieces)) : null;
  box.replaceChildren(...[el("p", { className: "bd-hint", textContent: head }),
    el("div", { className: "actions" }, ...buttons, back), list].filter(Boolean));
}

function renderAll() {
  const list = texts();
  s.els.all.hidden = !mine() || !list.length;
  s.els.allList.replaceChildren(...list.map((text, i) => {
    const b = el("button", { className: "action", textContent: text });
    b.dataset.any = i;
    b.onclick = () => { s.path = []; choose(i); };
    return b;
  }));
}

// ---------------------------------------------------------------- the table and the panels
function drawBoard() {
  const sketch = s.view.view.public.board;
  if (!sketch) return;
  s.els.caption.textContent = sketch.title;
  const next = nextTargets();
  const chosen = new Set(s.path);
  // labels at least 12 CSS px on the screen as the board is shown (a phone included)
  const [xmin, xmax, ymin, ymax] = sketch.extent;
  const r = s.els.svg.getBoundingClientRect();
  const scale = r.width && r.height ? pxPerUnit(s.pz.view || [xmin, ymin, xmax - xmin, ymax - ymin], r.width, r.height) : 0;
  const box = drawSketch(s.els.svg, sketch, (shape) => {
    if (!shape.id) return {};
    if (next.has(shape.id)) return { class: "target", attrs: { tabindex: 0, role: "button" } };
    if (chosen.has(shape.id)) return { class: "chosen" };
    return {};
  }, readableFont(0, scale, MIN_LABEL_PX));
  s.pz.fit(box);
  addHitAreas(next);
  s.els.legend.replaceChildren(el("summary", { textContent: t("Legend") }), el("ul", { className: "bd-legend-list" },
    ...sketch.legend.map((e) => {
      const dot = el("span", { className: `bd-dot${e.marker ? ` m-${e.marker === "^" ? "tri" : e.marker}` : ""}` });
      dot.style.background = e.fill || e.stroke || "#888";
      return el("li", {}, dot, e.label);
    })));
}

/** Around every piece a click may choose that is drawn smaller than a finger, an
 *  invisible disc a finger can hit: at least 44 px across on the screen. */
function addHitAreas(next) {
  if (!next.size) return;
  const ctm = s.els.svg.getScreenCTM();
  const world = s.els.svg.querySelector(".sk-world");
  if (!ctm || !world) return;
  const scale = Math.hypot(ctm.a, ctm.b) || 1; // screen px per drawing unit
  const layer = document.createElementNS("http://www.w3.org/2000/svg", "g");
  layer.setAttribute("class", "hits");
  const inverse = world.getScreenCTM().inverse();
  for (const shape of s.els.svg.querySelectorAll(".target[data-id]")) {
    const r = shape.getBoundingClientRect();
    if (Math.min(r.width, r.height) >= 44) continue; // big enough for a finger already (a row slot)
    const p = new DOMPoint(r.left + r.width / 2, r.top + r.height / 2).matrixTransform(inverse);
    const radius = Math.max(22.5, Math.min(r.width, r.height) / 2) / scale; // the shape itself takes clicks too
    const disc = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    for (const [k, v] of Object.entries({ cx: p.x, cy: p.y, r: radius, class: "hit target", fill: "transparent" })) {
      disc.setAttribute(k, v);
    }
    disc.dataset.id = shape.dataset.id;
    layer.append(disc);
  }
  world.prepend(layer);
}

function renderPanels() {
  const v = s.view.view;
  const panels = [...((v.private && v.private.panels) || []), ...((v.public && v.public.panels) || [])];
  const next = nextTargets();
  const open = new Map([...s.els.panels.querySelectorAll("details[data-panel]")].map((d) => [d.dataset.panel, d.open]));
  s.els.panels.replaceChildren(...panels.map((p) => {
    const d = el("details", { className: `panel bd-panel${p.private ? " mine" : ""}` });
    d.open = open.has(p.id) ? open.get(p.id) : p.open;
    d.dataset.panel = p.id;
    d.append(el("summary", { textContent: p.title }));
    for (const line of p.lines) d.append(el("p", { className: "bd-line", textContent: line }));
    if (p.items.length) {
      d.append(el("div", { className: "bd-items" }, ...p.items.map((it) => {
        const target = it.id && next.has(it.id);
        const node = el(target ? "button" : "span", { className: `bd-item${it.kind ? ` ${it.kind}` : ""}` +
          `${it.back ? " back" : ""}${it.red ? " red" : ""}${it.chosen ? " chosen" : ""}${target ? " target" : ""}`,
          textContent: it.text, title: it.tip || "" });
        if (it.id) node.dataset.id = it.id;
        if (it.colour) node.style.borderColor = it.colour;
        if (target) node.onclick = () => clicked(it.id);
        else if (it.id && mine()) node.onclick = () => clicked(it.id);
        return node;
      })));
    }
    if (p.table) {
      const t = el("table", { className: "bd-ref" });
      t.append(el("thead", {}, el("tr", {}, ...p.table.head.map((h) => el("th", { textContent: h })))));
      t.append(el("tbody", {}, ...p.table.rows.map((r) => el("tr", {}, ...r.map((c) => el("td", { textContent: typeof c === "number" ? number(c, 2) : String(c) }))))));
      d.append(el("div", { className: "bd-ref-box" }, t));
    }
    return d;
  }));
}

function render() {
  if (!s.view) return;
  renderChoose();
  drawBoard();
  renderPanels();
  renderAll();
  s.els.root.dataset.path = s.path.join("|");
}

export default {
  handlesActions: (view) => !!view.choices,
  // the game over in the room's head, where the game's view says it in its own words (Canuck: turns)
  gameOver: (v) => v.view && v.view.public && v.view.public.ending,

  render(container, view, ctx) {
    s.ctx = ctx;
    s.view = view;
    if (!s.els || !container.contains(s.els.root)) build(container);
    const key = `${view.version}`;
    if (key !== s.key) {
      s.key = key;
      s.path = [];
    }
    render();
  },
};
