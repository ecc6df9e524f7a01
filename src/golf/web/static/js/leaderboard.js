// Leaderboards (/leaderboards, /leaderboards/{preset}/{band}): one variant's players with
// at least 10 rated matches, paged, the viewer's own position, and the bots' fixed
// ratings for comparison (GET /api/leaderboards/{preset}/{band}).

import { h, replace } from "./dom.js";
import { isolate, t, tn } from "./i18n.js";
import { joinNames, presetName } from "./names.js";
import "./strings/common.js";
import { get } from "./api.js";
import "./strings/profiles.js";
import { formatNumber, formatPercent } from "./numbers.js";
import { variantText } from "./profile.js";

// The bots a table made in the lobby can seat (its seat choices).
const SEATABLE = ["easy", "medium", "hard"];

/** This browser's player id, when the server has player profiles (GET /api/me). */
async function myId() {
  try {
    const me = await get("/api/me");
    return me && me.player && me.player.id ? me.player.id : (me && me.id) || null;
  } catch {
    return null;
  }
}

// The terminal command in the sentence about the other bots: kept on one line (a line break
// inside "--bots" or "fast-expert" would change what is typed).
const COMMAND = "\u0000";

function withCommand(text, command) {
  const [before, after = ""] = text.replace(`golf play --bots ${COMMAND}`, COMMAND).split(COMMAND);
  return [before, h("code.cmd", { text: command }), after];
}

export function leaderboardScreen(root, where, { navigate }) {
  const state = { presets: [], bands: [], preset: where.preset || "six-card",
    band: where.band || "2", page: where.page || 1, data: null, error: null, me: null };

  function go(preset, band, page) {
    const path = `/leaderboards/${encodeURIComponent(preset)}/${encodeURIComponent(band)}`
      + (page > 1 ? `?page=${page}` : "");
    navigate(path);
  }

  function link(path, text, cls = "") {
    return h("a" + cls, { href: path, text, onclick: (e) => { e.preventDefault(); navigate(path); } });
  }

  function picker() {
    const presetSel = h("select#board-preset", {},
      state.presets.map((p) => h("option", { value: p, selected: p === state.preset,
        text: presetName(p) })));
    const bandSel = h("select#board-band", {},
      state.bands.map((b) => h("option", { value: b, selected: b === state.band, text: b })));
    return h("form.inline-form.board-picker", { onsubmit: (e) => {
      e.preventDefault();
      go(presetSel.value, bandSel.value, 1);
    } },
    h("label", { for: "board-preset", text: t("board.preset") }), presetSel,
    h("label", { for: "board-band", text: t("board.band") }), bandSel,
    h("button.primary", { type: "submit", text: t("board.show") }));
  }

  function rowsTable(d) {
    if (!d.rows.length) return h("p.muted", { text: tn("board.empty", d.min_matches, { n: d.min_matches }) });
    return h("table.stats.board", {},
      h("caption.sr-only", { text: variantText(d.variant) }),
      h("thead", {}, h("tr", {}, [t("board.rank"), t("board.player"), t("board.rating"),
        t("board.matches"), t("board.completion")].map((x, i) => h(i === 1 ? "th.words" : "th",
        { scope: "col", text: x })))),
      h("tbody", {}, d.rows.map((r) => h(r.player === state.me ? "tr.me" : "tr",
        r.player === state.me ? { "aria-current": "true" } : {},
        h("td", { text: formatNumber(r.rank) }),
        h("th", { scope: "row" }, link(`/players/${encodeURIComponent(r.player)}`, isolate(r.name))),
        h("td", { text: formatNumber(r.rating) }),
        h("td", { text: formatNumber(r.matches) }),
        h("td", { text: formatPercent(r.completion_rate) })))));
  }

  function mine(d) {
    if (!d.me) return null;
    if (d.me.rank) {
      return h("p.board-me", {}, t("board.you", { rank: formatNumber(d.me.rank), page: d.me.page }),
        " ", d.me.page !== d.page ? h("button.small.ghost", { type: "button",
          text: t("board.page", { page: d.me.page, pages: d.pages }),
          onclick: () => go(state.preset, state.band, d.me.page) }) : null);
    }
    return h("p.board-me", { text: tn("board.youNot", d.me.needed, { needed: formatNumber(d.me.needed),
      rating: formatNumber(d.me.rating) }) });
  }

  function pager(d) {
    if (d.pages <= 1) return null;
    return h("nav.pager", { "aria-label": t("board.page", { page: d.page, pages: d.pages }) },
      h("button.ghost", { type: "button", text: t("board.prev"), disabled: d.page <= 1,
        onclick: () => go(state.preset, state.band, d.page - 1) }),
      h("span", { text: t("board.page", { page: d.page, pages: d.pages }) }),
      h("button.ghost", { type: "button", text: t("board.next"), disabled: d.page >= d.pages,
        onclick: () => go(state.preset, state.band, d.page + 1) }));
  }

  // The bots a table in this browser can seat (the lobby's difficulties), at their fixed
  // ratings; the other measured bots are named in a sentence saying where to meet them.
  function botsEl(bots) {
    if (!bots.length) return null;
    const seatable = bots.filter((b) => SEATABLE.includes(b.bot));
    const others = bots.filter((b) => !SEATABLE.includes(b.bot));
    return h("section", { "aria-labelledby": "bots-title" },
      h("h3#bots-title", { text: t("board.bots") }),
      seatable.length ? h("ul.bot-anchors", {}, seatable.map((b) => h("li", {},
        h("span", { text: t(`lobby.seat.${b.bot}`) }), " ",
        h("strong", { text: formatNumber(b.rating) })))) : null,
      others.length ? h("p.help.bot-others", {}, withCommand(t("board.botsOther", {
        names: joinNames(others.map((b) => `${b.name} (${formatNumber(b.rating)})`)),
        example: COMMAND }), `golf play --bots ${others[0].bot}`)) : null);
  }

  function render() {
    document.title = `${t("board.title")} · ${t("app.name")}`;
    const d = state.data;
    replace(root, h("section.panel.leaderboard", { "aria-labelledby": "board-title" },
      h("h1#board-title", { text: t("board.title") }),
      state.me ? h("div.profile-links", {}, link(`/players/${encodeURIComponent(state.me)}`,
        t("nav.profile"), ".button.small.ghost")) : null,
      state.presets.length ? picker() : null,
      h("p.help", { text: tn("board.rule", d ? d.min_matches : 10, { n: d ? d.min_matches : 10 }) }),
      state.error ? h("p.field-error", { role: "alert", text: state.error }) : null,
      d ? h("div", { "aria-live": "polite" },
        h("h2", { text: variantText(d.variant) }),
        mine(d),
        h("div.table-scroll", {}, rowsTable(d)),
        pager(d),
        botsEl(d.bots)) : null));
  }

  async function load() {
    try {
      const [boards, me] = await Promise.all([get("/api/leaderboards"), myId()]);
      state.presets = boards.presets;
      state.bands = boards.bands;
      state.me = me;
      const q = me ? `&me=${encodeURIComponent(me)}` : "";
      state.data = await get(`/api/leaderboards/${encodeURIComponent(state.preset)}/`
        + `${encodeURIComponent(state.band)}?page=${state.page}${q}`);
      state.error = null;
    } catch (err) {
      state.error = err.message || t("common.network");
    }
    render();
  }

  render();
  load();
  return { refresh: render };
}
