// The table during a match, drawn from the page's state (js/tablestate.js): the header
// (hole, whose turn, the marks, the clock), the last-turns banner, the result, the host's
// tools, and the felt: the other seats in turn order, the piles and the card in hand, the
// last move, and this seat's grid with its prompt, actions and the coach's hint. The page
// offers exactly the legal actions the server lists; `on` carries what the controls do.

import { h, replace, prefersReducedMotion } from "./dom.js";
import { t, tn } from "./i18n.js";
import { tableTitle } from "./names.js";
import { pref } from "./api.js";
import { discardEl, gridEl, handSlotEl, heldEl, stockEl, targetsOf } from "./board.js";
import { resultEl } from "./holeend.js";
import { holeEnd, parseAction, seatName } from "./narrate.js";
import { tableBadges } from "./waiting.js";
import { careButton } from "./care.js";
import { markTurn } from "./attention.js";
import { celebrationEl, rematchEl, targetEndText } from "./finish.js";
import { coachEl } from "./coach.js";
import { hostToolsEl } from "./hosttools.js";
import { pointerKey } from "./tablebits.js";
import { keyOf } from "./keys.js";
import { hintOffered, ruleOf, setupCount } from "./tablestate.js";
import { renderClock } from "./tableclock.js";
import "./strings/common.js";
import "./strings/lobby.js";
import "./strings/holeend.js";
import "./strings/table.js";

const MOVE_KINDS = ["draw", "take", "discard", "knock", "pass"];

// The shortcuts usable now, from the engine's legal actions (never a key for a move the
// rules do not have: no "K knock" in six-card), plus the coach's key for players.
function keysHelp(cells, others, hint) {
  const parts = MOVE_KINDS.filter((kind) => others.has(kind)).map((kind) => t("keys." + kind));
  if (cells.size) parts.push(t("keys.cells", { n: Math.max(...cells.keys()) }));
  if (hint) parts.push(t("keys.hint"));
  return t("keys.help", { keys: parts.join(" · ") });
}

/**
 * The board for the state's frame (S.state), with the clock; the page's title and the
 * "your turn" mark follow it. on: {act(action), askHint(), toggleMute(seat), showHistory(),
 * hostCall(method, path, body), toolCall(method, path, body), navigate(path)}.
 */
export function renderGame(board, S, on) {
  const st = S.state;
  const view = st.view;
  const me = S.seat;
  const mine = me !== null && me !== undefined && view.grids[me];
  const yourTurn = st.your_turn && !view.is_over && S.table.status !== "ended";
  const { cells, others } = yourTurn ? targetsOf(st.legal_actions) : targetsOf([]);
  board.dataset.version = String(st.version);
  board.dataset.match = String(st.match);
  document.title = yourTurn ? t("turn.tab") : `${tableTitle(S.table.title)} – ${t("app.name")}`;
  markTurn(yourTurn, tableTitle(S.table.title));

  const ctx = { S, view, me, mine, yourTurn, cells, others, on, four: pref("fourColour", false),
    // A card just drawn or taken slides into the hand.
    heldFresh: Boolean(S.prev) && !prefersReducedMotion()
      && view.held_by !== null && S.prev.view.held_by === null };
  const finalBanner = finalBannerText(view, S, me);
  replace(board,
    headEl(ctx),
    me === null || me === undefined
      ? h("p.notice.spectator-note", { text: t("table.spectating") }) : null,
    finalBanner ? h("p.final-banner", { role: "status" }, h("span", { "aria-hidden": "true", text: "⚑ " }), finalBanner) : null,
    resultPanelEl(ctx),
    hostToolsEl({ table: S.table, view, mySeat: me, isHost: S.host,
      name: (s) => seatName(S.table, s, me), call: on.toolCall, open: S.toolsOpen,
      onToggle: (open) => { S.toolsOpen = open; } }),
    h("div.felt", {}, opponentsEl(ctx), h("div.middle", {}, centerEl(ctx), lastMoveEl(S)),
      mine ? myAreaEl(ctx) : null));
  renderClock(board, S);
}

// Header: which hole, whose turn, the marks, the clock, the spectators.
function headEl({ S, view, me, yourTurn }) {
  const holeText = view.playoff ? t("table.playoff")
    : view.holes ? t("table.hole", { n: view.hole, total: view.holes })
      : t("table.holeOpen", { n: view.hole });
  const turnText = view.is_over ? t("match.over")
    : yourTurn ? t("turn.yours") : t("turn.of", { name: seatName(S.table, view.current_player, me) });
  return h("div.table-head", {},
    h("h1.table-title", { text: tableTitle(S.table.title) }),
    h("span.hole-pill", { text: holeText }),
    h("span.turn-pill" + (yourTurn ? ".mine" : ""), { text: turnText }),
    tableBadges(S.table),
    h("span.clock#clock", { "aria-live": "off" }),
    S.table.spectators ? h("span.watchers", { text: tn("lobby.watching", S.table.spectators, { n: S.table.spectators }) }) : null);
}

// Last turns (someone went out or knocked).
function finalBannerText(view, S, me) {
  if (!view.is_over && view.knocked_by !== null && view.knocked_by !== undefined) {
    return view.knocked_by === me ? t("banner.knockYou")
      : t("banner.knock", { name: seatName(S.table, view.knocked_by, me) });
  }
  if (!view.is_over && view.final_turns_from !== null && view.final_turns_from !== undefined) {
    return view.final_turns_from === me ? t("banner.finalYou")
      : t("banner.final", { name: seatName(S.table, view.final_turns_from, me) });
  }
  return null;
}

function seatTags(S, seat) {
  const info = S.table.seats[seat] || {};
  const tags = [];
  if (seat === S.table.host) tags.push(t("seat.host"));
  if (info.kind === "bot") tags.push(["bot", t("seat.bot")]);
  if (info.kind === "external") tags.push(t("seat.external"));
  if (S.state && S.state.view.dealer === seat) tags.push(["dealer", t("seat.dealer")]);
  if (info.abandoned) tags.push(t("seat.abandoned"));
  // Short on the pill (a small seat panel on a phone), the whole sentence for the screen
  // reader and as the pill's title.
  if (info.stand_in) tags.push({ kind: "stand-in", text: t("seat.standIn.short"), full: t("seat.standIn") });
  else if (info.away) tags.push(t("seat.away"));
  else if (info.elsewhere) tags.push(t("seat.elsewhere"));
  return tags;
}

function tagEl(tag) {
  if (tag && typeof tag === "object" && !Array.isArray(tag)) {
    return h(`span.tag.tag-${tag.kind}`, { title: tag.full },
      h("span", { "aria-hidden": "true", text: tag.text }), h("span.sr-only", { text: tag.full }));
  }
  const [kind, text] = Array.isArray(tag) ? tag : ["", tag];
  return h("span.tag" + (kind ? `.tag-${kind}` : ""), { text });
}

// The cells of a seat's grid that changed since the frame before (they are marked as such).
function changedCells(S, seat) {
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

// The cell of the seat's last move, outlined while its frame is shown.
function lastPosFor(S, seat) {
  const ev = S.lastEvent;
  if (!ev || !S.state || ev.version !== S.state.version || ev.seat !== seat) return null;
  if (holeEnd(ev)) return null;
  return parseAction(ev.action || "").pos;
}

// The other seats, in turn order after mine.
function opponentsEl({ S, view, me, mine, four, heldFresh, on }) {
  const current = view.current_player;
  const n = view.players;
  const order = [];
  const start = mine ? me + 1 : 0;
  for (let i = 0; i < n; i++) {
    const s = (start + i) % n;
    if (s !== me || !mine) order.push(s);
  }
  return h("div.opponents" + (mine ? "" : ".spectating"), {},
    order.filter((s) => view.grids[s]).map((s) => {
      const info = S.table.seats[s] || {};
      const name = seatName(S.table, s, me);
      const muteable = mine && info.kind === "human" && s !== me;
      return h("section.seat-panel" + (s === current ? ".current" : ""), {
        "aria-label": t("table.gridOf", { name }), "data-seat": s },
      h("div.seat-head", {},
        h("span.turn-mark", { "aria-hidden": "true", text: s === current ? "▶" : "" }),
        h("strong.seat-name", { text: name }),
        seatTags(S, s).map(tagEl),
        h("span.total", { text: t("seat.total", { n: view.totals[s] }) }),
        s === current ? h("span.sr-only", { text: t("turn.of", { name }) }) : null,
        muteable ? h("button.link.small", { type: "button",
          "aria-label": S.muted.includes(s) ? t("chat.unmute", { name }) : t("chat.mute", { name }),
          text: S.muted.includes(s) ? t("chat.unmuteShort") : t("chat.muteShort"), onclick: () => on.toggleMute(s) }) : null,
        muteable ? careButton(S.table.id, s, name, () => S.chat) : null),
      gridEl(view, s, { label: t("table.gridOf", { name }), fourColour: four,
        lastPos: lastPosFor(S, s), changed: changedCells(S, s) }),
      view.held_by === s && s !== me ? heldEl(view, name, false, four, heldFresh) : null);
    }));
}

// The middle: stock, discard pile, the card in my hand.
function centerEl({ S, view, me, mine, others, four, heldFresh, on }) {
  const discardChanged = S.prev && !prefersReducedMotion()
    && S.prev.view.discard_top !== view.discard_top;
  return h("div.center", {},
    stockEl(view, others, on.act),
    discardEl(view, others, on.act, { fourColour: four, onHistory: on.showHistory,
      changed: discardChanged }),
    !mine ? null : view.held_by === me ? heldEl(view, "", true, four, heldFresh) : handSlotEl());
}

// Before the first move its line is kept empty, so that the first move moves no card.
function lastMoveEl(S) {
  return S.log.length && S.lastEvent ? h("p.last-move", {},
    h("span.last-tag-inline", { "aria-hidden": "true", text: "●" }), " ", S.log[0])
    : h("p.last-move.none", { "aria-hidden": "true" });
}

// My seat: the prompt, my grid, the buttons of the legal moves, the hint and the keys.
function myAreaEl({ S, view, me, yourTurn, cells, others, four, on }) {
  const st = S.state;
  const current = view.current_player;
  const hint = hintOffered(S);
  const actions = [];
  for (const kind of MOVE_KINDS) {
    if (!others.has(kind)) continue;
    const key = keyOf(kind).toUpperCase();
    actions.push(h(`button.action.${kind === "knock" ? "warn" : "primary"}`, { type: "button",
      "data-key": `act-${kind}`, "aria-keyshortcuts": key,
      onclick: () => on.act(others.get(kind)) },
    t(`act.${kind}`), h("kbd", { "aria-hidden": "true", text: key })));
  }
  for (const [kind, action] of others) {
    if (!MOVE_KINDS.includes(kind)) {
      actions.push(h("button.action", { type: "button", onclick: () => on.act(action), text: action }));
    }
  }
  if (yourTurn && hint) {
    actions.push(h("button.action.ghost", { type: "button", "data-key": "act-hint",
      "aria-keyshortcuts": keyOf("hint").toUpperCase(), onclick: on.askHint },
    h("span.hint-icon", { "aria-hidden": "true", text: "?" }), t("act.hint"),
    h("kbd", { "aria-hidden": "true", text: keyOf("hint").toUpperCase() })));
  }
  const name = seatName(S.table, me, me);
  return h("section.my-area" + (current === me ? ".current" : ""), {
    "aria-label": t("table.yourGrid"), "data-seat": me },
  h("div.seat-head", {},
    h("span.turn-mark", { "aria-hidden": "true", text: current === me ? "▶" : "" }),
    h("strong.seat-name", { text: (S.table.seats[me] || {}).name || name }),
    seatTags(S, me).map(tagEl),
    h("span.total", { text: t("seat.total", { n: view.totals[me] }) })),
  // With the prompt, the prompts of a turn's two tallest moments: before its draw and
  // with a card in hand (the longest prompt). They are shown only while js/layout.js
  // chooses the card sizes, one moment at a time, so the cards take a size that fits
  // both and keep it (and their place) when a draw brings the other.
  h("div.prompt-box", {},
    h("p.prompt", { id: "prompt", text: promptText(S, view, st, others, cells) }),
    h("p.prompt.room.room-draw", { "aria-hidden": "true",
      text: t(ruleOf(S, "knock") ? "prompt.turnKnock" : "prompt.turn") }),
    h("p.prompt.room.room-hold", { "aria-hidden": "true", text: t(pointerKey("prompt.hold")) })),
  gridEl(view, me, { label: t("table.yourGrid"), targets: cells, onAct: on.act,
    fourColour: four, lastPos: lastPosFor(S, me), changed: changedCells(S, me) }),
  // Likewise the buttons of those two moments: draw, take, knock where the rules have
  // it and the hint where it is offered; discard and the hint.
  h("div.actions-box", {}, h("div.actions", {}, actions),
    h("div.actions.room.room-draw", { "aria-hidden": "true" },
      roomButtons(["draw", "take", ruleOf(S, "knock") ? "knock" : null], hint)),
    h("div.actions.room.room-hold", { "aria-hidden": "true" }, roomButtons(["discard"], hint))),
  coachEl(S.hint, S.state && S.state.view,
    { legal: S.state ? S.state.legal_actions : [], onPlay: on.act }),
  yourTurn ? h("p.keys-help", { text: keysHelp(cells, others, hint) }) : null);
}

// Stand-ins for the buttons of a moment of the turn (see the prompt box above), the hint
// included where it is offered: only their size counts.
function roomButtons(kinds, hint) {
  const shown = kinds.filter(Boolean).map((kind) => h("span.button.action", {},
    t(`act.${kind}`), h("kbd", { text: keyOf(kind).toUpperCase() })));
  if (hint) {
    shown.push(h("span.button.action", {}, h("span.hint-icon", { text: "?" }), t("act.hint"),
      h("kbd", { text: keyOf("hint").toUpperCase() })));
  }
  return shown;
}

function promptText(S, view, st, others, cells) {
  if (!st.your_turn) {
    if (S.clock && S.clock.kind === "next_hole" && !view.is_over) return t("break.prompt");
    return view.is_over ? "" : t("prompt.wait", { name: seatName(S.table, view.current_player, S.seat) });
  }
  const kinds = new Set([...cells.values()].map((c) => c.kind));
  if (kinds.has("reveal")) return t(pointerKey("prompt.reveal"), { n: setupLeft(S, view) });
  if (kinds.has("peek")) return t(pointerKey("prompt.peek"), { n: setupLeft(S, view) });
  if (view.phase === "hold") return t(pointerKey(others.has("discard") ? "prompt.hold" : "prompt.holdSwap"));
  if (view.phase === "flip") return others.has("pass") ? t("prompt.flip") : t("prompt.flipMust");
  return others.has("knock") ? t("prompt.turnKnock") : t("prompt.turn");
}

function setupLeft(S, view) {
  // How many setup choices are left is the engine's business; we only count what we see.
  const known = (view.face_up[S.seat] || []).filter(Boolean).length + (view.peeked || []).length;
  const count = setupCount(S);
  return count === null ? "" : Math.max(1, count - known);
}

// The result (the match is over or was ended): standings, why it ended early, the rematch
// and the replay.
function resultPanelEl({ S, view, me, mine, on }) {
  const ended = S.table.status === "ended";
  if (!(view.is_over || ended) || S.holdResult) return null;
  const id = S.id;
  const finished = ["finished", "ended"].includes(S.table.status);
  const replay = `/replay/${encodeURIComponent(id)}/${S.state.match}`;
  return h("section.result-panel", {},
    ended && !view.is_over
      ? h("div.result", {}, h("h2", { text: t("match.over") }),
        h("p.headline", { text: t("match.ended", { reason: S.endedReason || "" }) }))
      : h("div.result-wrap", {}, celebrationEl(view, me, S.table), resultEl(view, S.table, me),
        endReasonEl(S, view, me)),
    h("div.form-actions", {},
      finished && mine ? rematchEl({ table: S.table, mySeat: me, isHost: S.host,
        name: (s) => seatName(S.table, s, me),
        offer: () => on.hostCall("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, {}),
        accept: () => on.hostCall("POST", `/api/tables/${encodeURIComponent(id)}/rematch/accept`, {}),
        decline: () => on.hostCall("POST", `/api/tables/${encodeURIComponent(id)}/rematch/decline`, {}),
        declinedBy: S.rematchDeclined })
        : null,
      h("a.button.ghost", { href: replay, text: t("match.replay"),
        onclick: (e) => { e.preventDefault(); on.navigate(replay); } })),
    S.waitError ? h("p.field-error", { role: "alert", text: S.waitError }) : null);
}

// Why the match ended before its last hole: a total passed the points target.
function endReasonEl(S, view, me) {
  const text = targetEndText(view, { target: ruleOf(S, "target"), target_ends: ruleOf(S, "target_ends") },
    me, (s) => seatName(S.table, s, me));
  return text ? h("p.end-reason", { text }) : null;
}
