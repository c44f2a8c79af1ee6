// The replay viewer: step through a game; once it is over, branch a what-if from any step.
import { get, post } from "./api.js";
import { el, toast, errorText } from "./ui.js";
import { t, translatePage, setScope } from "./i18n.js";
import { Board, keyHelp } from "./board.js";
import { loadMap, pieceLook } from "./game.js";
import { phaseBar, logPanel, describe, namesOf, handlesOf, seatName } from "./panels.js";
import { remember } from "./store.js";

export async function replayPage(root, gameId, token) {
  let info;
  try {
    info = await get(`/api/games/${gameId}`, token);
  } catch (err) {
    root.replaceChildren(el("p", { class: "error-text" }, errorText(err)));
    return () => {};
  }
  const map = info.map ? await loadMap(gameId, token) : null;
  const bar = el("div", { class: "phasebar", id: "phasebar" });
  const boardNode = el("div", { class: "board", id: "board" });
  const slider = el("input", { type: "range", min: 0, max: info.step, value: info.step, id: "step" });
  const stepLabel = el("span", { id: "step-label" });
  const moveNode = el("p", { id: "move" });
  const logNode = el("div", { class: "panel card log", id: "log" });
  const branchBtn = el("button", { id: "branch", i18n: "replay.branch", hidden: true, onclick: () => branch() });
  const branched = el("div", { id: "branched" });
  const go = (k) => { slider.value = Math.max(0, Math.min(Number(slider.max), k)); show(); };
  const controls = el("div", { class: "panel card" }, el("h3", { i18n: "replay.title" }),
    el("div", { class: "replay-controls" },
      el("button", { id: "first", onclick: () => go(0) }, "«"),
      el("button", { id: "prev", onclick: () => go(Number(slider.value) - 1) }, "◀"),
      slider,
      el("button", { id: "next", onclick: () => go(Number(slider.value) + 1) }, "▶"),
      el("button", { id: "last", onclick: () => go(Number(slider.max)) }, "»")),
    stepLabel, moveNode, branchBtn, branched, keyHelp({ browse: true }),
    el("p", {}, el("a", { href: `/g/${gameId}#${token}`, i18n: "replay.back" })));
  root.replaceChildren(el("div", { class: "game replay" }, bar, boardNode, el("div", { class: "side" }, controls, logNode)));
  // Clicks on the map do nothing here: its hint says how to step instead. From the keyboard
  // its hexes and blocks can be read (browse).
  setScope(info.system);
  const seatIds = info.seats.map((s) => s.seat);
  const board = new Board(boardNode, { map, seats: seatIds, hint: "replay.hint", browse: true,
    ...(await pieceLook(info.system, seatIds)) });
  slider.addEventListener("input", () => show());
  // ← → a step back or on, Home / End the start and the end (the slider, when it has the
  // focus, steps by itself; on the map the arrows move among the hexes, which the map
  // marks by taking the key).
  const keys = { ArrowLeft: -1, ArrowRight: 1 };
  const onKey = (ev) => {
    if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey || ev.target.closest?.("input, select, textarea")) return;
    if (ev.key in keys) go(Number(slider.value) + keys[ev.key]);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(Number(slider.max));
    else return;
    ev.preventDefault();
  };
  document.addEventListener("keydown", onKey);

  let seq = 0;
  async function show() {
    const mine = ++seq;
    let r;
    try { r = await get(`/api/games/${gameId}/replay?step=${slider.value}`, token); } catch (err) { toast(errorText(err)); return; }
    if (mine !== seq) return; // a later step was asked for meanwhile
    slider.max = r.steps;
    stepLabel.textContent = t("replay.step", { step: r.step, steps: r.steps, as: seatName(r.as) });
    const names = namesOf(r.view);
    moveNode.textContent = r.move ? `${seatName(r.move.seat)}: ${r.move.action ? describe(r.move.action, names) : t("replay.hidden_move")}` : t("replay.start");
    phaseBar(bar, { seat: r.as, seats: info.seats, step: r.step, to_move: r.to_move, status: r.step === r.steps && r.finished ? "finished" : "active",
      result: info.result }, r.view, { replay: true });
    board.render(r.view);
    logPanel(logNode, r.events, { names, seats: info.seats.map((s) => s.seat), handles: handlesOf(r.view) });
    branchBtn.hidden = !r.finished;
    translatePage(root);
  }

  async function branch() {
    try {
      const game = await post(`/api/games/${gameId}/branch`, { step: Number(slider.value) }, token);
      const seats = Object.keys(game.seats);
      for (const seat of seats) remember({ game_id: game.game_id, seat, token: game.seats[seat].token, system: info.system, scenario: info.scenario });
      // The computer keeps its seats in the branch; with one seat left to a person, that
      // is the player here: go straight to it, as the lobby does.
      if (seats.length === 1) { location.href = game.seats[seats[0]].link; return; }
      branched.replaceChildren(el("p", { i18n: "replay.branched" }), ...seats.map((seat) => el("div", { class: "form-row links" },
        el("label", {}, seatName(seat)), el("a", { href: game.seats[seat].link, "data-seat": seat }, location.origin + game.seats[seat].link))));
      translatePage(branched);
    } catch (err) { toast(errorText(err)); }
  }

  await show();
  return () => document.removeEventListener("keydown", onKey);
}
