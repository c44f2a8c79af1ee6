// A seat's markers and a combat's odds, drawn from what the server sends that seat alone:
// the activation-marker pool and the draw of a system that has one (the view's `current`,
// `pool`, `ams`, `em`; a seat's view counts only its own markers, and no draw order exists
// before a draw), and the fire and shock previews of a selected unit (`/preview`'s `fire`
// and `shock`: chart column or odds, every modifier with its source, each result's chance).
// Generic over the keys: a view or preview without them draws nothing.
import { el } from "./ui.js";
import { t } from "./i18n.js";

const isMap = (x) => x !== null && typeof x === "object" && !Array.isArray(x);

// "csa/CS-Hood/I" -> "CS-Hood/I": a marker's command after its seat.
const command = (marker) => String(marker).replace(/^[a-z]+\//, "");

export function poolPanel(node, view) {
  const has = isMap(view?.pool) || isMap(view?.ams) || isMap(view?.em);
  node.hidden = !has;
  if (!has) { node.replaceChildren(); return; }
  const rows = (obj, cls) => Object.entries(isMap(obj) ? obj : {}).map(([k, n]) =>
    el("tr", { class: cls, "data-marker": k }, el("td", {}, command(k)), el("td", { class: "n" }, String(n))));
  const table = (title, obj, cls) => el("table", { class: `markers ${cls}` },
    el("thead", {}, el("tr", {}, el("th", {}, t(title)), el("th", { class: "n" }, "#"))),
    el("tbody", {}, ...rows(obj, cls)));
  const drawn = view.current ? el("p", { class: "drawn", id: "drawn", "data-marker": view.current },
    t("markers.drawn", { marker: command(view.current) }), view.brigade ? ` · ${view.brigade}` : "")
    : el("p", { class: "drawn muted", id: "drawn" }, t("markers.none_drawn"));
  const pool = Object.values(isMap(view.pool) ? view.pool : {}).reduce((a, b) => a + Number(b || 0), 0);
  node.replaceChildren(el("details", { open: true },
    el("summary", {}, t("markers.title", { count: pool })),
    drawn,
    isMap(view.pool) && Object.keys(view.pool).length ? table("markers.pool", view.pool, "pool")
      : el("p", { class: "muted" }, t("markers.pool_empty")),
    isMap(view.ams) ? table("markers.ams", view.ams, "ams") : null,
    isMap(view.em) ? table("markers.em", view.em, "em") : null,
    el("p", { class: "muted small" }, t("markers.fog"))));
}

// One bar per result: its chance in tenths of the d10's faces.
function chanceBars(chances, cls = "") {
  return el("div", { class: `chances ${cls}`.trim() }, ...(chances || []).map((c) =>
    el("div", { class: "chance", "data-result": c.result, "data-chance": c.chance, title: `${c.faces}/10` },
      el("span", { class: "result" }, c.result),
      el("span", { class: "bar", style: `width:${Math.max(2, c.chance)}%` }),
      el("span", { class: "pct" }, `${c.chance}%`))));
}

function modifierTable(mods, key) {
  return el("table", { class: "modifiers" }, el("tbody", {}, ...(mods || []).map((m) =>
    el("tr", { "data-source": m[key] }, el("td", {}, m[key]),
      el("td", { class: "n" }, m.value > 0 ? `+${m.value}` : String(m.value)),
      el("td", { class: "muted" }, m.rule ?? m.source ?? "")))));
}

function unknowns(list) {
  return (list || []).map((u) => el("p", { class: "unknown muted", "data-source": u.source },
    t("preview.unknown", { source: u.source, rule: u.rule, note: u.note }),
    u.chances ? chanceBars(u.chances, "alt") : null));
}

// `shown`: the preview of the selected unit (or null); `onAct(action)` sends one.
export function combatPanel(node, shown, { names = new Map(), onAct, disabled = false } = {}) {
  const fires = Array.isArray(shown?.fire) ? shown.fire : [];
  const shocks = Array.isArray(shown?.shock) ? shown.shock : [];
  node.hidden = !fires.length && !shocks.length;
  if (node.hidden) { node.replaceChildren(); return; }
  const name = (k) => names.get(k) ?? k;
  const fireBlocks = fires.map((f) => el("section", { class: "fire-preview", "data-target": f.target },
    el("h4", {}, t("preview.fire", { unit: name(f.unit), target: f.target })),
    el("p", { class: "facts" }, t("preview.fire_facts", { range: f.range, ammunition: f.ammunition,
      sp: f.sp, column: f.column, drm: f.drm > 0 ? `+${f.drm}` : f.drm, rule: f.rule })),
    modifierTable(f.modifiers, "source"), chanceBars(f.chances), ...unknowns(f.unknown),
    el("button", { class: "commit", disabled, "data-action": JSON.stringify({ type: "fire", unit: f.unit, target: f.target }),
      onclick: () => onAct({ type: "fire", unit: f.unit, target: f.target }) }, t("preview.fire_button"))));
  const shockBlocks = shocks.map((s) => el("section", { class: "shock-preview" },
    ...s.parts.map((p) => el("div", { class: "shock-part", "data-targets": p.targets },
      el("h4", {}, t("preview.shock", { attackers: p.attackers.map(name).join(", "), targets: p.targets })),
      el("p", { class: "facts" }, t("preview.shock_facts", { a: p.attacker_sp, d: p.defender_sp,
        ratio: p.ratio, position: p.position ?? "—", drm: p.drm > 0 ? `+${p.drm}` : p.drm, rule: s.rule })),
      modifierTable(p.modifiers, "id"), chanceBars(p.chances),
      p.green?.length ? el("p", { class: "muted" }, t("preview.green", { units: p.green.map(name).join(", ") })) : null,
      ...unknowns(p.unknown))),
    el("button", { class: "commit", disabled, "data-action": JSON.stringify(s.action),
      onclick: () => onAct(s.action) }, t("preview.shock_button"))));
  node.replaceChildren(el("h3", {}, t("preview.title")), ...fireBlocks, ...shockBlocks);
}
