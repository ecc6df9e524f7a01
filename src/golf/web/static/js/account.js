// The account menu in the header: who you are (a guest, or an account), your display name,
// "Save your profile" (claim), sign in (password, recovery code or passkey), your unfinished
// tables, where you are signed in, password change, passkeys, sign out, delete.
// Every write sends this browser's CSRF token (from GET /api/me) in X-CSRF-Token; every field
// shows the server's message for it next to it.

import "./strings/account.js";
import "./strings/profiles.js";
import "./strings/care.js";
import { myBlocks, setBlocked } from "./care.js";
import { h, replace, svg } from "./dom.js";
import { isolate, lang, t, tn } from "./i18n.js";
import { tableTitle } from "./names.js";
import { ApiError, api, rememberSeat, saveName, savedName } from "./api.js";

const state = { me: null, codes: null, notice: "", open: false, useCode: false, focus: null };
let mounted = null; // {el, navigate}

function stylesheet() {
  if (document.getElementById("account-css")) return;
  document.head.append(h("link#account-css", { rel: "stylesheet", href: "/static/css/account.css" }));
}

async function request(method, path, body) {
  const data = await api(method, path, body, null, state.me && state.me.csrf);
  if (data && data.me) state.me = data.me;
  if (data && data.player) adoptName(data.player.name);
  if (data && data.me) adoptName(data.me.player && data.me.player.name);
  return data;
}

// The display name comes along to a new browser (the name the player last sat under): the
// lobby's name field takes it when this browser has none yet.
function adoptName(known) {
  if (!known || savedName()) return;
  saveName(known);
  const field = document.getElementById("name");
  if (field && !field.value) field.value = known;
}

/** Who this browser is (a guest profile is made on the first visit). */
export async function loadMe() {
  state.me = await request("GET", "/api/me");
  render();
  return state.me;
}

function message(err) {
  // A policy refusal of a field: the server's own sentence (with its figures) in English,
  // our translation of it in other languages.
  const own = `acct.err.${err.field}.${err.code}`;
  if (lang() !== "en" && t(own) !== own) return t(own);
  const key = `acct.err.${err.code}`;
  const text = t(key, { n: err.retryAfter });
  return text === key ? err.message : text;
}

// --- form pieces --------------------------------------------------------------------------

function field(form, name, label, attrs = {}, help = null) {
  const id = `acct-${form}-${name}`;
  const error = h("p.field-error", { id: `${id}-error`, "aria-live": "polite", hidden: true });
  const helpEl = help ? h("p.help", { id: `${id}-help`, text: help }) : null;
  const input = h("input", { id, name, type: "text", ...attrs,
    "aria-describedby": [helpEl ? `${id}-help` : null, `${id}-error`].filter(Boolean).join(" ") });
  const wrap = h("div.setting", {}, h("label.setting-label", { for: id, text: label }), input, helpEl, error);
  return { name, input, error, wrap };
}

function form(id, title, fields, button, submit, extra = []) {
  const general = h("p.field-error", { id: `acct-${id}-error`, "aria-live": "polite", hidden: true });
  const note = h("p.acct-note", { "aria-live": "polite" });
  const go = h("button.primary", { type: "submit", text: button });
  const el = h(`form#acct-${id}.acct-form`, { novalidate: true, "aria-label": title },
    title ? h("h3", { text: title }) : null, fields.map((f) => f.wrap), extra, go, general, note);
  function show(err) {
    for (const f of fields) { f.error.hidden = true; f.input.removeAttribute("aria-invalid"); }
    general.hidden = true;
    if (!err) return;
    const target = fields.find((f) => f.name === err.field);
    const slot = target ? target.error : general;
    slot.textContent = message(err);
    slot.hidden = false;
    if (target) { target.input.setAttribute("aria-invalid", "true"); target.input.focus(); }
  }
  el.addEventListener("submit", async (e) => {
    e.preventDefault();
    show(null);
    note.textContent = "";
    go.disabled = true;
    try {
      const done = await submit(Object.fromEntries(fields.map((f) => [f.name, f.input.value])));
      // A notice says what the last action did: an action without one clears it.
      state.notice = done || "";
      render();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      show(err);
    } finally {
      go.disabled = false;
    }
  });
  return el;
}

// --- passkeys -----------------------------------------------------------------------------

const fromB64u = (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")
  + "===".slice((s.length + 3) % 4)), (c) => c.charCodeAt(0)).buffer;
const toB64u = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf)))
  .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

function creationOptions(o) {
  return { ...o, challenge: fromB64u(o.challenge), user: { ...o.user, id: fromB64u(o.user.id) },
    excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: fromB64u(c.id) })) };
}

function requestOptions(o) {
  return { ...o, challenge: fromB64u(o.challenge),
    allowCredentials: (o.allowCredentials || []).map((c) => ({ ...c, id: fromB64u(c.id) })) };
}

function credentialJSON(c) {
  const r = c.response;
  const response = { clientDataJSON: toB64u(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64u(r.attestationObject);
    if (r.getTransports) response.transports = r.getTransports();
  } else {
    response.authenticatorData = toB64u(r.authenticatorData);
    response.signature = toB64u(r.signature);
    if (r.userHandle) response.userHandle = toB64u(r.userHandle);
  }
  return { id: c.id, rawId: toB64u(c.rawId), type: c.type, response,
    clientExtensionResults: c.getClientExtensionResults ? c.getClientExtensionResults() : {},
    authenticatorAttachment: c.authenticatorAttachment || undefined };
}

function passkeyError(e) {
  if (e instanceof ApiError) return e;
  const err = new ApiError(0, "passkey", t("acct.passkey.cancelled"), "passkey");
  return err;
}

async function addPasskey() {
  if (!window.PublicKeyCredential) throw new ApiError(0, "passkey", t("acct.passkey.unsupported"));
  const begin = await request("POST", "/api/passkeys/register/options", {});
  let cred;
  try {
    cred = await navigator.credentials.create({ publicKey: creationOptions(begin.options) });
  } catch (e) {
    throw passkeyError(e);
  }
  await request("POST", "/api/passkeys/register",
    { ceremony: begin.ceremony, credential: credentialJSON(cred), name: navigator.platform || "passkey" });
  return t("acct.passkey.added");
}

async function passkeySignIn() {
  if (!window.PublicKeyCredential) throw new ApiError(0, "passkey", t("acct.passkey.unsupported"));
  const begin = await request("POST", "/api/passkeys/signin/options", {});
  let cred;
  try {
    cred = await navigator.credentials.get({ publicKey: requestOptions(begin.options) });
  } catch (e) {
    throw passkeyError(e);
  }
  await request("POST", "/api/passkeys/signin", { ceremony: begin.ceremony, credential: credentialJSON(cred) });
  return null;
}

function actionButton(id, text, run, cls = "button") {
  const status = h("p.field-error", { id: `${id}-error`, "aria-live": "polite", hidden: true });
  const button = h(`button#${id}.${cls}`, { type: "button", text, onclick: async () => {
    status.hidden = true;
    button.disabled = true;
    try {
      const done = await run();
      state.notice = done || "";
      render();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      status.textContent = message(err);
      status.hidden = false;
    } finally {
      button.disabled = false;
    }
  } });
  return h("div.acct-action", {}, button, status);
}

// --- the panels -----------------------------------------------------------------------------

function nameForm() {
  const name = field("name", "name", t("acct.name"),
    { maxlength: 20, autocomplete: "nickname", value: state.me.player.name || savedName() }, t("acct.name.help"));
  return form("name", null, [name], t("acct.name.save"), async (v) => {
    const out = await request("POST", "/api/me/name", { name: v.name });
    saveName(out.me.player.name); // the lobby's name field starts from it too
    return t("acct.name.saved");
  });
}

function codesPanel() {
  const text = state.codes.join("\n");
  const copied = h("p.acct-note", { "aria-live": "polite" });
  return h("section#acct-codes.acct-codes", { "aria-labelledby": "acct-codes-title" },
    h("h3#acct-codes-title", { text: t("acct.codes.title") }),
    h("p", { text: t("acct.codes.help") }),
    h("ol.code-list", {}, state.codes.map((c) => h("li", {}, h("code", { text: c })))),
    h("div.form-actions", {},
      h("button#acct-codes-copy.button", { type: "button", text: t("acct.codes.copy"), onclick: async () => {
        try { await navigator.clipboard.writeText(text); copied.textContent = t("acct.codes.copied"); } catch {
          copied.textContent = text;
        }
      } }),
      h("button#acct-codes-done.primary", { type: "button", text: t("acct.codes.done"),
        onclick: () => { state.codes = null; render(); } })),
    copied);
}

function guestPanels() {
  const cu = field("claim", "username", t("acct.username"),
    { autocomplete: "username", maxlength: 24 }, t("acct.username.help"));
  const cp = field("claim", "password", t("acct.password"),
    { type: "password", autocomplete: "new-password" }, t("acct.password.help"));
  const claim = form("claim", t("acct.claim"), [cu, cp], t("acct.claim.go"), async (v) => {
    const out = await request("POST", "/api/account/claim", v);
    state.codes = out.recovery_codes;
    state.focus = "acct-codes-copy"; // the codes are what matters now
    return null;
  });
  const su = field("signin", "username", t("acct.username"), { autocomplete: "username" });
  let signIn;
  if (state.useCode) {
    const code = field("signin", "code", t("acct.code"), { autocomplete: "one-time-code" });
    signIn = form("signin", t("acct.signIn"), [su, code], t("acct.code.go"), async (v) => {
      await request("POST", "/api/signin/recovery", v);
      return null;
    });
  } else {
    const sp = field("signin", "password", t("acct.password"),
      { type: "password", autocomplete: "current-password" });
    signIn = form("signin", t("acct.signIn"), [su, sp], t("acct.signIn.go"), async (v) => {
      await request("POST", "/api/signin", v);
      return null;
    });
  }
  const toggle = h("button#acct-use-code.link", { type: "button",
    text: state.useCode ? t("acct.signIn") : t("acct.useCode"),
    onclick: () => { state.useCode = !state.useCode; render(); } });
  return [h("p.help", { text: t("acct.guestNote") }), nameForm(), claim, signIn, toggle,
    actionButton("acct-passkey-signin", t("acct.passkey.signIn"), passkeySignIn)];
}

function tablesPanel() {
  const tables = state.me.tables || [];
  if (!tables.length) return null;
  return h("section.acct-tables", {}, h("h3", { text: t("acct.tables") }),
    h("ul.acct-list", {}, tables.map((tb) => h("li", {},
      actionButton(`acct-open-${tb.table_id}`, t("acct.tables.open", { title: tableTitle(tb.title) }), async () => {
        const out = await request("POST", `/api/me/tables/${encodeURIComponent(tb.table_id)}/seat`, {});
        rememberSeat(out.table_id, out.token, out.seat);
        state.open = false;
        if (mounted) mounted.navigate(`/t/${encodeURIComponent(out.table_id)}`);
        return null;
      })))));
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(lang() === "de" ? "de-DE" : "en-GB",
    { dateStyle: "medium", timeStyle: "short" });
}

// Browsers and systems as people call them, tested in this order (Edge and Opera carry
// "Chrome" in their user-agent, Chrome carries "Safari").
const BROWSERS = [[/Edg(e|A|iOS)?\//, "Edge"], [/OPR\/|Opera/, "Opera"], [/Firefox\/|FxiOS/, "Firefox"],
  [/SamsungBrowser/, "Samsung Internet"], [/Chrom(e|ium)\/|CriOS/, "Chrome"], [/Safari\//, "Safari"]];
const SYSTEMS = [[/Android/, "Android"], [/iPhone|iPad|iPod/, "iOS"], [/CrOS/, "ChromeOS"],
  [/Windows/, "Windows"], [/Mac OS X|Macintosh/, "macOS"], [/Linux|X11/, "Linux"]];

/** A session's browser and system in words ("Chrome on Linux") from its user-agent label. */
export function browserName(label) {
  const ua = String(label || "");
  const find = (list) => (list.find(([re]) => re.test(ua)) || [null, null])[1];
  const browser = find(BROWSERS);
  const system = find(SYSTEMS);
  if (browser && system) return t("acct.sessions.on", { browser, system });
  return browser || system || t("acct.sessions.unknown");
}

function sessionsPanel(box) {
  request("GET", "/api/sessions").then((out) => {
    replace(box, h("ul.acct-list", {}, out.sessions.map((s) => {
      const named = browserName(s.label);
      const label = s.current ? `${named} (${t("acct.sessions.this")})` : named;
      return h("li", {}, h("span.acct-session", { title: s.label || "",
        text: `${label} · ${t("acct.sessions.since", { date: when(s.created) })}` }),
        actionButton(`acct-session-${s.id}`, t("acct.sessions.signOut", { label }),
          async () => { await request("DELETE", `/api/sessions/${encodeURIComponent(s.id)}`); return loadMe().then(() => null); },
          "small"));
    })), actionButton("acct-signout-others", t("acct.sessions.others"), async () => {
      const out2 = await request("POST", "/api/sessions/signout-others", {});
      return tn("acct.sessions.ended", out2.ended, { n: out2.ended });
    }));
  }).catch(() => {});
  return box;
}

// Whom this player blocked, each with a link to their profile and "Unblock" (loaded when
// the list is opened).
function blocksPanel() {
  const box = h("div");
  // A blocked guest may come without a name (GET /api/blocks): "Guest", linked to the profile.
  const named = (b) => b.name || t("acct.guest");
  const fill = () => myBlocks().then((blocks) => {
    replace(box, blocks.length ? h("ul.acct-list#acct-blocks", {}, blocks.map((b) => h("li", {},
      h("a", { href: `/players/${encodeURIComponent(b.id)}`, text: named(b),
        onclick: (e) => {
          e.preventDefault();
          state.open = false;
          if (mounted) mounted.navigate(`/players/${encodeURIComponent(b.id)}`);
          render();
        } }),
      h("span.muted", { text: ` · ${t("care.list.since", { date: when(b.since) })} ` }),
      actionButton(`acct-unblock-${b.id}`, t("care.unblock", { name: named(b) }), async () => {
        await setBlocked(b.id, false);
        return t("care.unblocked", { name: named(b) });
      }, "small")))) : h("p.help", { text: t("care.list.none") }));
  }).catch(() => {});
  // Kept open across the menu's redraws (an unblock redraws it with its notice).
  const el = h("details.acct-more.acct-blocked", { open: state.blocksOpen || null,
    ontoggle: (e) => { state.blocksOpen = e.target.open; if (e.target.open) fill(); } },
  h("summary", { text: t("care.list") }), box);
  if (state.blocksOpen) fill();
  return el;
}

function passkeysPanel(box) {
  request("GET", "/api/passkeys").then((out) => {
    replace(box, out.passkeys.length ? h("ul.acct-list", {}, out.passkeys.map((p) => h("li", {},
      h("span", { text: `${isolate(p.name)} · ${when(p.created)}` }),
      actionButton(`acct-passkey-${p.id}`, "✕", async () => {
        await request("DELETE", `/api/passkeys/${p.id}`);
        return null;
      }, "small")))) : h("p.help", { text: t("acct.passkey.none") }));
    for (const [i, p] of out.passkeys.entries()) {
      const b = box.querySelectorAll("button")[i];
      if (b) b.setAttribute("aria-label", t("acct.passkey.remove", { name: p.name }));
    }
  }).catch(() => {});
  return box;
}

function accountPanels() {
  const me = state.me;
  const out = [h("p.acct-who", { text: t("acct.signedInAs", { username: me.player.username }) })];
  const newPw = field("password", "password", t("acct.new"),
    { type: "password", autocomplete: "new-password" }, t("acct.password.help"));
  if (me.password_needed) {
    out.push(h("p.notice", { text: t("acct.newPassword.needed") }),
      form("password", t("acct.newPassword"), [newPw], t("acct.newPassword"), async (v) => {
        await request("POST", "/api/account/password", { password: v.password });
        await loadMe();
        return t("acct.password.changed");
      }));
  }
  out.push(nameForm(), tablesPanel());
  if (me.recovery_codes_left !== null) {
    out.push(h("p.help", { text: t("acct.codes.left", { n: me.recovery_codes_left }) }));
  }
  out.push(h("section.acct-sessions", {}, h("h3", { text: t("acct.sessions") }), sessionsPanel(h("div"))));
  out.push(h("section.acct-passkeys", {}, h("h3", { text: t("acct.passkeys") }), passkeysPanel(h("div")),
    actionButton("acct-passkey-add", t("acct.passkey.add"), addPasskey)));
  if (!me.password_needed) {
    const cur = field("password", "current", t("acct.current"),
      { type: "password", autocomplete: "current-password" });
    out.push(h("details.acct-more", {}, h("summary", { text: t("acct.changePassword") }),
      form("password", null, [cur, newPw], t("acct.changePassword"), async (v) => {
        await request("POST", "/api/account/password", { current: v.current, password: v.password });
        return t("acct.password.changed");
      })));
  }
  out.push(actionButton("acct-signout", t("acct.signOut"), async () => {
    await request("POST", "/api/signout", {});
    await loadMe();
    return null;
  }));
  const dp = field("delete", "password", t("acct.password"),
    { type: "password", autocomplete: "current-password" });
  out.push(h("details.acct-more", {}, h("summary", { text: t("acct.delete") }),
    h("p.help", { text: t("acct.delete.help") }),
    form("delete", null, me.password_needed ? [] : [dp], t("acct.delete.go"), async (v) => {
      await request("DELETE", "/api/account", { password: v.password ?? null });
      await loadMe();
      return null;
    })));
  return out;
}

function personIcon() {
  return svg("svg", { class: "acct-icon", viewBox: "0 0 20 20", width: 18, height: 18, "aria-hidden": "true" },
    svg("circle", { cx: 10, cy: 6.5, r: 4, fill: "currentColor" }),
    svg("path", { d: "M2.5 19c0-4.4 3.4-7 7.5-7s7.5 2.6 7.5 7z", fill: "currentColor" }));
}

function render() {
  if (!mounted || !state.me) return;
  const me = state.me;
  const who = isolate(me.player.username || me.player.name || t("acct.guest"));
  const body = h("div#acct-panel.menu-body.acct-body", { role: "region", "aria-label": t("acct.menu") },
    state.notice ? h("p.acct-notice", { role: "status", text: state.notice }) : null,
    state.codes ? codesPanel() : null,
    // Your own profile, one click from the menu (guests have one too).
    h("p.acct-profile", {}, h("a#acct-profile.button.ghost", { href: `/players/${encodeURIComponent(me.player.id)}`,
      text: t("nav.profile"), onclick: (e) => {
        e.preventDefault();
        state.open = false;
        if (mounted) mounted.navigate(`/players/${encodeURIComponent(me.player.id)}`);
        render();
      } })),
    me.signed_in ? accountPanels() : guestPanels(),
    blocksPanel());
  const details = h("details#account-menu.account-menu", { open: state.open || null,
    ontoggle: (e) => { state.open = e.target.open; if (!state.open) state.notice = ""; } },
  h("summary#acct-summary", { "aria-label": `${t("acct.menu")}: ${who}` }, personIcon(),
    h("span.acct-name", { text: who })), body);
  const active = state.focus || (document.activeElement && document.activeElement.id);
  state.focus = null;
  replace(mounted.el, details);
  if (active) {
    const again = document.getElementById(active);
    if (again) again.focus();
  }
}

/** Put the account menu into el (the header calls it each time it is drawn). */
export function mountAccountMenu(el, { navigate }) {
  stylesheet();
  mounted = { el, navigate };
  if (state.me) render();
  else loadMe().catch(() => {});
}
