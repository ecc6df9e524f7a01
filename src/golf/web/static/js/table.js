// /t/{id} and /watch/{id}: the waiting room, the table, the hole ends and the result, driven
// by the server's messages. The server is authoritative: the page shows the view it gets
// and offers exactly the legal actions it lists.

import { h, replace, prefersReducedMotion } from "./dom.js";
import { sentence, t, tableTitle } from "./i18n.js";
import { api, forgetSeat, get, pref, rememberSeat, tokenFor } from "./api.js";
import { PROTOCOL, TableSocket } from "./socket.js";
import { discardEl, gridEl, handSlotEl, heldEl, historyEl, stockEl, targetsOf } from "./board.js";
import { holeEndEl, resultEl, scorecardEl } from "./holeend.js";
import { showRatingChange } from "./ratingnote.js";
import { holeEnd, matchEnded, narrate, parseAction, seatName } from "./narrate.js";
import { tableBadges, waitingEl } from "./waiting.js";
import { careButton } from "./care.js";
import { fitTable, keepFitted } from "./layout.js";
import { capture as captureCards, playMoves } from "./motion.js";
import { soundFor } from "./sound.js";
import { markTurn } from "./attention.js";
import { memoryMode, setRatedTable } from "./memory.js";
import { breakClockText, celebrationEl, rematchEl, targetEndText } from "./finish.js";
import { coachEl, revealHint } from "./coach.js";
import { hostToolsEl, nudgeText } from "./hosttools.js";
import { declinedText } from "./handover.js";
import { pointerKey } from "./tablebits.js";
import { keyOf, kindOfKey } from "./keys.js";


const MOVE_KINDS = ["draw", "take", "discard", "knock", "pass"];
const LOG_SIZE = 60;

// The shortcuts usable now, from the engine's legal actions (never a key for a move the
// rules do not have: no "K knock" in six-card), plus the coach's key for players.
function keysHelp(cells, others, hint) {
  const parts = MOVE_KINDS.filter((kind) => others.has(kind)).map((kind) => t("keys." + kind));
  if (cells.size) parts.push(t("keys.cells", { n: Math.max(...cells.keys()) }));
  if (hint) parts.push(t("keys.hint"));
  return t("keys.help", { keys: parts.join(" · ") });
}

export function tableScreen(root, where, { navigate }) {
  const id = where.id;
  const S = {
    token: where.watch ? null : tokenFor(id),
    seat: null, role: null, host: false, muted: [],
    table: null, state: null, prev: null, lastEvent: null, invite: null,
    log: [], told: [], chat: [], hint: null, pending: false, error: null, waitError: null,
    clock: null, clockAt: 0, conn: { state: "connecting" }, gone: null, holdResult: false,
  };
  if (!where.watch && !S.token) {
    navigate(`/watch/${encodeURIComponent(id)}`, { replaceState: true });
    return null;
  }

  // --- persistent pieces (kept across renders so typing and focus survive) ---------------
  const banner = h("div.conn-banner", { role: "status", hidden: true });
  const live = h("div.sr-only#announcer", { "aria-live": "polite", "aria-atomic": "true" });
  const toast = h("div.toast", { role: "alert", hidden: true });
  const board = h("div.board-area");
  const logList = h("ol.log", { "aria-label": t("log.title") });
  const chatList = h("ol.chat-list", { "aria-label": t("chat.title") });
  const chatInput = h("input#chat-input", { type: "text", maxlength: 300, autocomplete: "off" });
  const chatForm = h("form.chat-form", { onsubmit: sendChat });
  const scoreBox = h("div.score-box");
  const side = h("aside.side-panels");
  const dialog = h("dialog.modal", { "aria-labelledby": "dialog-title" });
  dialog.addEventListener("close", () => {
    const kind = dialog.dataset.kind;
    dialog.dataset.kind = "";
    replace(dialog);
    // Closing a hole's end tells the server this person has read it: the next hole waits.
    if (kind === "hole-end" && S.seat !== null && S.seat !== undefined) socket.send({ type: "ready" });
    // The match result waits behind the last hole's dialog so that it is not given away.
    if (S.holdResult) {
      S.holdResult = false;
      render();
    }
  });
  replace(root, banner, toast, board, side, dialog, live);
  root.classList.add("table-screen");
  const unfit = keepFitted(board);

  function announce(text) {
    if (!text) return;
    live.textContent = "";
    // A new text node each time so screen readers read repeated sentences too.
    setTimeout(() => { live.textContent = text; }, 30);
  }

  function showToast(text) {
    toast.textContent = text;
    toast.hidden = !text;
    clearTimeout(showToast.timer);
    if (text) showToast.timer = setTimeout(() => { toast.hidden = true; }, 6000);
  }

  // --- the connection ----------------------------------------------------------------------
  const socket = new TableSocket(id, S.token, onMessage, onStatus);

  function onStatus(status) {
    S.conn = status;
    renderBanner();
  }

  // This browser no longer holds its seat (the host removed it, the seat was opened in
  // another browser, or the table seated a bot in it): say so plainly, and leave no button
  // of a player on the page (the board is drawn as a spectator's, without the chat box).
  function loseSeat(reason) {
    // By the close reason alone (docs/protocol.md, "bye"), never by the message's English.
    const key = reason === "replaced" ? "banner.lost.replaced"
      : reason === "opened_elsewhere" ? "banner.lost.elsewhere"
        : reason === "removed" ? "banner.lost.removed" : "banner.removed";
    S.gone = t(key);
    S.goneKey = key; // worded again after a switch of language
    S.lost = true;
    forgetSeat(id);
    S.token = null;
    S.seat = null;
    S.role = null;
    S.host = false;
    S.hint = null;
    S.invite = null;
    showToast("");
    if (dialog.open) dialog.close();
    replace(side);
    renderBanner();
    if (S.table) render();
  }

  function renderBanner() {
    const c = S.conn;
    clearInterval(renderBanner.timer);
    if (S.gone) {
      banner.hidden = false;
      banner.className = "conn-banner bad";
      const watch = `/watch/${encodeURIComponent(id)}`;
      replace(banner, h("span#lost-seat", { text: S.goneKey ? t(S.goneKey) : S.gone }), " ",
        S.lost ? h("a.button.small", { href: watch, text: t("banner.watch"),
          onclick: (e) => { e.preventDefault(); navigate(watch); } }) : null, " ",
        h("a.button.small", { href: "/", text: t("common.back"),
          onclick: (e) => { e.preventDefault(); navigate("/"); } }));
      return;
    }
    if (c.state === "open") {
      banner.hidden = true;
      return;
    }
    banner.hidden = false;
    banner.className = "conn-banner";
    if (c.state === "removed") {
      loseSeat(c.reason || (S.bye && S.bye.reason));
      return;
    }
    if (c.state === "offline") {
      const until = Date.now() + c.retryIn;
      const text = h("span");
      const tick = () => {
        text.textContent = t("banner.offline", { s: Math.max(0, Math.ceil((until - Date.now()) / 1000)) });
      };
      tick();
      renderBanner.timer = setInterval(tick, 500);
      replace(banner, text, " ", h("button.small", { type: "button", text: t("banner.retry"),
        onclick: () => socket.retryNow() }));
    } else {
      replace(banner, h("span", { text: t("banner.connecting") }));
    }
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        S.seat = msg.seat;
        S.role = msg.role;
        S.host = msg.host;
        S.muted = msg.muted || [];
        S.pending = false;
        break;
      case "table":
        S.table = msg.table;
        setRatedTable(S.table.rated);
        // Anyone seated may share the invite (the summary has it for a seated token).
        if (S.seat !== null && S.seat !== undefined && !S.invite && S.token) loadInvite();
        render();
        break;
      case "state":
        takeState(msg);
        break;
      case "history":
        takeHistory(msg);
        break;
      case "clock":
        S.clock = msg.clock;
        S.clockAt = Date.now();
        renderClock();
        break;
      case "chat":
        S.chat.push(msg);
        renderChat();
        break;
      case "muted":
        S.muted = msg.seats || [];
        renderChat();
        render();
        break;
      case "hint":
        if (S.state && msg.version === S.state.version) {
          S.hint = msg;
          render();
          revealHint(board);
        }
        break;
      case "error":
        takeError(msg);
        break;
      case "rating":
        showRatingChange(msg, S.seat, Object.fromEntries(((S.table && S.table.seats) || [])
          .map((x) => [x.seat, x.name])));
        break;
      case "nudge": {
        // Never secret: everyone reads it; the nudged person gets it as an alert.
        const text = nudgeText(msg, S.seat, (s) => seatName(S.table, s, S.seat));
        showToast(text);
        announce(text);
        break;
      }
      case "bot_declined": // a no to a bot in a seat: the asker learns it, everyone reads it
        showToast(declinedText(msg, S.seat, (s) => seatName(S.table, s, S.seat)));
        break;
      case "bye":
        S.bye = msg;
        // A lost seat is said by the banner (loseSeat), in the page's language.
        if (!["reconnect", "removed", "left", "replaced", "opened_elsewhere"].includes(msg.reason)) {
          showToast(sentence(msg.message || msg.reason));
        }
        break;
      default:
        break;
    }
  }

  function takeError(msg) {
    S.pending = false;
    if (S.hint && S.hint.loading) S.hint = null;
    if (msg.code === "bad_token") {
      // Our seat is gone (removed, or another server): watch instead.
      forgetSeat(id);
      S.token = null;
      socket.token = null;
      socket.send({ type: "hello", protocol: PROTOCOL, table: id, token: null });
      showToast(t("banner.badToken"));
      return;
    }
    if (msg.code === "no_table") {
      S.gone = t("banner.gone");
      socket.close();
      renderBanner();
      return;
    }
    showToast(sentence(msg.message || msg.code));
    if (msg.state) takeState(msg.state);
    else render();
  }

  async function loadInvite() {
    try {
      const summary = await get(`/api/tables/${encodeURIComponent(id)}`, S.token);
      if (summary.invite_url) {
        S.invite = summary.invite_url;
        render();
      }
    } catch {
      /* the waiting room shows no invite until the next table message */
    }
  }

  // One frame per move: the new version, this page's view and the engine's event for it.
  function takeState(frame) {
    const before = S.state;
    if (before && before.match === frame.match && frame.version < before.version) return;
    const msg = frame;
    if (before && before.match !== msg.match) startClean();
    S.prev = before && before.match === msg.match ? before : null;
    S.state = msg;
    if (msg.event) showEvent(msg);
    S.clock = msg.clock;
    S.clockAt = Date.now();
    S.pending = false;
    if (!before || before.version !== msg.version || before.match !== msg.match) S.hint = null;
    if (msg.your_turn && !(before && before.your_turn && before.version === msg.version)) {
      if (!(before && before.your_turn)) announce(t("ev.yourTurn"));
    }
    if (S.seat !== null && S.token) rememberSeat(id, S.token, S.seat);
    // Sounds for what happened while this page was open (not for the state found on load).
    if (before && (before.version !== msg.version || before.match !== msg.match)) {
      soundFor(msg, S.prev, S.seat);
    }
    render();
    if (S.showHoleEnd) {
      const { holeOver, matchOver } = S.showHoleEnd;
      S.showHoleEnd = null;
      showHoleEnd(holeOver, matchOver);
    }
  }

  // A new match (a rematch) starts clean: no dialog, log or result of the last one.
  function startClean() {
    S.holdResult = false;
    S.showHoleEnd = null;
    S.lastEvent = null;
    S.endedReason = null;
    S.log = [];
    S.told = [];
    renderLog();
    if (dialog.open) dialog.close();
  }

  function showEvent(msg) {
    const ev = msg.event;
    if (ev.ended) S.endedReason = ev.ended;
    S.lastEvent = { ...ev, version: msg.version, match: msg.match };
    // In memory mode the log never names a peeked card: it would outlive the first draw.
    const said = narrate(ev, S.table, S.seat, memoryMode(S.table) ? null : msg.view);
    if (said && said.text) {
      S.log.unshift(said.text);
      S.log.length = Math.min(S.log.length, LOG_SIZE);
      // What was told, kept to be told again in another language (retell()).
      S.told.unshift({ event: ev, view: memoryMode(S.table) ? null : msg.view });
      S.told.length = S.log.length;
      announce(said.spoken);
    }
    const result = holeEnd(ev);
    if (result) {
      // The hole-end panel: the engine's result and the scorer's explanation per seat.
      S.showHoleEnd = { holeOver: { ...result, explained: msg.scoring }, matchOver: matchEnded(ev) };
      if (matchEnded(ev)) S.holdResult = true;
    }
    replace(logList, S.log.slice(0, LOG_SIZE).map((line) => h("li", { text: line })));
  }

  // After (re)joining: the last chat lines and this match's moves so far, told for this page;
  // for a person a bot stood in for, the moves since they left ("while you were away").
  function takeHistory(msg) {
    S.chat = (msg.chat || []).slice();
    const view = S.state && !memoryMode(S.table) ? S.state.view : null;
    const told = (msg.log || []).map((entry) => {
      // A past peek names its card only while the current view still shows it.
      const same = view && entry.hole === view.hole ? view : null;
      const said = narrate(entry.event, S.table, S.seat, same);
      return { version: entry.version, text: said ? said.text : "", event: entry.event, view: same };
    }).filter((x) => x.text);
    S.log = told.map((x) => x.text).reverse().slice(0, LOG_SIZE);
    S.told = told.map((x) => ({ event: x.event, view: x.view })).reverse().slice(0, LOG_SIZE);
    replace(logList, S.log.map((line) => h("li", { text: line })));
    renderChat();
    render();
    if (msg.away_since !== null && msg.away_since !== undefined && !dialog.open) {
      const missed = told.filter((x) => x.version > msg.away_since).map((x) => x.text);
      openDialog("away",
        h("h2#dialog-title", { text: t("away.title") }),
        missed.length ? h("ol.away-log", {}, missed.map((line) => h("li", { text: line })))
          : h("p", { text: t("away.none") }),
        h("div.form-actions", {}, h("button.primary", { type: "button", text: t("away.close"),
          onclick: () => dialog.close() })));
    }
  }

  // --- acting ------------------------------------------------------------------------------
  function act(action) {
    if (!S.state || S.pending || !S.state.legal_actions.includes(action)) return;
    if (socket.send({ type: "action", version: S.state.version, action })) {
      S.pending = true;
      board.classList.add("busy");
    }
  }

  // The coach helps players at casual tables only: no expert advice where a rating is at
  // stake (the server refuses a hint there with `rated_table`).
  function hintOffered() {
    return S.role === "player" && !(S.table && S.table.rated);
  }

  function askHint() {
    if (!S.state || !S.state.your_turn || !hintOffered()) return;
    S.hint = { loading: true };
    socket.send({ type: "hint", version: S.state.version });
    render();
    revealHint(board);
  }

  function sendChat(e) {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    if (socket.send({ type: "chat", text })) chatInput.value = "";
  }

  function toggleMute(seat) {
    socket.send({ type: "mute", seat, muted: !S.muted.includes(seat) });
  }

  async function hostCall(method, path, body) {
    S.waitError = null;
    try {
      await api(method, path, body, S.token);
    } catch (err) {
      S.waitError = err.message;
      render();
    }
  }

  // A host tool or an answer to the host's proposal; a refusal is said in the toast.
  async function toolCall(method, path, body) {
    try {
      await api(method, path, body, S.token);
    } catch (err) {
      showToast(err.message);
    }
  }

  async function leave() {
    try {
      await api("POST", `/api/tables/${encodeURIComponent(id)}/leave`, {}, S.token);
    } catch {
      /* leaving an already-left table is fine */
    }
    forgetSeat(id);
    socket.close();
    navigate("/");
  }

  async function copy(text, button) {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = t("wait.copied");
    } catch {
      const input = document.getElementById("invite-link");
      if (input) input.select();
      button.textContent = t("wait.copyFailed");
    }
    setTimeout(() => { button.textContent = t("wait.copy"); }, 2500);
  }

  function onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = (e.target && e.target.tagName) || "";
    if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) || dialog.open) return;
    if (!S.state || !S.state.your_turn) return;
    const key = e.key.toLowerCase();
    const { cells, others } = targetsOf(S.state.legal_actions);
    const kind = kindOfKey(key);
    if (kind && others.has(kind)) {
      e.preventDefault();
      act(others.get(kind));
    } else if (/^[1-9]$/.test(key) && cells.has(Number(key))) {
      e.preventDefault();
      act(cells.get(Number(key)).action);
    } else if (kind === "hint" && hintOffered()) {
      e.preventDefault();
      askHint();
    }
  }
  document.addEventListener("keydown", onKey);

  // --- dialogs ---------------------------------------------------------------------------
  function openDialog(kind, ...content) {
    replace(dialog, ...content);
    dialog.dataset.kind = kind;
    if (!dialog.open) dialog.showModal();
    const first = dialog.querySelector("button.primary") || dialog.querySelector("button");
    // Focus the main button without scrolling to it: the dialog opens at its title.
    if (first) first.focus({ preventScroll: true });
    dialog.scrollTop = 0;
  }

  function showHoleEnd(holeOver, matchOver) {
    const view = S.state ? S.state.view : null;
    if (!view) return;
    const four = pref("fourColour", false);
    openDialog("hole-end",
      holeEndEl(holeOver, view, S.table, S.seat, four),
      h("div.form-actions", {}, h("button.primary.big", { type: "button", "data-key": "hole-next",
        text: matchOver ? t("holeEnd.toResult") : t("holeEnd.next"),
        onclick: () => dialog.close() })));
  }

  function showHistory() {
    if (!S.state) return;
    openDialog("history",
      h("h2#dialog-title", { text: t("table.historyTitle") }),
      historyEl(S.state.view, pref("fourColour", false)),
      h("div.form-actions", {}, h("button.primary", { type: "button", text: t("common.close"),
        onclick: () => dialog.close() })));
  }

  // --- rendering ---------------------------------------------------------------------------
  function render() {
    const focusKey = document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.key : null;
    board.classList.remove("busy");
    const before = captureCards(board);
    if (!S.table) {
      replace(board, h("p.loading", { text: t("common.loading") }));
    } else if (S.table.status === "waiting" && !(S.state && !S.state.view.is_over)) {
      document.title = `${tableTitle(S.table.title)} – ${t("app.name")}`;
      replace(board, waitingEl({ table: S.table, mySeat: S.seat, isHost: S.host,
        invite: S.invite, onHost: hostCall, onLeave: leave, onCopy: copy, error: S.waitError }));
    } else if (S.state) {
      renderGame();
    } else {
      replace(board, h("p.loading", { text: t("common.loading") }));
    }
    renderSide();
    fitTable(board);
    if (S.state && board.querySelector(".felt")) {
      playMoves(board, before, { event: S.state.event, key: `${S.state.match}:${S.state.version}`,
        fresh: Boolean(S.prev), mySeat: S.seat });
    }
    if (focusKey) {
      const again = board.querySelector(`[data-key="${focusKey}"]`);
      if (again) again.focus();
    }
  }

  function changedCells(seat) {
    const out = new Set();
    if (!S.prev || prefersReducedMotion()) return out;
    const a = S.prev.view;
    const b = S.state.view;
    if (!a.grids[seat] || !b.grids[seat] || a.hole !== b.hole) return out;
    b.grids[seat].forEach((card, i) => {
      if (card !== a.grids[seat][i] || b.face_up[seat][i] !== a.face_up[seat][i]) out.add(i + 1);
    });
    return out;
  }

  function lastPosFor(seat) {
    const ev = S.lastEvent;
    if (!ev || !S.state || ev.version !== S.state.version || ev.seat !== seat) return null;
    if (holeEnd(ev)) return null;
    return parseAction(ev.action || "").pos;
  }

  function seatTags(seat) {
    const info = S.table.seats[seat] || {};
    const tags = [];
    if (seat === S.table.host) tags.push(t("seat.host"));
    if (info.kind === "bot") tags.push(["bot", t("seat.bot")]);
    if (info.kind === "external") tags.push(t("seat.external"));
    if (S.state && S.state.view.dealer === seat) tags.push(["dealer", t("seat.dealer")]);
    if (info.abandoned) tags.push(t("seat.abandoned"));
    if (info.stand_in) tags.push(t("seat.standIn"));
    else if (info.away) tags.push(t("seat.away"));
    else if (info.elsewhere) tags.push(t("seat.elsewhere"));
    return tags;
  }

  function tagEl(tag) {
    const [kind, text] = Array.isArray(tag) ? tag : ["", tag];
    return h("span.tag" + (kind ? `.tag-${kind}` : ""), { text });
  }

  function renderGame() {
    const st = S.state;
    const view = st.view;
    const me = S.seat;
    const four = pref("fourColour", false);
    const mine = me !== null && me !== undefined && view.grids[me];
    const yourTurn = st.your_turn && !view.is_over && S.table.status !== "ended";
    const { cells, others } = yourTurn ? targetsOf(st.legal_actions) : targetsOf([]);
    const current = view.current_player;
    board.dataset.version = String(st.version);
    board.dataset.match = String(st.match);
    document.title = yourTurn ? t("turn.tab") : `${tableTitle(S.table.title)} – ${t("app.name")}`;
    markTurn(yourTurn, tableTitle(S.table.title));

    // Header: which hole, whose turn, the clock.
    const holeText = view.playoff ? t("table.playoff")
      : view.holes ? t("table.hole", { n: view.hole, total: view.holes })
        : t("table.holeOpen", { n: view.hole });
    const turnText = view.is_over ? t("match.over")
      : yourTurn ? t("turn.yours") : t("turn.of", { name: seatName(S.table, current, me) });
    const head = h("div.table-head", {},
      h("h1.table-title", { text: tableTitle(S.table.title) }),
      h("span.hole-pill", { text: holeText }),
      h("span.turn-pill" + (yourTurn ? ".mine" : ""), { text: turnText }),
      tableBadges(S.table),
      h("span.clock#clock", { "aria-live": "off" }),
      S.table.spectators ? h("span.watchers", { text: t("lobby.watching", { n: S.table.spectators }) }) : null);

    // Last turns (someone went out or knocked).
    let finalBanner = null;
    if (!view.is_over && view.knocked_by !== null && view.knocked_by !== undefined) {
      finalBanner = view.knocked_by === me ? t("banner.knockYou")
        : t("banner.knock", { name: seatName(S.table, view.knocked_by, me) });
    } else if (!view.is_over && view.final_turns_from !== null && view.final_turns_from !== undefined) {
      finalBanner = view.final_turns_from === me ? t("banner.finalYou")
        : t("banner.final", { name: seatName(S.table, view.final_turns_from, me) });
    }

    // A card just drawn or taken slides into the hand.
    const heldFresh = Boolean(S.prev) && !prefersReducedMotion()
      && view.held_by !== null && S.prev.view.held_by === null;

    // Opponents, in turn order after me.
    const n = view.players;
    const order = [];
    const start = mine ? me + 1 : 0;
    for (let i = 0; i < n; i++) {
      const s = (start + i) % n;
      if (s !== me || !mine) order.push(s);
    }
    const opponents = h("div.opponents" + (mine ? "" : ".spectating"), {},
      order.filter((s) => view.grids[s]).map((s) => {
        const info = S.table.seats[s] || {};
        const name = seatName(S.table, s, me);
        const muteable = mine && info.kind === "human" && s !== me;
        return h("section.seat-panel" + (s === current ? ".current" : ""), {
          "aria-label": t("table.gridOf", { name }), "data-seat": s },
        h("div.seat-head", {},
          h("span.turn-mark", { "aria-hidden": "true", text: s === current ? "▶" : "" }),
          h("strong.seat-name", { text: name }),
          seatTags(s).map(tagEl),
          h("span.total", { text: t("seat.total", { n: view.totals[s] }) }),
          s === current ? h("span.sr-only", { text: t("turn.of", { name }) }) : null,
          muteable ? h("button.link.small", { type: "button",
            "aria-label": S.muted.includes(s) ? t("chat.unmute", { name }) : t("chat.mute", { name }),
            text: S.muted.includes(s) ? t("chat.unmuteShort") : t("chat.muteShort"), onclick: () => toggleMute(s) }) : null,
          muteable ? careButton(S.table.id, s, name, () => S.chat) : null),
        gridEl(view, s, { label: t("table.gridOf", { name }), fourColour: four,
          lastPos: lastPosFor(s), changed: changedCells(s) }),
        view.held_by === s && s !== me ? heldEl(view, name, false, four, heldFresh) : null);
      }));

    // The middle: stock, discard pile, the card in my hand, what to do now.
    const discardChanged = S.prev && !prefersReducedMotion()
      && S.prev.view.discard_top !== view.discard_top;
    const center = h("div.center", {},
      stockEl(view, others, act),
      discardEl(view, others, act, { fourColour: four, onHistory: showHistory,
        changed: discardChanged }),
      !mine ? null : view.held_by === me ? heldEl(view, "", true, four, heldFresh) : handSlotEl());

    // Before the first move its line is kept empty, so that the first move moves no card.
    const lastLine = S.log.length && S.lastEvent ? h("p.last-move", {},
      h("span.last-tag-inline", { "aria-hidden": "true", text: "●" }), " ", S.log[0])
      : h("p.last-move.none", { "aria-hidden": "true" });

    let mySection = null;
    if (mine) {
      const actions = [];
      for (const kind of MOVE_KINDS) {
        if (!others.has(kind)) continue;
        const key = keyOf(kind).toUpperCase();
        actions.push(h(`button.action.${kind === "knock" ? "warn" : "primary"}`, { type: "button",
          "data-key": `act-${kind}`, "aria-keyshortcuts": key,
          onclick: () => act(others.get(kind)) },
        t(`act.${kind}`), h("kbd", { "aria-hidden": "true", text: key })));
      }
      for (const [kind, action] of others) {
        if (!MOVE_KINDS.includes(kind)) {
          actions.push(h("button.action", { type: "button", onclick: () => act(action), text: action }));
        }
      }
      if (yourTurn && hintOffered()) {
        actions.push(h("button.action.ghost", { type: "button", "data-key": "act-hint",
          "aria-keyshortcuts": keyOf("hint").toUpperCase(), onclick: askHint },
        h("span.hint-icon", { "aria-hidden": "true", text: "?" }), t("act.hint"),
        h("kbd", { "aria-hidden": "true", text: keyOf("hint").toUpperCase() })));
      }
      const name = seatName(S.table, me, me);
      mySection = h("section.my-area" + (current === me ? ".current" : ""), {
        "aria-label": t("table.yourGrid"), "data-seat": me },
      h("div.seat-head", {},
        h("span.turn-mark", { "aria-hidden": "true", text: current === me ? "▶" : "" }),
        h("strong.seat-name", { text: (S.table.seats[me] || {}).name || name }),
        seatTags(me).map(tagEl),
        h("span.total", { text: t("seat.total", { n: view.totals[me] }) })),
      // With the prompt, the prompts of a turn's two tallest moments: before its draw and
      // with a card in hand (the longest prompt). They are shown only while js/layout.js
      // chooses the card sizes, one moment at a time, so the cards take a size that fits
      // both and keep it (and their place) when a draw brings the other.
      h("div.prompt-box", {},
        h("p.prompt", { id: "prompt", text: promptText(view, st, others, cells) }),
        h("p.prompt.room.room-draw", { "aria-hidden": "true",
          text: t(ruleOf("knock") ? "prompt.turnKnock" : "prompt.turn") }),
        h("p.prompt.room.room-hold", { "aria-hidden": "true", text: t(pointerKey("prompt.hold")) })),
      gridEl(view, me, { label: t("table.yourGrid"), targets: cells, onAct: act,
        fourColour: four, lastPos: lastPosFor(me), changed: changedCells(me) }),
      // Likewise the buttons of those two moments: draw, take, knock where the rules have
      // it and the hint where it is offered; discard and the hint.
      h("div.actions-box", {}, h("div.actions", {}, actions),
        h("div.actions.room.room-draw", { "aria-hidden": "true" },
          roomButtons(["draw", "take", ruleOf("knock") ? "knock" : null])),
        h("div.actions.room.room-hold", { "aria-hidden": "true" }, roomButtons(["discard"]))),
      hintEl(),
      yourTurn ? h("p.keys-help", { text: keysHelp(cells, others, hintOffered()) }) : null);
    }

    let result = null;
    const ended = S.table.status === "ended";
    if ((view.is_over || ended) && !S.holdResult) {
      const isHost = S.host;
      const finished = ["finished", "ended"].includes(S.table.status);
      result = h("section.result-panel", {},
        ended && !view.is_over
          ? h("div.result", {}, h("h2", { text: t("match.over") }),
            h("p.headline", { text: t("match.ended", { reason: S.endedReason || "" }) }))
          : h("div.result-wrap", {}, celebrationEl(view, me, S.table), resultEl(view, S.table, me),
            endReasonEl(view, me)),
        h("div.form-actions", {},
          finished && mine ? rematchEl({ table: S.table, mySeat: me, isHost,
            name: (s) => seatName(S.table, s, me),
            offer: () => hostCall("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, {}),
            accept: () => hostCall("POST", `/api/tables/${encodeURIComponent(id)}/rematch/accept`, {}) })
            : null,
          h("a.button.ghost", { href: `/replay/${encodeURIComponent(id)}/${st.match}`,
            text: t("match.replay"), onclick: (e) => { e.preventDefault();
              navigate(`/replay/${encodeURIComponent(id)}/${st.match}`); } })),
        S.waitError ? h("p.field-error", { role: "alert", text: S.waitError }) : null);
    }

    replace(board,
      head,
      S.seat === null || S.seat === undefined
        ? h("p.notice.spectator-note", { text: t("table.spectating") }) : null,
      finalBanner ? h("p.final-banner", { role: "status" }, h("span", { "aria-hidden": "true", text: "⚑ " }), finalBanner) : null,
      result,
      hostToolsEl({ table: S.table, view, mySeat: me, isHost: S.host,
        name: (s) => seatName(S.table, s, me), call: toolCall, open: S.toolsOpen,
        onToggle: (open) => { S.toolsOpen = open; } }),
      h("div.felt", {}, opponents, h("div.middle", {}, center, lastLine), mySection));
    renderClock();
  }

  // Stand-ins for the buttons of a moment of the turn (see the prompt box above), the hint
  // included where it is offered: only their size counts.
  function roomButtons(kinds) {
    const shown = kinds.filter(Boolean).map((kind) => h("span.button.action", {},
      t(`act.${kind}`), h("kbd", { text: keyOf(kind).toUpperCase() })));
    if (hintOffered()) {
      shown.push(h("span.button.action", {}, h("span.hint-icon", { text: "?" }), t("act.hint"),
        h("kbd", { text: keyOf("hint").toUpperCase() })));
    }
    return shown;
  }

  function promptText(view, st, others, cells) {
    if (!st.your_turn) {
      if (S.clock && S.clock.kind === "next_hole" && !view.is_over) return t("break.prompt");
      return view.is_over ? "" : t("prompt.wait", { name: seatName(S.table, view.current_player, S.seat) });
    }
    const kinds = new Set([...cells.values()].map((c) => c.kind));
    if (kinds.has("reveal")) return t(pointerKey("prompt.reveal"), { n: setupLeft(view) });
    if (kinds.has("peek")) return t(pointerKey("prompt.peek"), { n: setupLeft(view) });
    if (view.phase === "hold") return t(pointerKey(others.has("discard") ? "prompt.hold" : "prompt.holdSwap"));
    if (view.phase === "flip") return others.has("pass") ? t("prompt.flip") : t("prompt.flipMust");
    return others.has("knock") ? t("prompt.turnKnock") : t("prompt.turn");
  }

  function setupLeft(view) {
    // How many setup choices are left is the engine's business; we only count what we see.
    const me = S.seat;
    const known = (view.face_up[me] || []).filter(Boolean).length + (view.peeked || []).length;
    const count = setupCount();
    return count === null ? "" : Math.max(1, count - known);
  }

  // The preset's setup_count (with the table's override), only to word the setup prompt.
  let presets = null;
  get("/api/presets").then((p) => { presets = p.presets; render(); }).catch(() => {});
  function setupCount() {
    if (!S.table) return null;
    if (S.table.rules && typeof S.table.rules.setup_count === "number") return S.table.rules.setup_count;
    const p = presets && presets.find((x) => x.name === S.table.preset);
    return p ? p.settings.setup_count : null;
  }

  // A setting of this table's rules (its override, else the preset's), once presets are in.
  function ruleOf(key) {
    if (!S.table) return undefined;
    if (S.table.rules && key in S.table.rules) return S.table.rules[key];
    const p = presets && presets.find((x) => x.name === S.table.preset);
    return p ? p.settings[key] : undefined;
  }

  // Why the match ended before its last hole: a total passed the points target.
  function endReasonEl(view, me) {
    const text = targetEndText(view, { target: ruleOf("target"), target_ends: ruleOf("target_ends") },
      me, (s) => seatName(S.table, s, me));
    return text ? h("p.end-reason", { text }) : null;
  }

  function hintEl() {
    return coachEl(S.hint, S.state && S.state.view,
      { legal: S.state ? S.state.legal_actions : [], onPlay: act });
  }

  function renderClock() {
    const el = board.querySelector("#clock");
    if (!el) return;
    const c = S.clock;
    if (!c || !S.state || S.state.view.is_over) {
      el.textContent = "";
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const elapsed = Date.now() - S.clockAt;
    const left = Math.max(0, c.remaining - elapsed);
    // A turn's clock: `remaining` is the turn's own time, `reserve` the seat's reserve, which
    // runs down once the turn's time is spent (docs/protocol.md, the state's `clock`).
    const reserve = c.kind === "turn" ? c.reserve || 0 : 0;
    const total = Math.max(0, c.remaining + reserve - elapsed);
    const secs = Math.ceil((c.kind === "turn" ? total : left) / 1000);
    const name = seatName(S.table, c.seat, S.seat);
    if (c.kind === "next_hole") {
      el.dataset.icon = "wait";
      el.textContent = breakClockText(c, secs, (s) => seatName(S.table, s, S.seat), S.seat);
      el.setAttribute("aria-label", t("break.label", { s: secs }));
      el.classList.remove("low");
      return;
    }
    if (c.kind === "absence") {
      el.dataset.icon = "wait";
      el.textContent = t(c.seat === S.seat ? "timer.absence.you" : "timer.absence", { name, s: secs });
    } else {
      const turn = Math.ceil(left / 1000);
      el.dataset.icon = "turn";
      el.textContent = turn > 0
        ? t("timer.turn", { s: turn }) + (reserve ? " " + t("timer.reserve", { s: Math.ceil(reserve / 1000) }) : "")
        : t("timer.inReserve", { s: secs });
    }
    el.setAttribute("aria-label", t(c.seat === S.seat ? "timer.turnLabel.you" : "timer.turnLabel", { name, s: secs }));
    el.classList.toggle("low", secs <= 10);
  }
  const clockTimer = setInterval(renderClock, 250);

  // The log in the page's language after a switch: each line told again from its event.
  function retell() {
    S.log = (S.told || []).map((x) => {
      const said = narrate(x.event, S.table, S.seat, x.view);
      return said ? said.text : "";
    });
    logList.setAttribute("aria-label", t("log.title"));
    chatList.setAttribute("aria-label", t("chat.title"));
    live.textContent = "";
  }

  function renderLog() {
    replace(logList, S.log.slice(0, LOG_SIZE).map((line) => h("li", { text: line })));
  }

  function renderChat() {
    if (!S.chat.length) {
      replace(chatList, h("li.muted", { text: t("chat.empty") }));
    } else {
      // The name and the line each in a <bdi>: laid out on its own, in its own direction, so
      // that neither can reorder the other (docs/protocol.md, "chat").
      replace(chatList, S.chat.slice(-100).map((m) => h("li", {},
        h("strong", {}, h("bdi", { text: m.name || seatName(S.table, m.seat, S.seat) })), ": ",
        h("bdi.chat-text", { text: m.text }))));
      chatList.scrollTop = chatList.scrollHeight;
    }
  }

  function renderSide() {
    const spectator = S.seat === null || S.seat === undefined;
    chatInput.placeholder = t("chat.placeholder");
    // Spectators read the chat: no disabled box, a sentence saying why they cannot write.
    if (spectator) replace(chatForm, h("p.muted.chat-note", { text: t("chat.spectators") }));
    else {
      replace(chatForm,
        h("label.sr-only", { for: "chat-input", text: t("chat.field") }),
        chatInput,
        h("button.primary.small", { type: "submit", text: t("chat.send") }));
    }
    if (S.state && S.table) replace(scoreBox, scorecardEl(S.state.view, S.table, S.seat));
    else replace(scoreBox);
    if (!side.firstChild) {
      replace(side,
        h("section.panel.score-panel", { "aria-labelledby": "score-title" },
          h("h2#score-title", { text: t("score.title") }), scoreBox),
        h("section.panel.log-panel", { "aria-labelledby": "log-title" },
          h("h2#log-title", { text: t("log.title") }), logList),
        h("section.panel.chat-panel", { "aria-labelledby": "chat-title" },
          h("h2#chat-title", { text: t("chat.title") }), chatList, chatForm));
      renderChat();
    }
    side.hidden = !S.table;
    // Before the first match there is nothing to score or tell yet: only the chat.
    const playing = Boolean(S.state) && !(S.table && S.table.status === "waiting" && S.state.view.is_over);
    for (const panel of side.querySelectorAll(".score-panel, .log-panel")) panel.hidden = !playing;
  }

  return {
    unmount() {
      socket.close();
      clearInterval(clockTimer);
      clearInterval(renderBanner.timer);
      unfit();
      markTurn(false);
      setRatedTable(false);
      document.removeEventListener("keydown", onKey);
      if (dialog.open) dialog.close();
      root.classList.remove("table-screen");
    },
    refresh() {
      // The display setting changed: the server shows this seat's peeked cards after its
      // first draw, or not (golf.view.remembered), and sends the view again.
      if (S.state && S.seat !== null && !(S.table && S.table.rated)) {
        socket.send({ type: "sync", show_peeks: pref("showPeeked", false) });
      }
      replace(side);
      retell();
      renderBanner();
      render();
      renderLog();
    },
  };
}
