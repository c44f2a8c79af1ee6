// Reading units and targets out of a rule system's view and legal actions, generically:
// draw what the view gives, never more.

const UNIT_KEYS = ["block", "unit", "piece", "leader", "hq"];
const UNIT_LIST_KEYS = ["blocks", "units", "pieces"];
const HEX_KEYS = ["to", "hex", "target", "dest", "destination", "at"];

function entries(src) {
  if (Array.isArray(src)) return src.map((u, i) => [u?.id ?? u?.handle ?? u?.block ?? String(i), u]);
  if (src && typeof src === "object") return Object.entries(src);
  return [];
}

// Blocks shown by identity (blocks/units/pieces) and hidden enemy blocks (hidden: handles).
export function unitsOf(view) {
  const list = [...entries(view?.blocks ?? view?.units ?? view?.pieces), ...entries(view?.hidden)];
  // A brigade's orders, when the view gives the brigades (a seat sees only its own).
  const brigades = view?.brigades && typeof view.brigades === "object" ? view.brigades : {};
  const pieces = list.filter(([, u]) => u && typeof u === "object").map(([id, u]) => {
    const strength = u.strength ?? u.steps ?? u.cv ?? u.sp ?? null;
    const hex = u.hex ?? u.at ?? u.location ?? u.pos;
    return {
      id: String(id),
      side: String(u.side ?? u.seat ?? u.owner ?? u.army ?? ""),
      hex: typeof hex === "string" ? hex : null,
      // A block whose strength the view gives is one we may know: name it (by id at worst).
      name: u.label ?? u.name ?? (strength !== null && u.id ? u.id : null),
      type: u.type ?? u.kind ?? u.arm ?? null,
      strength,
      // What a printed label shows beyond that, when the view gives it (own blocks only:
      // a hidden block's back shows none of it).
      maxStrength: u.max_strength ?? null,
      rating: u.rating ?? null,
      movement: u.movement ?? null,
      gone: u.status === "eliminated",
      revealed: Boolean(u.revealed),
      // A faced piece (`facing: {kind: "side"|"vertex", index}`), its markers and its
      // formation's orders, when the view gives them.
      facing: u.facing && typeof u.facing === "object" ? u.facing : null,
      marks: MARKS.filter((m) => u[m] === true || u.status === m),
      orders: u.orders ?? brigades[u.brigade]?.orders ?? null,
      // An extended line or column (`extension: "line"|"column"`, `extends`: the other
      // hexes it holds: a line's flanks, a column's trail from its head backwards).
      extension: typeof u.extension === "string" && Array.isArray(u.extends) && u.extends.length
        ? { kind: u.extension, hexes: u.extends.filter((h) => typeof h === "string") } : null,
      leader: false,
      // A piece of the seat's own away from the map for a while (`away: {hex, back}`: where
      // and from when it may come back), when the view gives it.
      away: u.away && typeof u.away === "object" ? u.away : null,
      raw: u,
    };
  });
  // Leaders the view places (`leaders: {id: {hex, seat}}`): small round pieces of their own.
  const leaders = entries(view?.leaders).filter(([, l]) => l && typeof l === "object" && typeof l.hex === "string")
    .map(([id, l]) => ({ id: String(id), side: String(l.seat ?? l.side ?? ""), hex: l.hex, name: l.name ?? String(id),
      type: "leader", strength: null, maxStrength: null, rating: null, movement: null, gone: false, revealed: false,
      facing: null, marks: [], orders: null, extension: null, leader: true, away: null, raw: l }));
  return [...pieces, ...leaders];
}

// Markers a piece may carry (a flag of that name set, or its status).
const MARKS = ["disordered", "routed", "collapsed", "spent", "fired"];

export function unitsNamed(action) {
  const ids = [];
  for (const k of UNIT_KEYS) if (typeof action[k] === "string") ids.push(action[k]);
  for (const k of UNIT_LIST_KEYS) if (Array.isArray(action[k])) ids.push(...action[k].filter((x) => typeof x === "string"));
  return ids;
}

// `placeHexes` (the view's `place_hexes`, {field: {value: hex}}): an action that names no hex
// but a place of another kind (an area off the map's edge...) goes to the hex where the
// view puts that field's value.
export function targetHex(action, placeHexes = null) {
  if (Array.isArray(action.path) && action.path.length && typeof action.path.at(-1) === "string") return action.path.at(-1);
  for (const k of HEX_KEYS) if (typeof action[k] === "string") return action[k];
  return placeMark(action, placeHexes)?.hex ?? null;
}

// The place field an action names, its value and the hex the view puts it at, or null.
export function placeMark(action, placeHexes) {
  if (!placeHexes || typeof placeHexes !== "object") return null;
  for (const [field, where] of Object.entries(placeHexes)) {
    const value = action[field];
    const hex = where && (typeof value === "string" || typeof value === "number") ? where[String(value)] : null;
    if (typeof hex === "string") return { field, value: String(value), hex };
  }
  return null;
}

// The marks to draw for the selected block's actions that go to such places: one a hex,
// with the field and value it stands for.
export function placeMarks(legal, unitId, placeHexes) {
  const out = new Map();
  if (!unitId) return out;
  for (const a of legal) {
    if (!unitsNamed(a).includes(unitId)) continue;
    const m = placeMark(a, placeHexes);
    if (m && !out.has(m.hex)) out.set(m.hex, m);
  }
  return out;
}

// Actions that strike the enemy (a fire, a melee): a click on the map only arms them, a
// second click on the same place sends them (the note says whether it can be taken back).
const ATTACKS = new Set(["fire", "melee"]);
export function isAttack(action) { return ATTACKS.has(action?.type); }

// place id -> the legal actions naming `unitId` that end there.
export function destinations(legal, unitId, placeHexes = null) {
  const out = new Map();
  for (const a of legal) {
    if (!unitsNamed(a).includes(unitId)) continue;
    const hex = targetHex(a, placeHexes);
    if (hex === null) continue;
    if (!out.has(hex)) out.set(hex, []);
    out.get(hex).push(a);
  }
  return out;
}

// The legal actions of `unitId` that also name `otherId` (an HQ supplying a block, a fire
// or melee target...), in a unit field or any other field (path excepted).
export function actionsOn(legal, unitId, otherId) {
  if (otherId === unitId) return [];
  const names = (a) => [...unitsNamed(a), ...Object.entries(a).filter(([k]) => k !== "type" && k !== "path")
    .flatMap(([, v]) => (Array.isArray(v) ? v : [v])).filter((v) => typeof v === "string")];
  return legal.filter((a) => unitsNamed(a).includes(unitId) && names(a).includes(otherId));
}

// place id -> the legal actions that name no block but a place (a marker put down there,
// a fight carried on from there): played on the map while no block is selected.
export function places(legal) {
  const out = new Map();
  for (const a of legal) {
    if (unitsNamed(a).length) continue;
    const hex = targetHex(a);
    if (hex === null) continue;
    if (!out.has(hex)) out.set(hex, []);
    out.get(hex).push(a);
  }
  return out;
}
