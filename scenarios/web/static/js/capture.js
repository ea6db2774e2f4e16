// The Capture page (docs/capture.md): a table photo in, the bases found over it, a
// scenario out. The server does the reading (/capture/api/table); the page shows it,
// lets the user name the planes, set sides and fix poses, and writes the scenario file,
// opens it on the practice table, or as a new dogfight room's scenario (POST /api/rooms).
import { post } from "./api.js";
import { remember, roomLink } from "./rooms/saved.js";
import { fixed, lang, languageSwitch, loadLanguage, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const BASES = { small: [44, 60], large: [70, 110] };
let found = null;

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

let dragging = null;  // { index, dx, dy }: a base being dragged, and where it was grabbed

function svgPoint(event) {
  const view = $("view");
  const pt = view.createSVGPoint();
  pt.x = event.clientX; pt.y = event.clientY;
  return pt.matrixTransform(view.getScreenCTM().inverse());
}

function draw() {
  const view = $("view");
  view.replaceChildren();
  const w = found.table.width_mm, h = found.table.height_mm;
  view.setAttribute("viewBox", `0 0 ${w} ${h}`);
  view.setAttribute("width", "100%");
  el("image", { href: found.image, x: 0, y: 0, width: w, height: h, preserveAspectRatio: "none" }, view);
  found.bases.forEach((b, index) => {
    const [length, width] = BASES[b.base] || [44, 60];
    const g = el("g", { transform: `translate(${b.pose.x_mm} ${h - b.pose.y_mm}) rotate(${-b.pose.heading_deg})`,
                        class: "captured-base", "data-index": index, cursor: "move" }, view);
    g.addEventListener("pointerdown", (event) => {  // drag a base to fix a misread position
      const p = svgPoint(event);
      dragging = { index, dx: b.pose.x_mm - p.x, dy: b.pose.y_mm - (h - p.y) };
      event.preventDefault();
    });
    el("rect", { x: -length / 2, y: -width / 2, width: length, height: width, fill: "#ffffff", "fill-opacity": 0.01,
                 stroke: b.tags_seen > 1 ? "#1f9e3a" : "#e08a00", "stroke-width": 2 }, g);
    el("line", { x1: 0, y1: 0, x2: 0.6 * length, y2: 0, stroke: "#1f9e3a", "stroke-width": 2 }, g);
    const label = el("text", { x: b.pose.x_mm, y: h - b.pose.y_mm + width, "font-size": 18, fill: "#1f9e3a",
                               "text-anchor": "middle" }, view);
    label.textContent = b.name;
  });
  $("missing").textContent = found.not_found.length ? t("Not found: {stickers}", { stickers: found.not_found.join(", ") }) : "";
}

function row(b, i) {
  const tr = document.createElement("tr");
  const cell = (content) => { const td = document.createElement("td"); td.append(content); tr.append(td); return td; };
  const input = (value, key, type = "text") => {
    const box = document.createElement("input");
    box.type = type; box.value = value; box.dataset.base = i; box.dataset.key = key;
    if (type === "number") box.step = "0.01";
    box.addEventListener("change", () => {
      const base = found.bases[i];
      if (key === "name" || key === "side") base[key] = box.value.trim() || base[key];
      else base.pose[key] = Number(box.value);
      draw();
    });
    return box;
  };
  cell(String(b.sticker));
  cell(input(b.name, "name"));
  cell(input(b.side, "side"));
  cell(input(b.pose.x_mm.toFixed(2), "x_mm", "number"));
  cell(input(b.pose.y_mm.toFixed(2), "y_mm", "number"));
  cell(input(b.pose.heading_deg.toFixed(2), "heading_deg", "number"));
  const u = b.uncertainty_95;
  cell(`±${fixed(u.x_mm, 2)} mm, ±${fixed(u.y_mm, 2)} mm, ±${fixed(u.heading_deg, 2)}°`);
  return tr;
}

const q = (s) => JSON.stringify(String(s));

function scenarioToml() {
  const sd = (b) => ({ xy: Math.max(b.uncertainty_95.x_mm, b.uncertainty_95.y_mm) / 1.959964,
                       h: b.uncertainty_95.heading_deg / 1.959964 });
  const lines = ["# furball scenario measured from a photo (furball serve, Capture page; docs/capture.md)",
    "# add a plan = [three card ids] to every plane, then run it", "[scenario]", `name = "captured table"`, "turn = 1",
    "", "[table]", `width_mm = ${found.table.width_mm}`, `height_mm = ${found.table.height_mm}`, "",
    "[capture]", `provenance = "measured"`, `photo = ${q(found.photo_name || "photo")}`,
    `taken = ${q(new Date().toISOString().slice(0, 19) + "+00:00")}`];
  for (const b of found.bases) {
    const e = sd(b);
    lines.push("", "[[plane]]", `name = ${q(b.name)}`, `side = ${q(b.side)}`, `deck = ${q(b.base === "large" ? "M" : "A")}`,
      `base = ${q(b.base)}`, "altitude = 1",
      `pose = { x_mm = ${b.pose.x_mm}, y_mm = ${b.pose.y_mm}, heading_deg = ${b.pose.heading_deg} }`,
      `placement_error = { xy_mm = ${Math.max(e.xy, 1e-6)}, heading_deg = ${Math.max(e.h, 1e-6)} }`);
  }
  return lines.join("\n") + "\n";
}

async function send(file) {
  $("status").textContent = t("Reading the photo…");
  $("result").hidden = true;
  const table = $("table").value.trim() || "900x900";
  const answer = await fetch(`/capture/api/table?${new URLSearchParams({ table })}`, {
    method: "POST", body: await file.arrayBuffer(), headers: { "content-type": "application/octet-stream", "Accept-Language": lang() } });
  const data = await answer.json();
  if (!answer.ok) { $("status").textContent = data.error || t("refused ({status})", { status: answer.status }); return; }
  found = data;
  found.photo_name = file.name;
  for (const b of found.bases) b.side = b.name;
  $("status").textContent = found.bases.length === 1 ? t("1 base found.") : t("{n} bases found.", { n: found.bases.length });
  $("bases").tBodies[0].replaceChildren(...found.bases.map(row));
  $("result").hidden = false;
  draw();
}

$("view").addEventListener("pointermove", (event) => {
  if (!dragging) return;
  const p = svgPoint(event);
  const b = found.bases[dragging.index];
  b.pose.x_mm = Math.round((p.x + dragging.dx) * 100) / 100;
  b.pose.y_mm = Math.round((found.table.height_mm - p.y + dragging.dy) * 100) / 100;
  draw();
});
window.addEventListener("pointerup", () => {
  if (!dragging) return;
  dragging = null;
  $("bases").tBodies[0].replaceChildren(...found.bases.map(row));
});

$("photo").addEventListener("change", (event) => { const f = event.target.files[0]; if (f) send(f); });
$("download").addEventListener("click", () => {
  const blob = new Blob([scenarioToml()], { type: "application/toml" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "captured.toml";
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
});

$("practice").addEventListener("click", () => {  // the practice table opens it when it starts
  sessionStorage.setItem("furball-open", scenarioToml());
  window.location.href = "/";
});

$("room").addEventListener("click", async () => {  // a new dogfight room plays the measured table
  const photo = String(found.photo_name || "photo").replace(/[^\x20-\x7e]/g, "").slice(0, 40);
  $("room").disabled = true;
  try {
    const made = await post("/api/rooms", { game: "dogfight", options: { scenario: scenarioToml() },
      title: t("Captured table: {photo}", { photo }) });
    remember({ room: made.room, title: made.title, game: made.game, owner: made.owner,
      seats: made.seats.map((s) => ({ label: s.label, bot: s.bot, token: s.token })) });
    window.location.href = roomLink(made.room, { owner: made.owner });
  } catch (err) {
    $("status").textContent = err.message;
  } finally {
    $("room").disabled = false;
  }
});

await loadLanguage();  // the page's own words in the reader's language (docs/i18n.md)
$("language-slot").replaceChildren(languageSwitch());
document.body.dataset.ready = "yes";
