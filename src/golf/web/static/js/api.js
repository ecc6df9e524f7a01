// The REST lobby (docs/protocol.md, "REST lobby") and what this browser remembers:
// the player's name and the seat token of each table it sits at.

import { sentence, t } from "./i18n.js";
import "./strings/common.js";
import { serverWords } from "./serverwords.js";

const STORE = "golf.seats";

export class ApiError extends Error {
  constructor(status, code, message, field) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/**
 * One REST call. `token` (a seat token) goes as a Bearer; `csrf` (this browser's token from
 * GET /api/me) as X-CSRF-Token, which every account, quick-play and report write needs.
 * A refusal throws an ApiError with the server's code, message, field and retry_after.
 */
export function api(method, path, body, token, csrf) {
  // The page's first call (GET /api/me: js/app.js mounts the account menu first) may make
  // this browser's guest profile and set its cookie; every other call waits for its answer.
  // Two calls without a cookie would make two guests, and the cookie of the one answered
  // last would not match the CSRF token the page keeps ("This page is out of date").
  if (!first) {
    const call = send(method, path, body, token, csrf);
    first = call.then(() => {}, () => {});
    return call;
  }
  return first.then(() => send(method, path, body, token, csrf));
}

let first = null;

async function send(method, path, body, token, csrf) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (csrf) headers["X-CSRF-Token"] = csrf;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, "network", t("common.network"));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = (data && data.error) || {};
    // The page's own words for the refusal (by its code, field or cause); the server's
    // sentence only for a code this page does not know.
    const e = new ApiError(response.status, err.code || "http_" + response.status,
      serverWords(err) || sentence(err.message || response.statusText), err.field);
    e.retryAfter = err.retry_after;
    throw e;
  }
  return data;
}

export const get = (path, token) => api("GET", path, undefined, token);
export const post = (path, body, token) => api("POST", path, body ?? {}, token);

// --- what this browser keeps ---------------------------------------------------------------

function readSeats() {
  try {
    const data = JSON.parse(localStorage.getItem(STORE) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

/** The seat token this browser holds for a table, or null. */
export function tokenFor(tableId) {
  const entry = readSeats()[tableId];
  return entry ? entry.token : null;
}

export function rememberSeat(tableId, token, seat) {
  const seats = readSeats();
  seats[tableId] = { token, seat, at: Date.now() };
  localStorage.setItem(STORE, JSON.stringify(seats));
}

export function forgetSeat(tableId) {
  const seats = readSeats();
  delete seats[tableId];
  localStorage.setItem(STORE, JSON.stringify(seats));
}

export function allTokens() {
  return Object.entries(readSeats())
    .sort((a, b) => (b[1].at || 0) - (a[1].at || 0))
    .slice(0, 50)
    .map(([, v]) => v.token);
}

export function savedName() {
  return localStorage.getItem("golf.name") || "";
}

export function saveName(name) {
  localStorage.setItem("golf.name", name);
}

export function pref(key, fallback) {
  const value = localStorage.getItem("golf.pref." + key);
  return value === null ? fallback : value === "true";
}

export function setPref(key, value) {
  localStorage.setItem("golf.pref." + key, String(Boolean(value)));
}
