// Drawing a sketch — the drawing description the server makes of a card game's table
// (viz/sketch.py: shapes, positions and labels in millimetres) — as SVG. The same
// description is what `furball play GAME --plot` draws with matplotlib, so the page
// shows what the PNG shows. Table y points up: the world group flips it, and texts are
// drawn in an unflipped layer so they read the right way. Every shape with an id keeps
// it as data-id (the game object it stands for: node:Alba, token:Alba:G, roof:2 ...).

import { svgNode } from "./dom.js";

const DEFAULTS = { x: 0, y: 0, w: 0, h: 0, r: 0, round: 0, points: [], fill: null, stroke: null, width: 1, alpha: 1,
  dash: false, text: "", font: 7, colour: "#333333", anchor: "middle", valign: "middle", bold: false, marker: "o",
  size: 13, z: 2, tip: "", cls: "", id: "" };
const POINTS_PER_WIDTH = 460;

function markerPath(marker, x, y, r) {
  const poly = (n, turn) => Array.from({ length: n }, (_, k) => {
    const a = turn + (2 * Math.PI * k) / n;
    return `${(x + r * Math.cos(a)).toFixed(2)},${(y + r * Math.sin(a)).toFixed(2)}`;
  }).join(" ");
  switch (marker) {
    case "s": return ["polygon", { points: poly(4, Math.PI / 4) }];
    case "D": return ["polygon", { points: poly(4, 0) }];
    case "^": return ["polygon", { points: poly(3, Math.PI / 2) }];
    case "v": return ["polygon", { points: poly(3, -Math.PI / 2) }];
    case "p": return ["polygon", { points: poly(5, Math.PI / 2) }];
    default: return ["circle", { cx: x, cy: y, r }];
  }
}

/** Draw `sketch` into `svg` (replacing what was there); returns the viewBox [x, y, w, h].
 *  `look(shape)` may add attributes/classes (e.g. which shapes are clickable); no text is
 *  drawn smaller than `minFont` (mm: what the page needs to stay readable on a phone). */
export function drawSketch(svg, sketch, look = () => ({}), minFont = 0) {
  svg.replaceChildren();
  const [xmin, xmax, ymin, ymax] = sketch.extent;
  const unit = (xmax - xmin) / POINTS_PER_WIDTH; // one point, in mm
  const H = ymin + ymax; // y -> H - y flips the picture about its middle
  const box = [xmin, ymin, xmax - xmin, ymax - ymin];
  svg.setAttribute("viewBox", box.map((v) => v.toFixed(2)).join(" "));
  if (sketch.background) svgNode(svg, "rect", { x: xmin, y: ymin, width: xmax - xmin, height: ymax - ymin, fill: sketch.background });
  const world = svgNode(svg, "g", { class: "sk-world", transform: `translate(0 ${H}) scale(1 -1)` });
  const texts = svgNode(svg, "g", { class: "sk-texts" });
  const shapes = sketch.shapes.map((s, i) => ({ ...DEFAULTS, ...s, order: i }));
  shapes.sort((a, b) => a.z - b.z || a.order - b.order);
  for (const s of shapes) {
    const extra = look(s) || {};
    const base = { "data-id": s.id || undefined, class: [`sk-${s.kind}`, s.cls, extra.class].filter(Boolean).join(" "),
      opacity: s.alpha !== 1 ? s.alpha : undefined, ...extra.attrs };
    const paint = { fill: s.fill || "none", stroke: s.stroke || "none",
      "stroke-width": s.stroke ? (s.width * unit).toFixed(3) : undefined,
      "stroke-dasharray": s.dash ? `${(4 * unit).toFixed(2)} ${(3 * unit).toFixed(2)}` : undefined };
    let node;
    if (s.kind === "rect") {
      node = svgNode(world, "rect", { ...base, ...paint, x: s.x, y: s.y, width: s.w, height: s.h, rx: s.round || undefined });
    } else if (s.kind === "circle") {
      node = svgNode(world, "circle", { ...base, ...paint, cx: s.x, cy: s.y, r: s.r });
    } else if (s.kind === "poly") {
      node = svgNode(world, "polygon", { ...base, ...paint, points: s.points.map((p) => p.join(",")).join(" ") });
    } else if (s.kind === "line") {
      node = svgNode(world, "polyline", { ...base, ...paint, fill: "none", stroke: s.stroke || "#333",
        "stroke-width": (s.width * unit).toFixed(3), "stroke-linecap": "round",
        points: s.points.map((p) => p.join(",")).join(" ") });
    } else if (s.kind === "mark") {
      const r = (s.size / 2) * unit;
      const [tag, attrs] = markerPath(s.marker, s.x, s.y, r);
      const g = svgNode(world, "g", base);
      node = g;
      svgNode(g, tag, { ...attrs, fill: s.fill || "#333", stroke: s.stroke || "none",
        "stroke-width": s.stroke ? (s.width * unit).toFixed(3) : undefined });
      if (s.text) {
        svgNode(texts, "text", { x: s.x, y: H - s.y, "font-size": Math.max(s.font * unit, minFont).toFixed(2), fill: s.colour,
          "text-anchor": "middle", "dominant-baseline": "central", "font-weight": s.bold ? "bold" : undefined,
          class: "sk-mark-label", "data-for": s.id || undefined }, s.text);
      }
    } else if (s.kind === "text") {
      node = svgNode(texts, "text", { ...base, x: s.x, y: H - s.y, "font-size": Math.max(s.font * unit, minFont).toFixed(2), fill: s.colour,
        "text-anchor": s.anchor, "font-weight": s.bold ? "bold" : undefined,
        "dominant-baseline": { top: "hanging", middle: "central", bottom: "auto" }[s.valign] }, s.text);
    }
    if (node && s.tip) svgNode(node, "title", {}, s.tip);
  }
  return box;
}
