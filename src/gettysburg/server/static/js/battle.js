// A tactical battle fought inside a game (the view's `battle` object with a `board` of
// `hexes`): its own small hex board drawn beside the campaign map, the units on it by their
// figures and side colour, the cards in hand, and clicks that send the matching legal
// action. Keyed on the shape of the view alone (docs/server.md, "A battle in the view").
import { svg, el } from "./ui.js";
import { t } from "./i18n.js";
import { TERRAIN, mix, levelShade } from "./board.js";
import { seatName } from "./panels.js";
import { destinations, actionsOn, unitsNamed, targetHex } from "./units.js";

// Terrains of a battle board beyond the campaign map's ones.
const BATTLE_TERRAIN = { ...TERRAIN, hill: "#d2c08a", fence: "#ddd0a0", homestead: "#caa58a",
  waterway: "#a7c4bb", bridge: "#b59a78", rough: "#b5ab98" };
const NO_COLOUR = ["#9a8f78", "#5e5647"];
const ROW = Math.sqrt(3) / 2; // rows of a grid of pointed-top hexes one unit wide

// The catalogue's words for `key`, else `plain` (the battle's keys are not in every
// catalogue yet), with {name}s filled in from `vars`.
function say(key, plain, vars = {}) {
  const w = t(key, vars);
  return w !== key ? w : plain.replace(/\{(\w+)\}/g, (_, n) => String(vars[n] ?? ""));
}

// Does the view hold a battle to draw?
export function battleOf(view) {
  const b = view?.battle;
  return b && typeof b === "object" && b.board?.hexes && typeof b.board.hexes === "object" ? b : null;
}

// A word from the catalogue, else the id spelt out ("push_left" -> "push left").
function word(prefix, id) {
  const key = `${prefix}.${id}`;
  const w = t(key);
  return w === key ? String(id).replace(/_/g, " ") : w;
}

// A hex's centre in hex widths, north (the far side of row 0) up: the view's `xy` when it
// gives one, else from a "col,row" id (odd rows half a hex to the right, row 0 at the
// bottom, as the rules draw the board from the attacker's side).
function centre(id, h) {
  if (Array.isArray(h.xy)) return [h.xy[0], -h.xy[1]];
  const [c, r] = String(id).split(",").map(Number);
  return [c + (r % 2 ? 0.5 : 0), -r * ROW];
}

// The legal actions that play the card `card` (an action naming it and no unit).
function cardActions(legal, card) {
  return legal.filter((a) => !unitsNamed(a).length && Object.values(a).includes(card));
}

// A unit one can act with, a target or a lit hex is a Tab stop, Enter or Space its click.
function keyed(node) {
  node.setAttribute("tabindex", 0);
  node.addEventListener("keydown", (ev) => {
    if ((ev.key === "Enter" || ev.key === " ") && !ev.repeat) {
      ev.preventDefault();
      node.dispatchEvent(new MouseEvent("click"));
    }
  });
}

// Draws `battle` into `node` for `seat`. `selected`: the unit picked; `onSelect(id|null)`,
// `onAct(action)`: what a click does; `colours`: seat -> [face, edge].
// `placeName(id)`: the campaign map's name of the place fought over.
export function drawBattle(node, battle, { seat, legal, selected = null, colours = {}, onSelect, onAct,
                                           placeName = (id) => String(id).replace(/_/g, " ") }) {
  const hexes = Object.entries(battle.board.hexes);
  const at = new Map(hexes.map(([id, h]) => [id, centre(id, h)]));
  const heights = hexes.map(([, h]) => h.height ?? h.ground).filter(Number.isFinite);
  const [lo, hi] = [Math.min(...heights), Math.max(...heights)];
  const xs = [...at.values()].map((p) => p[0]); const ys = [...at.values()].map((p) => p[1]);
  const pad = 0.7;
  const box = [Math.min(...xs) - pad, Math.min(...ys) - pad,
    Math.max(...xs) - Math.min(...xs) + 2 * pad, Math.max(...ys) - Math.min(...ys) + 2 * pad];
  const root = svg("svg", { class: "battle-map", viewBox: box.map((v) => v.toFixed(3)).join(" "),
    role: "group", "aria-label": say("battle.board", "battle board") });

  const options = selected ? destinations(legal, selected) : new Map();
  const fires = new Map((battle.fire_options || []).filter((f) => f.unit === selected).map((f) => [f.target, f.dice]));
  const r = 1 / Math.sqrt(3);
  const corners = Array.from({ length: 6 }, (_, i) => [r * Math.cos(Math.PI / 6 + i * Math.PI / 3),
    r * Math.sin(Math.PI / 6 + i * Math.PI / 3)]);
  const layer = svg("g", { class: "battle-hexes" });
  for (const [id, h] of hexes) {
    const [cx, cy] = at.get(id);
    const level = h.height ?? h.ground;
    const fill = mix(BATTLE_TERRAIN[h.terrain] || BATTLE_TERRAIN.clear, "#6b4a22",
      Number.isFinite(level) ? levelShade(level, lo, hi) : 0);
    const words = [id, h.terrain ? word("terrain", h.terrain) : null,
      Number.isFinite(level) ? `${t("map.level")} ${level}` : null].filter(Boolean).join(" · ");
    const dest = options.has(id);
    const poly = svg("polygon", { points: corners.map(([dx, dy]) => `${(cx + dx).toFixed(3)},${(cy + dy).toFixed(3)}`).join(" "),
      fill, stroke: "#8a7a55", "stroke-width": 0.02, "data-hex": id,
      class: `bhex t-${h.terrain}${dest ? " dest" : ""}`, role: "button", "aria-label": words });
    poly.append(svg("title", {}, words));
    poly.addEventListener("click", () => {
      const acts = selected ? options.get(id) : null;
      if (acts?.length) onAct(acts[0]);
    });
    if (dest) keyed(poly);
    layer.append(poly);
  }
  for (const id of Array.isArray(battle.entrench) ? battle.entrench : []) {
    const p = at.get(typeof id === "string" ? id : id?.hex);
    if (p) layer.append(svg("path", { class: "entrench", d: `M${p[0] - 0.3} ${p[1] + 0.3}h0.6`,
      stroke: "#5b3a1a", "stroke-width": 0.06, "pointer-events": "none" }));
  }
  root.append(layer);

  // The units: a tile in the side's colour, a letter for the kind, a dot per figure.
  const units = svg("g", { class: "battle-units" });
  const acting = new Set(legal.flatMap(unitsNamed));
  for (const [uid, u] of Object.entries(battle.units || {})) {
    const p = at.get(u.hex);
    if (!p || !(u.figures > 0)) continue;
    const [face, edge] = colours[u.side] || NO_COLOUR;
    const dice = fires.get(uid);
    const g = svg("g", { class: `bunit${uid === selected ? " selected" : ""}${dice ? " target" : ""}${acting.has(uid) ? " can-act" : ""}`,
      "data-unit": uid, "data-side": u.side, "data-figures": u.figures, transform: `translate(${p[0]} ${p[1]})`,
      role: "button", "aria-label": `${uid} · ${word("unit_type", u.kind)} · ${u.figures}` });
    g.append(svg("title", {}, `${uid} · ${word("unit_type", u.kind)} · ${say("battle.figures", "{n} figures", { n: u.figures })}`));
    g.append(svg("rect", { x: -0.3, y: -0.24, width: 0.6, height: 0.48, rx: 0.06, fill: face, stroke: uid === selected ? "#ffd21f" : edge,
      "stroke-width": uid === selected ? 0.07 : 0.035 }));
    g.append(svg("text", { x: 0, y: -0.04, "font-size": 0.2, "text-anchor": "middle", fill: "#fff", "font-weight": "bold" },
      String(u.kind || "?").slice(0, 1).toUpperCase()));
    const n = Math.min(u.figures, 8);
    for (let i = 0; i < n; i++) {
      g.append(svg("circle", { class: "figure", cx: (i - (n - 1) / 2) * 0.07, cy: 0.13, r: 0.028, fill: "#fff" }));
    }
    if (u.ordered) g.append(svg("circle", { class: "ordered", cx: 0.24, cy: -0.18, r: 0.05, fill: "#ffd21f" }));
    if (dice) {
      g.append(svg("circle", { cx: -0.24, cy: -0.18, r: 0.09, fill: "#c0392b" }),
        svg("text", { class: "dice", x: -0.24, y: -0.15, "font-size": 0.12, "text-anchor": "middle", fill: "#fff" }, dice));
    }
    g.addEventListener("click", (ev) => {
      ev.stopPropagation();
      if (selected && selected !== uid) {
        const on = actionsOn(legal, selected, uid);
        if (on.length) { onAct(on[0]); return; }
        const moves = options.get(u.hex);
        if (moves?.length) { onAct(moves[0]); return; }
      }
      // A unit's only action taking no place or target (an order): one click sends it.
      const own = legal.filter((a) => unitsNamed(a).includes(uid));
      if (own.length && own.every((a) => targetHex(a) === null)) { onAct(own[0]); return; }
      onSelect(selected === uid ? null : uid);
    });
    if (acting.has(uid) || dice) keyed(g);
    units.append(g);
  }
  root.append(units);

  // The cards: the own hand as buttons (a legal card is played by a click), the other
  // sides' hands as a count.
  const hands = el("div", { class: "battle-hands" });
  for (const [side, hand] of Object.entries(battle.hands || {})) {
    if (Array.isArray(hand)) {
      const cards = hand.map((card) => {
        const acts = cardActions(legal, card);
        return el("button", { class: "battle-card", "data-card": card, disabled: !acts.length,
          onclick: () => { if (acts.length) onAct(acts[0]); } }, word("card", card));
      });
      hands.append(el("div", { class: "hand own", "data-side": side }, el("b", {}, seatName(side)), " ", ...cards));
    } else {
      hands.append(el("div", { class: "hand", "data-side": side },
        el("b", {}, seatName(side)), " ", say("battle.cards_held", "{n} cards in hand", { n: hand })));
    }
  }
  const facts = [battle.turn && battle.turns ? say("battle.turn", "turn {turn}/{turns}", { turn: battle.turn, turns: battle.turns }) : null,
    battle.active ? say("battle.active", "{seat} to act", { seat: seatName(battle.active) }) : null,
    battle.step ? word("battle.step", battle.step) : null,
    battle.card ? say("battle.card", "card: {card}", { card: word("card", battle.card) }) : null].filter(Boolean);
  const title = el("div", { class: "battle-facts" }, el("b", {}, say("battle.title", "Battle {place}", { place: placeName(battle.line ?? "") })), " ",
    facts.join(" · "));
  // Drawn afresh: what had the focus (a unit, a hex) gets it back.
  const had = node.contains(document.activeElement) ? document.activeElement : null;
  const key = had?.dataset.unit ? `g.bunit[data-unit="${had.dataset.unit}"]`
    : had?.dataset.hex ? `polygon.bhex[data-hex="${had.dataset.hex}"]` : null;
  node.replaceChildren(title, root, hands);
  if (key) root.querySelector(key)?.focus();
  node.dataset.seat = seat ?? "";
}
