// The pieces of a large map painted on a canvas, so that panning and zooming with a thousand
// counters costs image copies rather than the layout and repaint of a thousand SVG groups
// (docs/server.md, "Counters on a canvas"). The board still builds each piece's SVG group
// (its words, its clicks, the keyboard's focus, what tests read); on such a map the group
// keeps only an invisible face to hit and focus (app.css, `painted-pieces`), and this layer
// shows its look: the group's own shapes and words drawn with the canvas API into a small
// bitmap at a zoom band (a power of two px wide), cached, so that a counter costs one
// `drawImage` a frame. The selected piece stays whole in the SVG above (it changes as the
// player clicks); a piece too small to read is a square of its colours.

const BUDGET = 8; // ms a frame spent drawing missing bitmaps (one at least); the rest wait
const PIXELS = 24e6; // pixels of sheets at most (about 96 MB; a 64 px counter is 4,096)
const MAX_BAND = 512; // px: a piece drawn wider than this is its 512 px bitmap scaled up
// A sheet is 512 px square at most (a band's bitmaps, up to 8 across): drawing from a canvas
// and then drawing into it makes the browser copy it whole, so sheets stay small.
const SHEET = 512;
const EXTENT = 0.78; // a piece's drawing reaches this far from its centre, in its widths
const PLAIN = 12; // below this many px wide a counter is a plain square of its colours
// Idle callbacks where the browser has them (not Safari): else a short timer.
const onIdle = window.requestIdleCallback?.bind(window)
  ?? ((f) => setTimeout(() => f({ timeRemaining: () => 8 }), 30));
const cancelIdle = window.cancelIdleCallback?.bind(window) ?? clearTimeout;

// The look of an SVG piece drawn with the canvas API: its shapes and words as the group
// holds them (rect, circle, polygon, text with its tspans, nested groups), with the page's
// rules that change a piece's look applied by hand (app.css: `previewed`, `preview-out`;
// focus rings and titles are not drawn). Only the few kinds of node board.js and
// counters.js make for a piece are known.
const ANCHOR = { start: "left", middle: "center", end: "right" };
const LABEL_FONT = "Arial, Helvetica, sans-serif";
const TEXT_FONT = 'Georgia, "Times New Roman", serif';

function num(node, name, fallback = 0) {
  const v = node.getAttribute(name);
  return v === null || v === "" ? fallback : Number(v);
}

function paintShape(ctx, node, path, previewed) {
  const face = previewed && node.classList.contains("face");
  const fill = node.getAttribute("fill");
  if (fill && fill !== "none") { ctx.fillStyle = fill; ctx.fill(path); }
  const stroke = face ? "#2e8b3a" : node.getAttribute("stroke");
  const width = face ? 4 : num(node, "stroke-width", 1);
  if (stroke && stroke !== "none" && width > 0) {
    ctx.lineWidth = width;
    ctx.strokeStyle = stroke;
    ctx.stroke(path);
  }
}

function paintText(ctx, node, inherited) {
  const fs = num(node, "font-size", inherited.fs);
  const label = node.classList.contains("block-label") || node.classList.contains("block-mark");
  const weight = node.getAttribute("font-weight") ?? "normal";
  const style = node.getAttribute("font-style") ?? "normal";
  ctx.font = `${style} ${weight} ${fs}px ${label ? LABEL_FONT : TEXT_FONT}`;
  ctx.textAlign = ANCHOR[node.getAttribute("text-anchor")] ?? "left";
  ctx.textBaseline = node.getAttribute("dominant-baseline") === "central" ? "middle" : "alphabetic";
  ctx.fillStyle = node.getAttribute("fill") ?? "#000";
  const squeeze = node.getAttribute("textLength");
  const [x, y] = [num(node, "x"), num(node, "y")];
  const lines = [...node.children].filter((c) => c.tagName === "tspan");
  if (!lines.length) {
    if (squeeze) ctx.fillText(node.textContent, x, y, Number(squeeze));
    else ctx.fillText(node.textContent, x, y);
    return;
  }
  for (const t of lines) ctx.fillText(t.textContent, num(t, "x", x), num(t, "y", y));
}

function paintNode(ctx, group, previewed) {
  for (const node of group.children) {
    const tag = node.tagName;
    if (tag === "title" || node.classList.contains("focus-ring")) continue;
    if (tag === "g") { paintNode(ctx, node, previewed); continue; }
    if (tag === "text") { paintText(ctx, node, { fs: 16 }); continue; }
    const path = new Path2D();
    if (tag === "rect") {
      const [x, y, w, h] = [num(node, "x"), num(node, "y"), num(node, "width"), num(node, "height")];
      const rx = Math.min(num(node, "rx"), w / 2, h / 2);
      if (rx > 0 && path.roundRect) path.roundRect(x, y, w, h, rx);
      else path.rect(x, y, w, h);
    } else if (tag === "circle") {
      path.arc(num(node, "cx"), num(node, "cy"), num(node, "r"), 0, 2 * Math.PI);
    } else if (tag === "polygon") {
      const pts = (node.getAttribute("points") || "").trim().split(/[\s,]+/).map(Number);
      for (let i = 0; i + 1 < pts.length; i += 2) (i ? path.lineTo : path.moveTo).call(path, pts[i], pts[i + 1]);
      path.closePath();
    } else continue;
    paintShape(ctx, node, path, previewed);
  }
}

// A piece's group drawn into a `band` px square at (sx, sy) of a sheet's context, its centre
// in the middle and `reach` map units from the centre to each edge.
function rasterPiece(ctx, sx, sy, g, band, reach) {
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(sx, sy, band, band);
  ctx.beginPath();
  ctx.rect(sx, sy, band, band);
  ctx.clip();
  const k = band / (2 * reach);
  ctx.setTransform(k, 0, 0, k, sx + band / 2, sy + band / 2);
  const tilt = Number(/rotate\(([-\d.e]+)\)/.exec(g.getAttribute("transform") || "")?.[1] ?? 0);
  if (tilt) ctx.rotate(tilt * Math.PI / 180);
  if (g.classList.contains("preview-out")) ctx.globalAlpha = 0.45;
  paintNode(ctx, g, g.classList.contains("previewed"));
  ctx.restore();
}

export class PieceCanvas {
  constructor(canvas) {
    this.canvas = canvas;
    this.items = [];
    // The bitmaps live in slots of a few large canvases (sheets), one set a band: a canvas
    // and its context each would cost more to make than the drawing itself.
    this.bitmaps = new Map(); // "band|look" -> { sheet, sx, sy, band }, in order of last use
    this.free = new Map(); // band -> free slots
    this.pixels = 0; // of the sheets, all told
    this.keyOf = new WeakMap(); // a group -> { cls, key } (its markup, read once)
    this.view = null;
    this.pending = null;
    this.idle = null;
  }

  // The pieces on the map, in drawing order: [{ g, x, y, size, colours: [face, edge] }]
  // (map units, y down; `size` the piece's width).
  set(items) {
    this.items = items;
    this.later(); // in the next frame: the page may still mark pieces (`previewed`) meanwhile
    this.ahead();
  }

  // As HexCanvas.draw: `vb` the SVG's viewBox over a frame `w` x `h` CSS px.
  draw(vb, w, h) {
    const dpr = window.devicePixelRatio || 1;
    const [pw, ph] = [Math.max(1, Math.round(w * dpr)), Math.max(1, Math.round(h * dpr))];
    if (this.canvas.width !== pw || this.canvas.height !== ph) {
      this.canvas.width = pw;
      this.canvas.height = ph;
    }
    const upp = Math.max(vb.w / w, vb.h / h);
    this.view = { ox: vb.x + (vb.w - w * upp) / 2, oy: vb.y + (vb.h - h * upp) / 2, k: dpr / upp, pw, ph };
    this.compose();
    this.ahead();
  }

  // A group's look: its class and markup (a piece drawn as before is the same node, so the
  // markup is read once a node; a class toggled later, `previewed`, is seen here).
  look(g) {
    const cls = g.getAttribute("class") || "";
    let known = this.keyOf.get(g);
    if (!known || known.cls !== cls) {
      known = { cls, key: `${cls}|${g.getAttribute("transform")?.replace(/translate\([^)]*\)/, "")}|${g.innerHTML}` };
      this.keyOf.set(g, known);
    }
    return known.key;
  }

  // The band of a piece `px` device px wide: a power of two px for its whole drawing, so
  // that a bitmap is shown at between half and full size.
  static band(px) {
    return Math.min(MAX_BAND, 2 ** Math.ceil(Math.log2(2 * px * EXTENT)));
  }

  bitmap(it, band, make) {
    const key = `${band}|${this.look(it.g)}`;
    let bmp = this.bitmaps.get(key);
    if (bmp) this.bitmaps.delete(key); // re-inserted: the most recently used last
    else if (make) {
      bmp = this.slot(band);
      rasterPiece(bmp.sheet.getContext("2d"), bmp.sx, bmp.sy, it.g, band, it.size * EXTENT);
    }
    if (bmp) this.bitmaps.set(key, bmp);
    return bmp;
  }

  // A free slot of `band`: from the band's free list, else a new sheet while the pixels allow,
  // else the band's least recently used bitmap's.
  slot(band) {
    const free = this.free.get(band) ?? [];
    this.free.set(band, free);
    if (!free.length) {
      const side = Math.max(band, Math.min(SHEET, band * 8));
      const lru = [...this.bitmaps].find(([, b]) => b.band === band);
      if (this.pixels + side * side > PIXELS && lru) {
        this.bitmaps.delete(lru[0]);
        return lru[1];
      }
      const sheet = document.createElement("canvas");
      sheet.width = sheet.height = side;
      this.pixels += side * side;
      for (let y = 0; y < side; y += band) for (let x = 0; x < side; x += band) free.push({ sheet, sx: x, sy: y, band });
      free.reverse(); // the first slots first
    }
    return free.pop();
  }

  // While the page is idle, the bitmaps of the pieces near the view (a view's width and
  // height around it) at the view's band, so that a pan seldom waits for them.
  ahead() {
    if (this.idle) cancelIdle(this.idle);
    let i = 0;
    const work = (deadline) => {
      this.idle = null;
      const v = this.view;
      if (!v) return;
      while (i < this.items.length && deadline.timeRemaining() > 2) {
        const it = this.items[i++];
        const px = it.size * v.k;
        if (px < PLAIN || it.g.classList.contains("selected")) continue;
        const [cx, cy] = [(it.x - v.ox) * v.k, (it.y - v.oy) * v.k];
        if (cx < -v.pw || cy < -v.ph || cx > 2 * v.pw || cy > 2 * v.ph) continue;
        this.bitmap(it, PieceCanvas.band(px), true);
      }
      if (i < this.items.length) this.idle = onIdle(work);
    };
    this.idle = onIdle(work);
  }

  // Another frame soon (bitmaps still to draw, or the pieces changed).
  later() {
    if (!this.pending) this.pending = requestAnimationFrame(() => { this.pending = null; this.compose(); });
  }

  compose() {
    if (!this.view) return;
    const { ox, oy, k, pw, ph } = this.view;
    const ctx = this.canvas.getContext("2d");
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, pw, ph);
    const start = performance.now();
    let first = true;
    let waiting = 0;
    // The pieces in sight, their missing bitmaps drawn first (within the frame's budget) and
    // only then copied: a sheet drawn from and then drawn into would be copied whole.
    const shown = [];
    for (const it of this.items) {
      const px = it.size * k; // the piece's width on the screen, device px
      const r = px * EXTENT;
      const [cx, cy] = [(it.x - ox) * k, (it.y - oy) * k];
      if (cx + r < 0 || cy + r < 0 || cx - r > pw || cy - r > ph) continue;
      if (it.g.classList.contains("selected")) continue; // the SVG draws it
      const band = px < PLAIN ? 0 : PieceCanvas.band(px);
      const bmp = band ? this.bitmap(it, band, first || performance.now() - start < BUDGET) : null;
      if (band) first = false;
      shown.push([it, px, r, cx, cy, band, bmp]);
    }
    for (const [it, px, r, cx, cy, band, bmp] of shown) {
      if (!band) { this.plain(ctx, it, cx, cy, px); continue; }
      if (bmp) { this.put(ctx, bmp, cx, cy, r); continue; }
      // Not drawn yet (the frame's time is spent): the same look at the band either side,
      // else a plain square, until the next frame.
      waiting++;
      const near = this.bitmap(it, band * 2, false) ?? this.bitmap(it, band / 2, false);
      if (near) this.put(ctx, near, cx, cy, r);
      else this.plain(ctx, it, cx, cy, px);
    }
    // How many pieces in sight still show a stand-in (tests and the benchmark wait for 0).
    this.canvas.dataset.waiting = String(waiting);
    if (waiting) this.later();
  }

  put(ctx, b, cx, cy, r) {
    ctx.drawImage(b.sheet, b.sx, b.sy, b.band, b.band, cx - r, cy - r, 2 * r, 2 * r);
  }

  // A piece too small to read (or not drawn yet): a square (a disc for a leader) of its
  // face and edge colours.
  plain(ctx, it, cx, cy, px) {
    const [face, edge] = it.colours;
    const h = px / 2;
    if (it.g.classList.contains("leader")) {
      ctx.fillStyle = face;
      ctx.beginPath();
      ctx.arc(cx, cy, h, 0, 2 * Math.PI);
      ctx.fill();
      return;
    }
    ctx.fillStyle = edge;
    ctx.fillRect(cx - h + px * 0.05, cy - h + px * 0.05, px, px);
    ctx.fillStyle = face;
    ctx.fillRect(cx - h, cy - h, px, px);
  }
}
