// A player's public profile (/players/{id}): figures per variant, ratings with their
// provisional mark, the rating graph (an SVG the server draws), recent matches with their
// replays and the head-to-head table (GET /api/players/{id}).

import { h, replace, svg } from "./dom.js";
import { lang, t } from "./i18n.js";
import { playerName, presetName } from "./names.js";
import "./strings/common.js";
import { ApiError, get } from "./api.js";
import "./strings/profiles.js";
import "./strings/handover.js";
import { myBlocks, profileCareEl } from "./care.js";
import { formatNumber, formatPercent, signed } from "./numbers.js";

/** "six-card/3-4" (or "six-card/3-4 house") in words. */
export function variantText(key) {
  const house = key.endsWith(" house");
  const [preset, band] = key.replace(/ house$/, "").split("/");
  const base = `${presetName(preset)} · ${t("profile.players", { band })}`;
  return house ? `${base} (${t("profile.house")})` : base;
}

// The server's graph names each line by its variant key ("six-card/2 (1049)"); the page
// words it ("Six-card Golf · 2 players: 1049, 1 rated match") in the legend and in the
// description a screen reader reads, and shows that document instead.
// A band is "2", "3-4" or "5+".
const LEGEND = /^(\S+\/[\w+-]+(?: house)?) \((-?\d+)\)$/;
const LINE = /(\S+\/[\w+-]+(?: house)?): (\d+) [^,]*, \S+ (-?\d+) \S+ (-?\d+)/g;

function matchesText(n) {
  return t(n === 1 ? "profile.graph.one" : "profile.graph.many", { n: formatNumber(n) });
}

/** The graph's SVG text with its legend and description in words. */
export function wordedGraph(text, counts) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  for (const el of doc.querySelectorAll("text")) {
    const m = el.textContent.match(LEGEND);
    if (!m) continue;
    el.textContent = t("profile.graph.legend", { variant: variantText(m[1]),
      rating: formatNumber(Number(m[2])), matches: matchesText(counts[m[1]] ?? 0) });
  }
  const desc = doc.querySelector("desc");
  if (desc) {
    const lines = [...desc.textContent.matchAll(LINE)].map(([, v, n, first, last]) => t("profile.graph.line",
      { variant: variantText(v), matches: matchesText(Number(n)), first: formatNumber(Number(first)),
        last: formatNumber(Number(last)) }));
    if (lines.length) desc.textContent = `${t("profile.graph.desc")} ${lines.join(" ")}`;
  }
  return new XMLSerializer().serializeToString(doc);
}

/** The worded graph split in two: the drawing cropped to its plot and axis labels, and its
 * legend's entries ({colour, dash, text}) for a list under it. The drawing's legend stands
 * in two columns of a 640 px drawing: the worded names did not fit them (they ran into
 * each other and off its edge), and a phone scales its 12 px down to 6. A graph without
 * the server's legend group is left whole. */
export function graphParts(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const group = doc.getElementById("legend");
  const top = group && Number(group.getAttribute("data-top"));
  if (!top) return { svg: text, legend: [], height: null };
  const legend = [...group.querySelectorAll("line")].map((line, i) => ({
    colour: line.getAttribute("stroke"),
    dash: line.getAttribute("stroke-dasharray") || "",
    text: group.querySelectorAll("text")[i]?.textContent || "",
  }));
  group.remove();
  const root = doc.documentElement;
  const [x, y, w] = root.getAttribute("viewBox").split(/\s+/).map(Number);
  root.setAttribute("viewBox", `${x} ${y} ${w} ${top}`);
  root.setAttribute("height", String(top));
  return { svg: new XMLSerializer().serializeToString(doc), legend, height: top };
}

/** One legend entry: the line's colour and dash, drawn as in the graph, and its words. */
function legendItem({ colour, dash, text }) {
  return h("li", {},
    svg("svg", { class: "graph-key", viewBox: "0 0 28 8", width: 28, height: 8, "aria-hidden": "true" },
      svg("line", { x1: 1, y1: 4, x2: 27, y2: 4, stroke: colour, "stroke-width": 2.5,
        "stroke-dasharray": dash || null })),
    h("span", { text }));
}

export function profileScreen(root, where, { navigate }) {
  let data = null;
  let failed = null;
  let me = null;
  let blocked = false;

  function link(path, text, cls = "") {
    return h("a" + cls, { href: path, text, onclick: (e) => { e.preventDefault(); navigate(path); } });
  }

  // A table of figures that a narrow screen reflows (golf.css, table.stats.reflow): each
  // figure carries its header's words, and the roles keep it a table for screen readers
  // whatever its display.
  function statsTable(caption, heads, rows) {
    return h("table.stats.reflow", { role: "table" },
      h("caption.sr-only", { text: caption }),
      h("thead", { role: "rowgroup" }, h("tr", { role: "row" }, heads.map((x, i) => h(i ? "th" : "th.words",
        { scope: "col", role: "columnheader", text: x })))),
      h("tbody", { role: "rowgroup" }, rows.map(([head, ...cells]) => h("tr", { role: "row" },
        h("th", { scope: "row", role: "rowheader" }, head),
        cells.map((c, i) => h("td", { role: "cell", "data-label": heads[i + 1] }, c))))));
  }

  function variantsTable() {
    return statsTable(t("profile.variants"),
      [t("profile.variant"), t("profile.games"), t("profile.wins"), t("profile.winRate"),
        t("profile.avgHole"), t("profile.bestHole"), t("profile.rating")],
      data.variants.map((v) => [variantText(v.variant),
        formatNumber(v.games), formatNumber(v.wins), formatPercent(v.win_rate),
        formatNumber(v.average_hole, 1), formatNumber(v.best_hole),
        // The "?" of a provisional rating is kept on its number's line (a narrow screen's
        // cell stacks its children).
        h("span.rating-value", {}, v.rating ? formatNumber(v.rating.rating) : t("profile.none.value"),
          v.rating && v.rating.provisional
            ? h("abbr.provisional", { title: t("profile.provisionalMark"),
              "aria-label": t("profile.provisional"), text: "?" }) : null)]));
  }

  function recentList() {
    if (!data.recent.length) return h("p.muted", { text: t("profile.recent.none") });
    return h("ul.recent-list", {}, data.recent.map((m) => {
      const names = new Intl.ListFormat(lang(), { type: "conjunction" })
        .format(m.opponents.map((o) => playerName(o.name)));
      return h("li", {},
        h("span", { text: variantText(m.variant) }), " · ",
        h("span", { text: m.place ? t("profile.place", { place: m.place, players: m.players })
          : t("profile.ended") }),
        m.status === "ended" && m.place ? h("span.muted", { text: ` (${t("profile.ended")})` }) : null,
        // One who left is last in the place above, and marked so (the rating's story).
        m.left ? [" ", h("span.tag.left-mark", { text: t("profile.left") })] : null,
        " · ", h("span", { text: t("profile.against", { names }) }),
        m.rated && m.rating_delta !== null
          ? h("span.delta", { text: ` · ${t("profile.rating")} ${signed(m.rating_delta)}` }) : null,
        " ", link(m.replay, t("profile.replay"), ".button.small.ghost"));
    }));
  }

  function h2hTable() {
    if (!data.head_to_head.length) return h("p.muted", { text: t("profile.h2h.none") });
    return statsTable(t("profile.h2h"),
      [t("profile.opponent"), t("profile.matches"), t("profile.wins"), t("profile.losses"),
        t("profile.ties")],
      data.head_to_head.map((r) => [r.opponent.player
        ? link(`/players/${encodeURIComponent(r.opponent.player)}`, playerName(r.opponent.name))
        : playerName(r.opponent.name),
      formatNumber(r.matches), formatNumber(r.wins), formatNumber(r.losses),
      formatNumber(r.ties)]));
  }

  function render() {
    if (failed) {
      replace(root, h("section.panel.narrow", {}, h("p.field-error", { role: "alert", text: failed })));
      return;
    }
    if (!data) return;
    document.title = `${t("profile.title", { name: data.name })} · ${t("app.name")}`;
    const summary = data.rated_matches
      ? t("profile.summary", { rated: formatNumber(data.rated_matches),
        completion: formatPercent(data.completion_rate) })
      : t("profile.noRated");
    replace(root, h("div.profile", {},
      h("section.panel", { "aria-labelledby": "profile-title" },
        h("h1#profile-title", { text: t("profile.title", { name: data.name }) }),
        h("p", { text: summary }),
        h("div.profile-links", {}, link("/leaderboards", t("nav.leaderboards"), ".button.small.ghost"))),
      h("section.panel", { "aria-labelledby": "variants-title" },
        h("h2#variants-title", { text: t("profile.variants") }),
        h("div.table-scroll", {}, variantsTable())),
      h("section.panel", { "aria-labelledby": "graph-title" },
        h("h2#graph-title", { text: t("profile.graph") }),
        // The server draws the graph with an accessible title and description; without a
        // rated match it would be an empty frame with a line of tiny text (on a phone).
        data.rated_matches ? graphImg() : h("p.muted", { text: t("profile.noRated") })),
      h("section.panel", { "aria-labelledby": "recent-title" },
        h("h2#recent-title", { text: t("profile.recent") }), recentList()),
      h("section.panel", { "aria-labelledby": "h2h-title" },
        h("h2#h2h-title", { text: t("profile.h2h") }),
        h("div.table-scroll", {}, h2hTable())),
      // Block and report another player (never on one's own page).
      me && me !== data.id ? profileCareEl(data.id, data.name, blocked) : null));
  }

  // The server's graph with its legend in words, as a list under the drawing (the plain
  // graph, legend and all, if that cannot be fetched). The list is read too: the image's
  // alternative text names the graph, not its lines.
  function graphImg() {
    const url = `${data.rating_graph}?lang=${lang()}`;
    const img = h("img.rating-graph", { alt: t("profile.graph"), width: 640, height: 260 });
    const legend = h("ul.graph-legend", { "aria-label": t("profile.graph") });
    const counts = {};
    // A line's points are its rated matches plus the starting rating.
    for (const v of data.variants) counts[v.variant] = v.rating ? v.rating.matches ?? v.games : v.games;
    fetch(url).then((r) => (r.ok ? r.text() : Promise.reject(r.status)))
      .then((text) => {
        const parts = graphParts(wordedGraph(text, counts));
        if (graphImg.url) URL.revokeObjectURL(graphImg.url);
        graphImg.url = URL.createObjectURL(new Blob([parts.svg], { type: "image/svg+xml" }));
        if (parts.height) img.setAttribute("height", String(parts.height));
        img.src = graphImg.url;
        replace(legend, parts.legend.map(legendItem));
      })
      .catch(() => { img.src = url; });
    return h("figure.rating-figure", {}, img, legend);
  }

  async function load() {
    try {
      data = await get(`/api/players/${encodeURIComponent(where.id)}`);
      // Who reads (no tools on one's own page) and whether they blocked this player.
      try {
        me = (await get("/api/me")).player.id;
        blocked = me !== data.id && (await myBlocks()).some((b) => b.id === data.id);
      } catch {
        me = null;
      }
    } catch (err) {
      failed = err instanceof ApiError && err.code === "no_player" ? t("profile.none")
        : t("common.network");
    }
    render();
  }

  load();
  return { refresh: render };
}
