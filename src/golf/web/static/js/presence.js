// "I am still here": while this browser shows any page but a table's, it tells each of its
// unfinished tables every 20 s (POST /api/tables/{id}/here, docs/protocol.md), so that a
// person who opened the lobby or a profile is not taken for absent while the table is still
// theirs to open. The page of a table says so by its own socket.

import { allTokens, post } from "./api.js";

const EVERY_MS = 20000;
let timer = null;
let showing = null; // the id of the table on the page, or null

async function sayHere() {
  const tokens = allTokens();
  if (!tokens.length) return;
  let mine;
  try {
    mine = await post("/api/my-tables", { tokens });
  } catch {
    return; // offline: the next round tries again
  }
  for (const m of mine.tables) {
    if (m.table.id === showing) continue;
    post(`/api/tables/${encodeURIComponent(m.table.id)}/here`, {}, m.token).catch(() => {});
  }
}

/** The page now shows table `tableId` (or no table: null); starts the rounds once. */
export function presenceOn(tableId) {
  showing = tableId || null;
  if (!timer) timer = setInterval(sayHere, EVERY_MS);
  sayHere();
}
