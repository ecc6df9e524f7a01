// Block or report a player at the table: a small button beside a person's name opens a
// dialog (kept outside the board, so the board's redraws leave it alone) with "Block" and a
// report form: the reason and, to keep with the report, any of that player's chat lines.
// The host's mute is a separate button and unchanged. docs/quickplay.md, "Blocks and
// reports", lists the routes; writes send this browser's CSRF token (GET /api/me).

import "./strings/care.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { api, get } from "./api.js";

let dialog = null;

async function write(path, body, method = "POST") {
  const me = await get("/api/me");
  return api(method, path, method === "DELETE" ? undefined : body || {}, null, me.csrf);
}

/** A status line and an error line for one part of the form (the block, the report): each
 * part's outcome is said under it, never under the other. */
function saying(id = null) {
  const note = h("p.care-note" + (id ? `#${id}` : ""), { role: "status", "aria-live": "polite" });
  const error = h("p.field-error", { role: "alert", hidden: true });
  const show = (text, bad) => {
    note.textContent = bad ? "" : text;
    error.textContent = bad ? text : "";
    error.hidden = !bad;
  };
  return { note, error, show };
}

/** A refusal of a block or a report in this page's words: the server's codes of these routes
 * (docs/quickplay.md, "Blocks and reports") that no other page words; any other refusal as
 * api.js words it (an empty reason, strings/errors.js). */
function refusal(err, name, atTable = true) {
  if (err.code === "is_you") return t("care.refused.you");
  if (err.code === "no_player" && err.field === "chat") return t("care.refused.chat");
  if (err.code === "no_player") return t(atTable ? "care.refused.gone" : "care.refused.deleted", { name });
  return err.message;
}

/** Whom this browser's player has blocked: [{id, name, since}] (GET /api/blocks). */
export async function myBlocks() {
  return (await get("/api/blocks")).blocks;
}

/** Block (or, with `on` false, unblock) a player by profile id. */
export function setBlocked(playerId, on) {
  return write(`/api/players/${encodeURIComponent(playerId)}/block`, {}, on ? "POST" : "DELETE");
}

/** Report a player by profile id (from their profile page, no chat lines). */
export function reportPlayer(playerId, reason) {
  return write(`/api/players/${encodeURIComponent(playerId)}/report`, { reason, chat: [] });
}

/**
 * Block and report on a profile page: a block/unblock button that says where things stand,
 * and a short report form (the page leaves them out on one's own profile).
 */
export function profileCareEl(player, name, blocked) {
  const blocking = saying();
  const reporting = saying();
  let on = blocked;
  const button = h("button#profile-block.ghost", { type: "button" });
  const label = () => { button.textContent = t(on ? "care.unblock" : "care.block", { name }); };
  label();
  button.onclick = async () => {
    try {
      await setBlocked(player, !on);
      on = !on;
      label();
      blocking.show(t(on ? "care.blocked" : "care.unblocked", { name }), false);
    } catch (e) { blocking.show(refusal(e, name, false), true); }
  };
  const reason = h("textarea#profile-reason", { maxlength: 500, rows: 4,
    "aria-describedby": "profile-reason-help" });
  const form = h("form#profile-report", { onsubmit: async (e) => {
    e.preventDefault();
    try {
      await reportPlayer(player, reason.value);
      reason.value = "";
      reporting.show(t("care.reported"), false);
    } catch (err) { reporting.show(refusal(err, name, false), true); }
  } },
  h("label.setting-label", { for: "profile-reason", text: t("care.reason") }), reason,
  h("p.help", { id: "profile-reason-help", text: t("care.reasonHelp") }),
  h("button.ghost", { type: "submit", text: t("care.send") }), reporting.note, reporting.error);
  return h("section.panel.profile-care", { "aria-labelledby": "care-h" },
    h("h2#care-h", { text: t("care.profile") }),
    h("p.help", { text: t("care.blockHelp") }), button, blocking.note, blocking.error,
    h("details.care-report", {}, h("summary", { text: t("care.report") }), form));
}

function open(tableId, seat, name, chatLines, opener) {
  if (!dialog) {
    dialog = h("dialog#care-dialog.modal.care-dialog", { "aria-labelledby": "care-title" });
    dialog.addEventListener("close", () => {
      replace(dialog);
      if (dialog.opener && dialog.opener.isConnected) dialog.opener.focus();
    });
    document.body.append(dialog);
  }
  dialog.opener = opener;
  const blocking = saying("care-block-note");
  const reporting = saying("care-note");
  const reason = h("textarea#care-reason", { maxlength: 500, rows: 4,
    "aria-describedby": "care-reason-help" });
  const theirs = chatLines.filter((m) => m.seat === seat).slice(-10);
  const boxes = theirs.map((m, i) => h("label.check", {},
    h("input", { type: "checkbox", value: String(m.time), id: `care-line-${i}` }), " ", m.text));
  const base = `/api/tables/${encodeURIComponent(tableId)}/seats/${seat}`;
  async function block() {
    try {
      await write(`${base}/block`);
      blocking.show(t("care.blocked", { name }), false);
    } catch (e) { blocking.show(refusal(e, name), true); }
  }
  const fields = h("div.care-fields", {},
    h("label.setting-label", { for: "care-reason", text: t("care.reason") }),
    reason,
    h("p.help", { id: "care-reason-help", text: t("care.reasonHelp") }),
    theirs.length ? h("fieldset", {}, h("legend", { text: t("care.lines") }), boxes) : null,
    h("button#care-send.primary", { type: "submit", text: t("care.send") }));
  const close = h("button#care-close.ghost", { type: "button", text: t("care.close"),
    onclick: () => dialog.close() });
  async function report(e) {
    e.preventDefault();
    const chat = boxes.map((b) => b.querySelector("input")).filter((x) => x.checked)
      .map((x) => Number(x.value));
    try {
      await write(`${base}/report`, { reason: reason.value, chat });
      // Sent: the thanks takes the form's place (its status line stays where it was, so
      // it is read out), and nothing is left to fill in; the next step is to close.
      fields.remove();
      reporting.show(t("care.reported"), false);
      close.focus();
    } catch (err) {
      reporting.show(refusal(err, name), true);
      if (err.field === "reason") reason.focus();
    }
  }
  replace(dialog,
    h("h2#care-title", { text: t("care.title", { name }) }),
    h("div.care-part", {},
      h("p.help", { text: t("care.blockHelp") }),
      h("button#care-block.primary", { type: "button", text: t("care.block", { name }), onclick: block }),
      blocking.note, blocking.error),
    h("form#care-report.care-part", { onsubmit: report, "aria-labelledby": "care-report-h" },
      h("h3#care-report-h", { text: t("care.report") }),
      fields, reporting.note, reporting.error),
    h("div.form-actions", {}, close));
  dialog.showModal();
  document.getElementById("care-block").focus();
}

/** The button beside a person's name that opens the block/report dialog. `chat` returns the
 * table's chat lines when pressed (the newest ones). */
export function careButton(tableId, seat, name, chat) {
  const button = h("button.link.small.care-open", { type: "button", text: "⋯",
    "aria-label": t("care.open", { name }), "aria-haspopup": "dialog",
    onclick: () => open(tableId, seat, name, chat(), button) });
  return button;
}
