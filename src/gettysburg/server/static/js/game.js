// The play page: one seat of one game, kept in step with the server over a WebSocket.
import { get, post, connect, newActionId, ApiError } from "./api.js";
import { el, toast, errorText } from "./ui.js";
import { t, translatePage, setScope } from "./i18n.js";
import { Board, mapKey, keyHelp } from "./board.js";
import { destinations, actionsOn, unitsOf, unitsNamed, isAttack, places, targetHex, placeMarks } from "./units.js";
import { phaseBar, actionsPanel, logPanel, logEntry, namesOf, handlesOf, seatName, cardPanel } from "./panels.js";
import { remember } from "./store.js";
import { systemInfo, seatColours } from "./systems.js";
import { battleOf, drawBattle } from "./battle.js";
import { stackPanel, facingPanel, facingChoices, formationsPanel, turnPanel } from "./stackpanel.js";
import { poolPanel, combatPanel } from "./markers.js";

// How the board draws a game's pieces: the system's counter style and seat colours.
export async function pieceLook(system, seats) {
  const info = await systemInfo(system).catch(() => null);
  return { counters: info?.counters || "blocks", colours: seatColours(info, seats) };
}

export async function loadMap(gameId, token) {
  try { return await get(`/api/games/${gameId}/map`, token); } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

// `onState`: told of every state the push channel brings (hot-seat hands the screen over).
// A guided page (the tutorial) also gives `allow` (which legal actions the page offers),
// `aside` (a panel put first in the side column) and `onRender(state, events)`, told after
// every drawing; when it answers true the page is drawn once more (its `allow` changed),
// and `zoom` (how much closer than the whole map a first opening shows).
export async function gamePage(root, gameId, token, { onState = null, allow = null, aside = null, onRender = null, zoom = 1 } = {}) {
  if (!token) {
    root.replaceChildren(el("p", { class: "error-text", i18n: "game.no_token" }));
    return () => {};
  }
  let state;
  try {
    state = await get(`/api/games/${gameId}`, token);
  } catch (err) {
    root.replaceChildren(el("p", { class: "error-text" }, errorText(err)), el("a", { href: "/", i18n: "game.to_lobby" }));
    return () => {};
  }
  setScope(state.system);
  remember({ game_id: gameId, seat: state.seat, token, system: state.system, scenario: state.scenario });
  const map = state.map ? await loadMap(gameId, token) : null;
  let events = (await get(`/api/games/${gameId}/events?since=0`, token)).events;
  // The scenario card, when the rule system gives one (404 otherwise); it does not change.
  const card = await get(`/api/games/${gameId}/card`, token).catch(() => null);
  let selected = null;
  // The legal actions this page offers (all of them, unless a guide narrows them).
  const legal = () => (allow ? state.legal.filter(allow) : state.legal);
  let redrawn = false; // a guide's second drawing is not followed by a third
  // What selecting the block would set going (`/preview`: an HQ's command), and the action
  // its warning was shown for once (a second click sends it).
  let preview = null;
  let warned = null;
  let armed = null; // the hex of an attack clicked once, waiting for its second click
  let busy = false;
  let waiting = false; // an action the server has not received yet is kept (see send)
  let retryTimer = null;
  const pendingKey = `gettysburg.pending.${gameId}.${state.seat}`;
  // The log position after this seat's last action: what came after it is the other
  // side's turn, drawn on the map as trails and marks (kept across a reload).
  const followKey = `gettysburg.follow.${gameId}.${state.seat}`;
  let followFrom = Number(sessionStorage.getItem(followKey) ?? NaN);
  const title = document.title;

  const bar = el("div", { class: "phasebar", id: "phasebar" });
  const boardNode = el("div", { class: "board", id: "board" });
  // A battle fought inside the game (the view's `battle`) takes the map's place meanwhile.
  const battleNode = el("div", { class: "board battle", id: "battle", hidden: true });
  const actionsNode = el("div", { class: "panel card", id: "actions" });
  const logNode = el("div", { class: "panel card log", id: "log" });
  // Open before the first move, when a player reads it; folded away after.
  // An opened stack (its pieces to pick from) and a move's facings to choose between.
  const stackNode = el("div", { class: "panel card stack-list", id: "stack", hidden: true });
  const chooseNode = el("div", { class: "panel card facing-choice", id: "choose", hidden: true });
  // The selected piece's turns where it stands, with arrows (stackpanel.js, turnPanel).
  const turnNode = el("div", { class: "panel card facing-choice", id: "turn", hidden: true });
  const formationsNode = el("div", { class: "panel card formations-panel", id: "formations", hidden: true });
  // The seat's markers (pool, draw) and the selected unit's fire and shock odds (markers.js).
  const poolNode = el("div", { class: "panel card markers-panel", id: "markers", hidden: true });
  const combatNode = el("div", { class: "panel card combat-preview", id: "combat", hidden: true });
  let stack = null; // {ids, hex} of the stack opened
  let choosing = null; // {hex, options} of a move waiting for its facing
  const cardNode = el("details", { class: "panel card scenario-card", id: "scenario-card", open: state.step === 0 });
  const undoBtn = el("button", { id: "undo", i18n: "game.undo", onclick: () => undo() });
  const saveBtn = el("button", { id: "save", i18n: "game.save", onclick: () => download() });
  const conn = el("span", { class: "muted", id: "conn" });
  const sending = el("span", { class: "muted", id: "sending", i18n: "game.sending", hidden: true });
  const armedNote = el("span", { class: "armed-note", id: "armed", hidden: true });
  const sinceNode = el("p", { class: "since", id: "since", hidden: true });
  const previewNode = el("p", { class: "preview-note", id: "preview", hidden: true });
  const warnNode = el("p", { class: "armed-note", id: "warn", role: "alert", hidden: true });
  const controls = el("div", { class: "panel card" },
    el("div", { class: "form-row" }, undoBtn,
      el("a", { href: `/g/${gameId}/replay#${token}`, id: "replay-link", i18n: "game.replay" }), saveBtn),
    el("div", {}, el("span", { class: "muted", i18n: "game.game" }), ` ${state.system}/${state.scenario} · `, conn, " ", sending, " ", armedNote),
    sinceNode, previewNode, warnNode, map ? mapKey() : null, keyHelp());
  // What just happened, for a screen reader: the log itself is redrawn whole, so it cannot
  // be a live region without reading everything again.
  const announce = el("div", { class: "sr-only", id: "announce", role: "status", "aria-live": "polite" });
  root.replaceChildren(el("div", { class: "game" }, bar, boardNode, battleNode,
    el("div", { class: "side" }, aside, controls, combatNode, chooseNode, turnNode, stackNode, cardNode, actionsNode, poolNode, formationsNode, logNode)), announce);

  const seatIds = state.seats.map((s) => s.seat);
  const look = await pieceLook(state.system, seatIds);
  const board = new Board(boardNode, { map, seats: seatIds, ...look,
    onUnit: (id) => {
      if (placeHere(id)) return;
      // With a block selected, a click on another block acts on it (a target named by a
      // legal action, or the hex it stands in); otherwise it selects.
      if (selected && selected !== id) {
        const other = unitsOf(state.view).find((u) => u.id === id);
        const hex = other?.hex;
        const options = [...actionsOn(legal(), selected, id), ...(hex ? destinations(legal(), selected, state.view?.place_hexes).get(hex) || [] : [])];
        if (options.length) { pick(options, hex); return; }
        // A block the player cannot select (the enemy's): the click was meant for its hex.
        if (other && other.side !== state.seat && hex) { explain(hex); return; }
      }
      selected = selected === id ? null : id;
      stack = null;
      choosing = null;
      armed = null;
      warned = null;
      board.refuse(null);
      render();
      loadPreview(selected);
    },
    onHex: (hex) => {
      if (!selected) {
        const here = places(legal()).get(hex);
        if (here?.length) pick(here, hex);
        return;
      }
      const options = destinations(legal(), selected, state.view?.place_hexes).get(hex);
      if (options?.length) pick(options, hex);
      else explain(hex);
    },
    // A stack clicked: with a piece selected that can act there, the click acts; else the
    // stack opens into a list to pick a piece from.
    onStack: (ids, hex) => {
      const here = selected ? null : places(legal()).get(hex);
      if (here?.length) { pick(here, hex); return; }
      if (selected && !ids.includes(selected)) {
        const options = [...ids.flatMap((id) => actionsOn(legal(), selected, id)), ...(destinations(legal(), selected, state.view?.place_hexes).get(hex) || [])];
        if (options.length) { pick(options, hex); return; }
        const other = unitsOf(state.view).find((u) => u.id === ids[0]);
        if (other && other.side !== state.seat) { explain(hex); return; }
      }
      stack = { ids, hex };
      render();
    },
    // Escape: an armed attack first, then the selection.
    onCancel: () => {
      if (choosing) choosing = null;
      else if (armed) armed = null;
      else selected = null;
      render();
    } });

  // With no block selected, a click on a block standing where an action naming no block goes
  // (a marker to put down there) offers that action; a block that has actions of its own is
  // selected too, so that the choice may be dropped for them (Escape).
  function placeHere(id) {
    if (selected) return false;
    const hex = unitsOf(state.view).find((u) => u.id === id)?.hex;
    const here = hex ? places(legal()).get(hex) : null;
    if (!here?.length) return false;
    if (legal().some((a) => unitsNamed(a).includes(id))) { selected = id; loadPreview(id); }
    pick(here, hex);
    return true;
  }

  // A click on a place the selected block has no action at: the rule system says why
  // (`/why`, in its words with its rule), else the client says only that nothing goes there.
  async function explain(hex) {
    const unit = selected;
    const name = namesOf(state.view).get(unit) ?? unit;
    let why = null;
    try {
      why = await get(`/api/games/${gameId}/why?unit=${encodeURIComponent(unit)}&place=${encodeURIComponent(hex)}`, token);
    } catch { why = null; } // the reason is a help: without it the general words do
    if (selected !== unit) return; // the player has moved on meanwhile
    const words = why?.message ? t("game.refused", { hex, why: why.message, rule: why.rule })
      : t("game.refused_none", { hex, name });
    board.refuse(hex, words);
  }

  async function loadPreview(unit) {
    preview = null;
    if (!unit) return;
    let seen = null;
    try {
      seen = await get(`/api/games/${gameId}/preview?unit=${encodeURIComponent(unit)}`, token);
    } catch { seen = null; } // a preview is a help: without it the page works as before
    if (selected !== unit || !seen?.note) return;
    preview = { unit, ...seen };
    render();
  }

  // An action the preview warns about (an activation that commands nobody) is sent by a
  // second click on it; the first says why it may be a waste.
  const canon = (a) => JSON.stringify(Object.keys(a).sort().map((k) => [k, a[k]]));
  function guarded(action) {
    const shown = preview && preview.unit === selected ? preview : null;
    const key = canon(action);
    if (shown?.warn && (shown.warn_for || []).some((a) => canon(a) === key) && warned !== key) {
      warned = key;
      warnNode.textContent = t("game.warn_again", { warn: shown.warn });
      warnNode.hidden = false;
      return;
    }
    warned = null;
    warnNode.hidden = true;
    submit(action);
  }

  // Moves to one place that differ only in their facing: the player chooses the facing
  // (a panel of pointers); any other choice goes as before.
  function pick(options, hex) {
    const facings = facingChoices(options);
    if (facings.length > 1) {
      choosing = { hex, options: facings };
      render();
      return;
    }
    act(options[0], hex);
  }

  // A click sends a move at once; an attack only once its hex is clicked a second time.
  function act(action, hex) {
    choosing = null;
    board.refuse(null);
    if (isAttack(action) && armed !== hex) {
      armed = hex;
      render();
      return;
    }
    armed = null;
    guarded(action);
  }

  // What the second click on an armed attack does, truly: a fire rolls its dice at once, so
  // it stays; a melee declared may be taken back until its dice are rolled if no other
  // person plays (the undo rule, docs/server.md), else the other player has seen it.
  function armedWords(action, hex) {
    if (action.type === "fire") return t("game.armed_fire", { hex });
    const people = state.seats.some((s) => s.seat !== state.seat && s.kind === "human");
    return t(people ? "game.armed_melee_seen" : "game.armed_melee", { hex });
  }

  // The connection, or once the game is over that it is over (the channel stays open).
  function showConn() {
    const over = state?.status === "finished";
    const live = conn.dataset.live;
    conn.textContent = over ? t("game.ended") : live === "1" ? t("game.live") : live === "0" ? t("game.offline") : "";
  }

  function render() {
    showConn();
    // The tab says when this seat is to decide: a game against a friend far away waits in
    // a background tab for hours, and the tab strip is where its player looks.
    const mine = state.status !== "finished" && (state.to_move || []).includes(state.seat);
    document.title = mine ? `● ${t("game.your_move", { seat: seatName(state.seat) })} · ${title}` : title;
    phaseBar(bar, state, state.view);
    // With nothing selected, the places an action naming no block goes to are lit.
    const options = selected ? destinations(legal(), selected, state.view?.place_hexes) : places(legal());
    const dests = new Set(options.keys());
    const attacks = new Set([...options].filter(([, acts]) => isAttack(acts[0])).map(([h]) => h));
    if (armed && !attacks.has(armed)) armed = null;
    armedNote.hidden = !armed;
    armedNote.textContent = armed ? armedWords(options.get(armed)[0], armed) : "";
    // A selected HQ shows its command range when the view gives one (`command_ranges`).
    // (or, from `/preview`, a selected leader's `reach`)
    const reach = new Set(selected ? state.view?.command_ranges?.[selected]
      || (preview?.unit === selected ? preview.reach : null) || [] : []);
    const actors = new Set(legal().flatMap(unitsNamed)); // what N steps through
    const trails = trailsOf(events);
    // The selected block's actions to a place other than a hex (an area beyond the map's
    // edge), marked at the hex the view puts it at, to be clicked like a destination.
    const marks = placeMarks(legal(), selected, state.view?.place_hexes);
    board.render(state.view, { selected, dests, attacks, armed, reach, actors, trails, marks });
    const battle = battleOf(state.view);
    battleNode.hidden = !battle;
    boardNode.hidden = Boolean(battle);
    if (battle) {
      drawBattle(battleNode, battle, { seat: state.seat, legal: busy || waiting ? [] : legal(), selected,
        colours: look.colours, onAct: guarded,
        placeName: (id) => (map?.positions || map?.hexes || []).find((p) => p.id === id)?.name ?? id,
        onSelect: (id) => { selected = id; board.refuse(null); render(); } });
    }
    // The blocks the selected piece would set going, lit; those it cannot reach, greyed.
    const shown = preview && preview.unit === selected ? preview : null;
    for (const g of boardNode.querySelectorAll("g.unit")) {
      g.classList.toggle("previewed", Boolean(shown?.lit?.includes(g.dataset.unit)));
      g.classList.toggle("preview-out", Boolean(shown?.out && g.dataset.unit in shown.out));
    }
    previewNode.hidden = !shown;
    previewNode.textContent = shown?.note ?? "";
    if (!warned) warnNode.hidden = true;
    // The other side's turn in a sentence, beside the trails drawn on the map.
    const count = (kind) => trails.filter((x) => x.kind === kind).length;
    sinceNode.hidden = !trails.length;
    sinceNode.textContent = trails.length
      ? t("game.since", { moves: count("move"), fires: count("fire"), melees: count("melee") }) : "";
    const names = namesOf(state.view);
    if (stack && !stack.ids.every((id) => unitsOf(state.view).some((u) => u.id === id && u.hex === stack.hex))) stack = null;
    stackPanel(stackNode, stack, unitsOf(state.view), { selected, onSelect: (id) => {
      selected = id; stack = null; choosing = null; armed = null; board.refuse(null); render(); loadPreview(id);
    } });
    formationsPanel(formationsNode, state.view);
    poolPanel(poolNode, state.view);
    combatPanel(combatNode, shown, { names, onAct: guarded, disabled: busy || waiting || !mine });
    facingPanel(chooseNode, choosing, map?.layout, { onChoose: (a) => act(a, choosing.hex),
      onCancel: () => { choosing = null; render(); } });
    const turns = selected ? legal().filter((a) => unitsNamed(a).includes(selected) && targetHex(a) === null
      && a.facing && typeof a.facing === "object" && Number.isInteger(a.facing.index)) : [];
    turnPanel(turnNode, turns, map?.layout, { onChoose: guarded, disabled: busy || waiting });
    actionsPanel(actionsNode, legal(), { matching: selected, onAct: guarded, disabled: busy || waiting, names });
    logPanel(logNode, events, { names, seats: state.seats.map((s) => s.seat), handles: handlesOf(state.view) });
    if (!cardNode.dataset.drawn) { cardPanel(cardNode, card, state.seats.map((s) => s.seat)); cardNode.dataset.drawn = "1"; }
    undoBtn.disabled = !state.undo || busy || waiting;
    sending.hidden = !waiting;
    saveBtn.hidden = state.status !== "finished";
    translatePage(root);
    if (onRender?.(state, events) && !redrawn) {
      redrawn = true;
      try { render(); } finally { redrawn = false; }
    }
  }

  // The other side's moves, fires and melees since this seat last acted, from the log as
  // the seat sees it: a `path` is a move; an entry of a fire with a `hex` and a `target`,
  // a shot; of a melee with a `hex`, a fight there.
  function trailsOf(list) {
    if (!Number.isFinite(followFrom)) return [];
    const out = [];
    for (const e of list) {
      if (e.n < followFrom) continue;
      const d = e.data || {};
      if (Array.isArray(d.path) && d.path.length) out.push({ kind: "move", path: d.path });
      else if (/fire/.test(e.type) && typeof d.hex === "string" && typeof d.target === "string") {
        out.push({ kind: "fire", path: [d.hex, d.target] });
      } else if (/melee/.test(e.type) && typeof d.hex === "string") out.push({ kind: "melee", path: [d.hex] });
    }
    return out;
  }

  // Log entries arrive both from refreshes and from the push channel: keep each index once.
  function addEvents(more) {
    const known = new Set(events.map((e) => e.n));
    const fresh = more.filter((e) => !known.has(e.n));
    if (!fresh.length) return; // the same list, so the log is not drawn again (logPanel)
    events = events.concat(fresh).sort((a, b) => a.n - b.n);
    const seats = state.seats.map((s) => s.seat);
    announce.textContent = fresh.slice(-3)
      .map((e) => logEntry(e, namesOf(state.view), seats, handlesOf(state.view)).textContent).join(". ");
  }

  async function refresh() {
    state = await get(`/api/games/${gameId}`, token);
    const since = events.length ? events.at(-1).n + 1 : 0;
    if (state.log_size < since) events = (await get(`/api/games/${gameId}/events?since=0`, token)).events;
    else addEvents((await get(`/api/games/${gameId}/events?since=${since}`, token)).events);
    render();
  }

  // A submission is remembered (sessionStorage) until the server answers. If the server
  // cannot be reached it is kept, the actions are locked, and it is sent again, with the
  // same id and the step it was chosen at, when the connection is back or the page is
  // reloaded: the server applies an id at most once, and refuses it (protocol.step) if
  // the game has moved on since, so a late re-send never plays a stale choice.
  async function send(action, actionId, step) {
    busy = true; render();
    let offline = false;
    try {
      const done = await post(`/api/games/${gameId}/actions`, { action, action_id: actionId, step }, token);
      sessionStorage.removeItem(pendingKey);
      // Everything up to this action's own entries is known to the player: trails start after.
      const own = (done?.events || []).map((e) => e.n).filter(Number.isInteger);
      followFrom = own.length ? Math.max(...own) + 1 : (events.length ? events.at(-1).n + 1 : 0);
      sessionStorage.setItem(followKey, String(followFrom));
      waiting = false;
      selected = null;
      stack = null;
      choosing = null;
    } catch (err) {
      if (err.status === 0 || err.status === 503) { // unreachable, or its store failed: retry
        offline = true;
        if (!waiting) toast(t("game.kept"));
        waiting = true;
        clearTimeout(retryTimer);
        retryTimer = setTimeout(resend, 4000);
      } else {
        sessionStorage.removeItem(pendingKey);
        waiting = false;
        toast(errorText(err));
      }
    } finally {
      busy = false;
      if (offline) render();
      else await refresh().catch((err) => toast(errorText(err)));
    }
  }

  function resend() {
    const pending = sessionStorage.getItem(pendingKey);
    if (!pending) { waiting = false; return Promise.resolve(); }
    if (busy) return Promise.resolve();
    const { action, actionId, step } = JSON.parse(pending);
    return send(action, actionId, step);
  }

  function submit(action) {
    if (waiting) return Promise.resolve(); // one action at a time: the kept one goes first
    const actionId = newActionId();
    sessionStorage.setItem(pendingKey, JSON.stringify({ action, actionId, step: state.step }));
    return send(action, actionId, state.step);
  }

  async function undo() {
    try {
      await post(`/api/games/${gameId}/undo`, {}, token);
      toast(t("game.undone"), "info");
    } catch (err) { toast(errorText(err)); }
    await refresh();
  }

  async function download() {
    try {
      const data = await get(`/api/games/${gameId}/save`, token);
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 1)], { type: "application/json" }));
      el("a", { href: url, download: `gettysburg-${gameId}.json` }).click();
    } catch (err) { toast(errorText(err)); }
  }

  render();
  board.startView(`gettysburg.view.${gameId}.${state.seat}`,
    unitsOf(state.view).filter((u) => u.side === state.seat && u.hex).map((u) => u.hex), zoom);
  await resend();
  const channel = connect(gameId, token, () => (events.length ? events.at(-1).n + 1 : 0), (msg) => {
    if (msg.type === "error") { toast(errorText(msg.error)); return; }
    if (msg.type !== "state") return;
    state = msg.state;
    if (state.log_size < (events.length ? events.at(-1).n + 1 : 0)) {
      refresh().catch((err) => toast(errorText(err))); // an undo shortened the log: fetch it again
      return;
    }
    addEvents(msg.events);
    if (selected && !state.legal.length) selected = null;
    render();
    onState?.(state);
  }, (up) => {
    conn.dataset.live = up ? "1" : "0";
    showConn();
    if (up && waiting) resend();
  });
  return () => { clearTimeout(retryTimer); channel.close(); };
}
