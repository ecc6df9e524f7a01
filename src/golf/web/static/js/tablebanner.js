// The table's connection banner: "Connecting…", the countdown to the next try with a button
// to try now, and, once this page is done at the table, why (the seat lost, the table gone)
// with the ways on: watch the table, back to the lobby.

import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import "./strings/common.js";
import "./strings/table.js";

/**
 * The words for a lost seat, by the close reason alone (docs/protocol.md, "bye"), never by
 * the server message's English: the host removed it, the seat was opened in another browser,
 * or the table seated a bot in it.
 */
export function lostSeatKey(reason) {
  return reason === "replaced" ? "banner.lost.replaced"
    : reason === "opened_elsewhere" ? "banner.lost.elsewhere"
      : reason === "removed" ? "banner.lost.removed" : "banner.removed";
}

/**
 * The banner of /t/{id} or /watch/{id}: retry() tries to connect now, onRemoved(reason) is
 * told when the server closed this page's seat.
 */
export function connectionBanner({ id, navigate, retry, onRemoved }) {
  const el = h("div.conn-banner", { role: "status", hidden: true });
  let timer = null;

  function render(S) {
    const c = S.conn;
    clearInterval(timer);
    if (S.gone) {
      el.hidden = false;
      el.className = "conn-banner bad";
      const watch = `/watch/${encodeURIComponent(id)}`;
      replace(el, h("span#lost-seat", { text: S.goneKey ? t(S.goneKey) : S.gone }), " ",
        S.lost ? h("a.button.small", { href: watch, text: t("banner.watch"),
          onclick: (e) => { e.preventDefault(); navigate(watch); } }) : null, " ",
        h("a.button.small", { href: "/", text: t("common.back"),
          onclick: (e) => { e.preventDefault(); navigate("/"); } }));
      return;
    }
    if (c.state === "open") {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    el.className = "conn-banner";
    if (c.state === "removed") {
      onRemoved(c.reason || (S.bye && S.bye.reason));
      return;
    }
    if (c.state === "offline") {
      const until = Date.now() + c.retryIn;
      const text = h("span");
      const tick = () => {
        text.textContent = t("banner.offline", { s: Math.max(0, Math.ceil((until - Date.now()) / 1000)) });
      };
      tick();
      timer = setInterval(tick, 500);
      replace(el, text, " ", h("button.small", { type: "button", text: t("banner.retry"),
        onclick: retry }));
    } else {
      replace(el, h("span", { text: t("banner.connecting") }));
    }
  }

  return {
    el, render,
    /** The countdown stopped (the page is left). */
    stop() {
      clearInterval(timer);
    },
  };
}
