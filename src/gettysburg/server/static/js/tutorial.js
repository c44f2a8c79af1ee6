// The first-game tutorial: a game of the system's tutorial scenario (its seed fixes the
// dice) played from the learner's seat, with a panel of steps beside the map. Each step
// says what to do, offers only the actions it teaches, waits until they are done (an event
// of a kind, or a phase reached) and then says what happened. When the other seat must
// answer meanwhile (a melee it is drawn into), the page answers for it, in the order of
// preference the tutorial gives. The system declares it all (`tutorial` in /api/systems)
// and writes the words (`tutorial.<step>.do` / `.after`, `tutorial.title`, `.intro`,
// `.finished`). The link is "/g/<id>#tut=<seat>:<token>,<seat>:<token>".
import { get, post, newActionId } from "./api.js";
import { el, toast, errorText } from "./ui.js";
import { t } from "./i18n.js";
import { gamePage } from "./game.js";
import { systemInfo } from "./systems.js";

export function tutorialTokens(hash) {
  if (!hash.startsWith("tut=")) return null;
  const pairs = hash.slice(4).split(",").map((p) => p.split(":")).filter((p) => p.length === 2 && p[0] && p[1]);
  return pairs.length ? Object.fromEntries(pairs) : null;
}

export function tutorialLink(gameId, tokens) {
  return `/g/${gameId}#tut=${Object.entries(tokens).map(([s, tok]) => `${s}:${tok}`).join(",")}`;
}

// A new game of `system`'s tutorial, every seat played from this screen; its link.
export async function startTutorial(system, tutorial, seatIds) {
  const seats = Object.fromEntries(seatIds.map((s) => [s, { kind: "human" }]));
  const game = await post("/api/games", { system, scenario: tutorial.scenario, seed: tutorial.seed, options: [], seats });
  return tutorialLink(game.game_id, Object.fromEntries(seatIds.map((s) => [s, game.seats[s].token])));
}

// Whether `action` matches a step's pattern: every key equal (null: the key absent).
function matches(pattern, action) {
  return Object.entries(pattern).every(([k, v]) =>
    (v === null ? !(k in action) : JSON.stringify(action[k]) === JSON.stringify(v)));
}

const word = (key, vars) => t(`tutorial.${key}`, vars); // the system's words

export async function tutorialPage(root, gameId, tokens) {
  const some = Object.values(tokens)[0];
  const first = await get(`/api/games/${gameId}`, some);
  const tut = (await systemInfo(first.system))?.tutorial;
  if (!tut || !tokens[tut.seat]) {
    root.replaceChildren(el("p", { class: "error-text", i18n: "learn.none" }), el("a", { href: "/", i18n: "game.to_lobby" }));
    return () => {};
  }
  const steps = tut.steps;
  // Where the learner is (kept across a reload of the page).
  const key = `gettysburg.tutorial.${gameId}`;
  const kept = JSON.parse(sessionStorage.getItem(key) || "null");
  let index = kept?.index ?? 0; // the step being done
  let from = kept?.from ?? 0; // the first log entry that counts for it
  let answering = false;

  const count = el("p", { class: "muted", id: "tutorial-count" });
  const after = el("p", { class: "tutorial-after", id: "tutorial-after" });
  const doNow = el("p", { class: "tutorial-do", id: "tutorial-do", role: "status", "aria-live": "polite" });
  const panel = el("div", { class: "panel card tutorial", id: "tutorial", "data-step": "" },
    el("h2", {}, word("title")), count, after, doNow);

  function show() {
    const done = index >= steps.length;
    panel.dataset.step = done ? "finished" : steps[index].id;
    count.textContent = done ? t("learn.done") : t("learn.step", { n: index + 1, total: steps.length });
    after.textContent = index === 0 ? word("intro") : word(`${steps[index - 1].id}.after`);
    doNow.replaceChildren(done ? word("finished") : word(`${steps[index].id}.do`));
    if (done) doNow.append(" ", el("a", { href: "/", id: "tutorial-lobby" }, t("learn.to_lobby")));
  }

  // The log entry that ends a step (an event of its kind, or the start of its phase) at
  // or after `since`, or undefined.
  function ending(step, events, since) {
    const { event, phase } = step.done;
    return events.find((e) => e.n >= since && (event ? e.type === event
      : e.type === "phase" && e.data?.phase === phase));
  }

  // The other seat's answer, when it is to decide while the learner's turn goes on.
  async function answer(seat) {
    answering = true;
    try {
      const other = await get(`/api/games/${gameId}`, tokens[seat]);
      const pick = (tut.other || []).map((type) => other.legal.find((a) => a.type === type)).find(Boolean)
        ?? other.legal[0];
      if (pick) await post(`/api/games/${gameId}/actions`, { action: pick, action_id: newActionId(), step: other.step }, tokens[seat]);
    } catch (err) { toast(errorText(err)); } finally { answering = false; }
  }

  // Every step the log shows done since the last one moves the panel on (several at once
  // when the page is opened again on a game played further than this tab remembers).
  function onRender(state, events) {
    let moved = false;
    for (let end; index < steps.length && (end = ending(steps[index], events, from));) {
      index += 1;
      from = end.n + 1;
      moved = true;
    }
    if (moved) {
      sessionStorage.setItem(key, JSON.stringify({ index, from }));
      show();
    }
    const waiting = (state.to_move || []).find((s) => s !== tut.seat && tokens[s]);
    if (index < steps.length && waiting && !answering && state.status !== "finished") answer(waiting);
    return moved; // the next step offers other actions: draw them
  }

  const allow = (action) => index < steps.length && steps[index].allow.some((p) => matches(p, action));
  show();
  return gamePage(root, gameId, tokens[tut.seat], { allow, aside: panel, onRender, zoom: tut.zoom || 1 });
}
