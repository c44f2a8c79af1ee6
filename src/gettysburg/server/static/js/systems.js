// What the server says of each rule system (GET /api/systems): seats, the counter style,
// seat colours, opponents. Asked once per page load; the client names no system itself.
import { get } from "./api.js";

let asked = null;

export function systemsInfo() {
  asked ??= get("/api/systems").then((r) => r.systems).catch((err) => { asked = null; throw err; });
  return asked;
}

export async function systemInfo(name) {
  return (await systemsInfo()).find((s) => s.name === name) ?? null;
}

// Seat colours when a system declares none: by the seat's place in its list.
const PALETTE = ["#3d5a8c", "#8b8c84", "#a4322b", "#3d7a3a", "#8c6d3d", "#6d3d8c"];

// seat -> [face, edge] colours for a system's pieces.
export function seatColours(info, seats = []) {
  const order = [...new Set([...Object.keys(info?.seats || {}), ...seats])];
  const declared = info?.colours || {};
  return Object.fromEntries(order.map((seat, i) => {
    const face = declared[seat] || PALETTE[i % PALETTE.length];
    return [seat, [face, darker(face)]];
  }));
}

function darker(colour) {
  const m = /^#([0-9a-f]{6})$/i.exec(colour);
  if (!m) return "#333";
  const v = parseInt(m[1], 16);
  return "#" + [16, 8, 0].map((s) => Math.round(((v >> s) & 255) * 0.62).toString(16).padStart(2, "0")).join("");
}
