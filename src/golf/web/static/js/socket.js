// One WebSocket to /ws for a table, reconnecting with backoff (docs/protocol.md, "WebSocket").
// After every (re)connect it says hello again; the server answers with welcome, table and the
// full current state, so nothing has to be replayed on the client.

import { pref } from "./api.js";

export const PROTOCOL = 2;
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];

export class TableSocket {
  /**
   * @param {string} table  the table id
   * @param {string|null} token  the seat token, or null to watch
   * @param {(msg: object) => void} onMessage
   * @param {(status: {state: string, retryIn?: number, attempt?: number, reason?: string}) => void} onStatus
   */
  constructor(table, token, onMessage, onStatus) {
    this.table = table;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.attempt = 0;
    this.closed = false;
    this.ws = null;
    this.timer = null;
    // Whether this connection's hello was answered with welcome; and how often a hello on
    // it was refused with try_again (the table moving between server processes, or the
    // database away): it is said again after the same backoff as a reconnect.
    this.joined = false;
    this.refused = 0;
    this.connect();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    // ?table= lets a proxy in front of several server processes route the socket to the
    // process of this table (docs/server.md, "Running a cluster"); the server reads hello.
    return `${scheme}//${location.host}/ws?table=${encodeURIComponent(this.table)}`;
  }

  connect() {
    clearTimeout(this.timer);
    if (this.closed) return;
    this.onStatus({ state: this.attempt ? "reconnecting" : "connecting", attempt: this.attempt });
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    this.joined = false;
    this.refused = 0;
    ws.addEventListener("open", () => this.hello(ws));
    ws.addEventListener("message", (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (msg.type === "welcome") {
        this.attempt = 0;
        this.joined = true;
        this.onStatus({ state: "open" });
      } else if (msg.type === "error" && msg.code === "try_again" && !this.joined) {
        // The socket stays open and nothing was joined: say hello again in a moment
        // (docs/protocol.md, try_again), as a reconnect would.
        const base = BACKOFF_MS[Math.min(this.refused, BACKOFF_MS.length - 1)];
        this.refused += 1;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => {
          if (this.ws === ws && !this.joined) this.hello(ws);
        }, Math.round(base * (0.8 + Math.random() * 0.4)));
      }
      this.onMessage(msg);
    });
    ws.addEventListener("close", (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      if (e.code === 4001) {
        this.closed = true;
        this.onStatus({ state: "removed", reason: e.reason });
        return;
      }
      this.retry();
    });
  }

  hello(ws) {
    if (ws.readyState !== WebSocket.OPEN) return;
    // show_peeks: this player's display setting for memory mode (the server applies it).
    ws.send(JSON.stringify({ type: "hello", protocol: PROTOCOL, table: this.table,
      token: this.token, show_peeks: pref("showPeeked", false) }));
  }

  retry() {
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    const wait = Math.round(base * (0.8 + Math.random() * 0.4));
    this.attempt += 1;
    this.onStatus({ state: "offline", retryIn: wait, attempt: this.attempt });
    this.timer = setTimeout(() => this.connect(), wait);
  }

  /** Reconnect now (the banner's "retry now" button). */
  retryNow() {
    if (this.ws || this.closed) return;
    this.connect();
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  get open() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close(1000, "leaving");
    this.ws = null;
  }
}
