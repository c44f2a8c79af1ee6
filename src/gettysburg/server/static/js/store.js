// The player's own games (links with their tokens) kept in this browser only.
const KEY = "gettysburg.games";

export function myGames() {
  try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch { return []; }
}

export function remember(entry) {
  const list = myGames().filter((g) => !(g.game_id === entry.game_id && g.seat === entry.seat));
  list.unshift({ ...entry, seen: Date.now() });
  localStorage.setItem(KEY, JSON.stringify(list.slice(0, 50)));
}

export function forget(gameId, seat) {
  localStorage.setItem(KEY, JSON.stringify(myGames().filter((g) => !(g.game_id === gameId && g.seat === seat))));
}
