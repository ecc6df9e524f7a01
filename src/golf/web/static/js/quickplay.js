// "Play now" on the lobby: pick a game and a player count, wait in the queue (elapsed
// time, the rating window, "fill with bots" once the server allows it, leave at once), and
// go to the table when a match is found. The ticket is polled about once a second
// (GET /api/quickplay/{ticket}); writes send this browser's CSRF token (GET /api/me).
// docs/quickplay.md describes the rule and the routes.

import "./strings/quickplay.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { presetName } from "./names.js";
import "./strings/common.js";
import { api, rememberSeat, savedName } from "./api.js";
import { loadPresets } from "./rulewords.js";

const POLL_MS = 1000;
const MAX_PLAYERS = 8;

function request(method, path, body, csrf) {
  return api(method, path, body, null, csrf);
}

function stylesheet() {
  if (document.getElementById("quickplay-css")) return;
  document.head.append(h("link#quickplay-css", { rel: "stylesheet", href: "/static/css/quickplay.css" }));
}

function clock(seconds) {
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function message(err) {
  const key = `qp.err.${err.code}`;
  const text = t(key);
  return text === key ? err.message : text;
}

/** Mount the panel into `el`; returns {unmount} (which leaves a waiting queue). */
export function mountQuickPlay(el, { navigate }) {
  stylesheet();
  const state = { presets: [], preset: "six-card", players: 2, ticket: null, token: null,
    last: null, timer: null, csrf: null, busy: false, gone: false, said: null };
  const status = h("p.qp-status", { role: "status", "aria-live": "polite" });
  const error = h("p.field-error", { role: "alert", hidden: true });

  // The status line's words by key, so that a switch of language words it again.
  function say(key) {
    state.said = key;
    status.textContent = key ? t(key) : "";
  }

  function showError(text) {
    error.textContent = text || "";
    error.hidden = !text;
  }

  async function me() {
    const who = await request("GET", "/api/me");
    state.csrf = who.csrf;
    return who;
  }

  // The table shows the profile's display name: the lobby's "your name" field sets it.
  async function syncName() {
    const who = await me();
    const name = savedName();
    if (name && who.player.name !== name) {
      const out = await request("POST", "/api/me/name", { name }, state.csrf).catch(() => null);
      if (out && out.me) state.csrf = out.me.csrf;
    }
  }

  function range() {
    const p = state.presets.find((x) => x.name === state.preset);
    const [lo, hi] = p ? p.players : [2, MAX_PLAYERS];
    return [Math.max(2, lo), Math.min(MAX_PLAYERS, hi)];
  }

  function chooser() {
    const variant = h("select#qp-variant", { onchange: () => {
      state.preset = variant.value;
      const [lo, hi] = range();
      state.players = Math.min(hi, Math.max(lo, state.players));
      render();
    } }, state.presets.map((p) => h("option", { value: p.name, text: presetName(p.name),
      selected: p.name === state.preset })));
    const [lo, hi] = range();
    const count = h("select#qp-players", { onchange: () => { state.players = Number(count.value); } },
      Array.from({ length: hi - lo + 1 }, (_, i) => lo + i).map((n) =>
        h("option", { value: n, text: t("qp.playersN", { n }), selected: n === state.players })));
    return h("form.qp-form", { onsubmit: (e) => { e.preventDefault(); join(); } },
      h("div.setting", {}, h("label.setting-label", { for: "qp-variant", text: t("qp.variant") }), variant),
      h("div.setting", {}, h("label.setting-label", { for: "qp-players", text: t("qp.players") }), count),
      h("button#qp-go.primary", { type: "submit", text: t("qp.go"), disabled: state.busy }));
  }

  // The waiting view's parts that change each second are updated in place, so that
  // focus and a screen reader's place stay where they are.
  const live = {
    elapsed: h("p#qp-elapsed.qp-elapsed"),
    rating: h("p.help"),
    bots: h("p.help"),
    fill: h("button#qp-bots.primary", { type: "button", text: t("qp.bots"), onclick: () => fill() }),
    mode: null,
  };

  function update() {
    const s = state.last;
    const canFill = s.bots_in <= 0;
    live.elapsed.textContent = t("qp.elapsed", { time: clock(s.waited) });
    live.rating.textContent = t("qp.rating", { rating: s.rating, window: s.window });
    live.bots.textContent = canFill ? t("qp.botsNow") : t("qp.botsIn", { n: Math.ceil(s.bots_in) });
    live.fill.disabled = !canFill || state.busy;
  }

  function waiting() {
    live.fill.textContent = t("qp.bots");
    update();
    return h("div.qp-waiting", {},
      h("p.qp-looking", { text: t("qp.waiting") }),
      live.elapsed, live.rating, live.bots,
      h("div.qp-actions", {}, live.fill,
        h("button#qp-leave.ghost", { type: "button", text: t("qp.leave"), onclick: () => leave() })));
  }

  function render() {
    const mode = state.last && state.last.status === "waiting" ? "waiting" : "choose";
    live.mode = mode;
    if (state.said) status.textContent = t(state.said);
    // While waiting, the view says "Looking for players" itself: the status line is then
    // for screen readers only, not the same words a second time on the screen.
    status.classList.toggle("sr-only", mode === "waiting" && state.said === "qp.waiting");
    replace(el, h("section.panel.qp", { "aria-labelledby": "qp-title" },
      h("h2#qp-title", { text: t("qp.title") }),
      h("p.help", { text: t("qp.intro") }),
      mode === "waiting" ? waiting() : chooser(), status, error));
  }

  function show() {
    const mode = state.last && state.last.status === "waiting" ? "waiting" : "choose";
    if (mode === "waiting" && live.mode === "waiting") update();
    else render();
  }

  function stopPolling() {
    if (state.timer) clearTimeout(state.timer);
    state.timer = null;
  }

  function arrived(s) {
    state.last = s;
    if (s.status === "matched") {
      stopPolling();
      rememberSeat(s.table, state.token, s.seat);
      state.ticket = null;
      say("qp.found");
      navigate(`/t/${s.table}`);
      return;
    }
    show();
    schedule();
  }

  function schedule() {
    stopPolling();
    if (state.gone || !state.ticket) return;
    state.timer = setTimeout(poll, POLL_MS);
  }

  async function poll() {
    const ticket = state.ticket;
    if (!ticket) return;
    try {
      const s = await request("GET", `/api/quickplay/${ticket}`);
      // Left (or queued anew) while the answer was on its way: it speaks of a queue this
      // page is no longer in, and would bring the waiting panel back over "You left".
      if (state.ticket !== ticket) return;
      arrived(s);
    } catch (err) {
      if (state.ticket !== ticket) return;
      if (err.code === "no_ticket") {
        state.ticket = null;
        state.last = null;
        render();
        showError(t("qp.lost"));
        return;
      }
      schedule(); // a network hiccup: try again
    }
  }

  async function join() {
    showError(null);
    state.busy = true;
    try {
      await syncName();
      const out = await request("POST", "/api/quickplay",
        { preset: state.preset, players: state.players }, state.csrf);
      state.ticket = out.state.ticket;
      state.token = out.token;
      say("qp.waiting");
      state.busy = false;
      arrived(out.state);
      const leaveButton = document.getElementById("qp-leave");
      if (leaveButton) leaveButton.focus();
    } catch (err) {
      state.busy = false;
      render();
      showError(message(err));
    }
  }

  async function fill() {
    const ticket = state.ticket;
    showError(null);
    try {
      const s = await request("POST", `/api/quickplay/${ticket}/bots`, {}, state.csrf);
      if (state.ticket === ticket) arrived(s);
    } catch (err) {
      if (state.ticket === ticket) showError(message(err));
    }
  }

  async function leave() {
    const ticket = state.ticket;
    stopPolling();
    state.ticket = null;
    state.last = null;
    render();
    say("qp.left");
    const go = document.getElementById("qp-go");
    if (go) go.focus();
    if (ticket) await request("DELETE", `/api/quickplay/${ticket}`, undefined, state.csrf).catch(() => null);
  }

  render();
  loadPresets().then((p) => {
    state.presets = p.presets.filter((x) => x.players[1] >= 2);
    render();
  }).catch(() => showError(t("common.network")));
  me().catch(() => null);
  return {
    unmount: () => {
      state.gone = true;
      if (state.ticket) leave();
      stopPolling();
    },
    refresh: render,
  };
}
