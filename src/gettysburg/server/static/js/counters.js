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
