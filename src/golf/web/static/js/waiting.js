// The waiting room: seats, bots by difficulty, the invite link, host controls, start.

import { h, replace } from "./dom.js";
import { presetName, presetText, t } from "./i18n.js";
import { loadPresets, settingWords, valueText } from "./rulewords.js";
import { seatName } from "./narrate.js";
import { optionsEl } from "./tablebits.js";

function seatBadges(seat, table, mySeat) {
  const out = [];
  if (seat.seat === table.host) out.push(t("seat.host"));
  if (seat.seat === mySeat) out.push(t("seat.you"));
  if (seat.kind === "bot") out.push(t("seat.bot"));
  if (seat.kind === "external") out.push(t("seat.external"));
  return out;
}

/**
 * ctx: {table, mySeat, isHost, invite (url or null), onHost(method, path, body),
 *       onLeave(), onCopy(text, button), error}
 */
export function waitingEl(ctx) {
  const { table, mySeat, isHost } = ctx;
  const seats = table.seats;
  const open = seats.filter((s) => s.kind === "human" && !s.taken).length;
  const hostName = (seats[table.host] && seats[table.host].name) || "";
  const base = `/api/tables/${encodeURIComponent(table.id)}`;
  const inviteUrl = ctx.invite ? new URL(ctx.invite, location.origin).href : null;
  const watchUrl = new URL(table.watch_url || `/watch/${table.id}`, location.origin).href;

  const seatItems = seats.map((s) => {
    const status = s.kind !== "human" ? t("seat.online")
      : !s.taken ? t("wait.open") : s.connected ? t("seat.online") : t("seat.offline");
    const name = s.kind === "bot" ? seatName(table, s.seat, null) : s.name || t("wait.open");
    const controls = [];
    if (isHost && s.seat !== mySeat) {
      if (s.kind === "human" && s.taken) {
        controls.push(h("button.ghost.small", { type: "button", text: t("wait.makeHost"),
          "aria-label": t("wait.makeHostSeat", { name }),
          onclick: () => ctx.onHost("POST", `${base}/host`, { seat: s.seat }) }));
      }
      if (!(s.kind === "human" && s.taken)) {
        controls.push(h("select.small", { "aria-label": `${name}: ${t("wait.toBot")}`,
          onchange: (e) => {
            const v = e.target.value;
            ctx.onHost("PUT", `${base}/seats/${s.seat}`, v === "human" ? { kind: "human" }
              : { kind: "bot", bot: v });
          } },
          ["human", "easy", "medium", "hard"].map((v) => h("option", { value: v,
            selected: v === "human" ? s.kind === "human" : s.bot === v,
            text: t(`lobby.seat.${v}`) }))));
      }
      controls.push(h("button.ghost.small.danger", { type: "button", text: t("wait.remove"),
        "aria-label": t("wait.removeSeat", { name }),
        onclick: () => ctx.onHost("DELETE", `${base}/seats/${s.seat}`) }));
    }
    return h("li.wait-seat" + (s.taken ? "" : ".open"), {},
      h("span.avatar", { "aria-hidden": "true", text: s.kind === "bot" ? "⚙"
        : (s.name || "?").slice(0, 1).toUpperCase() }),
      h("span.wait-name", {}, h("strong", { text: name }),
        seatBadges(s, table, mySeat).map((b) => h("span.tag", { text: b }))),
      h("span.status" + (s.taken && (s.connected || s.kind !== "human") ? ".on" : ".off"), {},
        h("span.dot", { "aria-hidden": "true" }), status),
      h("span.wait-controls", {}, controls));
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
        onclick: (e) => ctx.onCopy(inviteUrl, e.currentTarget) })),
    h("p.help", { text: t("wait.invite.help") })) : null;

  const startBlock = isHost
    ? h("div.start-block", {},
      h("button.primary.big#start", { type: "button", text: t("wait.start"),
        "aria-describedby": "start-help", disabled: open > 0,
        onclick: () => ctx.onHost("POST", `${base}/start`) }),
      h("p.help", { id: "start-help", text: open > 0 ? t("wait.needSeats") : "" }))
    : h("p.notice", { text: t("wait.waitingHost", { host: hostName }) });

  return h("section.waiting.panel", { "aria-labelledby": "wait-title" },
    h("div.panel-head", {},
      h("h1#wait-title", { text: table.title }),
      h("span.muted", { text: `${presetName(table.preset)} · ${t("wait.title")}` })),
    h("p.help", { text: presetText(table.preset, "") }),
    h("div.wait-columns", {},
      h("div", {},
        h("h2", { text: t("wait.seats") }),
        h("ol.wait-seats", {}, seatItems),
        isHost ? h("div.add-row", {},
          ["easy", "medium", "hard"].map((d) => h("button.ghost", { type: "button",
            text: "+ " + t(`lobby.seat.${d}`),
            onclick: () => ctx.onHost("POST", `${base}/seats`, { kind: "bot", bot: d }) })),
          h("button.ghost", { type: "button", text: "+ " + t("wait.addPerson"),
            onclick: () => ctx.onHost("POST", `${base}/seats`, { kind: "human" }) })) : null,
        ctx.error ? h("p.field-error", { role: "alert", text: ctx.error }) : null,
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
        h("button.ghost.danger", { type: "button", text: t("wait.leave"), onclick: ctx.onLeave }))));
}
