#!/usr/bin/env node
// A golf bot in JavaScript (Node.js, no packages) that speaks the golf-bot/1 line
// protocol (docs/bot-protocol.md). It plays a pseudo-random legal action from the
// MINSTD generator seeded by its seat, so the same match always gets the same moves.
//
//   golf simulate --bots 'cmd:node examples/bots/minstd.js,greedy' --games 20
"use strict";
const readline = require("node:readline");

const lines = readline.createInterface({ input: process.stdin, terminal: false });
let state = 0;

lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.protocol !== undefined) { // the handshake, golf's first line
    if (message.protocol !== "golf-bot/1") {
      console.error(`minstd.js speaks golf-bot/1, not ${message.protocol}`);
      process.exit(3);
    }
    state = message.seat + 1;
    console.log(JSON.stringify({ protocol: "golf-bot/1", name: "minstd (javascript)" }));
    return;
  }
  // {"type": "decide", "legal": [...], "view": {...}}: answer one action, one line.
  state = (state * 48271) % 2147483647; // exact: the product stays below 2**53
  console.log(message.legal[state % message.legal.length]);
});
// golf closes stdin when the match is over; readline then ends and node exits.
