// /replay/{id}/{n}: a finished match, step by step. The steps (the public view after each
// action and the event that led there) come from the server, which replays the record with
// the engine (GET .../replay for the outline, GET .../replay/{version} for each step); the
// page never replays rules itself.

import "./strings/layout.js";
import { h, pressGuard, replace } from "./dom.js";
import { t } from "./i18n.js";
import { cardName, playerName } from "./names.js";
import "./strings/common.js";
import "./strings/holeend.js";
import "./strings/replay.js";
import "./strings/table.js";
import { get, pref } from "./api.js";
import { gridEl, historyEl } from "./board.js";
import { cardBack, cardFace, cardSpace } from "./cards.js";
import { holeEndEl, resultEl, scorecardEl } from "./holeend.js";
import { holeEnd, narrate } from "./narrate.js";

const SPEEDS = [0.5, 1, 2, 4, 8];
const STEP_MS = 1200; // one move per this many ms at speed 1
const SPEED_KEY = "golf.replay.speed";

function savedSpeed() {
  const x = Number(localStorage.getItem(SPEED_KEY));
  return SPEEDS.includes(x) ? x : 1;
}

/** The version at which hole `number` ended: the next hole's first frame, or the last. */
export function holeEndVersion(meta, number) {
  const holes = meta.holes || [];
  const i = holes.findIndex((x) => x.hole === number);
  if (i < 0) return null;
  return i + 1 < holes.length ? holes[i + 1].version : meta.length;
}

function hashHole() {
  const m = location.hash.match(/^#hole-(\d+)$/);
  return m ? Number(m[1]) : null;
}

/** The hole a version of the match belongs to. */
function holeAt(holes, version) {
  let number = holes.length ? holes[0].number : 1;
  for (const hole of holes) if (hole.frame <= version) number = hole.number;
  return number;
}

export function replayScreen(root, where, { navigate }) {
  const base = `/api/tables/${encodeURIComponent(where.id)}/matches/${where.match}`;
  const S = { meta: null, frame: null, at: 0, error: null, steps: new Map(),
    playing: false, speed: savedSpeed(), every: false, timer: 0 };
  const box = h("section.replay");
  replace(root, box);
  // Every step draws the screen anew, its buttons too: a step between the press and the
  // release of a click ("Pause" at 8×) lost the click. Steps wait for the release.
  const press = pressGuard(box);

  function tableLike() {
    // Who left the match, as its stored result says: the result and the log count them last.
    const left = (S.meta.result && S.meta.result.abandoned) || [];
    return { seats: (S.meta.names || []).map((name, seat) => ({ seat, name: playerName(name),
      abandoned: left.includes(seat) })) };
  }

  function step(version) {
    const seat = S.every ? "all" : "public";
    const key = `${seat}:${version}`;
    if (!S.steps.has(key)) {
      const promise = get(`${base}/replay/${version}?seat=${seat}`);
      promise.catch(() => S.steps.delete(key));
      S.steps.set(key, promise);
    }
    return S.steps.get(key);
  }

  function go(i, { auto = false } = {}) {
    if (!S.meta) return;
    if (!auto) stop();
    const want = Math.max(0, Math.min(S.meta.length, i));
    S.at = want;
    step(want).then((frame) => {
      if (S.at !== want) return;
      S.frame = frame;
      showHash(frame);
      render();
      if (want < S.meta.length) step(want + 1);
      if (S.playing) schedule();
    }).catch((err) => { S.error = err.message; render(); });
  }

  // --- autoplay ----------------------------------------------------------------------------
  function schedule() {
    clearTimeout(S.timer);
    if (!S.playing) return;
    if (S.at >= S.meta.length) {
      S.playing = false;
      render();
      return;
    }
    S.timer = setTimeout(() => go(S.at + 1, { auto: true }), STEP_MS / S.speed);
  }

  function stop() {
    clearTimeout(S.timer);
    S.playing = false;
  }

  function togglePlay() {
    if (S.playing) {
      stop();
      render();
      return;
    }
    S.playing = true;
    // At the end, play from the start again.
    if (S.at >= S.meta.length) go(0, { auto: true });
    else {
      render();
      schedule();
    }
  }

  function setSpeed(x) {
    S.speed = x;
    localStorage.setItem(SPEED_KEY, String(x));
    if (S.playing) schedule();
  }

  function setEvery(on) {
    S.every = on;
    go(S.at, { auto: S.playing });
  }

  // --- the address of a hole's end -----------------------------------------------------------
  function showHash(frame) {
    const ended = holeEnd(frame.event);
    const hash = ended && !ended.playoff ? `#hole-${ended.number}` : "";
    if (location.hash !== hash) {
      history.replaceState(history.state, "", location.pathname + location.search + hash);
    }
  }

  function goToHash() {
    const n = hashHole();
    const version = n === null || !S.meta ? null : holeEndVersion(S.meta, n);
    if (version !== null && version !== S.at) go(version);
    return version !== null;
  }
  window.addEventListener("hashchange", goToHash);

  // Face-down cards shown because the match is over: said as face down, not as "seen".
  function markShown(grid, view, seat) {
    const cards = view.grids[seat] || [];
    const up = view.face_up[seat] || [];
    [...grid.children].forEach((cell, i) => {
      if (up[i] || !cards[i]) return;
      cell.setAttribute("aria-label", t("cell.label", { n: i + 1,
        card: t("replay.downShown", { card: cardName(cards[i]) }) }));
      const tag = cell.querySelector(".seen-tag");
      if (tag) tag.textContent = t("replay.downBadge");
    });
    return grid;
  }

  function onKey(e) {
    if (!S.meta || ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    if (e.key === " " && e.target === document.body) { e.preventDefault(); togglePlay(); }
    if (e.key === "ArrowRight") { e.preventDefault(); go(S.at + 1); }
    if (e.key === "ArrowLeft") { e.preventDefault(); go(S.at - 1); }
    if (e.key === "Home") { e.preventDefault(); go(0); }
    if (e.key === "End") { e.preventDefault(); go(S.meta.length); }
  }
  document.addEventListener("keydown", onKey);

  function render() {
    if (press.defer(render)) return;
    if (S.error) {
      replace(box, h("h1", { text: t("replay.title") }), h("p.notice", { text: S.error }),
        h("a.button.primary", { href: "/", text: t("common.back") }));
      return;
    }
    if (!S.meta || !S.frame) {
      replace(box, h("p.loading", { text: t("common.loading") }));
      return;
    }
    const last = S.meta.length;
    const frame = S.frame;
    const view = frame.view;
    const table = tableLike();
    const four = pref("fourColour", false);
    const said = frame.event ? narrate(frame.event, table, null) : null;
    const holes = (S.meta.holes || []).map((x) => ({ number: x.hole, frame: x.version }));
    const holeSelect = h("select#replay-hole", { "aria-label": t("replay.hole"),
      onchange: (e) => go(Number(e.target.value)) },
    holes.map((hole) => h("option", { value: hole.frame, text: `${t("score.hole")} ${hole.number}`,
      selected: view.hole === hole.number })));
    const grids = view.grids.map((g, s) => (g ? h("section.seat-panel", {},
      h("div.seat-head", {}, h("strong.seat-name", { text: table.seats[s].name }),
        h("span.total", { text: t("seat.total", { n: view.totals[s] }) })),
      markShown(gridEl(view, s, { label: t("table.gridOf", { name: table.seats[s].name }), fourColour: four,
        lastPos: frame.event && frame.event.seat === s ? Number(String(frame.event.action).split(" ")[1]) || null : null }),
      view, s))
      : null));
    const top = view.discard_top;
    const final = { totals: S.meta.result.totals, winners: S.meta.result.winners || [] };
    replace(box,
      h("div.table-head", {},
        h("h1.table-title", { text: t("replay.title") }),
        h("span.hole-pill", { text: `${t("score.hole")} ${view.hole}` }),
        h("span.turn-pill", { text: S.at ? t("replay.step", { i: S.at, n: last }) : t("replay.start") })),
      h("div.replay-controls", { role: "toolbar", "aria-label": t("replay.title") },
        // On a phone the ends are their marks alone (golf.css, "replay on a phone").
        h("button.ghost.replay-end", { type: "button", "aria-label": t("replay.first"), onclick: () => go(0),
          disabled: S.at === 0 }, "«", h("span.replay-word", { text: " " + t("replay.first") })),
        h("button.primary", { type: "button", id: "replay-prev", text: "◀ " + t("replay.prev"), onclick: () => go(S.at - 1), disabled: S.at === 0 }),
        h("button.primary", { type: "button", id: "replay-next", text: t("replay.next") + " ▶", onclick: () => go(S.at + 1), disabled: S.at === last }),
        h("button.ghost.replay-end", { type: "button", "aria-label": t("replay.last"), onclick: () => go(last),
          disabled: S.at === last }, h("span.replay-word", { text: t("replay.last") + " " }), "»"),
        holes.length > 1 ? h("label.inline.replay-hole", {}, t("replay.hole"), " ", holeSelect) : null,
        h("input#replay-slider", { type: "range", min: 0, max: last, value: S.at,
          "aria-label": t("replay.step", { i: S.at, n: last }),
          oninput: (e) => go(Number(e.target.value)) })),
      h("div.replay-controls.replay-auto", {},
        h("button#replay-play" + (S.playing ? ".ghost" : ".primary"), { type: "button",
          "aria-pressed": S.playing ? "true" : "false", onclick: togglePlay,
          text: S.playing ? "❚❚ " + t("replay.pause") : "▶ " + t("replay.play") }),
        h("label.inline", {}, t("replay.speed"), " ",
          h("select#replay-speed", { onchange: (e) => setSpeed(Number(e.target.value)) },
            SPEEDS.map((x) => h("option", { value: x, selected: x === S.speed,
              text: t("replay.speedValue", { x: String(x).replace(".", t("replay.decimal")) }) })))),
        h("label.check.replay-every", { title: t("replay.allCardsHelp") },
          h("input#replay-every", { type: "checkbox", checked: S.every,
            onchange: (e) => setEvery(e.target.checked) }), " ", t("replay.allCards"))),
      said ? h("p.last-move", { role: "status", text: said.text }) : null,
      h("div.felt", {},
        h("div.opponents.spectating", {}, grids),
        h("div.middle", {}, h("div.center", {},
          h("div.pile-wrap", {}, h("span.pile-name", { text: t("table.stock") }),
            h("div.pile", { role: "img", "aria-label": t("table.stockLabel", { n: view.stock_size }) },
              view.stock_size ? cardBack() : cardSpace("")),
            h("span.pile-count", { text: t("table.stockCards", { n: view.stock_size }) })),
          h("div.pile-wrap", {}, h("span.pile-name", { text: t("table.discard") }),
            h("div.pile", {}, top ? cardFace(top, { fourColour: four }) : cardSpace(t("table.discardEmpty"))))))),
      holeEnd(frame.event)
        ? h("section.panel", { id: `hole-${holeEnd(frame.event).number}` },
          holeEndEl({ ...holeEnd(frame.event), explained: frame.scoring }, view, table, null, four),
          holeEnd(frame.event).playoff ? null : h("p", {}, h("a.hole-link", {
            href: `${location.pathname}#hole-${holeEnd(frame.event).number}`,
            text: t("replay.holeLink", { n: holeEnd(frame.event).number }) }))) : null,
      h("details.panel.replay-result", { open: S.at === last },
        h("summary", { text: t("replay.result") }), resultEl(final, table, null)),
      h("section.panel", {}, h("h2", { text: t("score.title") }), scorecardEl(view, table, null)),
      h("details.panel", {}, h("summary", { text: t("table.historyTitle") }), historyEl(view, four)));
  }

  get(`${base}/replay`).then((meta) => {
    S.meta = meta;
    if (!goToHash()) go(0);
  }).catch((err) => {
    S.error = err.code === "match_running" ? t("replay.running") : err.message;
    render();
  });
  render();
  void navigate;
  return {
    unmount: () => {
      stop();
      press.stop();
      document.removeEventListener("keydown", onKey);
      window.removeEventListener("hashchange", goToHash);
    },
    refresh: render,
  };
}
