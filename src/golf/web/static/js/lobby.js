// The lobby: your name, a new table (any game, every rule setting in the engine's own words
// from GET /api/presets, checked by the engine through POST /api/rules/check), the open
// tables, an invite, your tables.

import { h, replace } from "./dom.js";
import { t, tn } from "./i18n.js";
import { presetName, presetText, tableTitle } from "./names.js";
import "./strings/common.js";
import "./strings/lobby.js";
import "./strings/options.js";
import { ApiError, allTokens, get, post, rememberSeat, saveName, savedName } from "./api.js";
import { cardBack, cardFace } from "./cards.js";
import "./strings/profiles.js";
import { loadPresets, settingKind } from "./rulewords.js";
import { labSource, settingField } from "./rulesform.js";
import { mountQuickPlay } from "./quickplay.js";
import { engineMessage } from "./enginewords.js";
import { tableBadges } from "./waiting.js";

const SEAT_CHOICES = ["human", "easy", "medium", "hard"];

export function lobbyScreen(root, _where, { navigate }) {
  const state = {
    presets: [], preset: "six-card", overrides: {},
    seats: ["human", "medium"], errors: {}, checkSeq: 0, busy: false,
    options: { bot_delay: 0.8, absence: "bot", grace: 60, turn_timer: null, reserve: 30 },
    title: "", public: false, rated: false,
    // Which of the form's sections are open: a switch of language or of game redraws the
    // form and keeps them as they were.
    open: { options: false, rules: false },
  };
  const nameInput = h("input#name", { type: "text", maxlength: 20, autocomplete: "nickname",
    value: savedName(), "aria-describedby": "name-help name-error",
    oninput: () => {
      saveName(nameInput.value.trim());
      showError("name", null);
      const title = document.getElementById("title");
      if (title) title.placeholder = t("lobby.defaultTitle", { name: nameInput.value.trim() || "…" });
    } });
  const errors = {};
  const formBox = h("div");
  const openBox = h("div", { "aria-live": "polite" });
  const mineBox = h("div");
  const quickBox = h("div.qp-slot");
  const quick = mountQuickPlay(quickBox, { navigate });

  function errorSlot(key) {
    if (!errors[key]) errors[key] = h("p.field-error", { id: `err-${key}`, role: "alert" });
    return errors[key];
  }
  function showError(key, message) {
    const slot = errorSlot(key);
    slot.textContent = message || "";
    slot.hidden = !message;
  }
  // A field with a problem, brought into view with its message (clear of the sticky header:
  // centred, and the CSS gives fields a scroll margin) and focused.
  function revealField(key) {
    const slot = errors[key];
    const field = slot && slot.closest(".setting, .name-field, .field");
    const input = field && field.querySelector("input, select");
    (field || slot).scrollIntoView({ block: "center" });
    if (input) input.focus({ preventScroll: true });
  }

  function preset() {
    return state.presets.find((p) => p.name === state.preset) || state.presets[0];
  }

  function name() {
    const value = nameInput.value.trim();
    if (!value) {
      showError("name", t("lobby.nameFirst"));
      nameInput.scrollIntoView({ block: "center" });
      nameInput.focus({ preventScroll: true });
      return null;
    }
    return value;
  }

  // --- the rules form (its fields: js/rulesform.js) ------------------------------------------
  function currentValue(key) {
    return key in state.overrides ? state.overrides[key] : preset().settings[key];
  }

  function setOverride(key, value) {
    const base = preset().settings[key];
    if (JSON.stringify(value) === JSON.stringify(base)) delete state.overrides[key];
    else state.overrides[key] = value;
    check();
    updateChangedCount();
  }

  let changedBadge = h("span.badge");
  function updateChangedCount() {
    const n = Object.keys(state.overrides).length;
    changedBadge.textContent = n ? t("lobby.rules.changed", { n }) : "";
    changedBadge.hidden = !n;
  }

  let checkTimer = null;
  function check() {
    clearTimeout(checkTimer);
    checkTimer = setTimeout(runCheck, 150);
  }
  async function runCheck() {
    const seq = ++state.checkSeq;
    let result;
    try {
      result = await post("/api/rules/check", { preset: state.preset, rules: state.overrides,
        players: state.seats.length + 1 });
    } catch {
      return;
    }
    if (seq !== state.checkSeq) return;
    for (const key of Object.keys(errors)) if (key !== "name") showError(key, null);
    // Each message in the page's language where the engine gave its code and parameters.
    const codes = result.codes || {};
    const seatsMessage = result.errors.players
      ? engineMessage(result.errors.players, codes.players) : null;
    for (const [key, english] of Object.entries(result.errors || {})) {
      const message = engineMessage(english, codes[key]);
      showError(key === "*" ? "rules-all" : key === "players" ? "seats" : key, message);
      // "players" is also a rule setting: then the message belongs next to it as well.
      if (key === "players" && "players" in state.overrides) showError("players", message);
      // A combination refused (field "*") also sits next to each of its settings changed here.
      const involved = key === "*" && codes["*"] ? codes["*"].params.keys || [] : [];
      for (const k of involved) if (k in state.overrides) showError(k, message);
    }
    if (seatsMessage) showError("seats", seatsMessage);
    state.errors = result.errors || {};
    createButton.disabled = !result.ok;
  }

  // --- seats -------------------------------------------------------------------------------
  const seatsBox = h("ol.seat-list", { "aria-describedby": "seats-help err-seats" });
  function renderSeats() {
    replace(seatsBox,
      h("li.seat-row", {}, h("span.seat-you", { text: t("lobby.seat.host") })),
      state.seats.map((kind, i) => {
        const n = i + 2;
        return h("li.seat-row", {},
          h("select", { "aria-label": t("lobby.seat.kind", { n }),
            onchange: (e) => { state.seats[i] = e.target.value; check(); } },
            SEAT_CHOICES.map((c) => h("option", { value: c, selected: c === kind,
              text: t(`lobby.seat.${c}`) }))),
          h("button.icon.ghost", { type: "button", "aria-label": t("lobby.removeSeat", { n }),
            title: t("lobby.removeSeat", { n }),
            onclick: () => { state.seats.splice(i, 1); renderSeats(); check(); } }, "✕"));
      }));
  }

  // --- table options ---------------------------------------------------------------------
  function optionField(key, control) {
    return h("div.setting", {},
      h("label.setting-label", { for: `opt-${key}`, text: t(`opt.${key}`) }),
      control,
      h("p.help", { id: `opt-${key}-help`, text: t(`opt.${key}.help`) }),
      errorSlot(key));
  }
  function numberOption(key, { step = 1, min, max, nullable = false }) {
    const value = state.options[key];
    return h("input.num", { id: `opt-${key}`, type: "number", step, min, max,
      value: value === null ? "" : String(value), "aria-describedby": `opt-${key}-help err-${key}`,
      onchange: (e) => {
        state.options[key] = e.target.value === "" && nullable ? null : Number(e.target.value);
      } });
  }

  // --- the form ----------------------------------------------------------------------------
  const createButton = h("button.primary.big", { type: "submit", text: t("lobby.createButton") });

  function renderForm() {
    const p = preset();
    if (!p) return;
    // The playing settings, in the engine's order (not the name or the sources).
    const keys = Object.keys(p.settings).filter((k) => settingKind(k));
    changedBadge = h("span.badge");
    const rules = { settings: p.settings, lab: p.lab, value: currentValue, set: setOverride,
      changed: (key) => key in state.overrides, errorSlot };
    // novalidate: the server's and the engine's messages appear next to each field, in
    // view, instead of the browser's bubble (which the sticky header can hide).
    const form = h("form.create", { "aria-labelledby": "create-title", onsubmit: create,
      novalidate: true },
      h("h2#create-title", { text: t("lobby.create") }),
      h("div.setting", {},
        h("label.setting-label", { for: "preset", text: t("lobby.preset") }),
        h("select#preset", { "aria-describedby": "preset-help err-preset",
          onchange: (e) => { state.preset = e.target.value; state.overrides = {}; renderForm(); check(); } },
          state.presets.map((x) => h("option", { value: x.name, selected: x.name === state.preset,
            text: presetName(x.name) }))),
        h("p.help.preset-help", { id: "preset-help" }, presetText(p.name, p.description), " ",
          h("span.muted", { text: t("lobby.players", { lo: p.players[0], hi: p.players[1] }) })),
        errorSlot("preset")),
      h("div.setting", {},
        h("span.setting-label", { text: t("lobby.seats") }),
        seatsBox,
        h("button.ghost", { type: "button", text: "+ " + t("lobby.addSeat"),
          onclick: () => { state.seats.push("human"); renderSeats(); check(); } }),
        h("p.help", { id: "seats-help", text: t("lobby.seats.help") }),
        errorSlot("seats")),
      h("div.setting", {},
        h("label.setting-label", { for: "title", text: t("lobby.title") }),
        h("input#title", { type: "text", maxlength: 60, value: state.title,
          placeholder: t("lobby.defaultTitle", { name: nameInput.value.trim() || "…" }),
          oninput: (e) => { state.title = e.target.value; } }),
        errorSlot("title")),
      h("label.check", {},
        h("input#public", { type: "checkbox", checked: state.public,
          onchange: (e) => { state.public = e.target.checked; } }), " ", t("lobby.public")),
      errorSlot("public"),
      h("label.check", {},
        h("input#rated", { type: "checkbox", checked: state.rated, "aria-describedby": "rated-help err-rated",
          onchange: (e) => { state.rated = e.target.checked; showError("rated", null); } }), " ",
        t("rated.choice")),
      h("p.help", { id: "rated-help", text: t("rated.help") }),
      errorSlot("rated"),
      h("details.options", { open: state.open.options,
        ontoggle: (e) => { state.open.options = e.target.open; } },
        h("summary", { text: t("lobby.options") }),
        optionField("bot_delay", numberOption("bot_delay", { step: 0.1, min: 0, max: 5 })),
        optionField("absence", h("select#opt-absence", {
          "aria-describedby": "opt-absence-help err-absence",
          onchange: (e) => { state.options.absence = e.target.value; } },
          ["bot", "wait", "end"].map((c) => h("option", { value: c,
            selected: state.options.absence === c, text: t(`opt.absence.${c}`) })))),
        optionField("grace", numberOption("grace", { min: 1, max: 600 })),
        optionField("turn_timer", numberOption("turn_timer", { min: 1, max: 600, nullable: true })),
        optionField("reserve", numberOption("reserve", { min: 0, max: 600 }))),
      h("details.rules", { open: state.open.rules,
        ontoggle: (e) => { state.open.rules = e.target.open; } },
        h("summary", {}, t("lobby.rules"), " ", changedBadge),
        h("p.help", { text: t("lobby.rules.help") }),
        errorSlot("rules-all"),
        labSource(p.lab),
        h("div.settings-grid", {}, keys.map((key) => settingField(key, rules))),
        h("button.ghost", { type: "button", text: t("lobby.rules.reset"),
          onclick: () => { state.overrides = {}; renderForm(); check(); } })),
      errorSlot("create"),
      h("div.form-actions", {}, createButton));
    replace(formBox, form);
    renderSeats();
    updateChangedCount();
  }

  async function create(e) {
    e.preventDefault();
    const who = name();
    if (!who || state.busy) return;
    state.busy = true;
    createButton.disabled = true;
    createButton.textContent = t("lobby.creating");
    showError("create", null);
    const seats = [{ kind: "human" }, ...state.seats.map((k) => (k === "human"
      ? { kind: "human" } : { kind: "bot", bot: k }))];
    try {
      const out = await post("/api/tables", {
        name: who, preset: state.preset, rules: state.overrides, seats,
        public: state.public, title: state.title.trim() || null,
        options: state.options, rated: state.rated,
      });
      rememberSeat(out.table.id, out.token, out.seat);
      navigate(`/t/${encodeURIComponent(out.table.id)}`);
    } catch (err) {
      const field = err instanceof ApiError && err.field ? err.field : "create";
      const slot = field === "*" ? "rules-all" : field;
      showError(errors[slot] ? slot : "create", err.message);
      if (errors[slot]) revealField(slot);
    } finally {
      state.busy = false;
      createButton.disabled = false;
      createButton.textContent = t("lobby.createButton");
    }
  }

  // --- open tables, invites, your tables ---------------------------------------------------
  // A list of tables in box, or what kept it empty (no network, or none to show).
  async function showTables(box, fetchTables, noneKey, itemOf) {
    let data;
    try {
      data = await fetchTables();
    } catch {
      replace(box, h("p.field-error", { text: t("common.network") }));
      return;
    }
    replace(box, data.tables.length ? h("ul.table-list", {}, data.tables.map(itemOf))
      : h("p.muted", { text: t(noneKey) }));
  }

  function tableItem(table, details, actions) {
    return h("li.table-item", {},
      h("div.table-info", {},
        h("strong", { text: tableTitle(table.title) }), " ", tableBadges(table),
        h("span.muted", { text: ` · ${presetName(table.preset)} · ${t(`status.${table.status}`)}` }),
        details),
      actions);
  }

  function pageLink(tag, path, text) {
    return h(tag, { href: path, text, onclick: (e) => { e.preventDefault(); navigate(path); } });
  }

  function loadOpen() {
    return showTables(openBox, () => get("/api/tables"), "lobby.open.none", (tb) => tableItem(tb,
      h("div.muted", { text: t("lobby.freeSeats", { free: tb.free, seats: tb.seats })
        + (tb.spectators ? " · " + tn("lobby.watching", tb.spectators, { n: tb.spectators }) : "") }),
      h("div.table-actions", {},
        tb.status === "waiting" && tb.free > 0 ? h("button.primary", { type: "button",
          text: t("lobby.join"), onclick: () => joinPublic(tb.id) }) : null,
        pageLink("a.button.ghost", `/watch/${encodeURIComponent(tb.id)}`, t("lobby.watch")))));
  }

  async function joinPublic(id) {
    const who = name();
    if (!who) return;
    try {
      const out = await post(`/api/tables/${encodeURIComponent(id)}/join`, { name: who });
      rememberSeat(out.table.id, out.token, out.seat);
      navigate(`/t/${encodeURIComponent(out.table.id)}`);
    } catch (err) {
      replace(openBox, h("p.field-error", { role: "alert", text: err.message }));
      setTimeout(loadOpen, 2500);
    }
  }

  function loadMine() {
    const tokens = allTokens();
    if (!tokens.length) {
      replace(mineBox, h("p.muted", { text: t("lobby.mine.none") }));
      return;
    }
    showTables(mineBox, () => post("/api/my-tables", { tokens }), "lobby.mine.none",
      (m) => tableItem(m.table, null,
        pageLink("a.button.primary", `/t/${encodeURIComponent(m.table.id)}`, t("lobby.rejoin"))));
  }

  const inviteInput = h("input#invite", { type: "text", autocomplete: "off",
    placeholder: "https://…/join/…", "aria-describedby": "err-invite" });
  function openInvite(e) {
    e.preventDefault();
    const raw = inviteInput.value.trim();
    const m = raw.match(/\/join\/([A-Za-z0-9_-]+)/) || raw.match(/^([A-Za-z0-9_-]{8,})$/);
    if (!m) {
      showError("invite", t("lobby.invite.bad"));
      return;
    }
    navigate(`/join/${encodeURIComponent(m[1])}`);
  }

  function render() {
    const fan = h("div.hero-fan", { "aria-hidden": "true" },
      cardFace("KH", { decorative: true }), cardFace("2S", { decorative: true }),
      cardFace("KD", { decorative: true }), cardBack());
    replace(root,
      h("section.hero", {},
        fan,
        h("div", {},
          h("h1", { text: t("app.name") }),
          h("p.tagline", { text: t("app.tagline") }),
          h("div.setting.name-field", {},
            h("label.setting-label", { for: "name", text: t("lobby.you") }),
            nameInput,
            h("p.help", { id: "name-help", text: t("lobby.you.help") }),
            errorSlot("name")))),
      h("div.lobby-columns", {},
        h("section.panel", {}, formBox),
        h("div.side", {},
          quickBox,
          h("details.panel.how", { open: !savedName() },
            h("summary", { text: t("lobby.how") }),
            h("ol", {}, [1, 2, 3, 4, 5].map((i) => h("li", { text: t(`lobby.how.${i}`) })))),
          h("section.panel", { "aria-labelledby": "mine-title" },
            h("h2#mine-title", { text: t("lobby.mine") }), mineBox),
          h("section.panel", { "aria-labelledby": "invite-title" },
            h("h2#invite-title", { text: t("lobby.invite") }),
            h("form.inline-form", { onsubmit: openInvite },
              h("label.sr-only", { for: "invite", text: t("lobby.invite.field") }),
              inviteInput,
              h("button.primary", { type: "submit", text: t("lobby.invite.go") })),
            errorSlot("invite")),
          h("section.panel", { "aria-labelledby": "open-title" },
            h("div.panel-head", {},
              h("h2#open-title", { text: t("lobby.open") }),
              h("button.ghost.small", { type: "button", text: t("lobby.refresh"), onclick: loadOpen })),
            openBox))));
    renderForm();
  }

  showError("name", null);
  render();
  loadPresets().then((presets) => {
    state.presets = presets.presets;
    if (!state.presets.some((p) => p.name === state.preset)) state.preset = state.presets[0].name;
    renderForm();
    check();
  }).catch(() => replace(formBox, h("p.field-error", { text: t("common.network") })));
  loadOpen();
  loadMine();
  const poll = setInterval(loadOpen, 10000);
  return {
    unmount: () => { clearInterval(poll); quick.unmount(); },
    refresh: () => { render(); quick.refresh(); loadOpen(); loadMine(); },
  };
}
