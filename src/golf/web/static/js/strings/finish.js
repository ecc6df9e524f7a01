// Strings of the end of a hole and of a match (the break before the next hole, the rematch
// invitation, the celebration), in both languages (i18n.js, extendStrings).

import { extendStrings } from "../i18n.js";

extendStrings({
  "break.clock": "Next hole in {s} s",
  "break.waiting": "waiting for {names}",
  "break.label": "The next hole starts in {s} seconds or when everyone has read this hole's end",
  "break.prompt": "The next hole starts when everyone has read this one's end.",
  "rematch.offer": "Invite everyone to play again",
  "rematch.offered": "You invited everyone to play again. Waiting for {names}.",
  "rematch.invited": "{name} invites everyone to play again.",
  "rematch.accept": "Play again",
  "rematch.accepted": "You accepted. Waiting for {names}.",
  "rematch.none": "Waiting for the host to invite everyone to another match.",
  "match.celebrate": "Congratulations!",
}, {
  "break.clock": "Nächste Runde in {s} s",
  "break.waiting": "es fehlt noch: {names}",
  "break.label": "Die nächste Runde beginnt in {s} Sekunden oder sobald alle das Rundenende gelesen haben",
  "break.prompt": "Die nächste Runde beginnt, sobald alle das Ende dieser Runde gelesen haben.",
  "rematch.offer": "Alle zu einer neuen Partie einladen",
  "rematch.offered": "Du hast alle zu einer neuen Partie eingeladen. Es fehlt noch: {names}.",
  "rematch.invited": "{name} lädt alle zu einer neuen Partie ein.",
  "rematch.accept": "Noch einmal spielen",
  "rematch.accepted": "Du hast zugesagt. Es fehlt noch: {names}.",
  "rematch.none": "Warten, bis der Gastgeber zu einer neuen Partie einlädt.",
  "match.celebrate": "Herzlichen Glückwunsch!",
});
