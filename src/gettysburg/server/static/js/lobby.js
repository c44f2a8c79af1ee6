// The lobby: pick a system and scenario, who plays each side (and which of the system's
// opponents, in plain words), options; list my games.
import { get, post } from "./api.js";
import { el, toast, errorText } from "./ui.js";
import { t, translatePage, language } from "./i18n.js";
import { seatName, tOr } from "./panels.js";
import { myGames, forget, remember } from "./store.js";
import { systemsInfo } from "./systems.js";
import { hotLink } from "./hotseat.js";
import { startTutorial } from "./tutorial.js";

// The form as the player left it when the lobby was last taken down: a change of language
// builds the page again (main.js), and must not throw away the choices made so far.
let draft = null;

export async function lobbyPage(root) {
  const systems = await systemsInfo();
  // A system kept out of the lobby (a test system) is offered only with ?all in the address.
  const menu = new URLSearchParams(location.search).has("all") ? systems : systems.filter((s) => s.listed !== false);
  const systemSel = el("select", { id: "system" }, menu.map((s) => el("option", { value: s.name }, s.title || s.name)));
  const scenarioSel = el("select", { id: "scenario" });
  // Options: a box for each option the system lists (with its rule), else free text.
  const optionsIn = el("input", { id: "options", type: "text", size: 24 });
  const optionBoxes = el("div", { id: "option-boxes", class: "option-boxes" });
  const seedIn = el("input", { id: "seed", type: "text", size: 16 });
  const seatsBody = el("tbody", { id: "seats" });
  const startBtn = el("button", { class: "primary", id: "start", i18n: "lobby.start", onclick: () => start() });
  const created = el("div", { id: "created" });
  const listNode = el("div", { class: "card", id: "my-games" });

  const form = el("div", { class: "card" },
    el("h2", { i18n: "lobby.new_game" }),
    el("div", { class: "form-row" }, el("label", { for: "system", i18n: "lobby.system" }), systemSel),
    el("div", { class: "form-row" }, el("label", { for: "scenario", i18n: "lobby.scenario" }), scenarioSel),
    el("div", { class: "form-row" }, el("label", { for: "options", i18n: "lobby.options" }), optionsIn, optionBoxes),
    el("div", { class: "form-row" }, el("label", { for: "seed", i18n: "lobby.seed" }), seedIn),
    el("table", { class: "seat-table" }, el("thead", {}, el("tr", {}, el("th", { i18n: "lobby.side" }),
      el("th", { i18n: "lobby.player" }), el("th", { i18n: "lobby.agent" }))), seatsBody),
    el("div", { class: "form-row" }, startBtn), created);
  const fileIn = el("input", { type: "file", id: "save-file", accept: ".json,application/json" });
  const importCard = el("div", { class: "card" }, el("h2", { i18n: "lobby.import" }),
    el("p", { class: "muted", i18n: "lobby.import_help" }), fileIn);
  fileIn.addEventListener("change", async () => {
    const file = fileIn.files[0];
    if (!file) return;
    try {
      const save = JSON.parse(await file.text());
      const game = await post("/api/import", save);
      const seats = Object.keys(game.seats);
      for (const seat of seats) remember({ game_id: game.game_id, seat, token: game.seats[seat].token,
        system: save.system, scenario: save.scenario });
      // A finished game opens in the replay viewer; one still going is played on: from the
      // seat to move, the other seats' links given to send on.
      const state = await get(`/api/games/${game.game_id}`, game.seats[seats[0]].token);
      const next = (state.to_move || []).find((s) => seats.includes(s));
      if (state.status === "finished" || !next) {
        location.href = `/g/${game.game_id}/replay#${game.seats[seats[0]].token}`;
        return;
      }
      showLinks({ game, friends: seats.filter((s) => s !== next), mine: [next] });
      created.scrollIntoView();
    } catch (err) {
      toast(err instanceof SyntaxError ? t("lobby.not_json") : errorText(err));
    }
  });
  // A first game, step by step, for each system that declares a tutorial.
  const learnable = menu.filter((s) => s.tutorial);
  const learnCard = learnable.length ? el("div", { class: "card", id: "learn" }, el("h2", { i18n: "learn.title" }),
    el("p", { class: "muted", i18n: "learn.help" }),
    ...learnable.map((s) => el("button", { class: "primary learn", "data-system": s.name, onclick: async (ev) => {
      ev.target.disabled = true;
      try { location.href = await startTutorial(s.name, s.tutorial, Object.keys(s.seats)); } catch (err) {
        toast(errorText(err));
        ev.target.disabled = false;
      }
    } }, learnable.length > 1 ? `${t("learn.button")}: ${s.title}` : t("learn.button")))) : null;
  root.replaceChildren(el("div", { class: "lobby" }, form, el("div", { class: "column" }, learnCard, listNode, importCard)));

  const options = () => [...optionsIn.value.split(/[\s,]+/).filter(Boolean),
    ...[...optionBoxes.querySelectorAll("input:checked")].map((box) => box.dataset.option)];

  function fillScenarios() {
    const sys = systems.find((s) => s.name === systemSel.value);
    const titles = sys?.scenario_titles || {};
    // A title in the player's language where the catalogue has it (the same words the
    // game's phase bar shows), else as the scenario file gives it.
    const title = (n) => tOr(`value.title.${titles[n]}`, titles[n]);
    scenarioSel.replaceChildren(...(sys?.scenarios || []).map((n) =>
      el("option", { value: n }, titles[n] && titles[n] !== n ? `${title(n)} (${n})` : n)));
    optionsIn.placeholder = sys?.option_hint || "";
    optionsIn.value = "";
    const listed = sys?.options || [];
    optionsIn.hidden = listed.length > 0;
    optionBoxes.replaceChildren(...listed.map(({ name, rule }) => el("label", { class: "option", title: `${t("error.rule")} ${rule}` },
      el("input", { type: "checkbox", "data-option": name, checked: (sys?.ticked || []).includes(name), onchange: () => fillSeats() }),
      ` ${tOr(`option.${name}`, name.replace(/_/g, " "))} `, el("span", { class: "muted" }, `(${rule})`))));
    showOptions();
    return fillSeats();
  }

  // Only the options the chosen scenario's sheet lists (a system that gives no list per
  // scenario shows all): a box for Hancock under Day 2 would be refused by the server.
  function showOptions() {
    const sys = systems.find((s) => s.name === systemSel.value);
    const takes = sys?.scenario_options?.[scenarioSel.value];
    for (const label of optionBoxes.querySelectorAll("label.option")) {
      const box = label.querySelector("input");
      const offered = !takes || takes.includes(box.dataset.option);
      label.hidden = !offered;
      if (!offered) box.checked = false;
    }
  }

  // Seats depend on system, scenario and options; a re-fill keeps the choices made so far,
  // including any made while the setup request was on its way, and only the latest
  // request's answer is shown (an older one arriving late must not undo a newer one).
  let seatsReady = Promise.resolve();
  let refills = 0;
  let carried = {}; // seat -> [who, agent] of a draft being restored
  function fillSeats() {
    seatsReady = refillSeats(++refills);
    return seatsReady;
  }

  async function refillSeats(generation) {
    if (!scenarioSel.value) { seatsBody.replaceChildren(); return; }
    const q = new URLSearchParams({ system: systemSel.value, scenario: scenarioSel.value });
    for (const o of options()) q.append("options", o);
    let seats;
    try { ({ seats } = await get(`/api/setup?${q}`)); } catch (err) { toast(errorText(err)); return; }
    if (generation !== refills) return;
    // A draft being restored wins over what the table shows.
    const before = { ...seatChoices(), ...carried };
    const offered = opponentsOf(systems.find((s) => s.name === systemSel.value));
    const preferred = (offered.find((o) => o.name === "general") || offered[0]).name;
    const rows = seats.map((seat, i) => {
      const who = el("select", { class: "who", "data-seat": seat },
        ["me", "ai", "friend"].map((k) => el("option", { value: k }, t(`lobby.${k}`))));
      const agent = el("select", { class: "agent", "data-seat": seat },
        offered.map((o) => el("option", { value: o.name }, o.title)));
      [who.value, agent.value] = before[seat] || [i === 0 ? "me" : "ai", preferred];
      if (!agent.value) agent.value = preferred; // an opponent this system does not offer
      // What the chosen opponent is, in words a player can weigh (not only on hover), and
      // how long it usually thinks.
      const help = el("small", { class: "agent-help", "data-seat": seat });
      const sync = () => {
        agent.disabled = who.value !== "ai";
        const o = offered.find((x) => x.name === agent.value);
        help.hidden = agent.disabled || !o;
        if (!help.hidden) {
          help.replaceChildren(el("span", { class: "agent-description" }, o.description), " ",
            el("span", { class: "agent-thinking" }, o.thinking_s > 0
              ? t("lobby.thinking", { seconds: formatSeconds(o.thinking_s) }) : t("lobby.thinking_none")));
        }
      };
      who.addEventListener("change", sync); agent.addEventListener("change", sync); sync();
      return el("tr", {}, el("td", {}, seatName(seat)), el("td", {}, who), el("td", {}, agent, help));
    });
    seatsBody.replaceChildren(...rows);
  }

  async function start() {
    await seatsReady;
    const seats = {}; const mine = []; const friends = [];
    for (const [seat, [who, agent]] of Object.entries(seatChoices())) {
      seats[seat] = who === "ai" ? { kind: "ai", agent } : { kind: "human" };
      (who === "me" ? mine : who === "friend" ? friends : []).push(seat);
    }
    if (!mine.length) { toast(t("lobby.need_me")); return; }
    startBtn.disabled = true;
    try {
      const body = { system: systemSel.value, scenario: scenarioSel.value, options: options(), seats };
      if (seedIn.value.trim()) body.seed = seedIn.value.trim();
      const game = await post("/api/games", body);
      for (const seat of mine) remember({ game_id: game.game_id, seat, token: game.seats[seat].token,
        system: body.system, scenario: body.scenario });
      if (!friends.length && mine.length === 1) { location.href = game.seats[mine[0]].link; return; }
      showLinks({ game, friends, mine });
    } catch (err) {
      toast(errorText(err));
    } finally { startBtn.disabled = false; }
  }

  // A join link to the clipboard, to paste into a message to the friend.
  async function copy(text) {
    try {
      await navigator.clipboard.writeText(text);
      toast(t("lobby.copied"), "info");
    } catch { toast(t("lobby.copy_failed")); } // no clipboard (an insecure page): the box selects it
  }

  // The join links of a game just made: shown once, so kept across a change of language.
  let links = null;
  function showLinks(made) {
    links = made;
    const { game, friends, mine } = made;
    created.replaceChildren(el("h3", { i18n: "lobby.links" }), el("p", { class: "muted", i18n: "lobby.links_help" }),
      ...[...friends, ...mine.slice(1)].map((seat) => {
        const url = location.origin + game.seats[seat].link;
        return el("div", { class: "form-row links" }, el("label", {}, seatName(seat)),
          el("input", { readonly: true, value: url, "data-seat": seat, onclick: (e) => e.target.select() }),
          el("button", { type: "button", class: "copy", "data-seat": seat, i18n: "lobby.copy", onclick: () => copy(url) }));
      }),
      el("div", { class: "form-row" }, el("a", { href: game.seats[mine[0]].link, id: "open-mine" }, el("button", { class: "primary", i18n: "lobby.open_mine" })),
        // Every side yours: play them all on this screen, handing it over between turns.
        mine.length > 1 ? el("a", { href: hotLink(game.game_id, Object.fromEntries(mine.map((s) => [s, game.seats[s].token]))),
          id: "hot-seat" }, el("button", { i18n: "lobby.hot_seat" })) : null));
    translatePage(created);
  }

  // Each game with its title, side and start; the newest also with how it stands now,
  // asked of the server with the game's own token (so the list is never stale).
  const FRESH = 10;
  function fillList() {
    const games = myGames();
    listNode.replaceChildren(el("h2", { i18n: "lobby.my_games" }));
    if (!games.length) { listNode.append(el("p", { class: "muted", i18n: "lobby.no_games" })); return; }
    const started = new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" });
    listNode.append(el("ul", { class: "games-list" }, games.map((g, i) => {
      const title = systems.find((s) => s.name === g.system)?.scenario_titles?.[g.scenario];
      const named = title ? `${tOr(`value.title.${title}`, title)} (${g.system}/${g.scenario})` : `${g.system}/${g.scenario}`;
      const status = el("span", { class: "game-status", "data-game": g.game_id, "data-seat": g.seat });
      if (i < FRESH) standing(g, status);
      return el("li", {},
        el("a", { href: `/g/${g.game_id}#${g.token}` }, named), ` · ${seatName(g.seat)}`,
        g.started ?? g.seen ? el("span", { class: "muted" }, ` · ${started.format(new Date(g.started ?? g.seen))}`) : "", " · ", status, " ",
        el("a", { href: `/g/${g.game_id}/replay#${g.token}`, i18n: "game.replay" }), " ",
        el("button", { title: t("lobby.forget"), onclick: () => { forget(g.game_id, g.seat); fillList(); } }, "×"));
    })));
  }

  async function standing(g, node) {
    let s;
    try { s = await get(`/api/games/${g.game_id}`, g.token); } catch (err) {
      // Only "no such game" (or a token it no longer takes) means the server lost it; a
      // network hiccup or a busy server leaves the entry unknown for now.
      node.textContent = [403, 404].includes(err.status) ? t("lobby.gone") : "–";
      node.title = errorText(err);
      return;
    }
    const result = s.result && typeof s.result === "object" ? s.result : {};
    node.textContent = s.status === "finished"
      ? `${t("game.ended")}: ${result.winner ? t("game.winner", { seat: seatName(result.winner) }) : t("game.draw")}`
      : (s.to_move || []).includes(s.seat) ? t("game.your_move", { seat: seatName(s.seat) })
        : t("game.waiting", { seats: (s.to_move || []).map(seatName).join(", ") || "–" });
    node.classList.toggle("turn-you", s.status !== "finished" && (s.to_move || []).includes(s.seat));
  }

  systemSel.addEventListener("change", fillScenarios);
  scenarioSel.addEventListener("change", () => { showOptions(); fillSeats(); });
  optionsIn.addEventListener("change", fillSeats);
  await fillScenarios();
  if (draft) await restore(draft);
  fillList();
  translatePage(root);
  return () => { draft = snapshot(); };

  // seat -> [who plays it, its agent], as the seat table shows them now.
  function seatChoices() {
    const seats = {};
    for (const who of seatsBody.querySelectorAll("select.who")) {
      seats[who.dataset.seat] = [who.value, seatsBody.querySelector(`select.agent[data-seat="${who.dataset.seat}"]`).value];
    }
    return seats;
  }

  function snapshot() {
    const seats = seatChoices();
    return { system: systemSel.value, scenario: scenarioSel.value, text: optionsIn.value, seed: seedIn.value,
      boxes: [...optionBoxes.querySelectorAll("input:checked")].map((box) => box.dataset.option), seats, links };
  }

  // A choice the page no longer offers (a system or scenario gone) is left at its default.
  async function restore(d) {
    if ([...systemSel.options].some((o) => o.value === d.system) && systemSel.value !== d.system) {
      systemSel.value = d.system;
      await fillScenarios();
    }
    if ([...scenarioSel.options].some((o) => o.value === d.scenario)) scenarioSel.value = d.scenario;
    showOptions();
    for (const box of optionBoxes.querySelectorAll("input")) {
      box.checked = d.boxes.includes(box.dataset.option) && !box.closest("label").hidden;
    }
    optionsIn.value = d.text;
    seedIn.value = d.seed;
    carried = d.seats;
    await fillSeats();
    carried = {};
    if (d.links) showLinks(d.links);
  }
}

// The opponents a system offers, easiest first, each with its title and description in the
// player's language (English where the system gives none in it). A system that lists
// none is played by the generic agents: the general, and random play.
function opponentsOf(sys) {
  const listed = sys?.opponents || [];
  if (!listed.length) {
    return ["general", "random"].map((name) => ({ name, title: t(`lobby.agent_${name}`),
      description: t(`lobby.agent_${name}_help`), thinking_s: 0 }));
  }
  const lang = language();
  return listed.map((o) => ({ ...o, title: o.i18n?.[lang]?.title || o.title,
    description: o.i18n?.[lang]?.description || o.description }));
}

function formatSeconds(s) {
  return new Intl.NumberFormat(language(), { maximumFractionDigits: 1 }).format(s);
}
