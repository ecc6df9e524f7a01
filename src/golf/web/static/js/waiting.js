// The waiting room: seats, bots by difficulty, the invite link, host controls, start.

import { h, replace } from "./dom.js";
import { isolate, t } from "./i18n.js";
import { presetName, presetText, tableTitle } from "./names.js";
import "./strings/table.js";
import "./strings/waiting.js";
import { loadPresets, settingWords, valueText } from "./rulewords.js";
import { seatName } from "./narrate.js";
import { casualWords } from "./serverwords.js";
import { optionsEl } from "./tablebits.js";
import "./strings/tablebits.js";
import "./strings/profiles.js";

/**
 * The table's marks for all to see (lobby, waiting room, table): "Rated" and the table's
 * memory mode (docs/protocol.md, the summary's `rated` and `memory`); null when neither.
 */
export function tableBadges(table) {
  const marks = [];
  if (table && table.rated) {
    marks.push(h("span.tag.tag-rated", { title: t("rated.help.table"), "data-mark": "rated" },
      h("span", { "aria-hidden": "true", text: "★ " }), t("rated.badge")));
  }
  if (table && table.memory) {
    marks.push(h("span.tag.tag-memory", { title: t("table.memory.help"), "data-mark": "memory",
      text: t("table.memory") }));
  }
  return marks.length ? h("span.table-marks", {}, marks.flatMap((m, i) => (i ? [" ", m] : [m]))) : null;
}

function seatBadges(seat, table, mySeat) {
  const out = [];
  if (seat.seat === table.host) out.push(t("seat.host"));
  if (seat.seat === mySeat) out.push(t("seat.you"));
  if (seat.kind === "bot") out.push(t("seat.bot"));
  if (seat.kind === "external") out.push(t("seat.external"));
  return out;
}

// The host control whose request went out last, so that the server's refusal is shown
// beside it (the room is rebuilt on every table frame, so this outlives one rendering).
let lastControl = null;
// Whether that refusal still has to be brought into view (once, not on every rebuild).
let revealPending = false;

/** A refused control and its message: in view below the sticky header, the control focused. */
function reveal(message) {
  requestAnimationFrame(() => {
    if (!message.isConnected) return;
    const control = document.querySelector("[data-control][aria-invalid=true]");
    // Centred: the sticky header covers the top of the page (see .field-error's scroll margin).
    (message.closest(".wait-seat, .start-block") || message)
      .scrollIntoView({ block: "center" });
    if (control) control.focus({ preventScroll: true });
  });
}

/** The invite link onto the clipboard; where the browser refuses, the link selected to copy. */
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

/**
 * ctx: {table, mySeat, isHost, invite (url or null), onHost(method, path, body),
 *       onLeave(), error}
 */
export function waitingEl(ctx) {
  const { table, mySeat, isHost } = ctx;
  const seats = table.seats;
  const open = seats.filter((s) => s.kind === "human" && !s.taken).length;
  const hostName = (seats[table.host] && seats[table.host].name) || "";
  const base = `/api/tables/${encodeURIComponent(table.id)}`;
  const inviteUrl = ctx.invite ? new URL(ctx.invite, location.origin).href : null;
  const watchUrl = new URL(table.watch_url || `/watch/${table.id}`, location.origin).href;

  // Host requests remember their control; a refusal is shown next to it (aria-invalid, an
  // alert that is read at once) and only falls back to the line below the seats when that
  // control is no longer on the page.
  const call = (control, ...request) => {
    lastControl = control;
    revealPending = true;
    ctx.onHost(...request);
  };
  const refused = (control) => Boolean(ctx.error) && lastControl === control;
  let placed = null;
  const mark = (control, described) => refused(control)
    ? { "data-control": control, "aria-invalid": "true",
      "aria-describedby": [described, "wait-error"].filter(Boolean).join(" ") }
    : { "data-control": control, ...(described ? { "aria-describedby": described } : {}) };
  const messageAt = (...controls) => {
    if (placed || !controls.some(refused)) return null;
    placed = h("p.field-error#wait-error", { role: "alert", "aria-live": "assertive",
      text: ctx.error });
    return placed;
  };

  const seatItems = seats.map((s) => {
    const status = s.kind !== "human" ? t("seat.online")
      : !s.taken ? t("wait.open") : s.connected ? t("seat.online") : t("seat.offline");
    const name = s.kind === "bot" ? seatName(table, s.seat, null)
      : s.name ? isolate(s.name) : t("wait.open");
    const controls = [];
    if (isHost && s.seat !== mySeat) {
      if (s.kind === "human" && s.taken) {
        controls.push(h("button.ghost.small", { type: "button", text: t("wait.makeHost"),
          "aria-label": t("wait.makeHostSeat", { name }),
          ...mark(`host-${s.seat}`),
          onclick: () => call(`host-${s.seat}`, "POST", `${base}/host`, { seat: s.seat }) }));
      }
      if (!(s.kind === "human" && s.taken)) {
        controls.push(h("select.small", { "aria-label": `${name}: ${t("wait.toBot")}`,
          ...mark(`kind-${s.seat}`),
          onchange: (e) => {
            const v = e.target.value;
            call(`kind-${s.seat}`, "PUT", `${base}/seats/${s.seat}`, v === "human" ? { kind: "human" }
              : { kind: "bot", bot: v });
          } },
          ["human", "easy", "medium", "hard"].map((v) => h("option", { value: v,
            selected: v === "human" ? s.kind === "human" : s.bot === v,
            text: t(`lobby.seat.${v}`) }))));
      }
      controls.push(h("button.ghost.small.danger", { type: "button", text: t("wait.remove"),
        "aria-label": t("wait.removeSeat", { name }),
        ...mark(`remove-${s.seat}`),
        onclick: () => call(`remove-${s.seat}`, "DELETE", `${base}/seats/${s.seat}`) }));
    }
    return h("li.wait-seat" + (s.taken ? "" : ".open"), {},
      h("span.avatar", { "aria-hidden": "true", text: s.kind === "bot" ? "⚙"
        : (s.name || "?").slice(0, 1).toUpperCase() }),
      h("span.wait-name", {}, h("strong", { text: name }),
        seatBadges(s, table, mySeat).map((b) => h("span.tag", { text: b }))),
      h("span.status" + (s.taken && (s.connected || s.kind !== "human") ? ".on" : ".off"), {},
        h("span.dot", { "aria-hidden": "true" }), status),
      h("span.wait-controls", {}, controls),
      messageAt(`host-${s.seat}`, `kind-${s.seat}`, `remove-${s.seat}`));
  });

  const overrides = Object.entries(table.rules || {});
  const rules = overrides.length ? h("ul.rule-list") : h("p.muted", { text: t("wait.rules.none") });
  // The changed settings in the engine's words (shown by key until those have loaded).
  const listRules = () => replace(rules, overrides.map(([k, v]) => h("li", {},
    h("strong", { text: settingWords(k).name + ": " }), valueText(k, v))));
  if (overrides.length) {
    listRules();
    loadPresets().then(listRules, () => {});
  }

  const inviteBox = inviteUrl ? h("div.invite", {},
    h("label.setting-label", { for: "invite-link", text: t("wait.invite") }),
    h("div.copy-row", {},
      h("input#invite-link", { type: "text", readonly: true, value: inviteUrl,
        onfocus: (e) => e.target.select() }),
      h("button.primary", { type: "button", id: "copy-invite", text: t("wait.copy"),
        onclick: (e) => copy(inviteUrl, e.currentTarget) })),
    h("p.help", { text: t("wait.invite.help") })) : null;

  const startBlock = isHost
    ? h("div.start-block", {},
      h("button.primary.big#start", { type: "button", text: t("wait.start"),
        ...mark("start", "start-help"), disabled: open > 0,
        onclick: () => call("start", "POST", `${base}/start`) }),
      h("p.help", { id: "start-help", text: open > 0 ? t("wait.needSeats") : "" }),
      messageAt("start"))
    : h("p.notice", { text: t("wait.waitingHost", { host: hostName }) });

  const room = h("section.waiting.panel", { "aria-labelledby": "wait-title" },
    h("div.panel-head", {},
      h("h1#wait-title", { text: tableTitle(table.title) }),
      tableBadges(table),
      h("span.muted", { text: `${presetName(table.preset)} · ${t("wait.title")}` })),
    // The game's description holds only for its own rules (its "nine holes" is wrong for a
    // table of two): with changes, the list under Rules says what is played.
    h("p.help", { text: Object.keys(table.rules || {}).length
      ? t("wait.presetChanged", { preset: presetName(table.preset) })
      : presetText(table.preset, "") }),
    // A rated table whose seats changed since it was made: its next match is casual, and why
    // (the summary's casual_cause in the page's words).
    table.rated && table.casual_reason ? h("p.notice.wait-casual", { text: t("wait.casual",
      { reason: casualWords(table.casual_cause) || table.casual_reason }) }) : null,
    h("div.wait-columns", {},
      h("div", {},
        h("h2", { text: t("wait.seats") }),
        h("ol.wait-seats", {}, seatItems),
        isHost ? h("div.add-row", {},
          ["easy", "medium", "hard"].map((d) => h("button.ghost", { type: "button",
            text: "+ " + t(`lobby.seat.${d}`), ...mark(`add-${d}`),
            onclick: () => call(`add-${d}`, "POST", `${base}/seats`, { kind: "bot", bot: d }) })),
          h("button.ghost", { type: "button", text: "+ " + t("wait.addPerson"),
            ...mark("add-human"),
            onclick: () => call("add-human", "POST", `${base}/seats`, { kind: "human" }) }))
          : null,
        isHost ? messageAt("add-easy", "add-medium", "add-hard", "add-human") : null,
        ctx.error && !placed ? (placed = h("p.field-error", { role: "alert", text: ctx.error }))
          : null,
        startBlock),
      h("div", {},
        inviteBox,
        h("div.invite", {},
          h("label.setting-label", { for: "watch-link", text: t("wait.watch") }),
          h("input#watch-link", { type: "text", readonly: true, value: watchUrl,
            onfocus: (e) => e.target.select() })),
        h("h2", { text: t("wait.rules") }),
        rules,
        h("h2", { text: t("wait.options") }),
        optionsEl(table.options),
        mySeat !== null && mySeat !== undefined
          ? h("button.ghost.danger", { type: "button", text: t("wait.leave"), onclick: ctx.onLeave })
          : null)));
  if (placed && revealPending) {
    revealPending = false;
    reveal(placed);
  }
  return room;
}
