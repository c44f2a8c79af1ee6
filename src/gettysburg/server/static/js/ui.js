// Small DOM helpers shared by the pages.
import { t } from "./i18n.js";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "i18n") { node.dataset.i18n = v; node.textContent = t(v); }
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : String(c));
  return node;
}

const SVGNS = "http://www.w3.org/2000/svg";
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  for (const c of children.flat()) if (c) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

export function toast(message, kind = "error") {
  const box = document.getElementById("toasts");
  const node = el("div", { class: `toast ${kind}`, role: "alert" }, message);
  box.append(node);
  setTimeout(() => node.remove(), kind === "error" ? 9000 : 4000);
}

// A refusal as the player should read it: what the rule says, and which rule.
export function errorText(err) {
  if (err.rule === "network") return t("error.network");
  const rule = err.rule ? ` (${t("error.rule")} ${err.rule})` : "";
  const field = err.field ? ` [${err.field}]` : "";
  return `${err.message}${field}${rule}`;
}

const PIPS = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
  4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
  6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] };

// A die face. `hit`: true for a die that hits (drawn red, white pips), false for one that
// misses (plain, faded), null when the event does not say: never coloured by its face.
export function dieFace(value, size = 22, hit = null) {
  const words = hit === null ? t("log.die", { value }) : t(hit ? "log.die_hit" : "log.die_miss", { value });
  const face = svg("svg", { class: hit === null ? "die" : `die ${hit ? "hit" : "miss"}`, width: size, height: size,
    viewBox: "0 0 4 4", role: "img", "aria-label": words },
    svg("title", {}, words),
    svg("rect", { x: 0.15, y: 0.15, width: 3.7, height: 3.7, rx: 0.6, fill: hit ? "#a4322b" : "#fffdf6",
      stroke: hit ? "#6e1a14" : "#3a3327", "stroke-width": 0.15 }));
  for (const [x, y] of PIPS[value] || []) face.append(svg("circle", { cx: x, cy: y, r: 0.36, fill: hit ? "#fff" : "#222" }));
  return face;
}

// Which of an event's dice hit, when the event marks them: `hit`, one flag per die
// (docs/protocol.md, "event data"). Null otherwise: the faces are drawn plain.
export function hitsIn(data, dice) {
  const hit = data?.hit;
  if (!Array.isArray(hit) || !dice.length || hit.length !== dice.length) return null;
  return hit.every((h) => typeof h === "boolean") ? hit : null;
}

// Every die value an event carries (rolls: [{value}], or dice/values: [n]).
export function diceIn(data) {
  if (!data || typeof data !== "object") return [];
  if (Array.isArray(data.rolls)) return data.rolls.map((r) => (typeof r === "object" ? r.value : r)).filter(Number.isInteger);
  for (const key of ["dice", "values"]) if (Array.isArray(data[key])) return data[key].filter(Number.isInteger);
  return [];
}

export function short(value) {
  if (value === null || value === undefined) return "–";
  if (Array.isArray(value)) return value.map(short).join(", ");
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k} ${short(v)}`).join(" · ");
  return String(value);
}
