// The card page (docs/capture.md): the user marks the arrow's start line and points along
// it on the photo (and, optionally, the end line), or asks the server to find the arrow;
// the server fits the motion (/capture/api/card) and returns the deck.
import { lang, languageSwitch, loadLanguage, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
let image = null;       // { data: base64, url, width, height }
let points = [];
let endLine = [];       // the end line's two ends, once marked (gives the tip's heading)
let markingEnd = false; // the next two clicks mark the end line
let deckText = "";
let deckUpload = null;  // an uploaded deck file's text (null: the shipped deck named)

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

function draw(pathPx = null) {
  const view = $("view");
  view.replaceChildren();
  if (!image) return;
  view.setAttribute("viewBox", `0 0 ${image.width} ${image.height}`);
  view.setAttribute("width", "100%");
  el("image", { href: image.url, x: 0, y: 0, width: image.width, height: image.height }, view);
  const r = Math.max(2, image.width / 300);
  points.forEach(([x, y], i) => el("circle", { cx: x, cy: y, r, fill: i < 2 ? "#d1495b" : "#00798c",
                                               class: "marked-point" }, view));
  if (points.length >= 2) {
    el("line", { x1: points[0][0], y1: points[0][1], x2: points[1][0], y2: points[1][1], stroke: "#d1495b",
                 "stroke-width": r / 2 }, view);
  }
  endLine.forEach(([x, y]) => el("circle", { cx: x, cy: y, r, fill: "#edae49", class: "end-point" }, view));
  if (endLine.length === 2) {
    el("line", { x1: endLine[0][0], y1: endLine[0][1], x2: endLine[1][0], y2: endLine[1][1], stroke: "#edae49",
                 "stroke-width": r / 2, class: "end-line" }, view);
  }
  if (pathPx) {
    el("polyline", { points: pathPx.map((p) => p.join(",")).join(" "), fill: "none", stroke: "#1f9e3a",
                     "stroke-width": r / 1.5, class: "fitted-path" }, view);
  }
}

$("view").addEventListener("click", (event) => {
  if (!image) return;
  const view = $("view");
  const pt = view.createSVGPoint();
  pt.x = event.clientX; pt.y = event.clientY;
  const p = pt.matrixTransform(view.getScreenCTM().inverse());
  const at = [Math.round(p.x * 100) / 100, Math.round(p.y * 100) / 100];
  if (markingEnd) {
    endLine.push(at);
    markingEnd = endLine.length < 2;
    $("status").textContent = markingEnd ? t("Now the end line's other end.") : t("End line marked.");
  } else {
    points.push(at);
    $("status").textContent = (points.length === 1 ? t("1 point marked") : t("{n} points marked", { n: points.length }))
      + (points.length < 4 ? t(" (at least 4)") : "");
  }
  draw();
});

$("undo").addEventListener("click", () => { if (endLine.length) endLine.pop(); else points.pop(); draw(); });
$("end").addEventListener("click", () => {
  endLine = [];
  markingEnd = true;
  $("status").textContent = t("Click the end line's two ends.");
  draw();
});

$("photo").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const url = URL.createObjectURL(file);
  const probe = new Image();
  probe.onload = () => {
    image = { data: btoa(binary), url, width: probe.naturalWidth, height: probe.naturalHeight };
    points = [];
    endLine = [];
    $("status").textContent = t("Mark the start line's two ends, then the arrow (or find it).");
    draw();
  };
  probe.src = url;
});

async function fit(find) {
  if (!image) { $("status").textContent = t("Choose the card's photo first."); return; }
  if (!find && points.length < 4) { $("status").textContent = t("Mark at least 4 points first."); return; }
  $("status").textContent = find ? t("Looking for the arrow…") : t("Fitting…");
  const query = new URLSearchParams({ deck: $("deck").value.trim(), card: $("card").value.trim() });
  const answer = await fetch(`/capture/api/card?${query}`, {
    method: "POST", headers: { "content-type": "application/json", "Accept-Language": lang() },
    body: JSON.stringify({ image: image.data, points: find ? [] : points,
                           end_line: endLine.length === 2 ? endLine : null, dpi: null, deck_toml: deckUpload }) });
  const data = await answer.json();
  if (!answer.ok) { $("status").textContent = data.error || t("refused ({status})", { status: answer.status }); return; }
  if (data.found) { points = data.points_px; endLine = data.end_line_px || []; }
  $("status").textContent = (data.found ? t("Arrow found automatically: ") : "") + data.describe;
  deckText = data.deck_toml;
  $("download").disabled = false;
  draw(data.path_px);
}

$("deck-file").addEventListener("change", async (event) => {  // a deck of your own: measured, then downloaded
  const file = event.target.files[0];
  if (!file) { deckUpload = null; return; }
  deckUpload = await file.text();
  $("deck").value = file.name.replace(/\.toml$/i, "").slice(0, 20);
  $("status").textContent = t("Deck {file}: its card is measured into it.", { file: file.name });
});
$("fit").addEventListener("click", () => fit(false));
$("find").addEventListener("click", () => fit(true));

$("download").addEventListener("click", () => {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([deckText], { type: "application/toml" }));
  a.download = `${$("deck").value.trim() || "deck"}.toml`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
});

await loadLanguage();  // the page's own words in the reader's language (docs/i18n.md)
$("language-slot").replaceChildren(languageSwitch());
document.body.dataset.ready = "yes";
