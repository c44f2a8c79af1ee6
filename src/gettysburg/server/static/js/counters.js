// What a faced counter carries beyond its label, drawn from the view alone: a pointer to its
// front (a hexside or a vertex), its markers (disorder, rout...), its formation's orders
// when the seat may see them, and the small round counters of leaders. Generic over any
// system whose view gives `facing: {kind: "side"|"vertex", index}` on a hex map.
import { svg } from "./ui.js";
import { t } from "./i18n.js";

// The core's axial directions (gettysburg/core/hexes.py, DIRECTIONS): d and d+1 are
// neighbours going round the hex; a vertex v lies between directions v and v+1.
const DIRECTIONS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];

// The angle (radians, screen coordinates: y down) a facing points at, on a map whose layout
// gives the screen vectors of one step in q and in r (`basis_q`, `basis_r`, y up); null
// when the map or the facing says nothing usable.
export function facingAngle(layout, facing) {
  if (!layout?.basis_q || !layout?.basis_r || !facing || !Number.isInteger(facing.index)) return null;
  const step = (d) => {
    const [dq, dr] = DIRECTIONS[((d % 6) + 6) % 6];
    return [dq * layout.basis_q[0] + dr * layout.basis_r[0], -(dq * layout.basis_q[1] + dr * layout.basis_r[1])];
  };
  const [a, b] = facing.kind === "vertex" ? [step(facing.index), step(facing.index + 1)] : [step(facing.index), [0, 0]];
  return Math.atan2(a[1] + b[1], a[0] + b[0]);
}

// Markers that lie along the two hexsides of one corner of a hex (the view's lists of
// `{hex, vertex}`: works guarding that corner), the `i`th kind of them: a thick line from the
// corner before through the corner itself to the one after, a little inside the hex; the
// corner's angle as `facingAngle` gives a vertex facing, the hex's corners at spacing/√3.
export function edgeMarkShape([x, y], vertex, spacing, layout, i) {
  const r = (spacing / Math.sqrt(3)) * 0.86;
  const corner = (v) => {
    const a = facingAngle(layout, { kind: "vertex", index: ((v % 6) + 6) % 6 });
    return a === null ? null : [x + Math.cos(a) * r, y + Math.sin(a) * r];
  };
  const pts = [vertex - 1, vertex, vertex + 1].map(corner);
  if (pts.some((p) => !p)) return null;
  return svg("polyline", { points: pts.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" "),
    fill: "none", stroke: i ? "#8a6a3a" : "#5b3a1a", "stroke-width": (spacing * 0.08).toFixed(2),
    "stroke-linecap": "round", "stroke-linejoin": "round",
    "stroke-dasharray": i ? `${(spacing * 0.1).toFixed(1)} ${(spacing * 0.08).toFixed(1)}` : null });
}

// A word for a marker or an order in the player's language ("counter.mark.disordered"),
// or its first letters.
function word(key, fallback) {
  const txt = t(key);
  return txt === key ? fallback : txt;
}
export function markWord(mark) { return word(`counter.mark.${mark}`, mark.slice(0, 3).toUpperCase()); }
export function ordersWord(orders) { return word(`counter.orders.${orders}`, String(orders).slice(0, 3)); }

// Adds to a drawn counter `g` (its face `size` wide, centred on 0,0): the pointer to its
// front, its markers across the top and its orders in the corner.
export function decorate(g, u, size, layout) {
  const angle = u.facing ? facingAngle(layout, u.facing) : null;
  if (angle !== null) {
    // A triangle on the counter's edge, its tip outside the face, pointing at the front.
    const r = size * 0.5;
    const tip = [Math.cos(angle) * r * 1.32, Math.sin(angle) * r * 1.32];
    const side = (s) => [Math.cos(angle + s) * r * 0.98, Math.sin(angle + s) * r * 0.98];
    const pts = [tip, side(0.32), side(-0.32)].map((p) => p.map((v) => v.toFixed(2)).join(",")).join(" ");
    g.append(svg("polygon", { class: `facing facing-${u.facing.kind}`, points: pts, fill: "#f4d35e",
      stroke: "#222", "stroke-width": size * 0.03, "data-facing": `${u.facing.kind} ${u.facing.index}` }));
  }
  u.marks.forEach((m, i) => {
    const w = size * 0.5;
    const y = -size * 0.5 + i * size * 0.2;
    const band = svg("g", { class: `mark mark-${m}`, "data-mark": m });
    band.append(svg("rect", { x: -w / 2, y, width: w, height: size * 0.18, rx: size * 0.03,
      fill: m === "disordered" ? "#e0b020" : "#b3261e", stroke: "#222", "stroke-width": size * 0.015 }));
    band.append(svg("text", { x: 0, y: y + size * 0.09, "font-size": size * 0.13, "text-anchor": "middle",
      "dominant-baseline": "central", fill: "#111", "font-weight": "bold" }, markWord(m)));
    g.append(band);
  });
  if (u.orders) {
    g.append(svg("text", { class: "orders", "data-orders": u.orders, x: -size * 0.44, y: size * 0.4,
      "font-size": size * 0.13, "text-anchor": "start", fill: "#fff", "font-style": "italic" }, ordersWord(u.orders)));
  }
}

// A stack's count, a badge on its top counter's corner.
export function stackBadge(n, size) {
  const g = svg("g", { class: "stack-count", "data-count": String(n) });
  g.append(svg("circle", { cx: size * 0.5, cy: -size * 0.5, r: size * 0.17, fill: "#222", stroke: "#fff",
    "stroke-width": size * 0.025 }));
  g.append(svg("text", { x: size * 0.5, y: -size * 0.5, "font-size": size * 0.19, "text-anchor": "middle",
    "dominant-baseline": "central", fill: "#fff", "font-weight": "bold" }, String(n)));
  return g;
}

// An extended line or column (a piece holding two or three hexes): a band in the side's
// colour through its hexes, and in each hex beyond the counter's own a smaller counter of
// the same colours with the piece's name and a pointer: a line's parts face as the counter
// does; a column's each face the part before it. `centres`: [x, y] of the counter's hex
// then of each hex it extends into, in the view's order; `colours`: [face, edge].
export function extensionShape(u, centres, size, colours, layout) {
  const [face, edge] = colours;
  const kind = u.extension.kind;
  const g = svg("g", { class: `extension extension-${kind}`, "data-unit": u.id, "data-kind": kind,
    "data-hexes": u.extension.hexes.join(" "), "pointer-events": "none" });
  // A line's flanks each joined to its counter; a column's parts each to the part before
  // it. The band stops at the counter's edge: the counter itself may be painted under the
  // SVG (piececanvas.js), and a band over it would hide its words.
  const [head, ...rest] = centres;
  const segments = rest.map((to, i) => {
    let from = kind === "column" && i > 0 ? rest[i - 1] : head;
    if (from === head) {
      const d = Math.hypot(to[0] - head[0], to[1] - head[1]) || 1;
      const k = Math.min(1, size * 0.55 / d);
      from = [head[0] + (to[0] - head[0]) * k, head[1] + (to[1] - head[1]) * k];
    }
    return `M${from.map((v) => v.toFixed(2)).join(" ")}L${to.map((v) => v.toFixed(2)).join(" ")}`;
  });
  g.append(svg("path", { class: "extension-band", d: segments.join(""), fill: "none", stroke: edge,
    "stroke-opacity": 0.55, "stroke-width": size * 0.36, "stroke-linecap": "butt" }));
  const lineAngle = u.facing ? facingAngle(layout, u.facing) : null;
  rest.forEach(([x, y], i) => {
    const s = size * 0.72;
    const part = svg("g", { class: "extension-part", "data-hex": u.extension.hexes[i],
      transform: `translate(${x} ${y})` });
    part.append(svg("rect", { x: -s / 2, y: -s / 2, width: s, height: s, rx: s * 0.04, fill: face, stroke: edge,
      "stroke-width": s * 0.05, "stroke-dasharray": `${s * 0.12} ${s * 0.06}` }));
    part.append(svg("text", { x: 0, y: 0, "font-size": s * 0.2, "text-anchor": "middle", "dominant-baseline": "central",
      fill: "#fff", class: "block-label" }, String(u.name ?? u.id).slice(0, 10)));
    const prev = i === 0 ? head : rest[i - 1];
    const angle = kind === "column" ? Math.atan2(prev[1] - y, prev[0] - x) : lineAngle;
    if (angle !== null) {
      const r = s * 0.5;
      const pt = (a, k) => [Math.cos(a) * r * k, Math.sin(a) * r * k].map((v) => v.toFixed(2)).join(",");
      part.append(svg("polygon", { class: "facing", points: [pt(angle, 1.32), pt(angle + 0.32, 0.98),
        pt(angle - 0.32, 0.98)].join(" "), fill: "#f4d35e", stroke: "#222", "stroke-width": s * 0.03 }));
    }
    g.append(part);
  });
  return g;
}
