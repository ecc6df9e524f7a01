// The page: a header (name, language switch, display settings), then one screen chosen by
// the path: / (lobby), /join/{code}, /t/{id} (waiting room and table), /watch/{id},
// /replay/{id}/{n}, /players/{id} (a profile), /leaderboards[/{preset}/{band}]. The server
// serves index.html for each of these paths.

import { h, replace } from "./dom.js";
import { lang, onLangChange, setLang, t } from "./i18n.js";
import "./strings/common.js";
import { pref, setPref } from "./api.js";
import { cardBack, cardFace } from "./cards.js";
import { soundSwitch } from "./sound.js";
import { notifySwitch } from "./attention.js";
import { ratedTable } from "./memory.js";
import { presenceOn } from "./presence.js";
import "./strings/profiles.js";
import { mountAccountMenu } from "./account.js";

const screens = {
  lobby: () => import("./lobby.js").then((m) => m.lobbyScreen),
  invite: () => import("./invite.js").then((m) => m.inviteScreen),
  table: () => import("./table.js").then((m) => m.tableScreen),
  replay: () => import("./replay.js").then((m) => m.replayScreen),
  profile: () => import("./profile.js").then((m) => m.profileScreen),
  leaderboard: () => import("./leaderboard.js").then((m) => m.leaderboardScreen),
};

let active = null; // {unmount(), relabel()?}

export function route(path = location.pathname) {
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "join" && parts[1]) return { screen: "invite", code: parts[1] };
  if (parts[0] === "t" && parts[1]) return { screen: "table", id: parts[1], watch: false };
  if (parts[0] === "watch" && parts[1]) return { screen: "table", id: parts[1], watch: true };
  if (parts[0] === "players" && parts[1]) return { screen: "profile", id: parts[1] };
  if (parts[0] === "leaderboards") {
    const page = Number(new URLSearchParams(location.search).get("page")) || 1;
    return { screen: "leaderboard", preset: parts[1], band: parts[2], page };
  }
  if (parts[0] === "replay" && parts[1]) {
    return { screen: "replay", id: parts[1], match: Number(parts[2] || 1) };
  }
  return { screen: "lobby" };
}

export function navigate(path, { replaceState = false } = {}) {
  if (replaceState) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  show();
}

async function show() {
  const where = route();
  if (active && active.unmount) active.unmount();
  active = null;
  document.title = t("app.name");
  const main = document.getElementById("main");
  replace(main, h("p.loading", { text: t("common.loading") }));
  // Other tables of this browser hear that it is still here (not on a table's page).
  presenceOn(where.screen === "table" && !where.watch ? where.id : null);
  const make = await screens[where.screen]();
  const root = h("div.screen");
  replace(main, root);
  active = make(root, where, { navigate }) || null;
}

function header() {
  const bar = document.getElementById("topbar");
  const skip = document.querySelector(".skip-link");
  if (skip) skip.textContent = t("app.skip");
  const logo = h("a.brand", { href: "/", "aria-label": t("common.back"),
    onclick: (e) => { e.preventDefault(); navigate("/"); } },
    h("span.brand-cards", { "aria-hidden": "true" }, cardBack(), cardFace("AS", { decorative: true })),
    h("span.brand-name", { text: t("app.name") }));
  const select = h("select#lang", { "aria-label": t("lang.label"),
    onchange: (e) => setLang(e.target.value) },
    h("option", { value: "en", text: t("lang.en"), selected: lang() === "en" }),
    h("option", { value: "de", text: t("lang.de"), selected: lang() === "de" }));
  const four = h("input#pref-four", { type: "checkbox", checked: pref("fourColour", false),
    onchange: (e) => { setPref("fourColour", e.target.checked); refresh(); } });
  const peeked = h("input#pref-peeked", { type: "checkbox", checked: pref("showPeeked", false),
    onchange: (e) => { setPref("showPeeked", e.target.checked); refresh(); } });
  const menu = h("details.display-menu", {},
    h("summary", { "aria-label": t("common.settings") },
      h("span.topbar-label", { text: t("common.settings") })),
    h("div.menu-body", {},
      h("label.check", {}, four, " ", t("pref.fourColour")),
      // A casual table's comfort: at a rated table memory mode is the table's rule.
      h("div#pref-peeked-row", { hidden: ratedTable() },
        h("label.check", {}, peeked, " ", t("pref.showPeeked")),
        h("p.help", { text: t("pref.showPeeked.help") })),
      h("p.help#pref-peeked-rated", { hidden: !ratedTable(), text: t("pref.showPeeked.rated") }),
      soundSwitch(), notifySwitch()));
  // On a phone the header keeps one line: its links show their icons, their words stay
  // their accessible names (golf.css, "top bar on a phone").
  const boards = h("a.topbar-link", { href: "/leaderboards", "aria-label": t("nav.leaderboards"),
    onclick: (e) => { e.preventDefault(); navigate("/leaderboards"); } },
    h("span.topbar-icon", { "aria-hidden": "true", text: "♛" }),
    h("span.topbar-label", { text: t("nav.leaderboards") }));
  const account = h("div.account-slot");
  replace(bar, logo, h("div.topbar-tools", {}, boards,
    h("label.lang", {}, h("span.sr-only", { text: t("lang.label") }), select), menu, account));
  mountAccountMenu(account, { navigate });
}

function refresh() {
  if (active && active.refresh) active.refresh();
}

onLangChange(() => {
  header();
  if (active && active.refresh) active.refresh();
  else show();
});
window.addEventListener("popstate", show);

// The header's menus and the host's tools are <details> pop-ups: like any menu they close on
// Esc (focus back on their button) and on a click or tap anywhere outside them.
const MENUS = "details.display-menu[open], details.account-menu[open], details.host-menu[open]";
document.addEventListener("keydown", (e) => {
  if (e.key !== "Escape") return;
  for (const menu of document.querySelectorAll(MENUS)) {
    const inside = menu.contains(document.activeElement);
    menu.open = false;
    if (inside) menu.querySelector("summary")?.focus();
  }
});
document.addEventListener("pointerdown", (e) => {
  for (const menu of document.querySelectorAll(MENUS)) {
    if (!menu.contains(e.target)) menu.open = false;
  }
});

header();
show();
