// The pages' one way to make DOM nodes: el() for HTML elements, svgNode() for SVG ones.

const SVG_NS = "http://www.w3.org/2000/svg";

/** An HTML element: `props` are assigned to it (className, onclick, textContent...), and
 *  `children` (nodes or strings) appended; null, undefined, false and "" are skipped. */
export function el(tag, props = {}, ...children) {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children.filter((c) => c !== null && c !== undefined && c !== false && c !== ""));
  return e;
}

/** An SVG element appended to `parent`: `attrs` set as attributes (null, undefined and
 *  false ones left out), and `text` as its text when given. */
export function svgNode(parent, tag, attrs = {}, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v);
  }
  if (text !== undefined) node.textContent = text;
  parent.appendChild(node);
  return node;
}
