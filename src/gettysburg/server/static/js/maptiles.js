// The static ground of a large hex map (thousands of hexes: a battle book's three sheets) drawn on
// a canvas from cached bitmap tiles, so that panning and zooming costs a few image copies
// rather than a repaint of thousands of SVG shapes. docs/server.md ("The map renderer").
//
// Tiles are 256 px squares of the map drawn at a zoom band: a power of two pixels per map
// unit, the first at or above the view's own scale, so a tile is shown at between half
// and full size and stays sharp. A step of the view only copies tiles; a tile missing from
// the cache is drawn (for a few ms a frame at most, a low-resolution overview of the whole
// map standing in for the rest until the next frames draw them), and while the page is
// idle the tiles of the bands either side of the view's are drawn ahead, so that zooming
// across a band seldom waits. What a tile holds depends on its band (level of detail):
// hex fills and streams and roads always; hex outlines, slopes and walls once a hex is big
// enough to show them; place names once they can be read; hex ids only close in.

const TILE = 256; // px
const CACHE = 400; // tiles kept (256 KB each: about 100 MB at most)
const BUDGET = 8; // ms of tile drawing in one frame (one tile at least) before the rest wait
// Level of detail: the least hex size (px across its flat sides) at which a feature is drawn.
// Idle callbacks where the browser has them (not Safari): else a short timer.
const onIdle = window.requestIdleCallback?.bind(window)
  ?? ((f) => setTimeout(() => f({ timeRemaining: () => 8 }), 30));
const cancelIdle = window.cancelIdleCallback?.bind(window) ?? clearTimeout;
// Names and ids are drawn once their letters would be 6-7 px high (fonts of 0.11-0.2 hexes).
export const LOD = { outlines: 9, sides: 20, names: 48, ids: 64 };

export class HexCanvas {
  // `cells`: [{ id, x, y, fill }] (map units, y down); `corners`: the hex's corners about its
  // centre (y down); `lines`: [{ ax, ay, bx, by, colour, width, dash, cap, lod }] (widths
  // and dashes in map units; `lod` a key of LOD or null for always); `labels`: [{ x, y,
  // text, size, cls, angle, second }] place and road names; `ids`: whether to print ids.
  constructor(canvas, { cells, corners, spacing, lines, labels, full }) {
    this.canvas = canvas;
    this.cells = cells;
    this.corners = corners;
    this.s = spacing;
    this.lines = lines;
    this.labels = labels;
    this.full = full;
    this.tiles = new Map(); // "band:i:j" -> canvas, in order of last use
    this.pending = null;
    this.view = null;
    this.drawn = 0; // tiles drawn so far (for the benchmark and tests)
    this.tileMs = 5; // how long a tile takes to draw, on average of late (ms)
    // Buckets of a few hexes' width, so that a tile draws only what lies under it.
    this.cell = spacing * 4;
    this.buckets = new Map();
    const put = (key, item, list) => {
      if (!this.buckets.has(key)) this.buckets.set(key, { cells: [], lines: [], labels: [] });
      this.buckets.get(key)[list].push(item);
    };
    const key = (x, y) => `${Math.floor(x / this.cell)},${Math.floor(y / this.cell)}`;
    for (const c of cells) put(key(c.x, c.y), c, "cells");
    for (const l of lines) put(key((l.ax + l.bx) / 2, (l.ay + l.by) / 2), l, "lines");
    for (const l of labels) put(key(l.x, l.y), l, "labels");
    this.overview = this.drawOverview();
  }

  // The whole map at a low resolution: what a tile not drawn yet shows meanwhile.
  drawOverview() {
    const k = Math.min(1, 2048 / Math.max(this.full.w, this.full.h));
    const c = document.createElement("canvas");
    c.width = Math.ceil(this.full.w * k);
    c.height = Math.ceil(this.full.h * k);
    this.paint(c.getContext("2d"), k, this.full.x, this.full.y, this.full.w, this.full.h);
    return { canvas: c, k };
  }

  // Show the view: `vb` the SVG's viewBox over a frame `w` x `h` CSS px (the SVG's
  // default fitting: the box centred, its scale the larger of the two ratios).
  draw(vb, w, h) {
    const dpr = window.devicePixelRatio || 1;
    const [pw, ph] = [Math.max(1, Math.round(w * dpr)), Math.max(1, Math.round(h * dpr))];
    if (this.canvas.width !== pw || this.canvas.height !== ph) {
      this.canvas.width = pw;
      this.canvas.height = ph;
    }
    const upp = Math.max(vb.w / w, vb.h / h); // map units per CSS px
    const ox = vb.x + (vb.w - w * upp) / 2;
    const oy = vb.y + (vb.h - h * upp) / 2;
    const k = dpr / upp; // device px per map unit
    this.view = { ox, oy, k, pw, ph };
    this.compose();
  }

  // Copy the tiles under the view onto the canvas, drawing at most PER_FRAME missing ones;
  // the others show the overview until the next frame draws them.
  compose() {
    if (!this.view) return;
    const { ox, oy, k, pw, ph } = this.view;
    const ctx = this.canvas.getContext("2d");
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, pw, ph);
    const band = Math.ceil(Math.log2(k));
    const kb = 2 ** band;
    const span = TILE / kb; // map units a tile covers
    const [i0, i1] = [Math.floor(ox / span), Math.floor((ox + pw / k) / span)];
    const [j0, j1] = [Math.floor(oy / span), Math.floor((oy + ph / k) / span)];
    const start = performance.now();
    let first = true;
    let missing = 0;
    const ov = this.overview;
    for (let j = j0; j <= j1; j++) {
      for (let i = i0; i <= i1; i++) {
        const [tx, ty] = [i * span, j * span];
        if (tx > this.full.x + this.full.w || ty > this.full.y + this.full.h
          || tx + span < this.full.x || ty + span < this.full.y) continue;
        const key = `${band}:${i}:${j}`;
        let tile = this.tiles.get(key);
        if (tile) this.tiles.delete(key); // re-inserted below: the most recently used last
        else if (first || performance.now() - start < BUDGET) { tile = this.drawTile(kb, tx, ty, span); first = false; }
        const [dx, dy, ds] = [(tx - ox) * k, (ty - oy) * k, span * k];
        if (tile) {
          this.tiles.set(key, tile);
          ctx.drawImage(tile, Math.round(dx), Math.round(dy), Math.round(dx + ds) - Math.round(dx),
            Math.round(dy + ds) - Math.round(dy));
        } else {
          missing++;
          const [sx, sy] = [(tx - this.full.x) * ov.k, (ty - this.full.y) * ov.k];
          ctx.drawImage(ov.canvas, sx, sy, span * ov.k, span * ov.k, dx, dy, ds, ds);
        }
      }
    }
    while (this.tiles.size > CACHE) this.tiles.delete(this.tiles.keys().next().value);
    this.canvas.dataset.band = String(band);
    // What this band draws (the browser test reads it): "fills outlines sides names ids".
    this.canvas.dataset.lod = ["fills", ...Object.keys(LOD).filter((f) => this.s * kb >= LOD[f])].join(" ");
    this.canvas.dataset.missing = String(missing);
    if (missing && !this.pending) {
      this.pending = requestAnimationFrame(() => { this.pending = null; this.compose(); });
    }
    if (!missing) this.ahead(band, i0, i1, j0, j1);
  }

  // While the page is idle, draw the tiles of the view at the bands either side of `band`
  // (the view's tiles i0..i1, j0..j1 at `band`), a few at a time.
  ahead(band, i0, i1, j0, j1) {
    if (this.idle) cancelIdle(this.idle);
    const todo = [];
    for (const b of [band - 1, band + 1]) {
      const f = 2 ** (b - band);
      for (let j = Math.floor(j0 * f); j <= Math.floor((j1 + 1) * f); j++) {
        for (let i = Math.floor(i0 * f); i <= Math.floor((i1 + 1) * f); i++) {
          const span = TILE / 2 ** b;
          const [tx, ty] = [i * span, j * span];
          if (tx > this.full.x + this.full.w || ty > this.full.y + this.full.h
            || tx + span < this.full.x || ty + span < this.full.y) continue;
          if (!this.tiles.has(`${b}:${i}:${j}`)) todo.push([b, i, j]);
        }
      }
    }
    const work = (deadline) => {
      this.idle = null;
      // Only when a tile fits in the idle time left: one that overran would delay the
      // frame a pan or zoom is waiting for.
      while (todo.length && deadline.timeRemaining() > this.tileMs * 1.5 + 1) {
        const [b, i, j] = todo.shift();
        const span = TILE / 2 ** b;
        // Kept as least recently used: they make way before the view's own tiles.
        const fresh = new Map([[`${b}:${i}:${j}`, this.drawTile(2 ** b, i * span, j * span, span)], ...this.tiles]);
        this.tiles = fresh;
      }
      if (todo.length) this.idle = onIdle(work);
    };
    if (todo.length) this.idle = onIdle(work);
  }

  drawTile(kb, tx, ty, span) {
    const t0 = performance.now();
    const c = document.createElement("canvas");
    c.width = TILE;
    c.height = TILE;
    this.paint(c.getContext("2d"), kb, tx, ty, span, span);
    this.drawn++;
    this.tileMs = this.tileMs * 0.8 + (performance.now() - t0) * 0.2;
    return c;
  }

  // Paint the map's area (x, y, w, h) (map units) at `k` px per unit onto `ctx`.
  paint(ctx, k, x, y, w, h) {
    const s = this.s;
    const px = s * k; // a hex's size in px
    const margin = s * 1.5;
    const found = { cells: [], lines: [], labels: [] };
    const labelMargin = s * 4; // a name reaches this far from its hex
    const [c0, c1] = [Math.floor((x - labelMargin) / this.cell), Math.floor((x + w + labelMargin) / this.cell)];
    const [r0, r1] = [Math.floor((y - labelMargin) / this.cell), Math.floor((y + h + labelMargin) / this.cell)];
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const b = this.buckets.get(`${c},${r}`);
        if (!b) continue;
        const near = (cx, cy, m) => cx >= x - m && cx <= x + w + m && cy >= y - m && cy <= y + h + m;
        for (const it of b.cells) if (near(it.x, it.y, margin)) found.cells.push(it);
        for (const it of b.lines) if (near((it.ax + it.bx) / 2, (it.ay + it.by) / 2, margin)) found.lines.push(it);
        for (const it of b.labels) if (near(it.x, it.y, labelMargin)) found.labels.push(it);
      }
    }
    ctx.setTransform(k, 0, 0, k, -x * k, -y * k);
    const outline = px >= LOD.outlines;
    const cornerPath = (cx, cy) => {
      ctx.moveTo(cx + this.corners[0][0], cy + this.corners[0][1]);
      for (let i = 1; i < this.corners.length; i++) ctx.lineTo(cx + this.corners[i][0], cy + this.corners[i][1]);
      ctx.closePath();
    };
    // Fills by colour: one path per colour is far quicker than one per hex.
    const byFill = new Map();
    for (const it of found.cells) {
      if (!byFill.has(it.fill)) byFill.set(it.fill, []);
      byFill.get(it.fill).push(it);
    }
    for (const [fill, list] of byFill) {
      ctx.beginPath();
      for (const it of list) cornerPath(it.x, it.y);
      ctx.fillStyle = fill;
      ctx.fill();
      // Far out, the fill's own edge closes the seams between hexes.
      if (!outline) { ctx.strokeStyle = fill; ctx.lineWidth = 1 / k; ctx.stroke(); }
    }
    if (outline) {
      ctx.beginPath();
      for (const it of found.cells) cornerPath(it.x, it.y);
      ctx.strokeStyle = "#8a7a55";
      ctx.lineWidth = Math.max(s * 0.012, 0.6 / k);
      ctx.stroke();
    }
    ctx.lineCap = "round";
    for (const l of found.lines) {
      if (l.lod && px < LOD[l.lod]) continue;
      ctx.beginPath();
      ctx.moveTo(l.ax, l.ay);
      ctx.lineTo(l.bx, l.by);
      ctx.strokeStyle = l.colour;
      ctx.lineWidth = Math.max(l.width, 1 / k);
      ctx.setLineDash(l.dash && px >= LOD.sides ? l.dash : []);
      ctx.lineCap = l.cap || "round";
      ctx.stroke();
    }
    ctx.setLineDash([]);
    ctx.textAlign = "center";
    if (px >= LOD.ids) {
      ctx.fillStyle = "rgba(109, 93, 60, 0.8)";
      ctx.font = `${s * 0.11}px Arial, Helvetica, sans-serif`;
      ctx.textBaseline = "alphabetic";
      for (const it of found.cells) ctx.fillText(it.id, it.x, it.y + s * 0.4);
    }
    for (const it of found.cells) {
      if (!it.victory) continue;
      ctx.beginPath();
      ctx.arc(it.x, it.y - s * 0.28, s * 0.13, 0, 2 * Math.PI);
      ctx.fillStyle = "#fff8e0"; ctx.fill();
      ctx.strokeStyle = "#a4322b"; ctx.lineWidth = s * 0.02; ctx.stroke();
      ctx.fillStyle = "#a4322b"; ctx.textBaseline = "middle";
      ctx.font = `bold ${s * 0.16}px Arial, Helvetica, sans-serif`;
      ctx.fillText(String(it.victory), it.x, it.y - s * 0.28);
    }
    if (px >= LOD.names) {
      ctx.textBaseline = "middle";
      ctx.lineJoin = "round";
      for (const l of found.labels) {
        ctx.save();
        ctx.translate(l.x, l.y);
        if (l.angle) ctx.rotate(l.angle * Math.PI / 180);
        const road = l.cls === "road";
        ctx.font = `${road ? "italic " : "bold "}${l.size}px Georgia, serif`;
        ctx.strokeStyle = "rgba(253, 248, 230, 0.85)";
        ctx.lineWidth = l.size * 0.36;
        ctx.fillStyle = road ? "#6e3518" : l.cls === "town" ? "#5a1f10" : "#3b2a12";
        const text = l.cls === "town" ? l.text.toUpperCase() : l.text;
        ctx.strokeText(text, 0, 0);
        ctx.fillText(text, 0, 0);
        if (l.second) {
          ctx.font = `bold ${l.size * 0.85}px Georgia, serif`;
          ctx.strokeText(l.second, 0, l.secondDy);
          ctx.fillText(l.second, 0, l.secondDy);
        }
        ctx.restore();
      }
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
  }
}
