// The replay's words (js/replay.js): its steps, holes and result. The autoplay's are in
// strings/layout.js. English and German.

import { extendStrings } from "../i18n.js";

extendStrings({
  "replay.title": "Replay",
  "replay.result": "Final result",
  "replay.first": "To the start",
  "replay.prev": "Back",
  "replay.next": "Forward",
  "replay.last": "To the end",
  "replay.hole": "Jump to hole",
  "replay.step": "Move {i} of {n}",
  "replay.start": "The deal",
  "replay.unavailable": "This server does not offer step-by-step replays yet. Final totals:",
  "replay.running": "The match is still running; the replay opens once it is over.",
}, {
  "replay.title": "Wiederholung",
  "replay.result": "Endergebnis",
  "replay.first": "Zum Anfang",
  "replay.prev": "Zurück",
  "replay.next": "Vor",
  "replay.last": "Zum Ende",
  "replay.hole": "Zur Runde",
  "replay.step": "Zug {i} von {n}",
  "replay.start": "Das Geben",
  "replay.unavailable": "Dieser Server bietet noch keine Wiederholung Zug für Zug. Endstand:",
  "replay.running": "Die Partie läuft noch; die Wiederholung gibt es, sobald sie vorbei ist.",
});
