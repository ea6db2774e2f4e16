// Pan and zoom an SVG by its viewBox: one finger (or the mouse) drags the picture, two
// fingers pinch, the wheel zooms about the pointer, a double tap fits the whole picture.
// Whoever draws the SVG calls `fit(box)` with the picture's full box after each redraw;
// the zoom the user chose is kept across redraws until they double-tap.

export class PanZoom {
  /** `svg`: the element; `onChange()`: called after the view moved (optional). */
  constructor(svg, onChange = () => {}) {
    this.svg = svg;
    this.onChange = onChange;
    this.full = null; // [x, y, w, h] of the whole picture
    this.view = null; // the user's view, or null: the whole picture
    this.pointers = new Map();
    this.start = null;
    this.lastTap = 0;
    svg.addEventListener("pointerdown", (e) => this.down(e));
    svg.addEventListener("pointermove", (e) => this.move(e));
    svg.addEventListener("pointerup", (e) => this.up(e));
    svg.addEventListener("pointercancel", (e) => this.up(e));
    svg.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
  }

  /** The picture's whole box changed (a redraw): apply the user's view, or the whole box. */
  fit(box) {
    this.full = box;
    this.apply();
  }

  /** Back to the whole picture. */
  reset() {
    this.view = null;
    this.apply();
    this.onChange();
  }

  get zoomed() {
    return this.view !== null;
  }

  apply() {
    const v = this.view || this.full;
    if (v) this.svg.setAttribute("viewBox", v.map((x) => x.toFixed(2)).join(" "));
  }

  current() {
    return (this.view || this.full).slice();
  }

  /** The SVG point under client coordinates. */
  at(clientX, clientY) {
    const r = this.svg.getBoundingClientRect();
    const [x, y, w, h] = this.current();
    // preserveAspectRatio xMidYMid meet: one scale for both axes, centred
    const s = Math.min(r.width / w, r.height / h);
    const ox = r.left + (r.width - w * s) / 2, oy = r.top + (r.height - h * s) / 2;
    return [x + (clientX - ox) / s, y + (clientY - oy) / s, s];
  }

  zoomAbout(point, factor) {
    const [x, y, w, h] = this.current();
    const fw = this.full[2], fh = this.full[3];
    const nw = Math.min(fw * 1.5, Math.max(fw / 12, w / factor));
    const k = nw / w;
    const nh = h * k;
    this.view = [point[0] - (point[0] - x) * k, point[1] - (point[1] - y) * k, nw, nh];
    this.apply();
    this.onChange();
  }

  down(e) {
    if (!this.full) return;
    this.pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (this.pointers.size === 1) {
      const now = performance.now();
      if (now - this.lastTap < 300 && e.pointerType !== "mouse") {
        this.reset();
        this.lastTap = 0;
        return;
      }
      this.lastTap = now;
    }
    this.start = { view: this.current(), pointers: new Map(this.pointers) };
    if (e.pointerType !== "mouse" || e.button === 0) this.svg.setPointerCapture?.(e.pointerId);
  }

  move(e) {
    if (!this.pointers.has(e.pointerId) || !this.start) return;
    this.pointers.set(e.pointerId, [e.clientX, e.clientY]);
    const r = this.svg.getBoundingClientRect();
    const [x0, y0, w0, h0] = this.start.view;
    const s = Math.min(r.width / w0, r.height / h0);
    const ids = [...this.pointers.keys()];
    if (ids.length === 1) {
      const [a] = ids;
      const from = this.start.pointers.get(a);
      if (!from) return;
      const now = this.pointers.get(a);
      const dx = (now[0] - from[0]) / s, dy = (now[1] - from[1]) / s;
      if (!this.view && Math.hypot(dx, dy) * s < 6) return; // a tap, not a drag
      this.view = [x0 - dx, y0 - dy, w0, h0];
    } else if (ids.length >= 2) {
      const [a, b] = ids;
      const fa = this.start.pointers.get(a), fb = this.start.pointers.get(b);
      if (!fa || !fb) return;
      const na = this.pointers.get(a), nb = this.pointers.get(b);
      const d0 = Math.hypot(fa[0] - fb[0], fa[1] - fb[1]) || 1;
      const d1 = Math.hypot(na[0] - nb[0], na[1] - nb[1]) || 1;
      const fw = this.full[2];
      const nw = Math.min(fw * 1.5, Math.max(fw / 12, w0 * d0 / d1));
      const k = nw / w0;
      // the picture point under the first midpoint stays under the new midpoint
      const ox = r.left + (r.width - w0 * s) / 2, oy = r.top + (r.height - h0 * s) / 2;
      const m0 = [(fa[0] + fb[0]) / 2, (fa[1] + fb[1]) / 2], m1 = [(na[0] + nb[0]) / 2, (na[1] + nb[1]) / 2];
      const p = [x0 + (m0[0] - ox) / s, y0 + (m0[1] - oy) / s];
      const s1 = s / k;
      const ox1 = r.left + (r.width - nw * s1) / 2, oy1 = r.top + (r.height - h0 * k * s1) / 2;
      this.view = [p[0] - (m1[0] - ox1) / s1, p[1] - (m1[1] - oy1) / s1, nw, h0 * k];
    }
    this.apply();
    this.onChange();
  }

  up(e) {
    this.pointers.delete(e.pointerId);
    this.start = this.pointers.size ? { view: this.current(), pointers: new Map(this.pointers) } : null;
  }

  wheel(e) {
    if (!this.full) return;
    e.preventDefault();
    const [x, y] = this.at(e.clientX, e.clientY);
    this.zoomAbout([x, y], e.deltaY < 0 ? 1.2 : 1 / 1.2);
  }
}
