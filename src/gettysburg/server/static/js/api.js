// Thin client over the server's JSON API; every refusal becomes an ApiError naming the rule.
export class ApiError extends Error {
  constructor(status, error) {
    super(error.message || `HTTP ${status}`);
    this.status = status;
    this.rule = error.rule || "";
    this.field = error.field || null;
  }
}

export async function call(method, path, { token = null, body = undefined } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, { rule: "network", message: String(err) });
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data.error || { message: response.statusText });
  return data;
}

export const get = (path, token) => call("GET", path, { token });
export const post = (path, body, token) => call("POST", path, { token, body });

export function newActionId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// Open the seat's push channel; calls onMessage with each {type, state, events}.
export function connect(gameId, token, getSince, onMessage, onStatus) {
  let ws = null;
  let closed = false;
  let delay = 500;
  const open = () => {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/api/games/${gameId}/ws`);
    ws.onopen = () => { delay = 500; ws.send(JSON.stringify({ token, since: getSince() })); onStatus?.(true); };
    ws.onmessage = (msg) => onMessage(JSON.parse(msg.data));
    ws.onclose = () => {
      onStatus?.(false);
      if (!closed) setTimeout(open, delay = Math.min(delay * 2, 8000));
    };
  };
  open();
  return { close() { closed = true; ws?.close(); } };
}
