// The words of the host's tools during a match (js/hosttools.js): nudge, a turn timer added
// later, a bot in a slow friend's seat with the others' consent; and the nudge as each one
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
  "host.bot": "Let a bot play {name}'s seat",
  "host.bot.help": "A bot plays the seat to the end of this match once everyone else agrees; {name} then leaves the match (a rated match counts it as last place).",
  "host.bot.waiting": "A bot for {name}'s seat: waiting for {names} to agree.",
  "host.bot.ask": "{host} proposes that a bot plays {name}'s seat to the end of this match.",
  "host.bot.askYou": "{host} proposes that a bot plays your seat to the end of this match.",
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
  "host.nudge.help": "Eine freundliche Erinnerung, dass er oder sie dran ist – alle am Tisch sehen sie.",
  "host.timer": "Zeitlimit pro Zug einführen",
  "host.timer.seconds": "Sekunden pro Zug",
  "host.timer.help": "Ab jetzt für alle gleich; sind Zeit und Reserve um, spielt der Tisch einen sicheren Zug.",
  "host.timer.set": "Zeitlimit: {s} s pro Zug.",
  "host.bot": "Einen Bot für {name} spielen lassen",
  "host.bot.help": "Ein Bot spielt den Platz bis zum Ende dieser Partie, sobald alle anderen zustimmen; {name} verlässt dann die Partie (in einer gewerteten Partie zählt das als letzter Platz).",
  "host.bot.waiting": "Ein Bot für den Platz von {name}: Wir warten auf die Zustimmung von {names}.",
  "host.bot.ask": "{host} schlägt vor, dass ein Bot den Platz von {name} bis zum Ende dieser Partie spielt.",
  "host.bot.askYou": "{host} schlägt vor, dass ein Bot deinen Platz bis zum Ende dieser Partie spielt.",
  "host.bot.yes": "Zustimmen",
  "host.bot.no": "Ablehnen",
  "nudge.you": "{host} erinnert dich: Du bist dran.",
  "nudge.other": "{host} hat {name} daran erinnert, dass er oder sie dran ist.",
  "nudge.byYou": "Du hast {name} daran erinnert, dass er oder sie dran ist.",
  "seat.abandoned": "hat die Partie verlassen",
  "seat.elsewhere": "auf einer anderen Seite",
});
