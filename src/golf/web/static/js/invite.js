// /join/{code}: what the invite leads to, then a seat at that table.

import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { joinNames, presetName, presetText, tableTitle } from "./names.js";
import "./strings/common.js";
import "./strings/invite.js";
import "./strings/lobby.js";
import { get, post, rememberSeat, saveName, savedName, tokenFor } from "./api.js";
import { cardBack, cardFace } from "./cards.js";
import { seatName } from "./narrate.js";
import { houseRulesEl } from "./tablebits.js";
import { tableBadges } from "./waiting.js";
import "./strings/handover.js";

export function inviteScreen(root, where, { navigate }) {
  const code = where.code;
  const box = h("section.panel.narrow");
  replace(root, box);
  let summary = null;

  function render() {
    if (!summary) return;
    const tableUrl = `/t/${encodeURIComponent(summary.id)}`;
    if (tokenFor(summary.id)) {
      navigate(tableUrl, { replaceState: true });
      return;
    }
    const names = summary.seats.filter((s) => s.taken && s.name).map((s) => seatName(summary, s.seat, null));
    const free = summary.seats.some((s) => s.kind === "human" && !s.taken);
    const nameInput = h("input#join-name", { type: "text", maxlength: 20, value: savedName(),
      autocomplete: "nickname", required: true, "aria-describedby": "join-error" });
    const error = h("p.field-error#join-error", { role: "alert", hidden: true });
    async function join(e) {
      e.preventDefault();
      const name = nameInput.value.trim();
      if (!name) {
        error.textContent = t("lobby.nameFirst");
        error.hidden = false;
        return;
      }
      saveName(name);
      try {
        // ?table= lets a cluster's proxy send the join to the table's process (the code
        // names no table); one server ignores it (docs/server.md, "Running a cluster").
        const out = await post(`/api/invites/${encodeURIComponent(code)}/join?table=${
          encodeURIComponent(summary.id)}`, { name });
        rememberSeat(out.table.id, out.token, out.seat);
        navigate(`/t/${encodeURIComponent(out.table.id)}`, { replaceState: true });
      } catch (err) {
        error.textContent = err.message;
        error.hidden = false;
      }
    }
    const watch = h("a.button.ghost", { href: `/watch/${encodeURIComponent(summary.id)}`,
      text: t("lobby.watch"), onclick: (e) => { e.preventDefault();
        navigate(`/watch/${encodeURIComponent(summary.id)}`); } });
    // The button names what joining means at a rated or memory table (the notes below it).
    const notes = [summary.rated ? "invite-rated" : "", summary.memory ? "invite-memory" : ""]
      .filter(Boolean).join(" ");
    replace(box,
      h("div.invite-fan", { "aria-hidden": "true" }, cardFace("QH", { decorative: true }),
        cardFace("QS", { decorative: true }), cardBack()),
      h("h1", { text: t("invite.title", { title: tableTitle(summary.title) }) }),
      h("p", { text: t("invite.game", { preset: presetName(summary.preset) }) }, " ", tableBadges(summary)),
      // The game's description holds only for its own rules ("nine holes" is wrong for a
      // table of two): with changes, the house rules below say what is played.
      h("p.help", { text: Object.keys(summary.rules || {}).length
        ? t("invite.presetChanged", { preset: presetName(summary.preset) })
        : presetText(summary.preset, "") }),
      h("h2.small-head", { text: t("invite.rules") }),
      houseRulesEl(summary.rules),
      names.length ? h("p", { text: t("invite.seated", { names: joinNames(names) }) }) : null,
      summary.status !== "waiting" ? [h("p.notice", { text: t("invite.started") }), watch]
        : !free ? [h("p.notice", { text: t("invite.full") }), watch]
          : h("form.join-form", { onsubmit: join },
            h("label.setting-label", { for: "join-name", text: t("lobby.you") }),
            nameInput,
            error,
            h("div.form-actions", {},
              h("button.primary.big", { type: "submit", text: t("invite.join"),
                "aria-describedby": notes || null }), watch)),
      // Said in words (a badge's title is no help on a phone), right under the button: above
      // it the box pushed the name and the button off a 640-px phone's first screen.
      summary.rated ? h("p.notice.invite-rated#invite-rated", { text: t("invite.rated") }) : null,
      summary.memory ? h("p.notice.invite-memory#invite-memory", { text: t("invite.memory") }) : null);
  }

  get(`/api/invites/${encodeURIComponent(code)}`).then((s) => { summary = s; render(); })
    .catch((err) => replace(box, h("h1", { text: t("invite.bad") }),
      h("p.muted", { text: err.message }),
      h("a.button.primary", { href: "/", text: t("common.back") })));
  return { refresh: render };
}
