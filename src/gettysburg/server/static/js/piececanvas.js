// The pieces of a large map painted on a canvas, so that panning and zooming with a thousand
// counters costs image copies rather than the layout and repaint of a thousand SVG groups
// (docs/server.md, "Counters on a canvas"). The board still builds each piece's SVG group
// (its words, its clicks, the keyboard's focus, what tests read); on such a map the group
// keeps only an invisible face to hit and focus (app.css, `painted-pieces`), and this layer
// shows its look: the group's own markup made into an image once, then drawn at a zoom band
// (a power of two px wide) into a small bitmap, so a counter is one `drawImage` a frame.
// The selected piece stays whole in the SVG above (it changes as the player clicks).

const SVGNS = "http://www.w3.org/2000/svg";
const BUDGET = 8; // ms a frame spent drawing missing bitmaps (one at least); the rest wait
const BITMAPS = 3000; // bitmaps kept (a 64 px counter is 16 KB)
const LOOKS = 2500; // looks (parsed images) kept
const EXTENT = 0.78; // a piece's drawing reaches this far from its centre, in its widths
const PLAIN = 12; // below this many px wide a counter is a plain square of its colours

// The page's rules that change a piece's look, for its image (which sees no page CSS): the
// same values as app.css.
const STYLE = `text{font-family:Georgia,"Times New Roman",serif}
.block-label,.block-mark{font-family:Arial,Helvetica,sans-serif}
rect.focus-ring{display:none}
g.unit.selected .face{stroke:#f2c230;stroke-width:3}
g.unit.previewed .face{stroke:#2e8b3a;stroke-width:4}
g.unit.preview-out{opacity:.45}`;

export class PieceCanvas {
  constructor(canvas) {
    this.canvas = canvas;
    this.items = [];
    this.looks = new Map(); // look key -> { img, ready, failed } in order of last use
    this.bitmaps = new Map(); // "band|key" -> canvas, in order of last use
    this.keyOf = new WeakMap(); // a group -> { cls, key } (its markup, read once)
    this.view = null;
    this.pending = null;
  }

  // The pieces on the map, in drawing order: [{ g, x, y, size, colours: [face, edge] }]
  // (map units, y down; `size` the piece's width).
  set(items) {
    this.items = items;
    this.later(); // in the next frame: the page may still mark pieces (`previewed`) meanwhile
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
  }

  // A group's look: its class and markup (a piece drawn as before is the same node, so the
  // markup is read once a node; a class toggled later, `previewed`, is seen here).
  look(g) {
    const cls = g.getAttribute("class") || "";
    let known = this.keyOf.get(g);
    if (!known || known.cls !== cls) {
      const tilt = /rotate\(([-\d.e]+)\)/.exec(g.getAttribute("transform") || "")?.[1] ?? "0";
      known = { cls, key: `<g class="${cls}" transform="rotate(${tilt})">${g.innerHTML}</g>` };
      this.keyOf.set(g, known);
    }
    return known.key;
  }

  // The look's image (parsed from its markup, asynchronously), or null until it is ready.
  image(key, size) {
    let entry = this.looks.get(key);
    if (entry) {
      this.looks.delete(key);
      this.looks.set(key, entry);
      return entry.ready ? entry.img : null;
    }
    const e = size * EXTENT;
    const markup = `<svg xmlns="${SVGNS}" width="256" height="256" viewBox="${-e} ${-e} ${2 * e} ${2 * e}">`
      + `<style>${STYLE}</style>${key}</svg>`;
    const img = new Image();
    entry = { img, ready: false };
    img.onload = () => { entry.ready = true; this.later(); };
    img.onerror = () => { entry.failed = true; };
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`;
    this.looks.set(key, entry);
    while (this.looks.size > LOOKS) this.looks.delete(this.looks.keys().next().value);
    return null;
  }

  // Another frame soon (an image arrived, or bitmaps are still to draw).
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
    for (const it of this.items) {
      const px = it.size * k; // the piece's width on the screen, device px
      const r = px * EXTENT;
      const [cx, cy] = [(it.x - ox) * k, (it.y - oy) * k];
      if (cx + r < 0 || cy + r < 0 || cx - r > pw || cy - r > ph) continue;
      if (it.g.classList.contains("selected")) continue; // the SVG draws it
      if (px < PLAIN) { this.plain(ctx, it, cx, cy, px); continue; }
      const key = this.look(it.g);
      // The band: a power of two px for the piece's whole drawing, so a bitmap is shown at
      // between half and full size.
      const band = 2 ** Math.ceil(Math.log2(2 * r));
      let bmp = this.bitmaps.get(`${band}|${key}`);
      if (bmp) {
        this.bitmaps.delete(`${band}|${key}`);
        this.bitmaps.set(`${band}|${key}`, bmp);
      } else {
        const img = this.image(key, it.size);
        if (img && (first || performance.now() - start < BUDGET)) {
          bmp = document.createElement("canvas");
          bmp.width = bmp.height = band;
          bmp.getContext("2d").drawImage(img, 0, 0, band, band);
          this.bitmaps.set(`${band}|${key}`, bmp);
          first = false;
        }
      }
      if (bmp) ctx.drawImage(bmp, cx - r, cy - r, 2 * r, 2 * r);
      else {
        waiting++;
        // Meanwhile the same look at another band, else a plain square.
        const near = this.bitmaps.get(`${band * 2}|${key}`) ?? this.bitmaps.get(`${band / 2}|${key}`);
        if (near) ctx.drawImage(near, cx - r, cy - r, 2 * r, 2 * r);
        else this.plain(ctx, it, cx, cy, px);
      }
    }
    while (this.bitmaps.size > BITMAPS) this.bitmaps.delete(this.bitmaps.keys().next().value);
    // How many pieces in sight still show a stand-in (tests and the benchmark wait for 0).
    this.canvas.dataset.waiting = String(waiting);
    if (waiting) this.later();
  }

  // A counter too small to read (or not drawn yet): its face and edge colours.
  plain(ctx, it, cx, cy, px) {
    const [face, edge] = it.colours;
    const h = px / 2;
    ctx.fillStyle = edge;
    ctx.fillRect(cx - h + px * 0.05, cy - h + px * 0.05, px, px);
    ctx.fillStyle = face;
    ctx.fillRect(cx - h, cy - h, px, px);
  }
}
