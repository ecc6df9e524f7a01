// /t/{id} and /watch/{id}: the waiting room, the table, the hole ends and the result, driven
// by the server's messages. The server is authoritative: the page shows the view it gets
// and offers exactly the legal actions it lists. This module is the screen: it holds the
// page's state (js/tablestate.js), hears the server and the keyboard, sends the moves and
// draws each part: the frame (js/tableframe.js), the connection banner (js/tablebanner.js),
// the board (js/waiting.js before the match, js/tablerender.js during it, its clock
// js/tableclock.js) and the side panel (js/tableside.js).

import { h, pressGuard, replace } from "./dom.js";
import { sentence, t } from "./i18n.js";
import { tableTitle } from "./names.js";
import { api, forgetSeat, get, pref, rememberSeat, tokenFor } from "./api.js";
import { byeWords, serverWords } from "./serverwords.js";
import { PROTOCOL, TableSocket } from "./socket.js";
import { historyEl, targetsOf } from "./board.js";
import { holeEndEl } from "./holeend.js";
import { placeRatingNote, showRatingChange } from "./ratingnote.js";
import { seatName } from "./narrate.js";
import { waitingEl } from "./waiting.js";
import { fitTable, keepFitted } from "./layout.js";
import { capture as captureCards, playMoves } from "./motion.js";
import { soundFor } from "./sound.js";
import { markTurn } from "./attention.js";
import { setRatedTable } from "./memory.js";
import { revealHint } from "./coach.js";
import { nudgeText } from "./hosttools.js";
import { declinedText } from "./handover.js";
import { kindOfKey } from "./keys.js";
import { dropSeat, hintOffered, newTableState, retell, seated, takeFrame, takeHistory }
  from "./tablestate.js";
import { tableFrame } from "./tableframe.js";
import { connectionBanner, lostSeatKey } from "./tablebanner.js";
import { sidePanel } from "./tableside.js";
import { renderGame } from "./tablerender.js";
import { CLOCK_TICK_MS, renderClock } from "./tableclock.js";
import "./strings/common.js";
import "./strings/holeend.js";
import "./strings/narrate.js";
import "./strings/table.js";

export function tableScreen(root, where, { navigate }) {
  const id = where.id;
  const S = newTableState(id, where.watch ? null : tokenFor(id));
  if (!where.watch && !S.token) {
    navigate(`/watch/${encodeURIComponent(id)}`, { replaceState: true });
    return null;
  }

  // --- the parts, kept across renders (so typing and focus survive) ----------------------
  const banner = connectionBanner({ id, navigate, retry: () => socket.retryNow(), onRemoved: loseSeat });
  const side = sidePanel({ onSend: (text) => socket.send({ type: "chat", text }) });
  const frame = tableFrame(root, banner.el, side.el);
  const { board, dialog, announce, showToast, openDialog } = frame;
  dialog.addEventListener("close", () => {
    const kind = dialog.dataset.kind;
    dialog.dataset.kind = "";
    replace(dialog);
    // Closing a hole's end tells the server this person has read it: the next hole waits.
    if (kind === "hole-end" && seated(S)) socket.send({ type: "ready" });
    // The match result waits behind the last hole's dialog so that it is not given away.
    if (S.holdResult) {
      S.holdResult = false;
      render();
    }
  });
  const unfit = keepFitted(board);
  // No redraw under a pressed pointer (a click on a button the redraw replaced was lost).
  const press = pressGuard(board);
  // What the board's controls do (js/tablerender.js).
  const on = { act, askHint, toggleMute, showHistory, hostCall, toolCall, navigate };

  // --- the connection ----------------------------------------------------------------------
  const socket = new TableSocket(id, S.token, onMessage, (status) => {
    S.conn = status;
    banner.render(S);
  });

  // This browser no longer holds its seat (the host removed it, the seat was opened in
  // another browser, or the table seated a bot in it): say so plainly, and leave no button
  // of a player on the page (the board is drawn as a spectator's, without the chat box).
  function loseSeat(reason) {
    const key = lostSeatKey(reason);
    S.gone = t(key);
    S.goneKey = key; // worded again after a switch of language
    S.lost = true;
    forgetSeat(id);
    dropSeat(S);
    showToast("");
    if (dialog.open) dialog.close();
    side.clear();
    banner.render(S);
    if (S.table) render();
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
        // A new offer: who declined the last one no longer matters.
        if (S.table.rematch) S.rematchDeclined = null;
        setRatedTable(S.table.rated);
        // Anyone seated may share the invite (the summary has it for a seated token).
        if (seated(S) && !S.invite && S.token) loadInvite();
        render();
        break;
      case "state":
        takeState(msg);
        break;
      case "history":
        showHistoryLog(msg);
        break;
      case "clock":
        S.clock = msg.clock;
        S.clockAt = Date.now();
        renderClock(board, S);
        break;
      case "chat":
        S.chat.push(msg);
        side.renderChat(S);
        break;
      case "muted":
        S.muted = msg.seats || [];
        side.renderChat(S);
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
      case "rematch_declined":
        S.rematchDeclined = msg.by;
        render();
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
          showToast(byeWords(msg.reason) || sentence(msg.message || msg.reason));
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
      banner.render(S);
      return;
    }
    // The refusal in the page's words; the server's English only for a code it does not know.
    showToast(serverWords(msg) || sentence(msg.message || msg.code));
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

  // One frame per move (js/tablestate.js, takeFrame), then what it asks of the page.
  function takeState(msg) {
    const took = takeFrame(S, msg);
    if (!took) return;
    if (took.newMatch && dialog.open) dialog.close();
    if (took.newMatch || msg.event) side.renderLog(S);
    announce(took.said);
    if (took.yourTurn) announce(t("ev.yourTurn"));
    if (S.seat !== null && S.token) rememberSeat(id, S.token, S.seat);
    // Sounds for what happened while this page was open (not for the state found on load).
    if (took.moved) soundFor(msg, S.prev, S.seat);
    render();
    closeWhenBreakEnds();
    if (S.showHoleEnd) {
      const { holeOver, matchOver } = S.showHoleEnd;
      S.showHoleEnd = null;
      showHoleEnd(holeOver, matchOver);
    }
  }

  // After (re)joining: the chat and the log so far; "while you were away" for a person a bot
  // stood in for.
  function showHistoryLog(msg) {
    const missed = takeHistory(S, msg);
    side.renderLog(S);
    side.renderChat(S);
    render();
    if (missed && !dialog.open) {
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

  function askHint() {
    if (!S.state || !S.state.your_turn || !hintOffered(S)) return;
    S.hint = { loading: true };
    socket.send({ type: "hint", version: S.state.version });
    render();
    revealHint(board);
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
    } else if (kind === "hint" && hintOffered(S)) {
      e.preventDefault();
      askHint();
    }
  }
  document.addEventListener("keydown", onKey);

  // --- dialogs ---------------------------------------------------------------------------
  function showHoleEnd(holeOver, matchOver) {
    const view = S.state ? S.state.view : null;
    if (!view) return;
    openDialog("hole-end",
      holeEndEl(holeOver, view, S.table, S.seat, pref("fourColour", false)),
      // The break's countdown, the same as the header's, for the one still reading.
      matchOver ? null : h("p.clock.break-clock#break-clock", { role: "status", hidden: true }),
      h("div.form-actions", {}, h("button.primary.big", { type: "button", "data-key": "hole-next",
        text: matchOver ? t("holeEnd.toResult") : t("holeEnd.next"),
        onclick: () => dialog.close() })));
    dialog.dataset.version = String(S.state.version);
    renderClock(board, S);
  }

  // The break is over (everyone read the hole's end, or its countdown ran out): a hole-end
  // dialog still open closes itself, so that no turn, and no turn clock, runs behind it.
  function closeWhenBreakEnds() {
    if (!dialog.open || dialog.dataset.kind !== "hole-end" || !S.state) return;
    if (S.state.view.is_over || (S.clock && S.clock.kind === "next_hole")) return;
    if (S.state.version > Number(dialog.dataset.version || Infinity) || !S.state.event) dialog.close();
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
    if (press.defer(render)) return;
    const active = document.activeElement;
    const focusKey = active && active.dataset ? active.dataset.key : null;
    // A focused control of the waiting room (its Start, a seat's select) is found again by
    // its id: each frame builds the room anew, and a keyboard's Enter went nowhere.
    const focusId = !focusKey && active && active.id && board.contains(active) ? active.id : null;
    board.classList.remove("busy");
    const before = captureCards(board);
    if (!S.table) {
      replace(board, h("p.loading", { text: t("common.loading") }));
    } else if (S.table.status === "waiting" && !(S.state && !S.state.view.is_over)) {
      document.title = `${tableTitle(S.table.title)} – ${t("app.name")}`;
      replace(board, waitingEl({ table: S.table, mySeat: S.seat, isHost: S.host,
        invite: S.invite, onHost: hostCall, onLeave: leave, error: S.waitError }));
    } else if (S.state) {
      renderGame(board, S, on);
    } else {
      replace(board, h("p.loading", { text: t("common.loading") }));
    }
    // On a phone the rating note sits in the result panel, which each render builds anew.
    placeRatingNote();
    side.render(S);
    fitTable(board);
    if (S.state && board.querySelector(".felt")) {
      playMoves(board, before, { event: S.state.event, key: `${S.state.match}:${S.state.version}`,
        fresh: Boolean(S.prev), mySeat: S.seat });
    }
    if (focusKey) {
      const again = board.querySelector(`[data-key="${focusKey}"]`);
      if (again) again.focus();
    } else if (focusId && !active.isConnected) {
      const again = document.getElementById(focusId);
      if (again && board.contains(again)) again.focus({ preventScroll: true });
    }
  }

  // The preset's settings (setup_count, knock, the points target), to word the prompts.
  get("/api/presets").then((p) => { S.presets = p.presets; render(); }).catch(() => {});
  const clockTimer = setInterval(() => renderClock(board, S), CLOCK_TICK_MS);

  return {
    unmount() {
      socket.close();
      clearInterval(clockTimer);
      banner.stop();
      unfit();
      markTurn(false);
      setRatedTable(false);
      document.removeEventListener("keydown", onKey);
      press.stop();
      frame.remove();
    },
    refresh() {
      // The display setting changed: the server shows this seat's peeked cards after its
      // first draw, or not (golf.view.remembered), and sends the view again.
      if (S.state && S.seat !== null && !(S.table && S.table.rated)) {
        socket.send({ type: "sync", show_peeks: pref("showPeeked", false) });
      }
      side.clear();
      // The log in the page's language after a switch: each line told again from its event.
      retell(S);
      side.relabel();
      frame.live.textContent = "";
      banner.render(S);
      render();
      side.renderLog(S);
    },
  };
}
