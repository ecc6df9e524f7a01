// The table page's state and what the server's messages do to it, without the page: the
// seat and role this browser holds, the table, the last state frame and the one before it,
// the move log told in the page's language, the chat, the coach's hint, the clock. The screen
// (js/table.js) keeps one such state, changes it with these functions and draws from it.

import { endedWords, holeEnd, matchEnded, narrate } from "./narrate.js";
import { memoryMode } from "./memory.js";

/** How many lines the move log keeps. */
export const LOG_SIZE = 60;

/** The state of /t/{id} (a seat, with this browser's token) or /watch/{id}. */
export function newTableState(id, token) {
  return {
    id, token,
    seat: null, role: null, host: false, muted: [],
    table: null, state: null, prev: null, lastEvent: null, invite: null,
    log: [], told: [], chat: [], hint: null, pending: false, error: null, waitError: null,
    clock: null, clockAt: 0, conn: { state: "connecting" }, gone: null, holdResult: false, rematchDeclined: null,
    presets: null,
  };
}

/** Whether this browser holds a seat at the table (a player's, not a spectator's). */
export function seated(S) {
  return S.seat !== null && S.seat !== undefined;
}

/**
 * One frame per move: the new version, this page's view and the engine's event for it. A
 * frame older than the one shown is dropped (null). Otherwise the state takes it and this
 * says what the page has to do: `newMatch` (a rematch began: the log was cleared), `said`
 * (the event's sentence for the live region, or null), `yourTurn` (the turn has just come
 * to this seat) and `moved` (a new version since the last frame: its sounds).
 */
export function takeFrame(S, frame) {
  const before = S.state;
  if (before && before.match === frame.match && frame.version < before.version) return null;
  const newMatch = Boolean(before && before.match !== frame.match);
  if (newMatch) startClean(S);
  S.prev = before && before.match === frame.match ? before : null;
  S.state = frame;
  const said = frame.event ? tellEvent(S, frame) : null;
  S.clock = frame.clock;
  S.clockAt = Date.now();
  S.pending = false;
  const moved = Boolean(before) && (before.version !== frame.version || before.match !== frame.match);
  if (!before || moved) S.hint = null;
  const yourTurn = Boolean(frame.your_turn) && !(before && before.your_turn);
  return { newMatch, said, yourTurn, moved };
}

// A new match (a rematch) starts clean: no dialog, log or result of the last one.
function startClean(S) {
  S.holdResult = false;
  S.showHoleEnd = null;
  S.rematchDeclined = null;
  S.lastEvent = null;
  S.endedReason = null;
  S.log = [];
  S.told = [];
}

// The frame's event told in the log (its sentence for the live region returned); at a hole's
// end, the hole-end panel to show once the frame is drawn (S.showHoleEnd).
function tellEvent(S, frame) {
  const ev = frame.event;
  if (ev.ended) S.endedReason = endedWords(ev, S.table);
  S.lastEvent = { ...ev, version: frame.version, match: frame.match };
  // In memory mode the log never names a peeked card: it would outlive the first draw.
  const view = memoryMode(S.table) ? null : frame.view;
  const said = narrate(ev, S.table, S.seat, view);
  let spoken = null;
  if (said && said.text) {
    S.log.unshift(said.text);
    S.log.length = Math.min(S.log.length, LOG_SIZE);
    // What was told, kept to be told again in another language (retell()).
    S.told.unshift({ event: ev, view });
    S.told.length = S.log.length;
    spoken = said.spoken;
  }
  const result = holeEnd(ev);
  if (result) {
    // The hole-end panel: the engine's result and the scorer's explanation per seat.
    S.showHoleEnd = { holeOver: { ...result, explained: frame.scoring }, matchOver: matchEnded(ev) };
    // The match result waits behind the last hole's dialog so that it is not given away.
    if (matchEnded(ev)) S.holdResult = true;
  }
  return spoken;
}

/**
 * After (re)joining: the last chat lines and this match's moves so far, told for this page.
 * For a person a bot stood in for, the lines of the moves since they left ("while you were
 * away") are returned; otherwise null.
 */
export function takeHistory(S, msg) {
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
  if (msg.away_since === null || msg.away_since === undefined) return null;
  return told.filter((x) => x.version > msg.away_since).map((x) => x.text);
}

/** The log in the page's language after a switch: each line told again from its event. */
export function retell(S) {
  S.log = (S.told || []).map((x) => {
    const said = narrate(x.event, S.table, S.seat, x.view);
    return said ? said.text : "";
  });
}

/** This browser no longer holds its seat: nothing of a player's is left in the state. */
export function dropSeat(S) {
  S.token = null;
  S.seat = null;
  S.role = null;
  S.host = false;
  S.hint = null;
  S.invite = null;
}

/**
 * The coach helps players at casual tables only: no expert advice where a rating is at
 * stake (the server refuses a hint there with `rated_table`).
 */
export function hintOffered(S) {
  return S.role === "player" && !(S.table && S.table.rated);
}

/** A setting of this table's rules (its override, else the preset's), once presets are in. */
export function ruleOf(S, key) {
  if (!S.table) return undefined;
  if (S.table.rules && key in S.table.rules) return S.table.rules[key];
  const p = S.presets && S.presets.find((x) => x.name === S.table.preset);
  return p ? p.settings[key] : undefined;
}

/** The preset's setup_count (with the table's override), only to word the setup prompt. */
export function setupCount(S) {
  if (!S.table) return null;
  if (S.table.rules && typeof S.table.rules.setup_count === "number") return S.table.rules.setup_count;
  const p = S.presets && S.presets.find((x) => x.name === S.table.preset);
  return p ? p.settings.setup_count : null;
}
