// Rigid motions of the table (SE(2)) for drawing only: the engine decides every rule.
//
// A pose is [x_mm, y_mm, heading_deg] in the table frame (x right, y up, heading
// counter-clockwise from +x), the same convention as geometry/pose.py. The page turns
// the engine's card geometry (given in a base's own frame by /api/cards) by a plane's
// pose with compose(): the same product the engine uses to place a card (pose · motion).

const RAD = Math.PI / 180;

/** Heading normalised to [0, 360). */
export function normHeading(h) {
  const r = h % 360;
  return r < 0 ? r + 360 : r;
}

/** The pose a · b (b expressed in a's frame). */
export function compose(a, b) {
  const c = Math.cos(a[2] * RAD), s = Math.sin(a[2] * RAD);
  return [a[0] + c * b[0] - s * b[1], a[1] + s * b[0] + c * b[1], normHeading(a[2] + b[2])];
}

/** A point [x, y] of a pose's frame, in the table frame. */
export function apply(pose, p) {
  const c = Math.cos(pose[2] * RAD), s = Math.sin(pose[2] * RAD);
  return [pose[0] + c * p[0] - s * p[1], pose[1] + s * p[0] + c * p[1]];
}

/** The four corners of a base at a pose, counter-clockwise from front-right (as the engine). */
export function corners(pose, base) {
  const l = base.length_mm / 2, w = base.width_mm / 2;
  return [[l, -w], [l, w], [-l, w], [-l, -w]].map((p) => apply(pose, p));
}

/** The stand's table point for a base at a pose. */
export function stand(pose, base) {
  return apply(pose, base.stand);
}

/** The pose whose stand is at `point` with heading `heading` (turning about the stand). */
export function poseWithStand(point, heading, base) {
  const c = Math.cos(heading * RAD), s = Math.sin(heading * RAD);
  const [sx, sy] = base.stand;
  return [point[0] - (c * sx - s * sy), point[1] - (s * sx + c * sy), normHeading(heading)];
}

/** Direction from a to b in degrees, counter-clockwise from +x. */
export function direction(a, b) {
  return normHeading(Math.atan2(b[1] - a[1], b[0] - a[0]) / RAD);
}

/** Points of a circular sector outline (a firing arc) from `centre` [x, y]. */
export function sector(centre, fromDeg, toDeg, radius, steps = 24) {
  const pts = [centre];
  for (let i = 0; i <= steps; i++) {
    const a = (fromDeg + (toDeg - fromDeg) * (i / steps)) * RAD;
    pts.push([centre[0] + radius * Math.cos(a), centre[1] + radius * Math.sin(a)]);
  }
  return pts;
}

/** Clamp a point into the rectangle [0, w] x [0, h]. */
export function clampToTable(p, w, h) {
  return [Math.min(Math.max(p[0], 0), w), Math.min(Math.max(p[1], 0), h)];
}

/** A document pose {x_mm, y_mm, heading_deg} as an array, and back. */
export const poseOf = (p) => [p.pose.x_mm, p.pose.y_mm, p.pose.heading_deg];
export const docPose = (a) => ({ x_mm: a[0], y_mm: a[1], heading_deg: a[2] });
/** A report pose {x, y, heading} (turn JSON) as an array. */
export const reportPose = (p) => [p.x, p.y, p.heading];
