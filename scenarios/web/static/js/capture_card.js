// The card page (docs/capture.md): the user marks the arrow's start line and points along
// it on the photo; the server fits the motion (/capture/api/card) and returns the deck.
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
let image = null;       // { data: base64, url, width, height }
let points = [];
let deckText = "";

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
  points.push([Math.round(p.x * 100) / 100, Math.round(p.y * 100) / 100]);
  $("status").textContent = `${points.length} points marked` + (points.length < 4 ? " (at least 4)" : "");
  draw();
});

$("undo").addEventListener("click", () => { points.pop(); draw(); });

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
    $("status").textContent = "Mark the start line's two ends, then the arrow.";
    draw();
  };
  probe.src = url;
});

$("fit").addEventListener("click", async () => {
  if (!image || points.length < 4) { $("status").textContent = "Mark at least 4 points first."; return; }
  $("status").textContent = "Fitting…";
  const query = new URLSearchParams({ deck: $("deck").value.trim(), card: $("card").value.trim() });
  const answer = await fetch(`/capture/api/card?${query}`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ image: image.data, points, end_line: null, dpi: null }) });
  const data = await answer.json();
  if (!answer.ok) { $("status").textContent = data.error || `refused (${answer.status})`; return; }
  $("status").textContent = data.describe;
  deckText = data.deck_toml;
  $("download").disabled = false;
  draw(data.path_px);
});

$("download").addEventListener("click", () => {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([deckText], { type: "application/toml" }));
  a.download = `${$("deck").value.trim() || "deck"}.toml`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
});
