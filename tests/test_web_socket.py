"""js/socket.js under node, with a fake WebSocket: a ``hello`` refused with ``try_again``
(the table moving between server processes, or the database away) is said again on the
same socket after a backoff, until the server welcomes it (docs/web.md, "Connection").
Before, the page stayed on an open socket joined to nothing until that socket dropped."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from test_external_bots import node  # noqa: F401  (the fixture: Debian's node)

ROOT = Path(__file__).resolve().parents[1]
SOCKET_JS = ROOT / "src" / "golf" / "web" / "static" / "js" / "socket.js"

# The page's globals the module touches, a WebSocket that records what is sent, and a
# clock run by hand (setTimeout's delays are jittered; the test runs them in order).
DRIVER = r"""
const sent = [];
const timers = [];
globalThis.location = { protocol: "http:", host: "golf.test" };
globalThis.setTimeout = (f, ms) => { timers.push({ f, ms }); return timers.length; };
globalThis.clearTimeout = (id) => { if (id && timers[id - 1]) timers[id - 1].f = null; };
class FakeSocket {
  static OPEN = 1;
  constructor(url) { this.url = url; this.readyState = 0; this.on = {}; FakeSocket.last = this; }
  addEventListener(kind, f) { this.on[kind] = f; }
  send(text) { sent.push(JSON.parse(text)); }
  close() {}
}
globalThis.WebSocket = FakeSocket;
const { TableSocket } = await import("./socket.js");
const s = new TableSocket("T1", "tok", () => {}, () => {});
const ws = FakeSocket.last;
ws.readyState = 1;
ws.on.open();
const say = (msg) => ws.on.message({ data: JSON.stringify(msg) });
// The newest pending timer, run now: its delay, or null if none is pending.
const run = () => {
  const t = timers.filter((x) => x.f).at(-1);
  if (!t) return null;
  const f = t.f;
  t.f = null;
  f();
  return t.ms;
};
const waits = [];
say({ type: "error", code: "try_again", message: "moving" });
waits.push(run());
say({ type: "error", code: "try_again", message: "moving" });
waits.push(run());
say({ type: "welcome" });
const hellos = sent.filter((m) => m.type === "hello").length;
// Joined: a try_again now (an action refused) says no hello again.
say({ type: "error", code: "try_again", message: "database" });
const pending = timers.filter((x) => x.f).length;
console.log(JSON.stringify({ hellos, waits, pending, joined: s.joined,
                             table: sent[0].table, token: sent[0].token }));
"""


def test_a_hello_refused_with_try_again_is_said_again(node: str, tmp_path: Path) -> None:  # noqa: F811
    shutil.copy(SOCKET_JS, tmp_path / "socket.js")
    # The one import socket.js makes, stubbed: the display preference it sends.
    (tmp_path / "api.js").write_text("export function pref(_k, d) { return d; }\n")
    (tmp_path / "package.json").write_text('{"type": "module"}\n')
    (tmp_path / "drive.js").write_text(DRIVER)
    run = subprocess.run([node, str(tmp_path / "drive.js")], capture_output=True, text=True,
                         timeout=60, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    # The first hello, then one after each refusal; none after the welcome.
    assert out["waits"][0] is not None, f"no hello again after try_again: {out}"
    assert out["hellos"] == 3, out
    assert out["pending"] == 0 and out["joined"] is True, out
    assert (out["table"], out["token"]) == ("T1", "tok")
    # The reconnect's backoff with its jitter: about 0.5 s, then about 1 s.
    assert 400 <= out["waits"][0] <= 600 and 800 <= out["waits"][1] <= 1200, out
