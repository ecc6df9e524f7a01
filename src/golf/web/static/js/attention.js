// "Your turn" where a player looks when not looking at the table (issue 22): a dot on the
// tab's icon, and, when the player turned it on and the tab is hidden, a desktop
// notification. Permission is asked only when the player switches notifications on, never
// on load. (The tab's title says "Your turn" too: table.js sets it with the page's title.)

import "./strings/layout.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { pref, setPref } from "./api.js";

const PREF = "notify";
const ICON = "/static/favicon.svg";
// The dot: gold with a white ring, top right, over the icon's own drawing.
const DOT = '<circle cx="50" cy="14" r="12" fill="#f4b942" stroke="#fff" stroke-width="3"/>';

let plainIcon = null; // the icon's SVG text, fetched once
let dotted = null; // its data URL with the dot
let mine = false;

function iconLink() {
  let link = document.querySelector('link[rel="icon"]');
  if (!link) {
    link = h("link", { rel: "icon", type: "image/svg+xml", href: ICON });
    document.head.append(link);
  }
  return link;
}

async function dottedIcon() {
  if (dotted) return dotted;
  if (plainIcon === null) {
    const response = await fetch(ICON);
    plainIcon = await response.text();
  }
  dotted = "data:image/svg+xml," + encodeURIComponent(plainIcon.replace("</svg>", `${DOT}</svg>`));
  return dotted;
}

async function showDot(on) {
  const link = iconLink();
  if (!on) {
    link.setAttribute("href", ICON);
    return;
  }
  try {
    const url = await dottedIcon();
    if (mine) link.setAttribute("href", url);
  } catch {
    /* no dot without the icon; the title still says it */
  }
}

function notificationsAllowed() {
  return "Notification" in window && Notification.permission === "granted";
}

/** Whether "tell me when it is my turn" is on (and the browser allows it). */
export function notifyOn() {
  return pref(PREF, false) && notificationsAllowed();
}

/**
 * The table says whose turn it is after every render: `yours` and the table's title. The dot
 * follows the turn; a notification goes out when the turn becomes this page's while the tab
 * is hidden.
 */
export function markTurn(yours, tableTitle = "") {
  const was = mine;
  mine = Boolean(yours);
  if (mine !== was) showDot(mine);
  if (mine && !was && document.hidden && notifyOn()) {
    try {
      const note = new Notification(t("attention.title"),
        { body: t("attention.body", { table: tableTitle }), tag: "golf-turn", icon: ICON });
      note.onclick = () => { window.focus(); note.close(); };
    } catch {
      /* some browsers allow notifications only from a service worker: the dot remains */
    }
  }
}

/** The switch for the display menu: asks for permission when it is turned on. */
export function notifySwitch() {
  const note = h("p.help", { text: t("attention.help") });
  const box = h("input#pref-notify", { type: "checkbox", checked: notifyOn(),
    onchange: async (e) => {
      const input = e.target;
      if (!input.checked) {
        setPref(PREF, false);
        return;
      }
      if (!("Notification" in window)) {
        input.checked = false;
        note.textContent = t("attention.unsupported");
        return;
      }
      const answer = Notification.permission === "granted" ? "granted"
        : await Notification.requestPermission();
      const allowed = answer === "granted";
      setPref(PREF, allowed);
      input.checked = allowed;
      note.textContent = allowed ? t("attention.help") : t("attention.denied");
    } });
  return [h("label.check", {}, box, " ", t("attention.switch")), note];
}
