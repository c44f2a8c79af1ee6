// The player's own games (links with their tokens) kept in this browser only.
const KEY = "gettysburg.games";

export function myGames() {
  try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch { return []; }
}

// Newest first; `seen` is when it was last opened here, `started` when it first was.
export function remember(entry) {
  const same = (g) => g.game_id === entry.game_id && g.seat === entry.seat;
  const games = myGames();
  const before = games.find(same);
  const list = games.filter((g) => !same(g));
  const now = Date.now();
  list.unshift({ ...entry, seen: now, started: before?.started ?? before?.seen ?? now });
  localStorage.setItem(KEY, JSON.stringify(list.slice(0, 50)));
}

export function forget(gameId, seat) {
  localStorage.setItem(KEY, JSON.stringify(myGames().filter((g) => !(g.game_id === gameId && g.seat === seat))));
}
