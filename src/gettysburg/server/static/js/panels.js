// Phase bar, actions panel and event log: generic over any rule system's JSON.
import { el, short, dieFace, diceIn, hitsIn } from "./ui.js";
import { t, language } from "./i18n.js";
import { unitsNamed, targetHex, unitsOf } from "./units.js";

const FIRST = ["time", "day", "turn", "turns", "phase", "active", "initiative", "vp"];
const SKIP = new Set(["seat", "blocks", "units", "pieces", "hidden", "legal_actions", "to_move", "result", "log",
  "system", "scenario", "options", "over", "source"]); // "over": the result badge says it;
// "source" (what the game was made from) is for agents, not a player's bar

// Worth a place in the bar: not empty, and flags only when set.
function worthShowing(v) {
  if (v === null || v === false || v === "") return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === "object") return Object.keys(v).length > 0;
  return true;
}

function scalarish(v) {
  if (v === null || ["string", "number", "boolean"].includes(typeof v)) return true;
  if (Array.isArray(v)) return v.length <= 6 && v.every((x) => x === null || typeof x !== "object");
  if (typeof v === "object") return Object.keys(v).length <= 6 && Object.values(v).every((x) => x === null || typeof x !== "object");
  return false;
}

function label(key) {
  const k = `view.${key}`;
  const txt = t(k);
  return txt === k ? key.replace(/_/g, " ") : txt;
}

// A catalogue text, or `fallback` when the catalogue has none for `key`.
export function tOr(key, fallback) {
  const txt = t(key);
  return txt === key ? fallback : txt;
}

// A seat's title as players say it (the system's words, served with the catalogue), or
// the seat id.
export function seatName(seat) {
  return tOr(`seat.${seat}`, String(seat));
}

// A value of the view for the bar: seat ids by name, a small mapping with its keys
// labelled ("terrain 2 · total 5"), lists joined.
function shown(key, value, seats, names = new Map()) {
  // A seat or a block by name; a word the catalogue knows for this key
  // ("value.phase.fire") in the player's language; anything else as it is.
  const one = (v) => {
    if (typeof v !== "string") return short(v);
    if (names.has(v)) return names.get(v);
    return seats.includes(v) ? seatName(v) : tOr(`value.${key}.${v}`, v);
  };
  if (Array.isArray(value)) return value.map(one).join(", ");
  if (value && typeof value === "object") {
    const name = (k) => (seats.includes(k) ? seatName(k) : tOr(`view.${key}.${k}`, k.replace(/_/g, " ")));
    return Object.entries(value).map(([k, v]) => `${name(k)} ${one(v)}`).join(" · ");
  }
  return one(value);
}

// The time of day in the player's words and clock, when the view gives the day and the
// hour (and whether it is night): "Día 1, 11:00", "Day 1, 1:00 PM".
function timeWords(view) {
  const { day, hour, night } = view || {};
  if (!Number.isInteger(day) || !Number.isInteger(hour)) return null;
  if (night) return t("time.night", { day });
  const clock = new Intl.DateTimeFormat(language(), { hour: "numeric", minute: "2-digit" })
    .format(new Date(2000, 0, 1, hour));
  return t("time.day_hour", { day, clock });
}

// Whether a value is a time of day as events give it, {day, hour, night} (docs/protocol.md,
// "event data"); timeWords says it in the player's words.
const isClock = (v) => Boolean(v) && typeof v === "object" && !Array.isArray(v)
  && Number.isInteger(v.day) && Number.isInteger(v.hour);

// In the replay viewer (`replay`) the step shown is past: it says whose decision it was,
// never "your decision".
export function phaseBar(node, state, view, { replay = false } = {}) {
  node.replaceChildren();
  const seats = (state.seats || []).map((s) => s.seat);
  const names = namesOf(view);
  const kv = (k, v) => el("span", { class: "kv", "data-key": k }, el("b", {}, label(k)), shown(k, v, seats, names));
  const mine = (state.to_move || []).includes(state.seat);
  const deciding = (state.to_move || []).map(seatName).join(", ") || "–";
  if (replay) {
    if (state.status !== "finished") node.append(el("span", { class: "you" }, t("replay.to_move", { seats: deciding })));
  } else if (state.status !== "finished") { // once over, the result badge below says it all
    node.append(el("span", { class: `you ${mine ? "turn-you" : ""}` },
      mine ? t("game.your_move", { seat: seatName(state.seat) }) : t("game.waiting", { seats: deciding })));
  }
  node.append(kv("seat", state.seat));
  // A view that gives a time of day ("Day 1 11 AM") need not repeat its day and hour.
  const said = view && typeof view.time === "string" ? new Set(["day", "hour"]) : new Set();
  const keys = Object.keys(view || {}).filter((k) => !SKIP.has(k) && !said.has(k) && scalarish(view[k]) && worthShowing(view[k]));
  keys.sort((a, b) => (FIRST.indexOf(a) + 1 || 99) - (FIRST.indexOf(b) + 1 || 99));
  for (const k of keys) node.append(kv(k, k === "time" ? timeWords(view) ?? view[k] : view[k]));
  node.append(kv("step", state.step));
  if (state.status === "finished") node.append(resultBadge(state.result, seats));
}

// The outcome in words: who won (or a draw) when the result names a `winner`, then the
// result's other plain fields ("total 6 · day 3").
function resultBadge(result, seats) {
  const r = result && typeof result === "object" ? result : {};
  if (!("winner" in r)) return el("span", { class: "result", "data-key": "result" }, t("game.over"), " ", short(result));
  const verdict = r.winner ? t("game.winner", { seat: seatName(r.winner) }) : t("game.draw");
  const rest = Object.fromEntries(Object.entries(r).filter(([k, v]) => k !== "winner" && v !== null && typeof v !== "object"));
  const more = Object.keys(rest).length ? ` (${shown("result", rest, seats)})` : "";
  return el("span", { class: "result", "data-key": "result" }, t("game.over"), " ", verdict, more);
}

// An action in words: its kind, the blocks it names (by their printed names when the
// view gives them) and where it goes.
export function describe(action, names = new Map()) {
  const parts = [tOr(`action.${action.type}`, action.type)];
  const units = unitsNamed(action);
  if (units.length) parts.push(units.map((id) => names.get(id) ?? id).join(", "));
  const target = typeof action.target === "string" && !units.includes(action.target) ? action.target : null;
  if (target) parts.push("→ " + (names.get(target) ?? target));
  const hex = targetHex(action);
  if (hex && hex !== target) parts.push("→ " + hex);
  return parts.join(" ");
}

// A field's value in an action's label: a block by name, a list of places as a route.
function fieldValue(key, value, names) {
  if (Array.isArray(value)) return value.map((v) => fieldValue(key, v, names)).join(" ");
  if (typeof value === "string") return names.get(value) ?? tOr(`value.${key}.${value}`, value);
  if (typeof value === "boolean") return t(value ? "game.yes" : "game.no");
  // A facing ({kind, index}) as the facing panel says it: "vertex 2".
  if (value && typeof value === "object" && typeof value.kind === "string" && Number.isInteger(value.index)) {
    return `${tOr(`facing.${value.kind}`, value.kind)} ${value.index}`;
  }
  return short(value);
}

// Labels that tell every action apart: where two actions would read the same ("Fire Pegram
// → H10" through two different hexes), each says the fields in which they differ ("through
// H11"; a path by its route, the place it ends at already said).
export function labels(actions, names = new Map()) {
  const base = actions.map((a) => describe(a, names));
  const same = new Map();
  base.forEach((text, i) => { if (!same.has(text)) same.set(text, []); same.get(text).push(i); });
  const out = [...base];
  for (const group of same.values()) {
    if (group.length < 2) continue;
    const keys = [...new Set(group.flatMap((i) => Object.keys(actions[i])))].filter((k) => k !== "type");
    const differ = keys.filter((k) => new Set(group.map((i) => JSON.stringify(actions[i][k] ?? null))).size > 1);
    for (const i of group) {
      const extra = differ.map((k) => {
        let v = actions[i][k];
        if (v === undefined || v === null) return null;
        if (k === "path" && Array.isArray(v)) return `${t("game.via")} ${fieldValue(k, v.slice(0, -1), names)}`;
        return `${tOr(`field.${k}`, k.replace(/_/g, " "))} ${fieldValue(k, v, names)}`;
      }).filter((x) => x);
      out[i] = extra.length ? `${base[i]} (${extra.join(", ")})` : base[i];
    }
  }
  return out;
}

// The legal actions as buttons, grouped by type (a group opens when it is short or holds an
// action of the selected block). With a block selected the list follows it: its own
// actions, and those that name no block (ending the phase...), under its name.
export function actionsPanel(node, legal, { matching = null, onAct, disabled = false, names = new Map() }) {
  node.replaceChildren(el("h3", { i18n: "game.actions" }));
  if (!legal.length) {
    node.append(el("p", { class: "muted", i18n: "game.no_actions" }));
    return;
  }
  let shownActions = legal;
  if (matching) {
    const own = legal.filter((a) => unitsNamed(a).includes(matching));
    const name = names.get(matching) ?? matching;
    node.append(el("p", { class: "muted following", id: "following" },
      own.length ? t("game.actions_of", { name, n: own.length }) : t("game.actions_none", { name })));
    shownActions = [...own, ...legal.filter((a) => !unitsNamed(a).length)];
  }
  const words = labels(shownActions, names);
  const groups = new Map();
  shownActions.forEach((action, i) => {
    if (!groups.has(action.type)) groups.set(action.type, []);
    groups.get(action.type).push([action, words[i]]);
  });
  const list = el("div", { class: "actions" });
  const small = shownActions.length <= 14;
  for (const [type, actions] of groups) {
    const buttons = actions.map(([action, text]) => {
      const match = matching && unitsNamed(action).includes(matching);
      // The exact action sent stays one hover away (title), out of the way of the words.
      return el("button", { class: match ? "match" : null, disabled, "data-action": JSON.stringify(action),
        title: JSON.stringify(action), onclick: () => onAct(action) }, text);
    });
    const open = small || actions.length <= 6 || buttons.some((b) => b.classList.contains("match"));
    list.append(el("details", { open, "data-type": type },
      el("summary", {}, `${describe({ type })} (${actions.length})`), ...buttons));
  }
  node.append(list);
}

// A field of an event in the player's words: a block id by printed name, a seat by name,
// else the catalogue's word for it ("field.hits", or the phase bar's "view.day").
function fieldName(key, names, seats) {
  if (names.has(key)) return names.get(key);
  if (seats.includes(key)) return seatName(key);
  return tOr(`field.${key}`, tOr(`view.${key}`, key.replace(/_/g, " ")));
}

// A hidden enemy block's opaque handle is one the view lists among its hidden blocks, or
// one the server marks in the event (`handles`) for a block the view no longer shows
// hidden. The log says "a hidden block"; the handle stays in its tooltip. These are the
// handles of the hidden blocks a view gives.
export function handlesOf(view) {
  return once(handlesSeen, view, () => new Set((Array.isArray(view?.hidden) ? view.hidden : [])
    .map((h) => h?.handle).filter((h) => typeof h === "string")));
}

// A view's names and handles are asked for by the log, the actions and the announcement
// of each render: work each out once per view received.
const namesSeen = new WeakMap();
const handlesSeen = new WeakMap();
function once(memo, view, make) {
  if (!view || typeof view !== "object") return make();
  if (!memo.has(view)) memo.set(view, make());
  return memo.get(view);
}

// Parts (strings and nodes) joined by `sep`.
const joined = (lists, sep) => lists.flatMap((parts, i) => (i ? [sep, ...parts] : parts));

// Event data in words, as a list of strings and nodes, through arrays and mappings: field
// names as above; string values as block or seat names, a hidden block's handle as "a hidden
// block", or the catalogue's word for that field's value ("value.kind.supported"); anything
// else as it is.
function phrase(value, names, seats, handles, key = "") {
  if (typeof value === "string") {
    if (!names.has(value) && handles.has(value)) {
      return [el("span", { class: "hidden-block", "data-handle": value, title: value }, t("log.hidden_block"))];
    }
    return [names.get(value) ?? (seats.includes(value) ? seatName(value) : tOr(`value.${key}.${value}`, value))];
  }
  if (Array.isArray(value)) return joined(value.map((v) => phrase(v, names, seats, handles, key)), ", ");
  if (isClock(value)) return [timeWords(value)];
  if (value && typeof value === "object") {
    // A flag reads as its name when set ("forced retreat") and is left out when not.
    return joined(Object.entries(value).filter(([, v]) => v !== false)
      .map(([k, v]) => (v === true ? [fieldName(k, names, seats)] : [`${fieldName(k, names, seats)} `, ...phrase(v, names, seats, handles, k)])),
    " · ");
  }
  return [short(value)];
}

// An entry as a sentence, when the catalogue has one for its kind (`sentence.<type>`, a
// system's words: "{unit} moves {path}") and the entry gives every field it names: the
// fields in the player's words as the list would say them, a path as its places in
// order, a `winner` as who won (or a draw). Else null, and the entry reads as a list.
function sentence(type, data, names, seats, handles) {
  const key = `sentence.${type}`;
  const template = t(key);
  if (template === key) return null;
  const slots = [...template.matchAll(/\{(\w+)\}/g)];
  const given = (k) => (k === "winner" ? k in data
    : data[k] !== undefined && data[k] !== null && !(Array.isArray(data[k]) && !data[k].length));
  if (!slots.every((m) => given(m[1]))) return null;
  const parts = [];
  let last = 0;
  for (const m of slots) {
    parts.push(template.slice(last, m.index));
    const [k, v] = [m[1], data[m[1]]];
    if (k === "winner") parts.push(v ? t("game.winner", { seat: seatName(v) }) : t("game.draw"));
    else if (k === "path" && Array.isArray(v)) parts.push(v.map(String).join(" → "));
    else parts.push(...phrase(v, names, seats, handles, k));
    last = m.index + m[0].length;
  }
  parts.push(template.slice(last));
  return parts;
}

export function logEntry(e, known = new Map(), seats = [], handles = new Set()) {
  // The server names the blocks an event gives by id (`names`), also those the view no
  // longer shows (an enemy block revealed in a melee, hidden again since).
  const names = e.names ? new Map([...Object.entries(e.names), ...known]) : known;
  const dice = diceIn(e.data);
  const data = { ...(e.data || {}) };
  // The dice are drawn as faces after the text: leave their numbers out of it (a lone
  // "dice 3" read as three dice rather than a die showing 3).
  delete data.rolls;
  if (dice.length) for (const key of ["dice", "values"]) if (Array.isArray(data[key])) delete data[key];
  if (dice.length) delete data.hit; // drawn on the faces
  // A new hour (1.3) is itself a time of day: say it once, in the player's words.
  const clock = isClock(data) ? timeWords(data) : null;
  if (clock) for (const key of ["day", "hour", "night"]) delete data[key];
  if (Array.isArray(e.handles)) handles = new Set([...handles, ...e.handles]);
  const kind = tOr(`event.${e.type}`, e.type);
  const said = sentence(e.type, data, names, seats, handles);
  const text = joined([clock ? [clock] : [], Object.keys(data).length ? phrase(data, names, seats, handles) : []]
    .filter((parts) => parts.length), " · ");
  // A sentence says it all (its kind and every field stay in the tooltip); else the kind
  // in bold, then the fields.
  const li = said
    ? el("li", { "data-n": e.n, class: "sentence", title: [kind, ...text.map((p) => (p instanceof Node ? p.textContent : p))].join(" ") },
      el("span", { class: "rule", title: t("log.rule") }, e.rule || "·"), ...said)
    : el("li", { "data-n": e.n }, el("span", { class: "rule", title: t("log.rule") }, e.rule || "·"),
      el("b", {}, kind), " ", ...text);
  if (e.redacted) li.append(" ", el("span", { class: "muted" }, `(${t("log.hidden")})`));
  const hits = hitsIn(e.data, dice);
  if (dice.length) li.append(" ", ...dice.map((v, i) => dieFace(v, 22, hits ? hits[i] : null)));
  return li;
}

const LOG_SHOWN = 400; // the newest entries; older ones stay in the replay viewer

// The printed names of the blocks a view shows by identity (id -> name).
export function namesOf(view) {
  return once(namesSeen, view, () => new Map(unitsOf(view).map((u) => [u.id, u.raw.label ?? u.raw.name])
    .filter(([, n]) => n).map(([id, n]) => [id, String(n)])));
}

// What each log node was last drawn from. A render that changes none of it (a click on the
// map, an armed attack) leaves the log alone: its up to LOG_SHOWN entries are not drawn
// again, and a reader who scrolled back up stays where they were.
const logDrawn = new WeakMap();

export function logPanel(node, events, { names = new Map(), seats = [], handles = new Set() } = {}) {
  // By content: every refresh brings a new view, mostly with the same names.
  const words = JSON.stringify([[...names], [...handles], seats]);
  const last = logDrawn.get(node);
  if (last && last.events === events && last.words === words) return;
  logDrawn.set(node, { events, words });
  node.replaceChildren(el("h3", { i18n: "game.log" }));
  const ul = el("ul");
  if (events.length > LOG_SHOWN) ul.append(el("li", { class: "muted" }, t("log.older", { count: events.length - LOG_SHOWN })));
  for (const e of events.slice(-LOG_SHOWN)) ul.append(logEntry(e, names, seats, handles));
  node.append(ul);
  node.scrollTop = node.scrollHeight;
}

// The scenario card (`/card`, from the system's declaration): when the game starts and
// ends, who wins at which total, the options in force and the arrivals by hour with their
// entry roads. Arrivals of the other side come as a count when the card names none.
export function cardPanel(node, card, seats) {
  node.replaceChildren();
  if (!card) { node.hidden = true; return; }
  node.hidden = false;
  const when = (at) => timeWords(at) ?? "";
  const who = (seat) => (seat ? t("game.winner", { seat: seatName(seat) }) : t("game.draw"));
  const band = (b) => {
    if (b.min !== undefined && b.max !== undefined) {
      return b.min > b.max ? null : t("card.band_range", { who: who(b.winner), min: b.min, max: b.max });
    }
    return b.min !== undefined ? t("card.band_min", { who: who(b.winner), min: b.min })
      : t("card.band_max", { who: who(b.winner), max: b.max });
  };
  const v = card.victory;
  const measure = v ? tOr(`view.victory.${v.measure}`, v.measure) : "";
  const rows = (card.arrivals || []).map((a) => el("tr", { "data-side": a.side },
    el("td", {}, when(a.at)), el("td", {}, seatName(a.side)),
    el("td", {}, a.entry ?? a.hex ?? ""),
    el("td", {}, a.pieces ? a.pieces.join(", ") : t("card.unnamed", { n: a.count }))));
  const options = (card.options || []).map((o) => el("li", {},
    tOr(`option.${o.name}`, o.name), o.rule ? ` (${o.rule})` : ""));
  node.append(el("summary", {}, el("h3", { i18n: "card.title" })),
    el("p", { class: "card-title" }, el("b", {}, tOr(`value.title.${card.title}`, card.title)),
      card.rule ? ` (${card.rule})` : ""),
    el("p", { id: "card-times" }, t("card.times", { start: when(card.start), end: when(card.end),
      seat: seatName(card.first) })),
    v ? el("div", { id: "card-victory" }, el("b", {}, t("card.victory", { measure, rule: v.rule })),
      el("ul", {}, ...v.bands.map(band).filter((x) => x).map((x) => el("li", {}, x)))) : null,
    el("div", { id: "card-options" }, el("b", { i18n: "card.options" }),
      options.length ? el("ul", {}, ...options) : el("span", { class: "muted" }, " ", t("card.none"))),
    el("div", { id: "card-arrivals" }, el("b", { i18n: "card.arrivals" }),
      rows.length ? el("table", { class: "arrivals" },
        el("thead", {}, el("tr", {}, ...["card.when", "card.side", "card.entry", "card.pieces"]
          .map((k) => el("th", { i18n: k })))), el("tbody", {}, ...rows))
        : el("span", { class: "muted" }, " ", t("card.none"))));
}
