// The SVG board: the map from the server's map data, in whatever topology the system's map
// declares ("hex": hexes, hexsides, roads, slopes, victory hexes; "graph": named positions
// and the links between them), pieces from the view in the system's counter style,
// destination highlights from the legal actions.
import { svg, el } from "./ui.js";
import { t } from "./i18n.js";
import { unitsOf } from "./units.js";
import { seatName, tOr } from "./panels.js";
import { HexCanvas } from "./maptiles.js";
import { PieceCanvas } from "./piececanvas.js";
import { decorate, stackBadge, extensionShape, edgeMarkShape } from "./counters.js";

export const TERRAIN = { clear: "#e6ddb4", woods: "#8fae6a", orchard: "#b9cc8c", town: "#caa58a",
  marsh: "#a7c4bb", rocks: "#b5ab98" };
const ROADS = { pike: ["#6e3518", 0.11, null], road: ["#8a5a3a", 0.08, null], trail: ["#8a5a3a", 0.05, "0.12 0.08"],
  rail: ["#222", 0.05, "0.2 0.1"] };
// A graph's links by kind ([colour, width, dash] in spacings); any other kind: LINK_PLAIN.
const LINKS = { ...ROADS, path: ["#8a5a3a", 0.04, "0.1 0.08"], stream: ["#3f79b5", 0.05, null],
  river: ["#3f79b5", 0.09, null], ford: ["#3f79b5", 0.05, "0.1 0.06"] };
const LINK_PLAIN = ["#6d5d3c", 0.05, null];
// A hex map of more hexes than this draws its ground on a canvas of cached tiles (maptiles.js)
// rather than as SVG shapes, unless the page's address asks for the SVG (`?map=svg`, kept to
// compare the two: benchmarks/bench_client_map.py). docs/server.md, "The map renderer".
export const CANVAS_FROM = 1500;
function svgForced() {
  return new URLSearchParams(location.search).get("map") === "svg";
}

// The hexes of a canvas-drawn map as the board's `polys`: a hex's SVG shape (transparent,
// to click, focus, ring and highlight) is made the first time it is asked for, so that
// only the few hexes in play are shapes. Iterating gives the shapes made so far.
class LazyPlaces {
  constructor(ids, make) {
    this.ids = ids;
    this.make = make;
    this.made = new Map();
  }
  has(id) { return this.ids.has(id); }
  get size() { return this.ids.size; }
  get(id) {
    if (!this.ids.has(id)) return undefined;
    if (!this.made.has(id)) this.made.set(id, this.make(id));
    return this.made.get(id);
  }
  set(id, poly) { this.made.set(id, poly); return this; }
  [Symbol.iterator]() { return this.made[Symbol.iterator](); }
}

// Pieces of a side the system gives no colour for.
const NO_COLOUR = ["#9a8f78", "#5e5647"];

export function mix(hex, toward, amount) {
  const p = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
  const [a, b] = [p(hex), p(toward)];
  return "#" + a.map((v, i) => Math.round(v + (b[i] - v) * amount).toString(16).padStart(2, "0")).join("");
}

// How far toward dark earth a place at `level` is shaded, on a map whose levels run from
// `lo` to `hi`: a step of 0.09 a level while the range is small (levels 0-2), the range
// spread over the same half-darkness when it is larger (levels 0-16, heights in feet),
// so that high ground stays distinct from higher ground rather than one dark tone.
export function levelShade(level, lo, hi) {
  if (!Number.isFinite(level) || !Number.isFinite(lo) || !(hi > lo)) return 0;
  return Math.max(0, Math.min(0.5, (level - lo) * Math.min(0.09, 0.5 / (hi - lo))));
}

// A small key to the map's colours and lines.
export function mapKey() {
  const swatch = (fill) => svg("svg", { width: 18, height: 14 }, svg("rect", { x: 1, y: 1, width: 16, height: 12, fill, stroke: "#8a7a55" }));
  const line = (stroke, width, dash) => svg("svg", { width: 18, height: 14 },
    svg("line", { x1: 1, y1: 7, x2: 17, y2: 7, stroke, "stroke-width": width, "stroke-dasharray": dash }));
  const row = (icon, text) => el("li", {}, icon, " ", text);
  return el("details", { class: "map-key" }, el("summary", {}, t("map.key")),
    el("ul", {}, ...Object.entries(TERRAIN).map(([k, c]) => row(swatch(c), t("terrain." + k))),
      row(swatch(mix(TERRAIN.clear, "#6b4a22", 0.27)), t("map.higher")),
      row(line("#3f79b5", 3), t("map.stream")), row(line("#7b4f22", 2.5, "3 2"), t("map.slope")),
      row(line(ROADS.pike[0], 3), t("map.road")), row(line("#222", 2, "5 3"), t("map.rail")),
      row(svg("svg", { width: 18, height: 14 }, svg("circle", { cx: 9, cy: 7, r: 6, fill: "#fff8e0", stroke: "#a4322b" })), t("map.victory_hex"))));
}

// The map's keys, for the page's help (the map's description points to it: #map-keys).
// `browse`: the replay's map, read but not played (no N, Enter or Esc; its steps instead).
export function keyHelp({ browse = false } = {}) {
  const keys = browse ? ["map.keys_tab", "map.keys_arrows", "map.keys_blocks", "map.keys_replay"]
    : ["map.keys_tab", "map.keys_arrows", "map.keys_next", "map.keys_blocks", "map.keys_enter", "map.keys_escape"];
  return el("details", { class: "map-key", id: "map-keys" }, el("summary", {}, t("map.keys")),
    el("ul", { class: "keys" }, ...keys.map((key) => el("li", {}, t(key)))));
}

// A block's type in the player's words ("cav_dhq" -> "cavalry div. HQ"), or the id spelt
// out when the catalogue has no entry for it.
function typeWord(type) {
  const key = `unit_type.${type}`;
  const word = t(key);
  return word === key ? String(type).replace(/_/g, " ") : word;
}

// Ids often repeat the side ("red-archer"): the piece's colour already says that.
function blockName(u) {
  return String(u.name).replace(new RegExp(`^${u.side}[-_.:]`, "i"), "");
}

// A block's strength as its label reads: "3/4" when the view gives the maximum too; an
// eliminated block has none left, whatever strength it last had.
// When and where a piece away from the map comes back (the view's `away`).
function awayText(u) {
  return t("unit.away", { hex: u.away.hex ?? "?", back: u.away.back ?? "?" });
}

function strengthText(u) {
  const now = u.gone ? 0 : u.strength;
  return u.maxStrength === null ? String(now) : `${now}/${u.maxStrength}`;
}

// Width of a label in SVG units at font size `fs`, measured on a canvas: the block may not
// be in the document yet, so its own text cannot be measured.
const ruler = document.createElement("canvas").getContext("2d");
function textWidth(text, fs, weight) {
  ruler.font = `${weight} 100px Arial, Helvetica, sans-serif`;
  return ruler.measureText(text).width * fs / 100;
}

// A block's name or type word: on one line, else (when one line would be set smaller than
// two) on two, broken at the space or hyphen that leaves the longer line shortest
// ("cavalry" / "corps HQ"), so that a long one ("Kav.-Divisions-HQ", "Alexander's
// Battalion") reads rather than shrinks to 60 %. Two lines are set at 12.5 % of the block,
// the first at `top`. One text either way: its textContent is the whole label.
function wrapped(text, size, room, txt, dy, fs, top) {
  const widest = (lines) => Math.max(...lines.map((l) => textWidth(l.trim(), 1, "normal")));
  const lines = [...text.matchAll(/[ -]/g)].map((m) => [text.slice(0, m.index + 1), text.slice(m.index + 1)])
    .sort((a, b) => widest(a) - widest(b))[0];
  const small = lines ? Math.min(size * 0.125, room / widest(lines)) : 0;
  if (Math.min(fs, room / widest([text])) >= small) return txt(text, dy, fs);
  const label = txt("", top, small);
  lines.forEach((line, i) => label.append(svg("tspan", { x: 0, y: top + size * 0.13 * i }, line)));
  return label;
}

// Blocks in the off-map strip are drawn this big (px), so that their name, type and
// strength read at a glance, as on the map zoomed in; their labels shrink as there.
const OFF_MAP_BLOCK = 72;
const OFF_MAP_GAP = 8;

// Arrow keys as directions on the screen (y grows downwards).
const ARROWS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

// Lexicographic order of two keys of numbers.
function compareKeys(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

// Makes `parent`'s children the nodes `next`, in that order, moving as few as it can.
function reconcile(parent, next) {
  const keep = new Set(next);
  for (const n of [...parent.childNodes]) if (!keep.has(n)) n.remove();
  let at = parent.firstChild;
  for (const n of next) {
    if (n === at) at = at.nextSibling;
    else parent.insertBefore(n, at);
  }
}

export class Board {
  // `hint`: the catalogue key of the controls hint under the map.
  // `onCancel`: Escape, to drop the selection. A board with `onHex` or `onUnit` is played
  // from the keyboard too (see `onKey`); with `browse` (the replay) its hexes and blocks
  // are only read from the keyboard: the arrows and B move the focus, nothing is played.
  // `counters`: how pieces are drawn ("blocks", "counters", "divisions" or "markers", as the
  // system declares); `colours`: seat -> [face, edge] (systems.js, seatColours).
  constructor(container, { map = null, seats = [], onUnit = null, onHex = null, onCancel = null, onStack = null,
                           hint = "map.hint", browse = false, counters = "blocks", colours = {} } = {}) {
    this.container = container;
    this.hint = hint;
    this.map = map;
    this.seats = seats;
    this.counters = counters;
    this.colours = colours;
    this.onUnit = onUnit;
    this.onHex = onHex;
    this.onCancel = onCancel;
    this.onStack = onStack;
    this.keys = Boolean(onUnit || onHex || browse);
    this.polys = new Map();
    this.centres = new Map();
    this.hexes = new Map();
    this.blocks = new Map(); // unit id -> its drawn block, this render
    this.cursor = null; // the one map item Tab lands on: { hex } or { unit }
    container.replaceChildren();
    if (map) this.buildMap();
    else this.buildTray();
    if (this.keys) container.addEventListener("keydown", (ev) => this.onKey(ev));
  }

  // --- the map ----------------------------------------------------------------------------
  buildMap() {
    const m = this.map;
    this.topology = m.topology || "hex";
    const places = this.topology === "graph" ? m.positions || [] : m.hexes || [];
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const h of places) {
      const [x, y] = h.xy;
      this.centres.set(h.id, [x, -y]);
      this.hexes.set(h.id, h);
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, -y); y1 = Math.max(y1, -y);
    }
    if (!places.length) [x0, y0, x1, y1] = [0, 0, 1, 1];
    this.spacing = this.topology === "graph" ? this.graphSpacing(m)
      : Math.hypot(...m.layout.basis_q) || 1;
    const pad = this.spacing;
    this.full = { x: x0 - pad, y: y0 - pad, w: x1 - x0 + 2 * pad, h: y1 - y0 + 2 * pad };
    this.vb = { ...this.full };
    // Played from the keyboard, the map is a group of places and pieces to focus, described
    // by the keys' help (game.js puts it in the page as #map-keys).
    const root = svg("svg", { class: `map topology-${this.topology}`, role: this.keys ? "group" : "img",
      "aria-label": t("game.map"), "aria-describedby": this.keys ? "map-keys" : null });
    this.svg = root;
    this.big = this.topology === "hex" && places.length > CANVAS_FROM && !svgForced();
    if (this.topology === "graph") this.drawGraph(root);
    else if (this.big) this.drawHexCanvas(root);
    else this.drawHexes(root);
    // What the other side did since the player's last action (trails, fire, melee), under
    // the pieces; an arrowhead for the trails.
    root.append(svg("defs", {}, svg("marker", { id: "trail-arrow", viewBox: "0 0 10 10", refX: 7, refY: 5,
      markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" }, svg("path", { d: "M0 0L10 5L0 10z", class: "trail-head" }))));
    this.trailLayer = svg("g", { class: "trails", "pointer-events": "none" });
    root.append(this.trailLayer);
    // Extended lines and columns: bands and parts in the hexes beyond their counters.
    this.extensionLayer = svg("g", { class: "extensions", "pointer-events": "none" });
    // Markers along a hex's sides (drawEdgeMarks), under the pieces.
    this.edgeLayer = svg("g", { class: "edge-marks", "pointer-events": "none" });
    this.unitLayer = svg("g", { class: "units" });
    // Places an action goes to that are no hex of the map (an area beyond its edge), each
    // marked at the hex the view puts it at: over the pieces, clicked like that hex.
    this.markLayer = svg("g", { class: "place-marks" });
    root.append(this.edgeLayer, this.extensionLayer, this.unitLayer, this.markLayer);
    // The keyboard's hex cursor, drawn over everything: a hex's own outline is half hidden
    // under its neighbours. Two tones, so that it shows on any terrain.
    this.ring = svg("g", { class: "focus-ring", "pointer-events": "none", style: "display: none" },
      svg("polygon", { class: "outer" }), svg("polygon", { class: "inner" }));
    root.append(this.ring);
    // A refused place is crossed out where it was clicked, the reason said under the map.
    this.refusedMark = svg("g", { class: "refused-mark", "pointer-events": "none", style: "display: none" },
      svg("path", { d: "" }));
    root.append(this.refusedMark);
    // The off-map strip is a row of its own above the map (the board is a flex column), so
    // that it never covers any of the map, however far it is zoomed or panned.
    // Not a Tab stop of its own (Chrome makes a scroller one): its blocks are reached by
    // the map's keys, and focusing one scrolls it into view.
    this.offNode = el("div", { class: "offmap", tabindex: this.keys ? -1 : null });
    // The strip only scrolls sideways: let a plain mouse wheel do that.
    this.offNode.addEventListener("wheel", (ev) => {
      const n = this.offNode;
      if (n.scrollWidth <= n.clientWidth || Math.abs(ev.deltaX) >= Math.abs(ev.deltaY)) return;
      ev.preventDefault();
      n.scrollLeft += ev.deltaY * (ev.deltaMode === 1 ? 16 : 1);
    }, { passive: false });
    // The hover line and the hint live in a bar of their own under the map: floating over
    // it they hid the hexes in its corners. The hover line keeps its room while empty, so
    // the map does not move when it fills.
    this.hover = el("div", { class: "hover" });
    this.refusal = el("div", { class: "refusal", id: "refusal", role: "alert", hidden: true });
    const zoom = (key, text, onclick) => el("button", { class: "zoom", type: "button", title: t(key),
      "aria-label": t(key), onclick }, text);
    const bar = el("div", { class: "map-bar" }, el("span", { class: "zoom-buttons" },
      zoom("map.zoom_in", "+", () => this.zoomBy(1 / 1.5)), zoom("map.zoom_out", "−", () => this.zoomBy(1.5)),
      zoom("map.zoom_fit", "⤢", () => this.zoomFit())), this.hover, el("div", { class: "hint" }, t(this.hint)),
      this.refusal);
    this.container.append(this.offNode, this.frame || root, bar);
    this.applyViewBox();
    this.enablePanZoom();
    if (this.big) this.enableHexPointer();
  }

  // A place of the map (a hex or a position) as a shape one clicks, hovers and focuses.
  place(h, points, cls, fill, stroke, width) {
    const poly = svg("polygon", { points, fill, stroke, "stroke-width": width, "data-hex": h.id, class: cls });
    poly.append(svg("title", {}, this.hexText(h)));
    poly.addEventListener("click", () => { if (!this.justDragged()) this.onHex?.(h.id); });
    poly.addEventListener("mouseenter", () => this.say(this.hexText(h)));
    if (this.keys) {
      poly.setAttribute("tabindex", -1);
      poly.setAttribute("role", "button");
      poly.setAttribute("aria-label", this.hexText(h));
      poly.addEventListener("focus", () => this.focused({ hex: h.id }, poly, this.hexText(h), h.id));
      poly.addEventListener("blur", () => { this.ring.style.display = "none"; });
    }
    this.polys.set(h.id, poly);
    return poly;
  }

  // --- a hex grid ---------------------------------------------------------------------------
  drawHexes(root) {
    const m = this.map;
    const corners = m.layout.corners || [];
    const hexLayer = svg("g", { class: "hexes" });
    const s = this.spacing;
    const levels = m.hexes.map((h) => h.ground).filter(Number.isFinite);
    const [lo, hi] = [Math.min(...levels), Math.max(...levels)];
    for (const h of m.hexes) {
      const [cx, cy] = this.centres.get(h.id);
      const pts = corners.map(([dx, dy]) => `${(cx + dx).toFixed(1)},${(cy - dy).toFixed(1)}`).join(" ");
      const base = TERRAIN[h.terrain] || TERRAIN.clear;
      const fill = mix(base, "#6b4a22", levelShade(h.ground ?? lo, lo, hi));
      hexLayer.append(this.place(h, pts, `hex t-${h.terrain}`, fill, "#8a7a55", s * 0.012));
    }
    root.append(hexLayer);
    const sideLayer = svg("g", { class: "sides", "pointer-events": "none" });
    const roadLayer = svg("g", { class: "roads", "pointer-events": "none" });
    for (const side of m.hexsides || []) {
      if (!side.seg) continue;
      const [[ax, ay], [bx, by]] = side.seg;
      const terr = side.terrain || [];
      if (terr.includes("river") || terr.includes("creek")) {
        sideLayer.append(svg("line", { x1: ax, y1: -ay, x2: bx, y2: -by, stroke: "#3f79b5",
          "stroke-width": s * (terr.includes("river") ? 0.09 : 0.05), "stroke-linecap": "round", class: "stream" }));
      }
      if (side.slope) {
        sideLayer.append(svg("line", { x1: ax, y1: -ay, x2: bx, y2: -by, stroke: "#7b4f22",
          "stroke-width": s * (side.slope === "hill" ? 0.06 : 0.035), "stroke-dasharray": `${s * 0.05} ${s * 0.035}`,
          class: `slope slope-${side.slope}` }));
      }
      for (const road of side.roads || []) {
        const a = this.centres.get(side.a); const b = this.centres.get(side.b);
        if (!a || !b) continue;
        const [colour, width, dash] = ROADS[road.rail ? "rail" : road.class] || ROADS.road;
        roadLayer.append(svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: colour,
          "stroke-width": s * width, "stroke-dasharray": dash ? dash.split(" ").map((v) => v * s).join(" ") : null,
          "stroke-linecap": "round", class: "road" }));
      }
    }
    root.append(sideLayer, roadLayer);
    const marks = svg("g", { class: "marks", "pointer-events": "none" });
    for (const h of m.hexes) {
      const [cx, cy] = this.centres.get(h.id);
      // Printed hex ids, as on the paper map (readable once zoomed in).
      marks.append(svg("text", { x: cx, y: cy + s * 0.4, "font-size": s * 0.11, "text-anchor": "middle",
        fill: "#6d5d3c", "fill-opacity": 0.75, class: "hex-id" }, h.id));
      if (!h.victory) continue;
      marks.append(svg("circle", { cx, cy: cy - s * 0.28, r: s * 0.13, fill: "#fff8e0", stroke: "#a4322b", "stroke-width": s * 0.02 }),
        svg("text", { x: cx, y: cy - s * 0.28, "font-size": s * 0.16, "text-anchor": "middle", "dominant-baseline": "central",
          fill: "#a4322b", "font-weight": "bold", class: "victory" }, h.victory));
    }
    root.append(marks, this.placeNames(m, s));
  }

  // The 1863 ground's names, as on the paper map: each named hex's first name (and a short
  // second one, "Seminary Ridge" beside the seminary), the town larger, and each road's name
  // once along the middle of its course. Under the pieces (drawn later), so a label never
  // hides a block; a pale halo keeps it readable on any ground.
  placeNames(m, s) {
    const layer = svg("g", { class: "place-names", "pointer-events": "none" });
    for (const n of this.nameSpecs(m, s)) {
      if (n.cls === "road") {
        layer.append(svg("text", { x: n.x, y: n.y, "font-size": n.size, "text-anchor": "middle",
          "dominant-baseline": "central", transform: `rotate(${n.angle.toFixed(1)} ${n.x.toFixed(1)} ${n.y.toFixed(1)})`,
          class: "road-name", "data-road": n.text }, n.text));
        continue;
      }
      const label = svg("text", { x: n.x, y: n.y, "font-size": n.size, "text-anchor": "middle", "data-hex": n.hex,
        class: n.cls === "town" ? "place-name place-town" : "place-name" }, n.text);
      if (n.second) label.append(svg("tspan", { x: n.x, dy: n.secondDy, "font-size": n.secondSize }, n.second));
      layer.append(label);
    }
    return layer;
  }

  // The names placeNames draws, as plain records (the canvas draws them too): { x, y, text,
  // size, cls: "place" | "town" | "road", second, secondSize, hex, angle }.
  nameSpecs(m, s) {
    const out = [];
    const seen = new Set();
    for (const h of m.hexes) {
      const [first, ...more] = h.names || [];
      if (!first || seen.has(first)) continue;
      seen.add(first);
      const second = more.find((n) => !n.startsWith(first) && n.length <= 16 && !seen.has(n));
      if (second) seen.add(second);
      const [cx, cy] = this.centres.get(h.id);
      const town = h.terrain === "town";
      const fs = s * (town ? 0.2 : 0.14);
      // Long names are set smaller, down to 75 %, rather than spill far over the neighbours.
      const k = Math.max(0.75, Math.min(1, (s * 1.2) / textWidth(first, fs, "bold")));
      const y = cy + s * (second ? 0.1 : 0.22);
      out.push({ x: cx, y, text: first, size: fs * k, cls: town ? "town" : "place", second: second || null,
        secondSize: fs * 0.85, secondDy: fs * 1.05, hex: h.id, angle: 0 });
    }
    // Each named road (farm lanes aside) once, on the hexside link nearest its middle.
    const roads = new Map();
    for (const side of m.hexsides || []) {
      for (const road of side.roads || []) {
        if (!road.name || /farm lane/.test(road.name)) continue;
        const a = this.centres.get(side.a); const b = this.centres.get(side.b);
        if (a && b) roads.set(road.name, [...(roads.get(road.name) || []), [a, b]]);
      }
    }
    for (const [name, links] of roads) {
      const mids = links.map(([a, b]) => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]);
      const mx = mids.reduce((v, p) => v + p[0], 0) / mids.length;
      const my = mids.reduce((v, p) => v + p[1], 0) / mids.length;
      const i = mids.map((p, j) => [Math.hypot(p[0] - mx, p[1] - my), j]).sort((p, q) => p[0] - q[0])[0][1];
      const [[ax, ay], [bx, by]] = links[i];
      let angle = Math.atan2(by - ay, bx - ax) * 180 / Math.PI;
      if (angle > 90) angle -= 180;
      if (angle < -90) angle += 180; // upright, never upside down
      const [x, y] = mids[i];
      out.push({ x, y, text: name, size: s * 0.13, cls: "road", second: null, hex: null, angle });
    }
    return out;
  }

  // --- a large hex grid, its ground on a canvas --------------------------------------------
  // The ground drawHexes draws, handed to a HexCanvas (maptiles.js) as fills, lines and
  // names; the SVG above it keeps the pieces, trails, highlights and the keyboard's ring.
  // Walls (which the SVG path does not draw) come with the hexside details.
  drawHexCanvas(root) {
    const m = this.map;
    const s = this.spacing;
    const levels = m.hexes.map((h) => h.ground).filter(Number.isFinite);
    const [lo, hi] = [Math.min(...levels), Math.max(...levels)];
    const cells = m.hexes.map((h) => {
      const [x, y] = this.centres.get(h.id);
      const base = TERRAIN[h.terrain] || TERRAIN.clear;
      return { id: h.id, x, y, victory: h.victory || null,
        fill: mix(base, "#6b4a22", levelShade(h.ground ?? lo, lo, hi)) };
    });
    const lines = [];
    const roads = [];
    for (const side of m.hexsides || []) {
      if (side.seg) {
        const [[ax, ay], [bx, by]] = side.seg;
        const at = { ax, ay: -ay, bx, by: -by };
        const terr = side.terrain || [];
        if (terr.includes("river") || terr.includes("creek")) {
          lines.push({ ...at, colour: "#3f79b5", width: s * (terr.includes("river") ? 0.09 : 0.05), dash: null, lod: null });
        }
        if (side.slope) {
          lines.push({ ...at, colour: "#7b4f22", width: s * (side.slope === "hill" ? 0.06 : 0.035),
            dash: [s * 0.05, s * 0.035], lod: "sides" });
        }
        if (side.wall) lines.push({ ...at, colour: "#5c5a55", width: s * 0.04, dash: [s * 0.03, s * 0.03], cap: "butt", lod: "sides" });
      }
      for (const road of side.roads || []) {
        const a = this.centres.get(side.a); const b = this.centres.get(side.b);
        if (!a || !b) continue;
        const [colour, width, dash] = ROADS[road.rail ? "rail" : road.class] || ROADS.road;
        roads.push({ ax: a[0], ay: a[1], bx: b[0], by: b[1], colour, width: s * width,
          dash: dash ? dash.split(" ").map((v) => v * s) : null, lod: null });
      }
    }
    const corners = (m.layout.corners || []).map(([dx, dy]) => [dx, -dy]);
    this.canvas = el("canvas", { class: "map-ground", "aria-hidden": "true",
      style: "position: absolute; inset: 0; width: 100%; height: 100%; pointer-events: none" });
    this.tiles = new HexCanvas(this.canvas, { cells, corners, spacing: s, lines: [...lines, ...roads],
      labels: this.nameSpecs(m, s), full: this.full });
    // The pieces on a canvas of their own over the ground (piececanvas.js): their SVG groups
    // keep only an invisible face to click and focus (app.css, `painted-pieces`).
    this.pieceCanvas = el("canvas", { class: "map-pieces", "aria-hidden": "true",
      style: "position: absolute; inset: 0; width: 100%; height: 100%; pointer-events: none" });
    this.pieces = new PieceCanvas(this.pieceCanvas);
    root.classList.add("painted-pieces");
    root.setAttribute("style", "position: absolute; inset: 0; width: 100%; height: 100%");
    // Contained: a step of the view lays out the map's frame alone, not the whole page.
    this.frame = el("div", { class: "map-frame", style: "position: relative; flex: 1 1 0; min-height: 0; contain: strict" },
      this.canvas, this.pieceCanvas, root);
    // The shapes of the hexes in play (LazyPlaces), under the pieces.
    this.hexLayer = svg("g", { class: "hexes" });
    root.append(this.hexLayer);
    const shape = (id) => {
      const h = this.hexes.get(id);
      const [cx, cy] = this.centres.get(id);
      const pts = corners.map(([dx, dy]) => `${(cx + dx).toFixed(1)},${(cy + dy).toFixed(1)}`).join(" ");
      const poly = this.place(h, pts, `hex t-${h.terrain}`, "#000", "none", 0);
      poly.setAttribute("fill-opacity", 0);
      this.hexLayer.append(poly);
      return poly;
    };
    this.polys = new LazyPlaces(this.hexes, shape);
    new ResizeObserver(() => this.paintGround()).observe(this.frame);
  }

  // The canvas follows the SVG's viewBox, once a frame however many steps the frame saw.
  paintGround() {
    if (this.groundFrame) return;
    this.groundFrame = requestAnimationFrame(() => {
      this.groundFrame = null;
      const r = this.frame.getBoundingClientRect();
      if (r.width && r.height) {
        this.tiles.draw(this.vb, r.width, r.height);
        this.pieces.draw(this.vb, r.width, r.height);
      }
    });
  }

  // The hex under a point of the screen, for a canvas-drawn map: a click selects it (as a
  // click on its shape would) and the hover line names it.
  enableHexPointer() {
    const under = (ev) => !ev.target.closest?.("polygon[data-hex], g.unit");
    this.svg.addEventListener("click", (ev) => {
      if (!under(ev) || this.justDragged()) return;
      const id = this.hexAtClient(ev.clientX, ev.clientY);
      if (id) this.onHex?.(id);
    });
    this.svg.addEventListener("pointermove", (ev) => {
      if (!under(ev) || this.dragged) return;
      const id = this.hexAtClient(ev.clientX, ev.clientY);
      if (id && id !== this.hoverHex) this.say(this.hexText(this.hexes.get(id)));
      this.hoverHex = id;
    });
  }

  hexAtClient(clientX, clientY) {
    const [x, y] = this.toMap(clientX, clientY);
    const s = this.spacing;
    const cell = (v) => Math.floor(v / s);
    let best = null;
    for (let i = -1; i <= 1; i++) for (let j = -1; j <= 1; j++) {
      for (const id of this.bucketGrid().get(`${cell(x) + i},${cell(y) + j}`) || []) {
        const [cx, cy] = this.centres.get(id);
        const d = Math.hypot(x - cx, y - cy);
        if (d < s * 0.62 && (!best || d < best.d)) best = { id, d };
      }
    }
    return best?.id ?? null;
  }

  // Places by square cells of one spacing (for neighbours and the hex under a point).
  bucketGrid() {
    if (!this.buckets) {
      const s = this.spacing;
      const cell = (v) => Math.floor(v / s);
      this.buckets = new Map();
      for (const [id, [x, y]] of this.centres) {
        const k = `${cell(x)},${cell(y)}`;
        if (!this.buckets.has(k)) this.buckets.set(k, []);
        this.buckets.get(k).push(id);
      }
    }
    return this.buckets;
  }

  // A point of the screen in map units, and the map units per CSS px (the SVG's fitting).
  toMap(clientX, clientY) {
    const r = this.svg.getBoundingClientRect();
    const scale = Math.max(this.vb.w / r.width, this.vb.h / r.height);
    const ox = this.vb.x + (this.vb.w - r.width * scale) / 2;
    const oy = this.vb.y + (this.vb.h - r.height * scale) / 2;
    return [ox + (clientX - r.left) * scale, oy + (clientY - r.top) * scale, scale];
  }

  // --- a graph of positions ------------------------------------------------------------------
  // The distance pieces and labels are sized by: the median length of the map's links (else
  // of the distances between neighbouring positions).
  graphSpacing(m) {
    const at = (id) => this.centres.get(id);
    let lengths = (m.links || []).filter((l) => at(l.a) && at(l.b))
      .map((l) => Math.hypot(at(l.a)[0] - at(l.b)[0], at(l.a)[1] - at(l.b)[1])).filter((d) => d > 0);
    if (!lengths.length) {
      const all = [...this.centres.values()];
      lengths = all.map(([x, y]) => Math.min(...all.map(([u, v]) => Math.hypot(x - u, y - v) || Infinity)))
        .filter(Number.isFinite);
    }
    lengths.sort((a, b) => a - b);
    return lengths[Math.floor(lengths.length / 2)] || 1000;
  }

  // The ground under a graph (the map's optional `ground`: landcover areas, streams and
  // roads in the map's metres), pale so that the links and positions stay in front.
  groundLayer(ground, lw) {
    const g = svg("g", { class: "ground", "pointer-events": "none", opacity: 0.55 });
    const path = (pts) => pts.map(([x, y], i) => `${i ? "L" : "M"}${x},${-y}`).join("");
    for (const a of ground.areas || []) {
      g.append(svg("path", { d: path(a.points) + "Z", fill: TERRAIN[a.kind] || "#ece4c4",
        stroke: "none", class: `ground-${String(a.kind).replace(/[^\w-]/g, "_")}` }));
    }
    for (const l of ground.lines || []) {
      const water = l.kind === "stream";
      const [colour, width, dash] = water ? ["#3f79b5", 0.04, null] : ROADS[l.kind] || ROADS.trail;
      g.append(svg("path", { d: path(l.points), fill: "none", stroke: colour,
        "stroke-width": lw * width * 0.6, "stroke-dasharray": dash ? dash.split(" ").map((v) => v * lw).join(" ") : null,
        class: water ? "ground-stream" : "ground-road" }));
    }
    return g;
  }

  // Links as lines by kind, under the positions: named circles (polygons of many sides, so
  // that the keyboard's ring and the highlights treat them as they treat hexes).
  drawGraph(root) {
    const m = this.map;
    const s = this.spacing;
    this.adjacent = new Map();
    // Discs sized to the map: a third of the median distance to the nearest position (a
    // crowded map of sixty positions would otherwise be discs over discs), never more than
    // a third of the median link; each disc smaller still where a neighbour is nearer, so
    // that no two overlap. Labels and link widths go with the disc size, long names on
    // two lines.
    const nearest = this.nearestDistances();
    const median = [...nearest.values()].sort((a, b) => a - b)[Math.floor(nearest.size / 2)] || s;
    const r0 = Math.min(s * 0.32, median * 0.34);
    const lw = r0 / 0.32; // the spacing link widths are reckoned in (s, on a roomy map)
    if (m.ground) root.append(this.groundLayer(m.ground, lw));
    const links = svg("g", { class: "links", "pointer-events": "none" });
    for (const l of m.links || []) {
      const a = this.centres.get(l.a); const b = this.centres.get(l.b);
      if (!a || !b) continue;
      for (const [p, q] of [[l.a, l.b], [l.b, l.a]]) this.adjacent.set(p, [...(this.adjacent.get(p) || []), q]);
      const [colour, width, dash] = LINKS[l.kind] || LINK_PLAIN;
      links.append(svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: colour, "stroke-width": lw * width,
        "stroke-dasharray": dash ? dash.split(" ").map((v) => v * lw).join(" ") : null, "stroke-linecap": "round",
        class: `link link-${String(l.kind || "plain").replace(/[^\w-]/g, "_")}`, "data-a": l.a, "data-b": l.b }));
    }
    const layer = svg("g", { class: "positions" });
    const marks = svg("g", { class: "marks", "pointer-events": "none" });
    const fs = Math.max(r0 * 0.5, median * 0.12);
    for (const h of m.positions || []) {
      const [cx, cy] = this.centres.get(h.id);
      const r = Math.min(r0, (nearest.get(h.id) ?? Infinity) * 0.45);
      const pts = Array.from({ length: 32 }, (_, i) => {
        const a = (i / 32) * 2 * Math.PI;
        return `${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`;
      }).join(" ");
      const fill = TERRAIN[h.terrain] || "#f6efd9";
      layer.append(this.place(h, pts, "position", fill, "#6d5d3c", r * 0.08));
      const name = String(h.name || h.id);
      const label = svg("text", { x: cx, y: cy + r + fs, "font-size": fs, "text-anchor": "middle",
        fill: "#3a3327", stroke: "#f6efd9", "stroke-width": fs * 0.22, "paint-order": "stroke",
        class: "position-name" });
      const cut = name.length > 14 ? [...name.matchAll(/ /g)].map((x) => x.index)
        .sort((a, b) => Math.abs(a - name.length / 2) - Math.abs(b - name.length / 2))[0] : undefined;
      if (cut === undefined) label.textContent = name;
      else {
        label.append(svg("tspan", { x: cx }, name.slice(0, cut + 1)),
          svg("tspan", { x: cx, dy: fs * 1.05 }, name.slice(cut + 1)));
      }
      marks.append(label);
      if (h.victory) {
        marks.append(svg("text", { x: cx, y: cy - r - fs * 0.4, "font-size": fs * 1.1, "text-anchor": "middle",
          fill: "#a4322b", "font-weight": "bold", class: "victory" }, h.victory));
      }
    }
    root.append(links, layer, marks);
  }

  // Each position's distance to the nearest other one.
  nearestDistances() {
    const all = [...this.centres];
    return new Map(all.map(([id, [x, y]]) => [id, Math.min(...all.filter(([j]) => j !== id)
      .map(([, [u, v]]) => Math.hypot(x - u, y - v)).filter((d) => d > 0))]));
  }

  justDragged() {
    return this.dragged || performance.now() < (this.suppressUntil || 0);
  }

  // A place in words: its id (and name), terrain, level, victory value and other names,
  // as far as the map gives them.
  hexText(h) {
    const parts = [h.id, h.name && h.name !== h.id ? h.name : null,
      h.terrain ? t("terrain." + h.terrain) : null, h.ground === undefined ? null : `${t("map.level")} ${h.ground}`,
      h.victory ? `${t("map.victory")} ${h.victory}` : null, (h.names || []).join(", ") || null];
    return parts.filter((p) => p !== null).join(" · ");
  }

  // Why a click on `place` did nothing: the place crossed out, the words under the map
  // (and read out: the line is an alert). `refuse(null)` clears both.
  refuse(place, text) {
    if (!this.refusal) return;
    this.refusal.textContent = text || "";
    this.refusal.hidden = !text;
    const at = place ? this.centres.get(place) : null;
    this.refusedMark.style.display = at && text ? "" : "none";
    if (at && text) {
      const [x, y] = at;
      const r = this.spacing * 0.28;
      this.refusedMark.dataset.place = place;
      this.refusedMark.firstChild.setAttribute("d",
        `M${x - r} ${y - r}L${x + r} ${y + r}M${x - r} ${y + r}L${x + r} ${y - r}`);
      this.refusedMark.firstChild.setAttribute("stroke-width", this.spacing * 0.09);
    }
  }

  say(text) {
    if (!this.hover) return; // a tray has no hover line
    this.hover.textContent = text;
    this.hover.title = text; // the whole of it, should a narrow screen cut the line
  }

  applyViewBox() {
    const v = this.vb;
    this.svg.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
    if (this.tiles) this.paintGround();
    // Kept for the next visit of the page (startView), so a reload keeps zoom and pan.
    if (this.viewKey) {
      try { localStorage.setItem(this.viewKey, JSON.stringify(v)); } catch { /* storage full or off */ }
    }
  }

  // Where a player's map starts: as they left it on this page (`key` in localStorage),
  // else the map fitted to the board's width (a tall map in a wide window was a narrow
  // column with unreadable hexes) and centred on `home`, the places of their own pieces;
  // `zoom` times closer than that where a guide asks (the tutorial's few blocks).
  startView(key, home = [], zoom = 1) {
    if (!this.map) return;
    let kept = null;
    try { kept = key ? JSON.parse(localStorage.getItem(key) || "null") : null; } catch { kept = null; }
    this.viewKey = key;
    if (kept && ["x", "y", "w", "h"].every((k) => Number.isFinite(kept[k])) && kept.w > 0 && kept.h > 0) {
      this.vb = { x: kept.x, y: kept.y, w: kept.w, h: kept.h };
      this.applyViewBox();
      return;
    }
    const box = this.svg.getBoundingClientRect();
    if (!box.width || !box.height) return;
    const aspect = box.width / box.height;
    let [w, h] = [this.full.w, this.full.w / aspect];
    if (h > this.full.h) [w, h] = [this.full.h * aspect, this.full.h];
    if (zoom > 1) [w, h] = [w / zoom, h / zoom];
    const points = home.map((p) => this.centres.get(p)).filter((c) => c);
    const mean = (i, whole) => (points.length ? points.reduce((sum, c) => sum + c[i], 0) / points.length : whole);
    const cx = mean(0, this.full.x + this.full.w / 2);
    const cy = mean(1, this.full.y + this.full.h / 2);
    const clamp = (v, lo, hi) => Math.min(Math.max(v, lo), Math.max(lo, hi));
    this.vb = { x: clamp(cx - w / 2, this.full.x, this.full.x + this.full.w - w),
      y: clamp(cy - h / 2, this.full.y, this.full.y + this.full.h - h), w, h };
    this.applyViewBox();
  }

  enablePanZoom() {
    const root = this.svg;
    const toSvg = (cx, cy) => {
      const r = root.getBoundingClientRect();
      const scale = Math.max(this.vb.w / r.width, this.vb.h / r.height);
      const ox = this.vb.x + (this.vb.w - r.width * scale) / 2;
      const oy = this.vb.y + (this.vb.h - r.height * scale) / 2;
      return [ox + (cx - r.left) * scale, oy + (cy - r.top) * scale, scale];
    };
    // Zoom by `f` (< 1: in) about the map point (px, py), within a few hexes and the whole map.
    const zoomAt = (px, py, f) => {
      const w = Math.min(this.full.w * 1.5, Math.max(this.spacing * 3, this.vb.w * f));
      const k = w / this.vb.w;
      this.vb = { x: px - (px - this.vb.x) * k, y: py - (py - this.vb.y) * k, w, h: this.vb.h * k };
      this.applyViewBox();
    };
    root.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      const [px, py] = toSvg(ev.clientX, ev.clientY);
      zoomAt(px, py, Math.exp(ev.deltaY * 0.0015));
    }, { passive: false });
    // Without a wheel (a phone, a keyboard): buttons that zoom about the map's centre.
    this.zoomBy = (f) => zoomAt(this.vb.x + this.vb.w / 2, this.vb.y + this.vb.h / 2, f);
    this.zoomFit = () => { this.vb = { ...this.full }; this.applyViewBox(); };
    // One finger (or the mouse) drags; two fingers pinch, zooming about their midpoint and
    // panning with it. A pinch, like a drag, is never also a click.
    const pointers = new Map();
    let drag = null;
    let pinch = null;
    const spread = () => {
      const [a, b] = [...pointers.values()];
      return { d: Math.hypot(a.x - b.x, a.y - b.y) || 1, x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    };
    root.addEventListener("pointerdown", (ev) => {
      if (ev.isPrimary) { pointers.clear(); pinch = null; } // the first finger down: none left over
      pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      if (pointers.size > 1) {
        if (pointers.size === 2) { pinch = spread(); drag = null; this.dragged = true; }
        return;
      }
      drag = { x: ev.clientX, y: ev.clientY, vb: { ...this.vb }, scale: toSvg(ev.clientX, ev.clientY)[2] };
      this.dragged = false;
    });
    // A new press anywhere on the board: whatever click follows it is a real one.
    this.container.addEventListener("pointerdown", () => { this.suppressUntil = 0; }, true);
    root.addEventListener("pointermove", (ev) => {
      if (pointers.has(ev.pointerId)) pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      if (pinch && pointers.size === 2) {
        const now = spread();
        const [px, py] = toSvg(now.x, now.y);
        zoomAt(px, py, pinch.d / now.d);
        const scale = toSvg(now.x, now.y)[2];
        this.vb = { ...this.vb, x: this.vb.x - (now.x - pinch.x) * scale, y: this.vb.y - (now.y - pinch.y) * scale };
        this.applyViewBox();
        pinch = now;
        return;
      }
      if (!drag) return;
      const dx = ev.clientX - drag.x; const dy = ev.clientY - drag.y;
      if (!this.dragged && Math.hypot(dx, dy) < 4) return;
      if (!this.dragged) { this.dragged = true; root.setPointerCapture(ev.pointerId); root.classList.add("dragging"); }
      this.vb = { ...drag.vb, x: drag.vb.x - dx * drag.scale, y: drag.vb.y - dy * drag.scale };
      this.applyViewBox();
    });
    // The click that ends a drag must not count as a click on a hex or block. No timer:
    // browsers throttle timers in background pages, which would swallow real clicks.
    const end = (ev) => {
      pointers.delete(ev.pointerId);
      // The click a drag ends with follows its pointerup within a millisecond or so.
      if (this.dragged) this.suppressUntil = performance.now() + 60;
      // The finger left after a pinch does not drag (nor click) until lifted too.
      if (pinch) { pinch = null; drag = null; return; }
      drag = null; this.dragged = false; root.classList.remove("dragging");
    };
    root.addEventListener("pointerup", end);
    root.addEventListener("pointercancel", end);
  }

  // --- without a map: the blocks stand in a tray, one row per side --------------------------
  buildTray() {
    this.tray = el("div", { class: "tray" });
    this.container.append(this.tray);
  }

  // --- blocks ------------------------------------------------------------------------------
  // A piece in the system's style: an upright block (square, tilted, a shadow under it), a
  // faced counter (square, flat, an edge showing its thickness), a division's marker (a
  // wide label) or a plain marker (a disc). `size` is the piece's width.
  drawBlock(u, size, x, y, tilt, selected, stack = null) {
    const g = this.drawPiece(u, size, x, y, tilt, selected, stack);
    // A map's piece, for the pieces' canvas (placePieces draws only those).
    this.painted?.push({ g, x, y, size, colours: this.colours[u.side] || NO_COLOUR });
    return g;
  }

  drawPiece(u, size, x, y, tilt, selected, stack) {
    // A piece drawn as it was at the last render is that node again: a click redraws the
    // map's pieces, and with a thousand counters building each afresh was most of a click's
    // cost (benchmarks/bench_client_counters.py). The key holds everything drawn from.
    const memoKey = JSON.stringify([u, size, x, y, tilt, Boolean(selected), this.counters, Boolean(this.keys), stack]);
    const memo = this.drawn?.get(u.id);
    if (memo && memo.key === memoKey) {
      if (this.keys) { this.blocks.set(u.id, memo.g); this.words.set(u.id, memo.words); }
      return memo.g;
    }
    const g = this.drawFresh(u, size, x, y, tilt, selected);
    if (stack) {
      // In a stack (`{ids, top}`): the top carries the count, and a click on any of its
      // counters opens the stack rather than selecting.
      if (stack.top) {
        g.append(stackBadge(stack.ids.length, size));
        g.dataset.stack = String(stack.ids.length);
      }
      g.addEventListener("click", (ev) => {
        if (!this.onStack) return;
        ev.stopImmediatePropagation();
        if (!this.justDragged()) this.onStack(stack.ids, u.hex);
      }, { capture: true });
    }
    (this.drawn ??= new Map()).set(u.id, { key: memoKey, g, words: this.words.get(u.id) });
    return g;
  }

  drawFresh(u, size, x, y, tilt, selected) {
    const [face, edge] = this.colours[u.side] || NO_COLOUR;
    const style = this.counters;
    const side = String(u.side).replace(/[^\w-]/g, "_");
    const g = svg("g", { class: `unit piece-${style} side-${side}${selected ? " selected" : ""}`, "data-unit": u.id,
      "data-side": u.side, transform: `translate(${x} ${y}) rotate(${style === "blocks" ? tilt : 0})` });
    // The piece's box (half width, half height) for its shape and its keyboard ring.
    const [hw, hh] = style === "divisions" ? [size * 0.75, size * 0.32] : [size / 2, size / 2];
    if (style === "markers" || u.leader) {
      g.append(svg("circle", { class: "face", r: hw, fill: face, stroke: edge, "stroke-width": size * 0.06 }));
    } else if (style === "counters") {
      g.append(svg("rect", { x: -hw + size * 0.05, y: -hh + size * 0.05, width: 2 * hw, height: 2 * hh,
        rx: size * 0.03, fill: edge }));
      g.append(svg("rect", { class: "face", x: -hw, y: -hh, width: 2 * hw, height: 2 * hh, rx: size * 0.03,
        fill: face, stroke: edge, "stroke-width": size * 0.03 }));
    } else {
      const round = style === "divisions" ? hh : size * 0.1;
      g.append(svg("rect", { x: -hw + size * 0.06, y: -hh + size * 0.08, width: 2 * hw, height: 2 * hh,
        rx: round, fill: "rgba(0,0,0,.3)" }));
      g.append(svg("rect", { class: "face", x: -hw, y: -hh, width: 2 * hw, height: 2 * hh, rx: round,
        fill: face, stroke: edge, "stroke-width": size * 0.05 }));
    }
    const known = u.name !== null || u.strength !== null || u.type !== null;
    if (u.leader) {
      // A leader's small round counter: his name's first letters (the title says the rest).
      g.classList.add("leader");
      g.append(svg("text", { class: "block-label", x: 0, y: 0, "font-size": size * 0.42, "text-anchor": "middle",
        "dominant-baseline": "central", fill: "#fff", "font-weight": "bold" }, String(u.name).slice(0, 2)));
    } else if (known) {
      // What the view gives for this block: name, type and strength.
      // Never cut a label: one too wide for the block is set smaller (down to 60 %), and
      // then squeezed into the block's width if it still does not fit.
      const room = size * 0.88;
      const txt = (text, dy, fs, weight = "normal") => {
        const wide = textWidth(text, fs, weight);
        const k = Math.max(0.6, Math.min(1, room / wide));
        const squeeze = wide * k > room ? { textLength: room, lengthAdjust: "spacingAndGlyphs" } : {};
        return svg("text", { class: "block-label", x: 0, y: dy, "font-size": fs * k, "text-anchor": "middle",
          "dominant-baseline": "central", fill: "#fff", "font-weight": weight, ...squeeze }, text);
      };
      const name = blockName(u);
      if (style === "markers") {
        // A disc says its strength only (the hover line and the title say the rest).
        if (u.strength !== null) g.append(txt(String(u.strength), size * 0.02, size * 0.4, "bold"));
      } else if (style === "divisions") {
        // A division's marker: its name across, its strength after it.
        const label = [u.name === null ? null : name, u.strength].filter((v) => v !== null).join(" · ");
        const wide = 2 * hw * 0.9;
        const fs = Math.min(size * 0.26, wide / Math.max(1, textWidth(label, 1, "normal")));
        g.append(svg("text", { class: "block-label", x: 0, y: 0, "font-size": fs, "text-anchor": "middle",
          "dominant-baseline": "central", fill: "#fff" }, label));
      } else if (u.rating === null && u.movement === null) {
        if (u.name !== null) g.append(wrapped(name, size, room, txt, -size * 0.28, size * 0.17, -size * 0.36));
        if (u.strength !== null) g.append(txt(strengthText(u), size * 0.03, size * 0.36, "bold"));
        if (u.type !== null) g.append(wrapped(typeWord(u.type), size, room, txt, size * 0.33, size * 0.14, size * 0.285));
      } else {
        // The whole printed label: name; rating (left) and movement allowance (right);
        // strength over maximum; type.
        if (u.name !== null) g.append(wrapped(name, size, room, txt, -size * 0.33, size * 0.14, -size * 0.4));
        if (u.strength !== null) g.append(txt(strengthText(u), size * 0.075, size * 0.21, "bold"));
        if (u.type !== null) g.append(wrapped(typeWord(u.type), size, room, txt, size * 0.36, size * 0.12, size * 0.3));
        const mark = (text, cls, x, anchor) => svg("text", { class: `block-mark ${cls}`, x, y: -size * 0.09,
          "font-size": size * 0.12, "text-anchor": anchor, "dominant-baseline": "central", fill: "#fff",
          "font-weight": "bold" }, text);
        if (u.rating !== null) g.append(mark(String(u.rating), "block-rating", -size * 0.42, "start"));
        if (u.movement !== null) g.append(mark(String(u.movement), "block-movement", size * 0.42, "end"));
      }
      if (style === "counters") decorate(g, u, size, this.map?.layout);
    } else if (style !== "markers") {
      // A hidden block shows its back: a plain face with an inner frame, no words.
      const k = style === "divisions" ? 0.8 : 0.62;
      g.append(svg("rect", { class: "back", x: -hw * k, y: -hh * k, width: 2 * hw * k, height: 2 * hh * k,
        rx: size * 0.06, fill: "none", stroke: edge, "stroke-width": size * 0.04 }));
    }
    const title = known ? [u.id, u.name, u.type === null ? null : typeWord(u.type),
      u.strength === null ? null : strengthText(u),
      u.rating === null ? null : `${t("unit.rating")} ${u.rating}`,
      u.movement === null ? null : `${t("unit.movement")} ${u.movement}`, u.away ? awayText(u) : null]
      .filter((v) => v !== null).join(" · ") : t("unit.hidden");  // a handle means nothing to a player
    g.append(svg("title", {}, title));
    // The hover line says what the block is, and where when it stands on the map.
    const h = this.hexes.get(u.hex);
    const said = h ? `${title} — ${this.hexText(h)}` : title;
    g.addEventListener("mouseenter", () => this.say(said));
    g.addEventListener("click", (ev) => { ev.stopPropagation(); if (!this.justDragged()) this.onUnit?.(u.id); });
    if (this.keys) {
      const words = known ? [u.name === null ? null : blockName(u), u.type === null ? null : typeWord(u.type),
        u.strength === null ? null : strengthText(u)]
        .filter((v) => v !== null).join(" · ") : t("unit.hidden");
      g.setAttribute("tabindex", -1);
      g.setAttribute("role", "button");
      g.setAttribute("aria-pressed", selected ? "true" : "false");
      g.setAttribute("aria-label", h ? `${words} — ${h.id}` : words);
      // Shown by app.css while the block has the keyboard's focus.
      const ring = (cls) => svg("rect", { class: `focus-ring ${cls}`, x: -hw - size * 0.05, y: -hh - size * 0.05,
        width: 2 * hw + size * 0.1, height: 2 * hh + size * 0.1, rx: size * 0.13 });
      g.append(ring("outer"), ring("inner"));
      g.addEventListener("focus", () => this.focused({ unit: u.id }, g, said, u.hex));
      this.blocks.set(u.id, g);
      this.words.set(u.id, words);
    }
    return g;
  }

  // What happened since the player last acted, drawn over the ground: each `{kind, path}`
  // a trail ("move": along its places, an arrow at its end), a shot ("fire": from the
  // firer's place to its target, the target ringed) or a melee ("melee": its place ringed).
  drawTrails(trails) {
    if (!this.trailLayer) return;
    const layer = svg("g", { class: "trails", "pointer-events": "none" });
    const w = this.spacing;
    for (const tr of trails) {
      const pts = tr.path.map((p) => this.centres.get(p)).filter((c) => c);
      if (!pts.length) continue;
      const line = (cls, points) => svg("polyline", { class: cls, points: points.map((c) => c.join(",")).join(" "),
        "stroke-width": w * 0.07, fill: "none", "marker-end": cls === "trail-line" ? "url(#trail-arrow)" : null,
        "stroke-dasharray": cls === "trail-line" ? `${w * 0.2} ${w * 0.1}` : null });
      const g = svg("g", { class: `trail trail-${tr.kind}`, "data-kind": tr.kind, "data-to": tr.path.at(-1) });
      if (tr.kind === "move" && pts.length > 1) g.append(line("trail-line", pts));
      if (tr.kind === "fire" && pts.length > 1) g.append(line("fire-line", pts));
      if (tr.kind !== "move") {
        const [x, y] = pts.at(-1);
        g.append(svg("circle", { class: `${tr.kind}-mark`, cx: x, cy: y, r: w * 0.42, "stroke-width": w * 0.08, fill: "none" }));
      }
      layer.append(g);
    }
    this.trailLayer.replaceWith(layer);
    this.trailLayer = layer;
  }

  // `actors`: the blocks the player can act with (N steps through them).
  render(view, { selected = null, dests = new Set(), attacks = new Set(), armed = null,
                 reach = new Set(), actors = new Set(), trails = null, marks = new Map() } = {}) {
    if (trails) this.drawTrails(trails);
    const units = unitsOf(view);
    // Blocks are drawn afresh: one that has the focus gets it back once redrawn.
    const active = document.activeElement;
    const focusedUnit = this.keys && this.container.contains(active) ? active.getAttribute("data-unit") : null;
    this.blocks = new Map();
    this.words = new Map();
    this.draw(units, selected, dests, attacks, armed, reach);
    if (this.centres.size) this.drawEdgeMarks(view);
    if (this.markLayer) this.drawPlaceMarks(marks);
    if (this.keys) this.afterDraw(units, { selected, dests, attacks, armed, actors }, focusedUnit);
  }

  draw(units, selected, dests, attacks, armed, reach) {
    if (this.map) {
      // A canvas-drawn map makes the shapes of the hexes to light up (LazyPlaces).
      if (this.big) for (const id of [...dests, ...attacks, ...reach, armed]) this.polys.get(id);
      for (const [id, poly] of this.polys) {
        poly.classList.toggle("dest", dests.has(id) && !attacks.has(id));
        poly.classList.toggle("attack", attacks.has(id));
        poly.classList.toggle("armed", id === armed);
        poly.classList.toggle("in-range", reach.has(id));
      }
      const byHex = new Map();
      for (const u of units) if (u.hex && this.centres.has(u.hex)) {
        if (!byHex.has(u.hex)) byHex.set(u.hex, []);
        byHex.get(u.hex).push(u);
      }
      // The pieces in drawing order, put into the layer in place: a piece drawn as before is
      // the same node (drawBlock's memo) and stays where it is, so the browser restyles only
      // what changed rather than a thousand counters on every click.
      const next = [];
      this.painted = [];
      for (const [hex, list] of byHex) this.placePieces({ append: (g) => next.push(g) }, list, this.centres.get(hex), selected);
      reconcile(this.unitLayer, next);
      this.drawExtensions(units);
      this.pieces?.set(this.painted);
      this.painted = null; // the off-map strip's pieces are its own
      // Blocks not on the map wait in a strip (it scrolls), selectable: those still to come
      // first, then the eliminated, greyed, under their own label.
      const off = units.filter((u) => !u.hex || !this.centres.has(u.hex));
      const gone = off.filter((u) => u.raw.status === "eliminated");
      const waiting = off.filter((u) => u.raw.status !== "eliminated");
      this.offNode.replaceChildren();
      const strip = (list, label, cls) => {
        if (!list.length) return;
        const [size, gap] = [OFF_MAP_BLOCK, OFF_MAP_GAP];
        const slot = size * (this.counters === "divisions" ? 1.5 : 1); // a division's marker is wide
        const box = svg("svg", { width: list.length * (slot + gap) + gap, height: size + 2 * gap, class: cls });
        list.forEach((u, i) => box.append(this.drawBlock(u, size, gap + slot / 2 + i * (slot + gap),
          gap + size / 2, 0, u.id === selected)));
        this.offNode.append(el("span", { class: "muted" }, label), box);
        // Pieces away for a while say where and from when they come back.
        const away = list.filter((u) => u.away);
        if (away.length) {
          this.offNode.append(el("ul", { class: "off-away" }, ...away.map((u) => el("li", { "data-unit": u.id },
            `${blockName(u)}: ${awayText(u)}`))));
        }
      };
      strip(waiting, t("map.off_map"), "off-waiting");
      strip(gone, t("map.eliminated"), "off-eliminated");
      return;
    }
    this.tray.replaceChildren();
    const sides = [...new Set([...this.seats, ...units.map((u) => u.side)])];
    for (const side of sides) {
      const mine = units.filter((u) => u.side === side);
      if (!mine.length) continue;
      const size = 64;
      const box = svg("svg", { width: mine.length * (size + 22) + 10, height: size + 34, class: "tray-svg" });
      mine.forEach((u, i) => {
        const x = 16 + size / 2 + i * (size + 22);
        box.append(this.drawBlock(u, size, x, size / 2 + 12, i % 2 ? 4 : -4, u.id === selected),
          svg("text", { x, y: size + 28, "font-size": 11, "text-anchor": "middle", fill: "#6d6250", class: "block-id" }, u.id));
      });
      this.tray.append(el("div", { class: "side-row" }, el("h4", {}, seatName(side)), box));
    }
  }

  // Markers lying along the two hexsides of a hex's corner: every list of the view whose
  // entries all give a `hex` and a `vertex` (a corner, as a vertex facing names it), each
  // list drawn in its own line (`data-kind`: its key), titled in the view's words for it.
  // `marks`: hex -> {field, value} (units.js, placeMarks): a place beyond the map's edge, as
  // a disc with the value ("→12") just outside the map from its hex, away from the map's
  // middle, a dashed line joining the two; titled in the catalogue's word for the field. A
  // click on it is a click on the hex.
  drawPlaceMarks(marks) {
    const s = this.spacing;
    const mid = [this.full.x + this.full.w / 2, this.full.y + this.full.h / 2];
    const shapes = [...marks].map(([hex, m]) => {
      const c = this.centres.get(hex);
      if (!c) return null;
      const [x, y] = c;
      const d = Math.hypot(x - mid[0], y - mid[1]) || 1;
      const [ox, oy] = [(x - mid[0]) / d * 2 * s, (y - mid[1]) / d * 2 * s];
      const r = 1.1 * s;
      const word = `${tOr(`field.${m.field}`, m.field)} ${m.value}`;
      const g = svg("g", { class: "place-mark", "data-hex": hex, "data-field": m.field, "data-value": m.value },
        svg("title", {}, `${word} — ${hex}`),
        svg("line", { x1: x, y1: y, x2: x + ox, y2: y + oy, class: "place-mark-line" }),
        svg("circle", { cx: x + ox, cy: y + oy, r, class: "place-mark-disc" }),
        svg("text", { x: x + ox, y: y + oy + r * 0.3, "font-size": r * 0.85, "text-anchor": "middle",
          class: "place-mark-text" }, `→${m.value}`));
      g.addEventListener("click", (ev) => { ev.stopPropagation(); if (!this.justDragged()) this.onHex?.(hex); });
      return g;
    }).filter((g) => g);
    this.markLayer.replaceChildren(...shapes);
  }

  drawEdgeMarks(view) {
    const lists = Object.entries(view || {}).filter(([, v]) => Array.isArray(v) && v.length
      && v.every((m) => m && typeof m === "object" && typeof m.hex === "string" && Number.isInteger(m.vertex)));
    const drawn = JSON.stringify(lists);
    if (drawn === this.edgeDrawn) return; // the same markers: the layer stays as it is
    this.edgeDrawn = drawn;
    const shapes = lists.flatMap(([key, marks], i) => marks.map((m) => {
      const c = this.centres.get(m.hex);
      const line = c ? edgeMarkShape(c, m.vertex, this.spacing, this.map?.layout, i) : null;
      if (!line) return null;
      line.setAttribute("class", "edge-mark");
      line.dataset.kind = key;
      line.dataset.hex = m.hex;
      line.dataset.vertex = String(m.vertex);
      line.append(svg("title", {}, `${t(`view.${key}`) === `view.${key}` ? key : t(`view.${key}`)} — ${m.hex}`));
      return line;
    })).filter((g) => g);
    this.edgeLayer.replaceChildren(...shapes);
  }

  // Each piece on the map that holds more than its hex (`extension`), drawn from its hex
  // through the others; the size of a counter's.
  drawExtensions(units) {
    const size = this.spacing * 0.5;
    const shapes = units.filter((u) => u.extension && this.centres.has(u.hex)).map((u) => {
      const centres = [u.hex, ...u.extension.hexes].map((h) => this.centres.get(h));
      if (centres.some((c) => !c)) return null;
      return extensionShape(u, centres, size, this.colours[u.side] || NO_COLOUR, this.map?.layout);
    }).filter((g) => g);
    this.extensionLayer.replaceChildren(...shapes);
  }

  // The pieces standing on one place. Faced counters stack, each a little up and to the
  // right of the one under it, as on the table. Other pieces stand side by side: one, two,
  // or a square grid of smaller ones (the last row centred), sized to keep a stack,
  // tilted and with its shadow, inside its hex, which reaches only spacing/2 either side
  // of its centre across its flat sides.
  placePieces(layer, list, [cx, cy], selected) {
    const n = list.length;
    if (this.counters === "counters") {
      // A stack is a pile, each counter a little up and to the right of the one under it,
      // as on the table; its top (the selected one when it is in the stack, else the last)
      // carries the count, and a click on any of its counters opens the stack (`onStack`)
      // rather than selecting. Leaders stand beside it as small round counters.
      const size = this.spacing * 0.5;
      const leaders = list.filter((u) => u.leader);
      leaders.forEach((u, i) => layer.append(this.drawBlock(u, size * 0.4, cx - size * 0.62 + i * size * 0.18,
        cy + size * 0.5, 0, u.id === selected)));
      const troops = [...list.filter((u) => !u.leader && u.id !== selected),
        ...list.filter((u) => !u.leader && u.id === selected)];
      const m = troops.length;
      const off = size * Math.min(0.12, 0.3 / Math.max(1, m));
      troops.forEach((u, i) => {
        const stack = m > 1 ? { ids: troops.map((t) => t.id), top: i === m - 1 } : null;
        layer.append(this.drawBlock(u, size, cx + (i - (m - 1) / 2) * off, cy - (i - (m - 1) / 2) * off, 0,
          u.id === selected, stack));
      });
      return;
    }
    const wide = this.counters === "divisions" ? 1.5 : 1;
    const cols = n > 2 ? Math.ceil(Math.sqrt(n)) : this.counters === "divisions" ? 1 : n;
    const rows = Math.ceil(n / cols);
    const size = this.spacing * (n === 1 ? 0.4 : n === 2 ? 0.36 : 0.6 / cols) / (wide > 1 && cols > 1 ? wide : 1);
    const [stepX, stepY] = [size * 1.08 * wide, size * (this.counters === "divisions" ? 0.7 : 1.08)];
    list.forEach((u, i) => {
      const row = Math.floor(i / cols); const inRow = Math.min(cols, n - row * cols);
      const x = cx + ((i % cols) - (inRow - 1) / 2) * stepX;
      const y = cy + (row - (rows - 1) / 2) * stepY;
      const tilt = this.seats.indexOf(u.side) === 0 ? -6 : 6;
      layer.append(this.drawBlock(u, size, x, y, tilt, u.id === selected));
    });
  }

  // --- the keyboard ----------------------------------------------------------------------
  // After each render: where each block stands, what N and B step through (in reading
  // order: the map top to bottom, then the strip or tray), each hex's words, and the one
  // item Tab lands on (the first block one can act with, until the player moves the focus).
  afterDraw(units, { selected, dests, attacks, armed, actors }, focusedUnit) {
    const wasAt = focusedUnit ? this.unitHex?.get(focusedUnit) : null; // its hex, should it vanish
    this.selected = selected;
    this.unitHex = new Map(units.map((u) => [u.id, this.centres.has(u.hex) ? u.hex : null]));
    this.unitKey = new Map([...this.blocks.keys()].map((id, i) => {
      const hex = this.unitHex.get(id);
      return [id, hex ? [...this.hexKey(hex).slice(0, 2), i] : [Infinity, i, 0]];
    }));
    const byKey = (a, b) => compareKeys(a.key, b.key);
    this.order = [...this.unitKey].map(([unit, key]) => ({ unit, key })).sort(byKey);
    this.actors = this.order.filter((it) => actors.has(it.unit));
    this.lit = [...new Set([...dests, ...attacks])].filter((h) => this.polys.has(h))
      .map((hex) => ({ hex, key: this.hexKey(hex) })).sort(byKey);
    const here = new Map();
    for (const it of this.order) {
      const hex = this.unitHex.get(it.unit);
      if (hex) here.set(hex, [...(here.get(hex) || []), this.words.get(it.unit)]);
    }
    for (const [id, poly] of this.polys) {
      const words = [this.hexText(this.hexes.get(id))];
      if (here.has(id)) words.push(t("map.aria_here", { blocks: here.get(id).join(", ") }));
      if (id === armed) words.push(t("map.aria_armed"));
      else if (attacks.has(id)) words.push(t("map.aria_attack"));
      else if (dests.has(id)) words.push(t("map.aria_dest"));
      poly.setAttribute("aria-label", words.join("; "));
    }
    const first = this.actors[0]?.unit ?? null;
    if (!this.cursorMoved && first) this.cursor = { unit: first };
    let node = this.cursor?.unit ? this.blocks.get(this.cursor.unit) : this.polys.get(this.cursor?.hex);
    node ??= this.blocks.get(first) ?? this.polys.get(wasAt) ?? this.polys.get(this.middleHex())
      ?? this.blocks.get(this.order[0]?.unit);
    if (node) this.setRoving(node);
    if (focusedUnit) (this.blocks.get(focusedUnit) ?? this.polys.get(wasAt) ?? node)?.focus({ preventScroll: true });
  }

  setRoving(node) {
    if (this.roving && this.roving !== node) this.roving.setAttribute("tabindex", -1);
    node.setAttribute("tabindex", 0);
    this.roving = node;
  }

  // The focus arrived on a hex or block: it becomes the Tab stop, the hover line says what
  // a mouse over it would, and from the keyboard the hex is ringed and panned into view.
  focused(cursor, node, said, hex) {
    this.cursor = cursor;
    this.cursorMoved = true;
    this.setRoving(node);
    this.say(said);
    if (hex && this.polys.has(hex)) this.lastHex = hex;
    const keyboard = node.matches(":focus-visible");
    if (cursor.hex) {
      for (const p of this.ring.children) p.setAttribute("points", node.getAttribute("points"));
      this.ring.style.display = keyboard ? "" : "none";
    }
    if (keyboard && hex && this.polys.has(hex)) this.reveal(hex);
  }

  onKey(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const node = ev.target.closest?.("polygon[data-hex], g.unit[data-unit]");
    if (!node || !this.container.contains(node)) return;
    const hex = node.getAttribute("data-hex");
    const unit = node.getAttribute("data-unit");
    const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    if (key === "Enter" || key === " ") {
      // A held key must not repeat: a second press sends an armed attack.
      if (!ev.repeat) { if (hex) this.onHex?.(hex); else this.onUnit?.(unit); }
    } else if (key === "Escape") {
      const was = this.selected;
      this.onCancel?.();
      if (was && !this.selected) this.blocks.get(was)?.focus(); // back where the choice began
    } else if (key in ARROWS) {
      const from = hex ?? this.unitHex.get(unit);
      const to = from ? this.step(from, ARROWS[key]) : this.lastHex ?? this.lit[0]?.hex ?? this.middleHex();
      if (to) this.polys.get(to)?.focus();
    } else if (key === "n" || key === "b") {
      // N: a block one can act with, or with one selected, a lit hex; B: any block.
      const list = key === "b" ? this.order : this.selected && this.lit.length ? this.lit : this.actors;
      const here = hex ? this.hexKey(hex) : this.unitKey.get(unit);
      const it = ev.shiftKey ? list.findLast((i) => compareKeys(i.key, here) < 0) ?? list.at(-1)
        : list.find((i) => compareKeys(i.key, here) > 0) ?? list[0];
      if (it) (it.hex ? this.polys.get(it.hex) : this.blocks.get(it.unit))?.focus();
    } else return;
    ev.preventDefault();
  }

  // A hex sorts before the blocks standing in it.
  hexKey(hex) {
    const [x, y] = this.centres.get(hex);
    return [y, x, -1];
  }

  middleHex() {
    if (!this.polys.size) return null;
    const [mx, my] = [this.full.x + this.full.w / 2, this.full.y + this.full.h / 2];
    let best = null;
    for (const [id, [x, y]] of this.centres) {
      const d = Math.hypot(x - mx, y - my);
      if (!best || d < best.d) best = { id, d };
    }
    return best.id;
  }

  // The neighbour of `from` nearest the arrow's way (dx, dy). Two equally near (← → on a
  // grid of flat-topped hexes, ↑ ↓ on one of pointed tops): the one that keeps to the row
  // (column) the cursor set out along, else the upper (left) one; so → → → zigzags along a
  // row, and ← after → comes back.
  step(from, [dx, dy]) {
    const [cx, cy] = this.centres.get(from);
    const axis = dx ? "x" : "y";
    const lane = this.lane?.axis === axis && this.lane.at === from ? this.lane.value : axis === "x" ? cy : cx;
    let best = null;
    for (const id of this.neighbours(from)) {
      const [x, y] = this.centres.get(id);
      const cos = ((x - cx) * dx + (y - cy) * dy) / Math.hypot(x - cx, y - cy);
      if (cos < 0.3) continue;
      const key = [-Math.round(cos * 10), Math.round(Math.abs((axis === "x" ? y : x) - lane)), y, x];
      if (!best || compareKeys(key, best.key) < 0) best = { id, key };
    }
    if (best) this.lane = { axis, value: lane, at: best.id };
    return best?.id ?? null;
  }

  // The places next to `hex`: a position's linked positions; on a grid, the hexes whose
  // centres lie one spacing from `hex`'s, found through a grid of buckets.
  neighbours(hex) {
    if (this.adjacent) return this.adjacent.get(hex) || [];
    const s = this.spacing;
    const cell = (v) => Math.floor(v / s);
    if (!this.buckets) {
      this.buckets = new Map();
      for (const [id, [x, y]] of this.centres) {
        const k = `${cell(x)},${cell(y)}`;
        this.buckets.set(k, [...(this.buckets.get(k) || []), id]);
      }
    }
    const [cx, cy] = this.centres.get(hex);
    const out = [];
    for (let i = -2; i <= 2; i++) for (let j = -2; j <= 2; j++) {
      for (const id of this.buckets.get(`${cell(cx) + i},${cell(cy) + j}`) || []) {
        const [x, y] = this.centres.get(id);
        const d = Math.hypot(x - cx, y - cy);
        if (id !== hex && d > s * 0.8 && d < s * 1.2) out.push(id);
      }
    }
    return out;
  }

  // Pan, keeping the zoom, so that a hex reached by the keyboard is in sight.
  reveal(hex) {
    const [x, y] = this.centres.get(hex);
    const r = this.svg.getBoundingClientRect();
    if (!r.width || !r.height) return;
    const scale = Math.max(this.vb.w / r.width, this.vb.h / r.height);
    const [w, h] = [r.width * scale, r.height * scale];
    const [x0, y0] = [this.vb.x + (this.vb.w - w) / 2, this.vb.y + (this.vb.h - h) / 2];
    const m = this.spacing * 0.6;
    if (x - m >= x0 && x + m <= x0 + w && y - m >= y0 && y + m <= y0 + h) return;
    this.vb = { ...this.vb, x: x - this.vb.w / 2, y: y - this.vb.h / 2 };
    this.applyViewBox();
  }
}
