// Two small side panels of the play page: a stack opened into the list of its pieces (the
// map shows only a stack's top counter and its count), and the facings a move to a chosen
// place may end in. Generic: pieces as units.js reads them, facings as the legal actions
// give them (`facing: {kind, index}`).
import { el, svg } from "./ui.js";
import { t } from "./i18n.js";
import { tOr, seatName } from "./panels.js";
import { facingAngle, markWord, ordersWord } from "./counters.js";

// The actions among `options` that differ only in their facing (the same type, unit and
// place), or [] when the options are not such a choice.
export function facingChoices(options) {
  if (options.length < 2) return [];
  const rest = (a) => JSON.stringify(Object.keys(a).filter((k) => k !== "facing").sort().map((k) => [k, a[k]]));
  const first = rest(options[0]);
  const same = options.filter((a) => a.facing && typeof a.facing === "object" && rest(a) === first);
  return same.length > 1 ? same : [];
}

// A piece in a line of words: name, strength, orders, markers.
function pieceWords(u) {
  return [u.name ?? u.id, u.strength === null ? null : String(u.strength), u.orders ? ordersWord(u.orders) : null,
    ...u.marks.map(markWord)].filter((v) => v !== null).join(" · ");
}

export function stackPanel(node, stack, units, { selected, onSelect }) {
  node.hidden = !stack;
  if (!stack) { node.replaceChildren(); return; }
  const byId = new Map(units.map((u) => [u.id, u]));
  const pieces = stack.ids.map((id) => byId.get(id)).filter((u) => u);
  node.replaceChildren(
    el("h3", {}, t("game.stack", { hex: stack.hex, count: pieces.length })),
    el("ul", { class: "stack-pieces" }, ...pieces.map((u) => el("li", {},
      el("button", { class: `stack-piece${u.id === selected ? " selected" : ""}`, "data-unit": u.id,
        title: `${seatName(u.side)} · ${u.id}`, onclick: () => onSelect(u.id) }, pieceWords(u))))));
}

// The facing's words: a pointer turned toward its front, and "hexside 2" / "vertex 2".
export function facingWords(facing, layout) {
  const angle = facingAngle(layout, facing);
  // An arrow drawn (a font's arrow glyph may point anywhere), turned as the map is.
  const arrow = svg("svg", { class: "facing-arrow", width: 16, height: 16, viewBox: "-8 -8 16 16", "aria-hidden": "true" },
    svg("polygon", { points: "7,0 0,-6 0,-2 -7,-2 -7,2 0,2 0,6", fill: "currentColor",
      transform: `rotate(${angle === null ? 0 : (angle * 180 / Math.PI).toFixed(1)})` }));
  const words = tOr(`facing.${facing.kind}`, facing.kind);
  return [arrow, ` ${words} ${facing.index}`];
}

// The choice's heading: the system's words for that kind of action when it has them ("the
// vertex a breastwork guards"), else the general "facing".
function chooseTitle(choosing) {
  const type = choosing.options[0]?.type;
  return tOr(`game.choose_facing.${type}`, t("game.choose_facing", { hex: choosing.hex }))
    .replace("{hex}", choosing.hex);
}

export function facingPanel(node, choosing, layout, { onChoose, onCancel }) {
  node.hidden = !choosing;
  if (!choosing) { node.replaceChildren(); return; }
  node.replaceChildren(
    el("h3", {}, chooseTitle(choosing)),
    el("div", { class: "facing-buttons" }, ...choosing.options.map((a) => el("button", {
      class: "facing-option", "data-facing": `${a.facing.kind} ${a.facing.index}`, onclick: () => onChoose(a) },
    ...facingWords(a.facing, layout)))),
    el("button", { class: "facing-cancel", onclick: onCancel }, t("game.cancel_choice")));
}

// The selected piece's actions that turn it where it stands (a facing, no place: a turn, a
// resupply or rally with a turn, a line formed into a column...): one row for each kind of
// them, its words and an arrow for each facing, a click sending that action.
export function turnPanel(node, actions, layout, { onChoose, disabled = false }) {
  node.hidden = !actions.length;
  if (!actions.length) { node.replaceChildren(); return; }
  const kinds = new Map();
  for (const a of actions) {
    const key = JSON.stringify(Object.keys(a).filter((k) => k !== "facing").sort().map((k) => [k, a[k]]));
    if (!kinds.has(key)) kinds.set(key, []);
    kinds.get(key).push(a);
  }
  node.replaceChildren(el("h3", {}, t("game.turn_here")), ...[...kinds.values()].map((list) => el("div",
    { class: "turn-kind", "data-type": list[0].type },
    el("div", { class: "muted" }, tOr(`action.${list[0].type}`, list[0].type)),
    el("div", { class: "facing-buttons" }, ...list.map((a) => el("button", {
      class: "facing-option", disabled, "data-facing": `${a.facing.kind} ${a.facing.index}`,
      onclick: () => onChoose(a) }, ...facingWords(a.facing, layout)))))));
}

// The seat's own formations when the view gives them as `brigades: {id: {orders, reserve,
// fatigue, activations...}}` (a seat's view holds only its own): one line each, the active
// one (`view.brigade`) marked, those done this activation (`done_brigades`) greyed.
export function formationsPanel(node, view) {
  const own = view?.brigades && typeof view.brigades === "object" ? Object.entries(view.brigades)
    .filter(([, b]) => b && typeof b === "object" && "orders" in b) : [];
  node.hidden = !own.length;
  if (!own.length) { node.replaceChildren(); return; }
  const done = new Set(Array.isArray(view.done_brigades) ? view.done_brigades : []);
  const rows = own.map(([id, b]) => el("tr", { "data-brigade": id,
    class: [id === view.brigade ? "active" : "", done.has(id) ? "done" : ""].join(" ").trim() || null },
  el("td", {}, id), el("td", {}, b.orders ? ordersWord(b.orders) : "—"),
  el("td", {}, b.reserve ? t("formations.reserve") : ""),
  el("td", {}, b.fatigue ? String(b.fatigue) : "")));
  node.replaceChildren(el("details", { open: true },
    el("summary", {}, t("formations.title", { count: own.length })),
    el("table", { class: "formations" }, el("thead", {}, el("tr", {},
      el("th", {}, t("formations.name")), el("th", {}, t("formations.orders")),
      el("th", {}, t("formations.reserve")), el("th", {}, t("formations.fatigue")))), el("tbody", {}, ...rows))));
}
