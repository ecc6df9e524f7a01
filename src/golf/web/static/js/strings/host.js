// The words of the host's tools during a match (js/hosttools.js): nudge, a turn timer added
// later, a bot in a slow friend's seat as the others answer it (the host's own words and the
// person's question: strings/handover.js); and the nudge as each one
// at the table reads it. English and German.

import { extendStrings } from "../i18n.js";

extendStrings({
  "host.tools": "Host tools",
  "host.nudge": "Nudge {name}",
  "host.nudge.help": "A friendly reminder that it is their turn, seen by everyone at the table.",
  "host.timer": "Add a turn timer",
  "host.timer.seconds": "Seconds per turn",
  "host.timer.help": "The same for everyone from now on; when time and reserve are up, the table plays a safe move.",
  "host.timer.set": "Turn timer: {s} s per turn.",
  "host.bot.waiting": "A bot for {name}'s seat: waiting for {names} to agree.",
  "host.bot.ask": "{host} proposes that a bot plays {name}'s seat to the end of this match.",
  "host.bot.yes": "Agree",
  "host.bot.no": "Decline",
  "nudge.you": "{host} reminds you: it is your turn.",
  "nudge.other": "{host} reminded {name} that it is their turn.",
  "nudge.byYou": "You reminded {name} that it is their turn.",
  "seat.abandoned": "left the match",
  "seat.elsewhere": "on another page",
}, {
  "host.tools": "Werkzeuge des Gastgebers",
  "host.nudge": "{name} erinnern",
  "host.nudge.help": "Eine freundliche Erinnerung an den Zug – alle am Tisch sehen sie.",
  "host.timer": "Zeitlimit pro Zug einführen",
  "host.timer.seconds": "Sekunden pro Zug",
  "host.timer.help": "Ab jetzt für alle gleich; sind Zeit und Reserve um, spielt der Tisch einen sicheren Zug.",
  "host.timer.set": "Zeitlimit: {s} s pro Zug.",
  "host.bot.waiting": "Ein Bot für den Platz von {name}: Wir warten auf die Zustimmung von {names}.",
  "host.bot.ask": "{host} schlägt vor, dass ein Bot den Platz von {name} bis zum Ende dieser Partie spielt.",
  "host.bot.yes": "Zustimmen",
  "host.bot.no": "Ablehnen",
  "nudge.you": "{host} erinnert dich: Du bist dran.",
  "nudge.other": "{host} hat {name} an den Zug erinnert.",
  "nudge.byYou": "Du hast {name} an den Zug erinnert.",
  "seat.abandoned": "hat die Partie verlassen",
  "seat.elsewhere": "auf einer anderen Seite",
});
