// The room page's game record (docs/rooms.md, "The whole game"): the whole game so far
// as this link's viewer may have it (GET /api/rooms/{room}/record: a seat's own steps, the
// spectators', or every seat's once the game is over), stepped through on the game's own
// page (each step's view drawn as it was, with its log lines; a dogfight's turns each
// with its replay), and downloaded as one file (docs/formats.md) that `furball replay`
// and the practice page open again.

import { ApiError } from "../api.js";
import { el } from "../dom.js";
import { t } from "../i18n.js";
import { readRecord } from "../record.js";

const $ = (id) => document.getElementById(id);
const r = { record: null, viewer: 0, index: 0, open: false, ctx: null };

/** The view of the step shown (null: the live game is shown). */
export function recordView() {
  if (!r.open || !r.record) return null;
  return r.record.viewers[r.viewer].steps[r.index].view;
}

async function fetchRecord() {
  const { room, token } = r.ctx;
  const response = await fetch(`/api/rooms/${encodeURIComponent(room)}/record`,
    { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new ApiError(body.error || `${response.status} ${response.statusText}`, response.status);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") || "");
  return { text: await response.text(), name: name ? name[1] : "furball-record.json" };
}

async function open() {
  try {
    $("record-status").textContent = t("making the record…");
    const { text } = await fetchRecord();
    r.record = readRecord(text);
    const seat = r.ctx.seat();
    r.viewer = Math.max(0, r.record.viewers.findIndex((v) => v.seat === seat));
    r.index = r.record.viewers[r.viewer].steps.length - 1;
    r.open = true;
    show();
  } catch (err) {
    $("record-status").textContent = err.message;
  }
}

async function download() {
  try {
    const { text, name } = await fetchRecord();
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const a = el("a", { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    $("record-status").textContent = t("downloaded {file}", { file: name });
  } catch (err) {
    $("record-status").textContent = err.message;
  }
}

function close() {
  r.open = false;
  show();
}

function go(index) {
  const steps = r.record.viewers[r.viewer].steps;
  r.index = Math.max(0, Math.min(steps.length - 1, index));
  show();
}

function show() {
  const box = $("record-steps");
  box.hidden = !r.open;
  document.body.dataset.record = r.open ? "open" : "closed";
  $("record-open").hidden = r.open;
  if (r.open) {
    const v = r.record.viewers[r.viewer];
    const step = v.steps[r.index];
    const whose = r.record.whole ? t("the whole game") : t("as {seat} saw it", { seat: v.label });
    const last = v.steps.length - 1;
    $("record-status").textContent = r.index === 0 ? t("{whose}: step {n} of {last} (the set-up)", { whose, n: 0, last })
      : t("{whose}: step {n} of {last}", { whose, n: r.index, last });
    $("record-slider").max = v.steps.length - 1;
    $("record-slider").value = r.index;
    document.body.dataset.recordStep = r.index;
    $("record-back").disabled = r.index === 0;
    $("record-next").disabled = r.index === v.steps.length - 1;
    $("record-viewer").hidden = r.record.viewers.length < 2;
    $("record-viewer").replaceChildren(...r.record.viewers.map((x, i) =>
      el("option", { value: i, textContent: t("as {seat} saw it", { seat: x.label }), selected: i === r.viewer })));
    $("record-lines").replaceChildren(...step.log.flatMap((entry) => [
      ...(entry.action ? [el("li", { className: "mine", textContent: `${r.record.labels[entry.seat]}: ${entry.action}` })] : []),
      ...entry.lines.filter((t) => t.trim()).map((t) => el("li", { textContent: t }))]));
  } else {
    $("record-status").textContent = "";
  }
  r.ctx.refresh();
}

/** Build the record's controls in #record-box: `ctx` gives the room, this link's seat
 *  `token`, `seat()` (this viewer's seat now) and `refresh()` (the page drawn again). */
export function bindRecord(ctx) {
  r.ctx = ctx;
  const button = (id, text, title, onclick) => {
    const b = el("button", { id, textContent: text, title, onclick });
    b.dataset.testid = id;
    return b;
  };
  const slider = el("input", { id: "record-slider", type: "range", min: 0, value: 0,
    oninput: () => go(Number(slider.value)) });
  const viewer = el("select", { id: "record-viewer", title: t("whose record"), onchange: () => {
    r.viewer = Number(viewer.value);
    go(r.record.viewers[r.viewer].steps.length - 1);
  } });
  const status = el("p", { id: "record-status", className: "muted" });
  status.dataset.testid = "record-status";
  const lines = el("ol", { id: "record-lines", className: "log" });
  lines.dataset.testid = "record-lines";
  $("record-box").append(
    el("div", { className: "row" },
      button("record-open", t("Step through the game"), t("every step of the game so far, as you saw it"), open),
      button("record-download", t("Download record"), t("the whole game as one file (furball replay FILE)"), download)),
    status,
    el("div", { id: "record-steps", hidden: true },
      el("div", { className: "row" },
        button("record-back", "◀", t("the step before"), () => go(r.index - 1)), slider,
        button("record-next", "▶", t("the next step"), () => go(r.index + 1)),
        button("record-close", t("Back to the game"), t("the game as it is now"), close)),
      viewer, lines));
}
