// Drawing the table as SVG at true proportions: one user unit is one table millimetre.
//
// drawScene(svg, scene) rebuilds the picture from a plain description (what main.js
// computes from the document, the engine's analysis and the replay); nothing here
// decides a rule. Table y points up: the world group flips it, and labels are drawn
// in an unflipped group so text reads the right way. Elements carry data-* attributes
// (data-plane, data-ruler, data-shot, data-plan-error...) that the tests read.

import { apply, corners, sector, stand } from "./geometry.js";
import { svgNode } from "./dom.js";
import { damageState, trailPuffs } from "./look.js";
import { fixed, t } from "./i18n.js";

const MAX_RINGS = 6;

const pts = (points) => points.map((p) => `${p[0].toFixed(2)},${p[1].toFixed(2)}`).join(" ");

function ringsPath(rings) {
  // [[exterior, hole, ...], ...] -> an SVG path with even-odd holes
  return rings.map((poly) => poly.map((ring) => "M" + ring.map((p) => `${p[0]},${p[1]}`).join("L") + "Z").join(""))
    .join("");
}

function title(node, text) {
  if (text) svgNode(node, "title", {}, text);
}

/** Table point -> the world group's drawing coordinates are the same; labels need y flipped. */
function labelAt(scene, layer, p, text, attrs = {}) {
  return svgNode(layer, "text", { x: p[0], y: scene.height - p[1], "font-size": scene.font, ...attrs }, text);
}

/** A label's size: the scene's `font` times `k`, never under `minFont` (readable on a phone). */
function sized(scene, k = 1) {
  return Math.max(scene.font * k, scene.minFont || 0);
}

function drawPlane(scene, world, labels, plane) {
  const look = damageState(plane);
  const wrecked = plane.lost || look.destroyed;
  const g = svgNode(world, "g", {
    class: `plane${plane.selected ? " selected" : ""}${plane.out ? " out" : ""}${plane.lost ? " lost" : ""}` +
      look.names.map((n) => ` ${n}`).join(""),
    "data-plane": plane.name, "data-x": plane.pose[0].toFixed(3), "data-y": plane.pose[1].toFixed(3),
    "data-heading": plane.pose[2].toFixed(3), "data-altitude": plane.altitude,
    "data-damage": look.names.join(" ") || undefined,
  });
  const c = corners(plane.pose, plane.base);
  const s = stand(plane.pose, plane.base);
  const front = apply(plane.pose, [plane.base.front_mark_mm, 0]);
  // firing arcs: a short wedge outline at the stand (the full bands are the zones view)
  const reach = Math.min(plane.base.length_mm, plane.base.width_mm) * 0.9;
  for (const [centre, half] of plane.base.firing_arcs) {
    const h = plane.pose[2] + centre;
    svgNode(g, "polygon", { class: "arc", points: pts(sector(s, h - half, h + half, reach, 12)), stroke: plane.colour });
  }
  const body = svgNode(g, "polygon", {
    class: "base", points: pts(c), fill: plane.colour, stroke: plane.overlap ? scene.colours.overlap : plane.colour,
    "data-role": "base",
  });
  if (plane.silhouette) {
    // furball's own top-down drawing (img/planes.svg, 100 units of wingspan) on the base
    const k = plane.base.width_mm / 100;
    svgNode(g, "use", { class: "silhouette", href: `#sil-${plane.silhouette}`, fill: wrecked ? "#4d4d4d" : plane.colour,
      transform: `translate(${plane.pose[0].toFixed(2)} ${plane.pose[1].toFixed(2)}) ` +
        `rotate(${plane.pose[2].toFixed(2)}) scale(${k.toFixed(4)})`, "data-silhouette": plane.silhouette });
  }
  // the damage everyone sees (DF.D6): a smoke trail, flames; destroyed: a cross (DF.D5)
  if (!wrecked) {
    for (const kind of ["smoke", "fire"].filter((k) => look[k])) {
      const trail = svgNode(g, "g", { class: `trail ${kind}`, "data-trail": kind });
      for (const [x, y, r] of trailPuffs(plane.pose, plane.base, kind)) {
        svgNode(trail, "circle", { cx: x.toFixed(2), cy: y.toFixed(2), r: r.toFixed(2) });
        if (kind === "fire") svgNode(trail, "circle", { class: "core", cx: x.toFixed(2), cy: y.toFixed(2), r: (r * 0.45).toFixed(2) });
      }
    }
  }
  if (wrecked) {
    svgNode(g, "line", { class: "lost-mark", x1: c[0][0], y1: c[0][1], x2: c[2][0], y2: c[2][1] });
    svgNode(g, "line", { class: "lost-mark", x1: c[1][0], y1: c[1][1], x2: c[3][0], y2: c[3][1] });
  }
  title(body, t("{plane} ({side}), altitude {altitude}", { plane: plane.name, side: plane.side, altitude: plane.altitude }) +
    (look.names.length ? ` (${look.names.map((name) => t(name)).join(", ")})` : "") + " " +
    t("at {x}, {y} mm, heading {heading}°", { x: fixed(plane.pose[0], 1), y: fixed(plane.pose[1], 1),
      heading: fixed(plane.pose[2], 1) }));
  svgNode(g, "line", { class: "heading", x1: s[0], y1: s[1], x2: front[0], y2: front[1], stroke: plane.colour });
  // the stand: one ring per level of altitude (DF.H2: altitude + 1 stands), at most
  // MAX_RINGS (the label says the altitude; thousands of rings would freeze the page)
  for (let k = Math.min(plane.altitude, MAX_RINGS - 1); k >= 0; k--) {
    svgNode(g, "circle", { class: "stand", cx: s[0], cy: s[1], r: 1.6 + 1.3 * k, stroke: plane.colour });
  }
  if (plane.selected && !plane.out && scene.editable) {
    const handle = apply(plane.pose, [plane.base.front_mark_mm + scene.handle, 0]);
    svgNode(g, "line", { class: "handle-stem", x1: front[0], y1: front[1], x2: handle[0], y2: handle[1] });
    const h = svgNode(g, "circle", { class: "handle", cx: handle[0], cy: handle[1], r: scene.handle / 2.4,
      "data-role": "handle", "data-plane": plane.name });
    title(h, t("drag to turn (Shift: 15° steps)"));
  }
  // the altitude, readable at a glance: a numbered disc at the base's rear right corner (clear of the name)
  if (!plane.out) {
    const font = sized(scene, 0.8);
    const at = apply(plane.pose, [-plane.base.length_mm / 2, -plane.base.width_mm / 2]);
    const badge = svgNode(labels, "g", { class: "altitude-badge", "data-altitude-for": plane.name });
    svgNode(badge, "circle", { cx: at[0], cy: scene.height - at[1], r: font * 0.72, stroke: plane.colour });
    svgNode(badge, "text", { x: at[0], y: scene.height - at[1], "font-size": font, "text-anchor": "middle",
      "dominant-baseline": "central", fill: plane.colour }, String(plane.altitude));
    title(badge, plane.altitude ? t("altitude {altitude} (DF.H2: {stands} stands)", { altitude: plane.altitude,
      stands: plane.altitude + 1 }) : t("altitude 0 (DF.H2: 1 stand)"));
  }
  const below = Math.max(...c.map((p) => p[1]));
  const label = labelAt(scene, labels, [s[0], below + scene.font * 0.4],
    `${plane.name} ▲${plane.altitude}${plane.out ? t(" (out)") : ""}`,
    { class: "name", fill: plane.colour, "text-anchor": "middle", "data-label": plane.name });
  label.setAttribute("font-weight", plane.selected ? "bold" : "normal");
  if (plane.planError) {
    const low = Math.min(...c.map((p) => p[1]));
    const node = labelAt(scene, labels, [s[0], low - scene.font * 1.1], `${plane.planError.rule}: ` +
      plane.planError.message, { class: "plan-error", "text-anchor": "middle", "data-plan-error": plane.name,
      "data-rule": plane.planError.rule, "font-size": sized(scene, 0.8) });
    title(node, plane.planError.message);
  }
}

function drawLine(layer, a, b, attrs, tip) {
  const line = svgNode(layer, "line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], ...attrs });
  title(line, tip);
  return line;
}

function drawPreview(scene, world, labels, preview) {
  const g = svgNode(world, "g", { class: `preview${preview.hover ? " hover" : ""}`, "data-preview": preview.plane });
  for (const ghost of preview.ghosts) {
    svgNode(g, "polygon", { class: "ghost", points: pts(ghost), stroke: preview.colour });
  }
  for (const step of preview.steps) {
    if (step.arrow.length > 1) {
      svgNode(g, "polyline", { class: "arrow", points: pts(step.arrow), stroke: preview.colour,
        "marker-end": "url(#arrowhead)" });
    } else {
      svgNode(g, "circle", { class: "stall", cx: step.arrow[0][0], cy: step.arrow[0][1], r: 3, fill: preview.colour });
    }
    svgNode(g, "polygon", { class: "ghost end", points: pts(step.corners), stroke: preview.colour,
      "data-card": step.card });
    labelAt(scene, labels, step.centre, step.card, { class: "card-label", fill: preview.colour,
      "text-anchor": "middle", "font-size": sized(scene, 0.8) });
  }
}

/** Rebuild `svg` from `scene` (see main.js: editScene, replayScene; rooms/games/dogfight.js).
 *  A scene: `width`, `height` (mm), `font`, `handle`, `colours`, `planes` (each `name`, `side`,
 *  `colour`, `base`, `pose`, `altitude`, and optional `selected`, `out`, `lost`, `overlap`,
 *  `planError`, `silhouette`, `status`, `effects`), optional `zones`, `cards` (maneuver cards
 *  laid under moving bases: `plane`, `card`, `colour`, `corners`), `paths`, `previews`,
 *  `rulers`, `shots`, `notes` (`at`, `text`, `kind`) and `collisions`; `editable` shows the
 *  turning handle; `minFont` (units) is the smallest label size (readable on a phone). */
export function drawScene(svg, scene) {
  svg.replaceChildren();
  const pad = scene.font * 2.5;
  svg.setAttribute("viewBox", `${-pad} ${-pad} ${scene.width + 2 * pad} ${scene.height + 2 * pad}`);
  const defs = svgNode(svg, "defs");
  const marker = svgNode(defs, "marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5,
    markerHeight: 5, orient: "auto-start-reverse" });
  svgNode(marker, "path", { d: "M0,0L10,5L0,10z", fill: scene.colours.arrow });
  const world = svgNode(svg, "g", { id: "world", transform: `translate(0 ${scene.height}) scale(1 -1)` });
  const labels = svgNode(svg, "g", { id: "labels" });
  svgNode(world, "rect", { class: "table", x: 0, y: 0, width: scene.width, height: scene.height,
    fill: scene.colours.table_fill, stroke: scene.colours.table_edge });
  const grid = svgNode(world, "g", { class: "grid" });
  for (let x = 100; x < scene.width; x += 100) svgNode(grid, "line", { x1: x, y1: 0, x2: x, y2: scene.height });
  for (let y = 100; y < scene.height; y += 100) svgNode(grid, "line", { x1: 0, y1: y, x2: scene.width, y2: y });
  // a 100 mm scale bar under the table
  labelAt(scene, labels, [0, -scene.font * 1.6], "100 mm", { class: "scale-label" });
  svgNode(labels, "line", { class: "scale", x1: scene.font * 4, x2: scene.font * 4 + 100,
    y1: scene.height + scene.font * 1.3, y2: scene.height + scene.font * 1.3 });

  if (scene.zones) {
    const z = svgNode(world, "g", { class: "zones", "data-zones": scene.zones.plane });
    for (const band of scene.zones.bands) {
      svgNode(z, "path", { class: "band long", d: ringsPath(band.long), fill: scene.colours.long_range });
      svgNode(z, "path", { class: "band short", d: ringsPath(band.short), fill: scene.colours.short_range });
    }
    const zone = svgNode(z, "path", { class: "tail-zone", d: ringsPath(scene.zones.tail_zone),
      fill: scene.colours.tail_zone, stroke: scene.colours.tail_zone });
    title(zone, t("where an enemy stand flying {heading}° could be tailed (DF.T1, DF.T5): {area} mm²",
      { heading: fixed(scene.zones.enemy_heading_deg, 0), area: fixed(scene.zones.area_mm2, 0) }));
  }
  for (const card of scene.cards || []) {
    // the maneuver card as laid at a table (DF.M2), under the base moving along its arrow
    const g = svgNode(world, "g", { class: "laid-card", "data-laid-card": card.plane, "data-card": card.card });
    svgNode(g, "polygon", { class: "card-sheet", points: pts(card.corners), stroke: card.colour });
    // its id near the start line, on the card's right half (the arrow runs down its middle)
    const [a, b, , d] = card.corners;
    const at = [a[0] + (b[0] - a[0]) * 0.2 + (d[0] - a[0]) * 0.22, a[1] + (b[1] - a[1]) * 0.2 + (d[1] - a[1]) * 0.22];
    labelAt(scene, labels, at, card.card, { class: "card-label laid", fill: card.colour, "text-anchor": "middle",
      "font-size": sized(scene, 0.8), "data-laid-card-label": card.plane });
  }
  for (const path of scene.paths || []) {
    const g = svgNode(world, "g", { class: "path", "data-path": path.plane });
    for (const ghost of path.ghosts) svgNode(g, "polygon", { class: "swept", points: pts(ghost), fill: path.colour });
    if (path.arrow.length > 1) {
      svgNode(g, "polyline", { class: "arrow", points: pts(path.arrow), stroke: path.colour,
        "marker-end": "url(#arrowhead)" });
    }
  }
  for (const preview of scene.previews || []) drawPreview(scene, world, labels, preview);
  const marks = svgNode(world, "g", { class: "marks" });
  for (const r of scene.rulers || []) {
    drawLine(marks, r.from, r.to, { class: `ruler ${r.kind}${r.close ? " close" : ""}`,
      "data-ruler": `${r.chaser}>${r.target}`, "data-kind": r.kind, "data-close": r.close ? "1" : undefined }, r.tip);
  }
  for (const s of scene.shots || []) {
    drawLine(marks, s.gun, s.aim, { class: `shot ${s.range}${s.auto ? " auto" : ""}${s.close ? " close" : ""}`,
      "data-shot": `${s.shooter}>${s.target}`, "data-range": s.range,
      stroke: s.range === "short" ? scene.colours.short_range : scene.colours.long_range }, s.tip);
  }
  for (const plane of scene.planes) drawPlane(scene, world, labels, plane);
  for (const n of scene.notes || []) {
    const node = labelAt(scene, labels, n.at, n.text, { class: `note ${n.kind || ""}`, "text-anchor": "middle",
      "data-note": n.plane || "", "data-kind": n.kind || "" });
    title(node, n.tip || n.text);
  }
  for (const c of scene.collisions || []) {
    const node = labelAt(scene, labels, c.at, c.text, { class: `collision${c.collided ? " hit" : ""}`,
      "text-anchor": "middle", fill: scene.colours.collision, "data-collision": `${c.a}/${c.b}` });
    title(node, c.text);
  }
  return world;
}

/** Put furball's top-down silhouettes (img/planes.svg: `#sil-fighter`, `#sil-two-seater`,
 *  `#sil-bomber`, `#sil-balloon`) in the page once, for the planes' <use> to show; without
 *  them the bases are drawn bare. */
export async function loadSilhouettes() {
  if (document.getElementById("furball-silhouettes")) return;
  try {
    const answer = await fetch("/static/img/planes.svg");
    if (!answer.ok) return;
    const text = await answer.text();
    const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
    const holder = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    holder.id = "furball-silhouettes";
    holder.setAttribute("width", "0");
    holder.setAttribute("height", "0");
    holder.setAttribute("aria-hidden", "true");
    holder.classList.add("sprites");
    const defs = parsed.querySelector("defs");
    if (defs) holder.append(document.importNode(defs, true));
    document.body.append(holder);
  } catch (_) { /* the bases are drawn without their silhouettes */ }
}
