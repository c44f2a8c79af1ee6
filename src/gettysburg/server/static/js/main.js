// Routes: "/" lobby, "/g/<id>#<token>" play, "/g/<id>#hot=<seat>:<token>,..." hot-seat
// play, "/g/<id>#tut=<seat>:<token>,..." the first-game tutorial, "/g/<id>/replay#<token>"
// replay viewer.
import { loadLanguage, savedLanguage, t, setScope } from "./i18n.js";
import { lobbyPage } from "./lobby.js";
import { gamePage } from "./game.js";
import { replayPage } from "./replay.js";
import { hotSeatPage, hotTokens } from "./hotseat.js";
import { tutorialPage, tutorialTokens } from "./tutorial.js";
import { toast, errorText } from "./ui.js";

let cleanup = () => {};

async function route() {
  cleanup();
  setScope(null); // a game's page sets its system's
  const root = document.getElementById("app");
  const token = decodeURIComponent(location.hash.slice(1));
  const m = location.pathname.match(/^\/g\/([^/]+)(\/replay)?\/?$/);
  document.title = m ? `${t("app.title")} · ${m[1]}` : t("lobby.title");
  try {
    if (!m) cleanup = await lobbyPage(root);
    else if (m[2]) cleanup = await replayPage(root, m[1], token);
    else if (hotTokens(token)) cleanup = await hotSeatPage(root, m[1], hotTokens(token));
    else if (tutorialTokens(token)) cleanup = await tutorialPage(root, m[1], tutorialTokens(token));
    else cleanup = await gamePage(root, m[1], token);
  } catch (err) {
    toast(errorText(err));
  }
  document.body.dataset.ready = "1";
}

const select = document.getElementById("lang");
select.value = savedLanguage();
select.addEventListener("change", async () => { await loadLanguage(select.value); await route(); });
await loadLanguage(select.value);
await route();
