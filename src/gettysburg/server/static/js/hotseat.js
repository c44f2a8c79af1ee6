// Hot-seat: two (or more) seats of one game played on one screen. The page shows one seat
// at a time; when the decision passes to another seat of this screen, a curtain hides the
// board (the other side's blocks must not be seen) until its player takes the screen.
// The link is "/g/<id>#hot=<seat>:<token>,<seat>:<token>".
import { get } from "./api.js";
import { el } from "./ui.js";
import { t, translatePage } from "./i18n.js";
import { gamePage } from "./game.js";
import { seatName } from "./panels.js";

export function hotTokens(hash) {
  if (!hash.startsWith("hot=")) return null;
  const pairs = hash.slice(4).split(",").map((p) => p.split(":")).filter((p) => p.length === 2 && p[0] && p[1]);
  return pairs.length ? Object.fromEntries(pairs) : null;
}

export function hotLink(gameId, tokens) {
  return `/g/${gameId}#hot=${Object.entries(tokens).map(([s, tok]) => `${s}:${tok}`).join(",")}`;
}

export async function hotSeatPage(root, gameId, tokens) {
  const seats = Object.keys(tokens);
  let stop = () => {};
  let current = null;

  // The seat of this screen that decides now (the first, when none of them does).
  const deciding = (state) => (state.to_move || []).find((s) => seats.includes(s)) ?? null;

  async function show(seat) {
    stop();
    current = seat;
    stop = await gamePage(root, gameId, tokens[seat], { onState: watch });
  }

  // After every change: hand over when another seat of this screen is to decide.
  function watch(state) {
    if (state.status === "finished") return;
    const next = deciding(state);
    if (next && next !== current) curtain(next);
  }

  function curtain(seat) {
    stop();
    stop = () => {};
    current = null;
    root.replaceChildren(el("div", { class: "curtain card", id: "curtain" },
      el("h2", {}, t("hot.hand_over", { seat: seatName(seat) })),
      el("p", { class: "muted" }, t("hot.hidden")),
      el("button", { class: "primary", id: "take-screen", onclick: () => show(seat) },
        t("hot.take", { seat: seatName(seat) }))));
    translatePage(root);
  }

  const first = await get(`/api/games/${gameId}`, tokens[seats[0]]);
  const seat = deciding(first) ?? seats[0];
  if (seat === seats[0] || first.status === "finished") await show(seat);
  else curtain(seat);
  return () => stop();
}
