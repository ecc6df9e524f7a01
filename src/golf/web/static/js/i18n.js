// Every string of the page's own in English and German. The language comes from the browser
// (navigator.languages) unless the player picked one with the switch. The words of the rule
// settings and their choices are not here: the engine serves them (rulewords.js).

const EN = {
  "app.name": "Golf",
  "app.skip": "Skip to the game",
  "app.tagline": "The card game for friends and family: keep your score low.",
  "lang.label": "Language",
  "lang.en": "English",
  "lang.de": "Deutsch",
  "common.close": "Close",
  "common.cancel": "Cancel",
  "common.loading": "Loading…",
  "common.back": "Back to the lobby",
  "common.you": "You",
  "common.network": "The server cannot be reached. Check the connection and try again.",
  "common.settings": "Display",
  "pref.fourColour": "Four-colour suits (♦ blue, ♣ green)",
  "pref.showPeeked": "Keep the cards I looked at visible",
  "pref.showPeeked.help": "Off: as the rules intend, you must remember the cards you looked at once you have drawn.",
  "pref.showPeeked.rated": "At a rated table the table's rules decide which cards stay visible, the same for everyone.",

  "lobby.how": "How to play",
  "lobby.how.1": "Everyone has a grid of face-down cards. The lowest score after the last hole wins.",
  "lobby.how.2": "On your turn, draw the top card of the stock or take the top of the discard pile.",
  "lobby.how.3": "Swap it for one of your cards (that card goes on the discard pile), or throw it away and maybe turn one of your cards up.",
  "lobby.how.4": "Equal cards in a column cancel to zero. The hole ends when someone has every card face up; the others get one more turn.",
  "lobby.how.5": "Each game and house rule below is explained in plain words where you choose it.",
  "lobby.you": "Your name",
  "lobby.you.help": "Shown to the others at the table (1 to 20 characters).",
  "lobby.create": "Start a new table",
  "lobby.preset": "Game",
  "lobby.seats": "Players",
  "lobby.seats.help": "You take the first seat. Open seats are filled by the people you invite.",
  "lobby.seat.host": "You (host)",
  "lobby.seat.human": "A person (invite)",
  "lobby.seat.easy": "Easy bot",
  "lobby.seat.medium": "Medium bot",
  "lobby.seat.hard": "Hard bot",
  "lobby.seat.kind": "Seat {n}",
  "lobby.addSeat": "Add a seat",
  "lobby.removeSeat": "Remove seat {n}",
  "lobby.title": "Table name",
  "lobby.defaultTitle": "{name}'s table",
  "lobby.public": "List this table in “Open tables” so anyone can join",
  "lobby.options": "Table options",
  "lobby.rules": "House rules",
  "lobby.rules.help": "Every setting of the chosen game. Change what your family plays differently; the game checks each change and says what is allowed.",
  "lobby.rules.changed": "{n} changed",
  "lobby.rules.reset": "Reset to the game's rules",
  "lobby.rules.preset": "preset: {value}",
  "lobby.lab.title": "What it does, measured",
  "lobby.lab.each": "What each choice does, measured ({n})",
  "lobby.lab.source": "Measured by the rules lab: {deals} deals of expert play with {players} players ({date}).",
  "rules.on": "on",
  "rules.off": "off",
  "rules.atLeast": "at least",
  "rules.atMost": "at most",
  "rules.decksFrom": "from {n} players:",
  "rules.decksFromOne": "from {n} player:",
  "lobby.createButton": "Create table",
  "lobby.creating": "Creating…",
  "lobby.open": "Open tables",
  "lobby.open.none": "No open tables right now. Start one!",
  "lobby.join": "Join",
  "lobby.watch": "Watch",
  "lobby.invite": "Have an invite?",
  "lobby.invite.field": "Invite link or code",
  "lobby.invite.go": "Open",
  "lobby.invite.bad": "Paste the whole invite link, like …/join/abc123.",
  "lobby.mine": "Your unfinished tables",
  "lobby.mine.none": "None yet.",
  "lobby.rejoin": "Back to the table",
  "lobby.freeSeats": "{free} of {seats} seats free",
  "lobby.watching": "{n} watching",
  "lobby.players": "{lo}–{hi} players",
  "lobby.nameFirst": "Enter your name first.",
  "lobby.refresh": "Refresh",

  "status.waiting": "waiting for players",
  "status.playing": "playing",
  "status.finished": "finished",
  "status.ended": "ended",

  "opt.bot_delay": "Bot speed (seconds per move)",
  "opt.bot_delay.help": "How long a bot waits before each move, so everyone can follow (0 to 5).",
  "opt.absence": "When someone loses their connection",
  "opt.absence.help": "What happens when a player is gone and their grace period has run out during their turn.",
  "opt.absence.wait": "Wait for them",
  "opt.absence.bot": "A bot plays for them until they are back",
  "opt.absence.end": "End the match",
  "opt.grace": "Grace period (seconds)",
  "opt.grace.help": "How long the table waits for a disconnected player on their turn (1 to 600).",
  "opt.turn_timer": "Turn timer (seconds)",
  "opt.turn_timer.help": "Empty for no timer. With a timer, the table plays a safe move when time and reserve are up (1 to 600).",
  "opt.reserve": "Reserve (seconds)",
  "opt.reserve.help": "Extra time each player may use over the whole match once a turn's time is up (0 to 600).",
  "opt.show_peeked": "Keep peeked cards visible",
  "opt.show_peeked.help": "Off: cards you looked at are hidden again after your first draw, so you play from memory.",

  "wait.title": "Waiting room",
  "wait.seats": "Seats",
  "wait.invite": "Invite link",
  "wait.invite.help": "Send this link to the people you want to play with. Anyone with it can take an open seat.",
  "wait.copy": "Copy link",
  "wait.copied": "Copied!",
  "wait.copyFailed": "Select the link and copy it.",
  "wait.watch": "Link for spectators",
  "wait.addBot": "Add a bot",
  "wait.addPerson": "Add a seat for a person",
  "wait.remove": "Remove",
  "wait.removeSeat": "Remove {name} from the table",
  "wait.makeHost": "Make host",
  "wait.makeHostSeat": "Make {name} the host",
  "wait.start": "Start the game",
  "wait.needSeats": "Every seat must be taken before the start: invite someone or make the seat a bot.",
  "wait.waitingHost": "Waiting for {host} to start the game.",
  "wait.open": "Open seat",
  "wait.leave": "Leave the table",
  "wait.rules": "Rules",
  "wait.rules.none": "The game's own rules, unchanged.",
  "wait.toBot": "Make it a bot",

  "seat.online": "online",
  "seat.offline": "offline",
  "seat.away": "away",
  "seat.standIn": "a bot plays for them",
  "seat.host": "host",
  "seat.you": "you",
  "seat.bot": "bot",
  "seat.dealer": "dealer",
  "seat.external": "program",
  "seat.total": "total {n}",

  "table.hole": "Hole {n} of {total}",
  "table.holeOpen": "Hole {n}",
  "table.playoff": "Playoff hole",
  "table.target": "to {n} points",
  "table.stock": "Stock",
  "table.stockCards": "{n} cards",
  "table.stockLabel": "Stock, {n} cards left",
  "table.drawHere": "Draw from the stock",
  "table.discard": "Discard pile",
  "table.discardTop": "Discard pile, top card {card}",
  "table.discardEmpty": "Discard pile, empty",
  "table.takeHere": "Take {card} from the discard pile",
  "table.discardHere": "Throw the card in your hand onto the discard pile",
  "table.history": "History ({n})",
  "table.historyTitle": "The discard pile, newest first",
  "table.held": "In hand",
  "table.heldBy": "{name}'s hand",
  "table.heldHidden": "a card from the stock",
  "table.spectating": "You are watching this table. Only face-up cards are shown.",
  "table.yourGrid": "Your cards",
  "table.gridOf": "{name}'s cards",
  "table.peekedBadge": "seen",

  "turn.yours": "Your turn",
  "turn.of": "{name}'s turn",
  "turn.tab": "● Your turn – Golf",
  "prompt.reveal": "Turn {n} of your cards face up: tap them.",
  "prompt.peek": "Look at {n} of your cards in secret: tap them.",
  "prompt.turn": "Draw from the stock or take the top of the discard pile.",
  "prompt.turnKnock": "Draw, take the discard, or knock to end the hole.",
  "prompt.hold": "Tap one of your cards to swap it for the card in your hand, or tap the discard pile to throw it away.",
  "prompt.holdSwap": "Tap the card in your grid that this card replaces.",
  "prompt.flip": "You may turn one of your face-down cards up, or pass.",
  "prompt.flipMust": "Turn one of your face-down cards up.",
  "prompt.wait": "Waiting for {name}…",

  "act.draw": "Draw",
  "act.take": "Take",
  "act.discard": "Discard",
  "act.knock": "Knock",
  "act.pass": "Pass",
  "act.hint": "Hint",
  "act.swap": "Swap into position {n}",
  "act.flip": "Turn up position {n}",
  "act.reveal": "Turn up position {n}",
  "act.peek": "Look at position {n}",
  "keys.help": "Keys: {keys}",
  "keys.draw": "D draw", "keys.take": "T take", "keys.discard": "X discard",
  "keys.knock": "K knock", "keys.pass": "P pass", "keys.cells": "1–{n} your cards",
  "keys.hint": "H hint",

  "cell.label": "Position {n}: {card}",
  "cell.down": "face down",
  "cell.downSeen": "face down, you looked at it: {card}",
  "cell.downForgotten": "face down, you looked at it",
  "cell.last": "last move",

  "banner.final": "Last turns! {name} went out – everyone else has one more turn.",
  "banner.finalYou": "You went out – everyone else has one more turn.",
  "banner.knock": "{name} knocked – everyone else has one more turn.",
  "banner.knockYou": "You knocked – everyone else has one more turn.",
  "banner.offline": "Connection lost. Reconnecting in {s} s…",
  "banner.connecting": "Connecting…",
  "banner.retry": "Reconnect now",
  "banner.removed": "You are no longer at this table.",
  "banner.lost.elsewhere": "You opened your seat in another browser: you play there now, and this page no longer plays.",
  "banner.lost.removed": "The host removed you from this table.",
  "banner.lost.replaced": "A bot plays your seat for the rest of this match, as you agreed.",
  "banner.watch": "Watch the table",
  "banner.gone": "This table does not exist (any more).",
  "banner.badToken": "Your seat at this table is gone; you are watching instead.",

  "timer.turn": "{s} s",
  "timer.turnLabel": "Time left for {name}: {s} seconds",
  "timer.reserve": "+{s} s reserve",
  "timer.inReserve": "reserve: {s} s",
  "timer.absence": "{name} is away: {s} s",

  "hint.title": "The coach suggests",
  "hint.expected": "expected score about {x}",
  "hint.none": "The coach has no advice this time.",
  "hint.thinking": "The coach is thinking…",
  "hint.play": "Play it",
  "hint.value": "value {x}",
  "hint.others": "Other moves",

  "chat.title": "Chat",
  "chat.field": "Message",
  "chat.placeholder": "Say something nice…",
  "chat.send": "Send",
  "chat.mute": "Mute {name}",
  "chat.unmute": "Unmute {name}",
  "chat.empty": "No messages yet.",
  "chat.muteShort": "mute",
  "chat.unmuteShort": "unmute",

  "log.title": "What happened",
  "score.title": "Scorecard",
  "score.hole": "Hole",
  "score.total": "Total",
  "score.playoff": "Playoff",

  "holeEnd.title": "Hole {n} is over",
  "holeEnd.playoff": "The playoff hole is over",
  "holeEnd.wentOut": "{name} went out first.",
  "holeEnd.wentOutYou": "You went out first.",
  "holeEnd.knockedYou": "You knocked.",
  "holeEnd.knocked": "{name} knocked.",
  "holeEnd.points": "{n} points",
  "holeEnd.next": "On to the next hole",
  "holeEnd.toResult": "See the result",
  "holeEnd.none": "Nothing cancelled: every card counts its points.",
  "holeEnd.match": "{where}: {cards} are equal – {points} points together",
  "holeEnd.cards": "Cards: {list}",
  "where.columns": "column {n}",
  "where.rows": "row {n}",
  "where.row-pairs": "side by side in row {n}",
  "where.diagonals": "a diagonal",
  "where.adjacent": "neighbours",
  "where.pairs": "a pair",
  "where.blocks": "a block of four",
  "where.match": "a match",

  "match.over": "The match is over",
  "match.wins": "{names} wins!",
  "match.share": "{names} share the win!",
  "match.youWin": "You win!",
  "match.place": "{n}.",
  "match.points": "{n} points",
  "match.rematch": "Play again",
  "match.rematchWait": "Waiting for the host to start another match.",
  "match.replay": "Watch the replay",
  "match.ended": "The match was ended early: {reason}",
  "match.and": " and ",

  "ev.draw": "{name} drew a card from the stock.",
  "ev.draw.you": "You drew {card} from the stock.",
  "ev.take": "{name} took {card} from the discard pile.",
  "ev.take.you": "You took {card} from the discard pile.",
  "ev.swap": "{name} put {card} in position {n}; {old} goes to the discard pile.",
  "ev.swap.you": "You put {card} in position {n}; {old} goes to the discard pile.",
  "ev.discard": "{name} threw {card} away.",
  "ev.discard.you": "You threw {card} away.",
  "ev.flip": "{name} turned up {card} in position {n}.",
  "ev.flip.you": "You turned up {card} in position {n}.",
  "ev.reveal": "{name} turned up {card} in position {n}.",
  "ev.reveal.you": "You turned up {card} in position {n}.",
  "ev.peek": "{name} looked at position {n}.",
  "ev.peek.you": "You looked at position {n}: {card}.",
  "ev.knock": "{name} knocked!",
  "ev.knock.you": "You knocked!",
  "ev.pass": "{name} left the cards as they were.",
  "ev.pass.you": "You left your cards as they were.",
  "ev.other": "{name}: {action}.",
  "ev.by.timeout": "(time ran out)",
  "ev.by.stand_in": "(a bot played for them)",
  "ev.holeOver": "Hole {n} is over.",
  "ev.matchOver": "The match is over.",
  "ev.yourTurn": "Your turn.",

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

  "invite.title": "You are invited to {title}",
  "invite.game": "Game: {preset}",
  "invite.join": "Take a seat",
  "invite.started": "This game has already started.",
  "invite.full": "Every seat at this table is taken.",
  "invite.bad": "This invite link is not valid (any more).",
  "invite.seated": "Who is there: {names}",

  "rank.A": "ace", "rank.J": "jack", "rank.Q": "queen", "rank.K": "king",
  "suit.S": "spades", "suit.H": "hearts", "suit.D": "diamonds", "suit.C": "clubs",
  "card.name": "{rank} of {suit}",
  "card.joker": "joker",
  "card.back": "face-down card",
  "card.none": "no card",
};

const DE = {
  "app.name": "Golf",
  "app.skip": "Zum Spiel springen",
  "app.tagline": "Das Kartenspiel für Freunde und Familie: Wer die wenigsten Punkte hat, gewinnt.",
  "lang.label": "Sprache",
  "lang.en": "English",
  "lang.de": "Deutsch",
  "common.close": "Schließen",
  "common.cancel": "Abbrechen",
  "common.loading": "Wird geladen …",
  "common.back": "Zurück zur Lobby",
  "common.you": "Du",
  "common.network": "Der Server ist nicht erreichbar. Prüfe die Verbindung und versuche es noch einmal.",
  "common.settings": "Anzeige",
  "pref.fourColour": "Vierfarbiges Blatt (♦ blau, ♣ grün)",
  "pref.showPeeked": "Angeschaute Karten sichtbar lassen",
  "pref.showPeeked.help": "Aus: Wie es die Regeln wollen, musst du dir angeschaute Karten nach deinem ersten Zug merken.",
  "pref.showPeeked.rated": "An einem gewerteten Tisch entscheiden die Regeln des Tischs, welche Karten sichtbar bleiben – für alle gleich.",

  "lobby.how": "So wird gespielt",
  "lobby.how.1": "Jeder hat eine Auslage verdeckter Karten. Wer nach der letzten Runde die wenigsten Punkte hat, gewinnt.",
  "lobby.how.2": "Wer dran ist, zieht die oberste Karte vom Stapel oder nimmt die oberste Karte der Ablage.",
  "lobby.how.3": "Tausche sie gegen eine deiner Karten (die kommt auf die Ablage) oder lege sie ab und decke vielleicht eine deiner Karten auf.",
  "lobby.how.4": "Gleiche Karten in einer Spalte zählen null. Die Runde endet, wenn jemand alle Karten offen hat; die anderen haben noch einen Zug.",
  "lobby.how.5": "Jedes Spiel und jede Hausregel unten ist dort erklärt, wo du sie wählst.",
  "lobby.you": "Dein Name",
  "lobby.you.help": "Den sehen die anderen am Tisch (1 bis 20 Zeichen).",
  "lobby.create": "Neuen Tisch eröffnen",
  "lobby.preset": "Spiel",
  "lobby.seats": "Mitspieler",
  "lobby.seats.help": "Du sitzt auf dem ersten Platz. Freie Plätze nehmen die Leute ein, die du einlädst.",
  "lobby.seat.host": "Du (Gastgeber)",
  "lobby.seat.human": "Ein Mensch (Einladung)",
  "lobby.seat.easy": "Leichter Bot",
  "lobby.seat.medium": "Mittlerer Bot",
  "lobby.seat.hard": "Schwerer Bot",
  "lobby.seat.kind": "Platz {n}",
  "lobby.addSeat": "Platz hinzufügen",
  "lobby.removeSeat": "Platz {n} entfernen",
  "lobby.title": "Name des Tischs",
  "lobby.defaultTitle": "Tisch von {name}",
  "lobby.public": "Tisch unter „Offene Tische“ zeigen, damit jeder mitspielen kann",
  "lobby.options": "Tisch-Einstellungen",
  "lobby.rules": "Hausregeln",
  "lobby.rules.help": "Alle Einstellungen des gewählten Spiels. Ändere, was ihr zu Hause anders spielt; das Spiel prüft jede Änderung und sagt, was erlaubt ist.",
  "lobby.rules.changed": "{n} geändert",
  "lobby.rules.reset": "Regeln des Spiels wiederherstellen",
  "lobby.rules.preset": "Vorgabe: {value}",
  "lobby.lab.title": "Was die Regel bewirkt, gemessen",
  "lobby.lab.each": "Was jede Wahl bewirkt, gemessen ({n})",
  "lobby.lab.source": "Gemessen vom Regellabor: {deals} Partien von Experten-Bots mit {players} Spielern ({date}).",
  "rules.on": "an",
  "rules.off": "aus",
  "rules.atLeast": "mindestens",
  "rules.atMost": "höchstens",
  "rules.decksFrom": "ab {n} Spielern:",
  "rules.decksFromOne": "ab {n} Spieler:",
  "lobby.createButton": "Tisch eröffnen",
  "lobby.creating": "Wird eröffnet …",
  "lobby.open": "Offene Tische",
  "lobby.open.none": "Gerade ist kein Tisch offen. Eröffne einen!",
  "lobby.join": "Mitspielen",
  "lobby.watch": "Zuschauen",
  "lobby.invite": "Eingeladen?",
  "lobby.invite.field": "Einladungslink oder Code",
  "lobby.invite.go": "Öffnen",
  "lobby.invite.bad": "Füge den ganzen Einladungslink ein, etwa …/join/abc123.",
  "lobby.mine": "Deine offenen Partien",
  "lobby.mine.none": "Noch keine.",
  "lobby.rejoin": "Zurück an den Tisch",
  "lobby.freeSeats": "{free} von {seats} Plätzen frei",
  "lobby.watching": "{n} schauen zu",
  "lobby.players": "{lo}–{hi} Spieler",
  "lobby.nameFirst": "Gib zuerst deinen Namen ein.",
  "lobby.refresh": "Aktualisieren",

  "status.waiting": "wartet auf Mitspieler",
  "status.playing": "läuft",
  "status.finished": "beendet",
  "status.ended": "abgebrochen",

  "opt.bot_delay": "Tempo der Bots (Sekunden pro Zug)",
  "opt.bot_delay.help": "So lange wartet ein Bot vor jedem Zug, damit alle folgen können (0 bis 5).",
  "opt.absence": "Wenn jemand die Verbindung verliert",
  "opt.absence.help": "Was passiert, wenn ein Spieler weg ist und seine Schonfrist in seinem Zug abläuft.",
  "opt.absence.wait": "Auf ihn warten",
  "opt.absence.bot": "Ein Bot spielt stellvertretend, bis die Person zurück ist",
  "opt.absence.end": "Die Partie beenden",
  "opt.grace": "Schonfrist (Sekunden)",
  "opt.grace.help": "So lange wartet der Tisch in seinem Zug auf einen getrennten Spieler (1 bis 600).",
  "opt.turn_timer": "Zeit pro Zug (Sekunden)",
  "opt.turn_timer.help": "Leer: ohne Zeitlimit. Mit Limit spielt der Tisch einen sicheren Zug, wenn Zeit und Reserve aufgebraucht sind (1 bis 600).",
  "opt.reserve": "Reserve (Sekunden)",
  "opt.reserve.help": "Zusätzliche Zeit, die jeder über die ganze Partie nutzen kann, wenn die Zugzeit abgelaufen ist (0 bis 600).",
  "opt.show_peeked": "Angeschaute Karten sichtbar lassen",
  "opt.show_peeked.help": "Aus: Angeschaute Karten werden nach dem ersten Ziehen wieder verdeckt – man spielt aus dem Gedächtnis.",

  "wait.title": "Warteraum",
  "wait.seats": "Plätze",
  "wait.invite": "Einladungslink",
  "wait.invite.help": "Schicke diesen Link an alle, mit denen du spielen möchtest. Wer ihn hat, kann einen freien Platz nehmen.",
  "wait.copy": "Link kopieren",
  "wait.copied": "Kopiert!",
  "wait.copyFailed": "Markiere den Link und kopiere ihn.",
  "wait.watch": "Link zum Zuschauen",
  "wait.addBot": "Bot hinzufügen",
  "wait.addPerson": "Platz für einen Menschen hinzufügen",
  "wait.remove": "Entfernen",
  "wait.removeSeat": "{name} vom Tisch entfernen",
  "wait.makeHost": "Zum Gastgeber machen",
  "wait.makeHostSeat": "{name} zum Gastgeber machen",
  "wait.start": "Spiel starten",
  "wait.needSeats": "Vor dem Start müssen alle Plätze besetzt sein: Lade jemanden ein oder setze einen Bot auf den Platz.",
  "wait.waitingHost": "Warten, bis {host} das Spiel startet.",
  "wait.open": "Freier Platz",
  "wait.leave": "Tisch verlassen",
  "wait.rules": "Regeln",
  "wait.rules.none": "Die Regeln des Spiels, unverändert.",
  "wait.toBot": "Bot daraus machen",

  "seat.online": "online",
  "seat.offline": "offline",
  "seat.away": "abwesend",
  "seat.standIn": "ein Bot spielt stellvertretend",
  "seat.host": "Gastgeber",
  "seat.you": "du",
  "seat.bot": "Bot",
  "seat.dealer": "Geber",
  "seat.external": "Programm",
  "seat.total": "gesamt {n}",

  "table.hole": "Runde {n} von {total}",
  "table.holeOpen": "Runde {n}",
  "table.playoff": "Stechen",
  "table.target": "bis {n} Punkte",
  "table.stock": "Stapel",
  "table.stockCards": "{n} Karten",
  "table.stockLabel": "Stapel, noch {n} Karten",
  "table.drawHere": "Vom Stapel ziehen",
  "table.discard": "Ablage",
  "table.discardTop": "Ablage, oben liegt {card}",
  "table.discardEmpty": "Ablage, leer",
  "table.takeHere": "{card} von der Ablage nehmen",
  "table.discardHere": "Die Karte in deiner Hand auf die Ablage legen",
  "table.history": "Verlauf ({n})",
  "table.historyTitle": "Die Ablage, neueste zuerst",
  "table.held": "In der Hand",
  "table.heldBy": "Hand von {name}",
  "table.heldHidden": "eine Karte vom Stapel",
  "table.spectating": "Du schaust zu. Es werden nur offene Karten gezeigt.",
  "table.yourGrid": "Deine Karten",
  "table.gridOf": "Karten von {name}",
  "table.peekedBadge": "gesehen",

  "turn.yours": "Du bist dran",
  "turn.of": "{name} ist dran",
  "turn.tab": "● Du bist dran – Golf",
  "prompt.reveal": "Decke {n} deiner Karten auf: Tippe sie an.",
  "prompt.peek": "Schau dir heimlich {n} deiner Karten an: Tippe sie an.",
  "prompt.turn": "Zieh vom Stapel oder nimm die oberste Karte der Ablage.",
  "prompt.turnKnock": "Zieh, nimm die Ablage oder klopfe, um die Runde zu beenden.",
  "prompt.hold": "Tippe eine deiner Karten an, um sie gegen die Karte in deiner Hand zu tauschen, oder tippe die Ablage an, um sie abzulegen.",
  "prompt.holdSwap": "Tippe die Karte deiner Auslage an, die diese Karte ersetzt.",
  "prompt.flip": "Du darfst eine deiner verdeckten Karten aufdecken oder passen.",
  "prompt.flipMust": "Decke eine deiner verdeckten Karten auf.",
  "prompt.wait": "Warten auf {name} …",

  "act.draw": "Ziehen",
  "act.take": "Nehmen",
  "act.discard": "Ablegen",
  "act.knock": "Klopfen",
  "act.pass": "Passen",
  "act.hint": "Tipp",
  "act.swap": "Auf Platz {n} tauschen",
  "act.flip": "Platz {n} aufdecken",
  "act.reveal": "Platz {n} aufdecken",
  "act.peek": "Platz {n} anschauen",
  "keys.help": "Tasten: {keys}",
  "keys.draw": "Z ziehen", "keys.take": "N nehmen", "keys.discard": "A ablegen",
  "keys.knock": "K klopfen", "keys.pass": "P passen", "keys.cells": "1–{n} deine Karten",
  "keys.hint": "T Tipp",

  "cell.label": "Platz {n}: {card}",
  "cell.down": "verdeckt",
  "cell.downSeen": "verdeckt, angeschaut: {card}",
  "cell.downForgotten": "verdeckt, du hast sie angeschaut",
  "cell.last": "letzter Zug",

  "banner.final": "Letzte Züge! {name} ist fertig – alle anderen haben noch einen Zug.",
  "banner.finalYou": "Du bist fertig – alle anderen haben noch einen Zug.",
  "banner.knock": "{name} hat geklopft – alle anderen haben noch einen Zug.",
  "banner.knockYou": "Du hast geklopft – alle anderen haben noch einen Zug.",
  "banner.offline": "Verbindung unterbrochen. Neuer Versuch in {s} s …",
  "banner.connecting": "Verbinde …",
  "banner.retry": "Jetzt verbinden",
  "banner.removed": "Du sitzt nicht mehr an diesem Tisch.",
  "banner.lost.elsewhere": "Du hast deinen Platz in einem anderen Browser geöffnet: Dort spielst du jetzt, diese Seite spielt nicht mehr mit.",
  "banner.lost.removed": "Der Gastgeber hat dich von diesem Tisch entfernt.",
  "banner.lost.replaced": "Ein Bot spielt deinen Platz für den Rest dieser Partie, wie du zugestimmt hast.",
  "banner.watch": "Zuschauen",
  "banner.gone": "Diesen Tisch gibt es nicht (mehr).",
  "banner.badToken": "Dein Platz an diesem Tisch ist weg; du schaust jetzt zu.",

  "timer.turn": "{s} s",
  "timer.turnLabel": "Restzeit für {name}: {s} Sekunden",
  "timer.reserve": "+{s} s Reserve",
  "timer.inReserve": "Reserve: {s} s",
  "timer.absence": "{name} ist weg: {s} s",

  "hint.title": "Der Trainer rät",
  "hint.expected": "erwartete Punkte etwa {x}",
  "hint.none": "Der Trainer hat diesmal keinen Rat.",
  "hint.thinking": "Der Trainer überlegt …",
  "hint.play": "So spielen",
  "hint.value": "Wert {x}",
  "hint.others": "Andere Züge",

  "chat.title": "Chat",
  "chat.field": "Nachricht",
  "chat.placeholder": "Schreib etwas Nettes …",
  "chat.send": "Senden",
  "chat.mute": "{name} stummschalten",
  "chat.unmute": "{name} wieder hören",
  "chat.empty": "Noch keine Nachrichten.",
  "chat.muteShort": "stumm",
  "chat.unmuteShort": "laut",

  "log.title": "Was passiert ist",
  "score.title": "Punktetabelle",
  "score.hole": "Runde",
  "score.total": "Gesamt",
  "score.playoff": "Stechen",

  "holeEnd.title": "Runde {n} ist vorbei",
  "holeEnd.playoff": "Das Stechen ist vorbei",
  "holeEnd.wentOut": "{name} war zuerst fertig.",
  "holeEnd.wentOutYou": "Du warst zuerst fertig.",
  "holeEnd.knockedYou": "Du hast geklopft.",
  "holeEnd.knocked": "{name} hat geklopft.",
  "holeEnd.points": "{n} Punkte",
  "holeEnd.next": "Weiter zur nächsten Runde",
  "holeEnd.toResult": "Zum Ergebnis",
  "holeEnd.none": "Nichts hebt sich auf: Jede Karte zählt ihre Punkte.",
  "holeEnd.match": "{where}: {cards} sind gleich – zusammen {points} Punkte",
  "holeEnd.cards": "Karten: {list}",
  "where.columns": "Spalte {n}",
  "where.rows": "Reihe {n}",
  "where.row-pairs": "nebeneinander in Reihe {n}",
  "where.diagonals": "eine Diagonale",
  "where.adjacent": "Nachbarn",
  "where.pairs": "ein Paar",
  "where.blocks": "ein Viererblock",
  "where.match": "ein Treffer",

  "match.over": "Die Partie ist vorbei",
  "match.wins": "{names} gewinnt!",
  "match.share": "{names} teilen sich den Sieg!",
  "match.youWin": "Du gewinnst!",
  "match.place": "{n}.",
  "match.points": "{n} Punkte",
  "match.rematch": "Noch einmal spielen",
  "match.rematchWait": "Warten, bis der Gastgeber eine neue Partie startet.",
  "match.replay": "Wiederholung ansehen",
  "match.ended": "Die Partie wurde vorzeitig beendet: {reason}",
  "match.and": " und ",

  "ev.draw": "{name} hat eine Karte vom Stapel gezogen.",
  "ev.draw.you": "Du hast {card} vom Stapel gezogen.",
  "ev.take": "{name} hat {card} von der Ablage genommen.",
  "ev.take.you": "Du hast {card} von der Ablage genommen.",
  "ev.swap": "{name} hat {card} auf Platz {n} gelegt; {old} kommt auf die Ablage.",
  "ev.swap.you": "Du hast {card} auf Platz {n} gelegt; {old} kommt auf die Ablage.",
  "ev.discard": "{name} hat {card} abgelegt.",
  "ev.discard.you": "Du hast {card} abgelegt.",
  "ev.flip": "{name} hat auf Platz {n} {card} aufgedeckt.",
  "ev.flip.you": "Du hast auf Platz {n} {card} aufgedeckt.",
  "ev.reveal": "{name} hat auf Platz {n} {card} aufgedeckt.",
  "ev.reveal.you": "Du hast auf Platz {n} {card} aufgedeckt.",
  "ev.peek": "{name} hat sich Platz {n} angeschaut.",
  "ev.peek.you": "Du hast dir Platz {n} angeschaut: {card}.",
  "ev.knock": "{name} hat geklopft!",
  "ev.knock.you": "Du hast geklopft!",
  "ev.pass": "{name} lässt die Karten, wie sie sind.",
  "ev.pass.you": "Du lässt deine Karten, wie sie sind.",
  "ev.other": "{name}: {action}.",
  "ev.by.timeout": "(Zeit abgelaufen)",
  "ev.by.stand_in": "(ein Bot hat stellvertretend gespielt)",
  "ev.holeOver": "Runde {n} ist vorbei.",
  "ev.matchOver": "Die Partie ist vorbei.",
  "ev.yourTurn": "Du bist dran.",

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

  "invite.title": "Du bist eingeladen: {title}",
  "invite.game": "Spiel: {preset}",
  "invite.join": "Platz nehmen",
  "invite.started": "Dieses Spiel hat schon begonnen.",
  "invite.full": "An diesem Tisch sind alle Plätze besetzt.",
  "invite.bad": "Dieser Einladungslink gilt nicht (mehr).",
  "invite.seated": "Schon da: {names}",

  "rank.A": "Ass", "rank.J": "Bube", "rank.Q": "Dame", "rank.K": "König",
  "suit.S": "Pik", "suit.H": "Herz", "suit.D": "Karo", "suit.C": "Kreuz",
  "card.name": "{suit} {rank}",
  "card.joker": "Joker",
  "card.back": "verdeckte Karte",
  "card.none": "keine Karte",
};

// The presets in plain words (the engine's descriptions are English one-liners).
const PRESETS = {
  en: {
    "six-card": "The classic: six cards in two rows of three, turn two up, equal cards in a column score zero, nine holes.",
    "six-card-knock": "Six-card Golf where a hole ends only when someone knocks; everyone else then has one more turn.",
    "four-card": "Four cards in a square, two turned up; knock to end the hole. For three to seven players.",
    "four-card-wild": "Four cards, look at two in secret; any pair scores zero and jokers are wild. Play goes on until everyone is face up.",
    "nine-card": "Nine cards in a square of three by three; a column of three equal cards scores zero; ends after nine holes or when a total passes 50.",
    "german": "German Golf: look at two of your six cards in secret, no flip after a discard; play until someone reaches 100 points, ties are played off.",
  },
  de: {
    "six-card": "Der Klassiker: sechs Karten in zwei Reihen zu drei, zwei aufdecken, gleiche Karten in einer Spalte zählen null, neun Runden.",
    "six-card-knock": "Sechs-Karten-Golf, bei dem eine Runde nur endet, wenn jemand klopft; dann haben alle anderen noch einen Zug.",
    "four-card": "Vier Karten im Quadrat, zwei aufgedeckt; wer klopft, beendet die Runde. Für drei bis sieben Spieler.",
    "four-card-wild": "Vier Karten, zwei heimlich anschauen; jedes Paar zählt null, Joker sind wild. Gespielt wird, bis alle Karten offen liegen.",
    "nine-card": "Neun Karten im Quadrat drei mal drei; eine Spalte aus drei gleichen Karten zählt null; Ende nach neun Runden oder wenn jemand über 50 Punkte kommt.",
    "german": "Golf nach deutscher Art: zwei der sechs Karten heimlich anschauen, kein Aufdecken nach dem Ablegen; gespielt wird, bis jemand 100 Punkte erreicht, Gleichstand wird ausgestochen.",
  },
};

const PRESET_NAMES = {
  en: { "six-card": "Six-card Golf", "six-card-knock": "Six-card Golf with knocking",
    "four-card": "Four-card Golf", "four-card-wild": "Four-card Golf, wild jokers",
    "nine-card": "Nine-card Golf", "german": "German Golf" },
  de: { "six-card": "Sechs-Karten-Golf", "six-card-knock": "Sechs-Karten-Golf mit Klopfen",
    "four-card": "Vier-Karten-Golf", "four-card-wild": "Vier-Karten-Golf, wilde Joker",
    "nine-card": "Neun-Karten-Golf", "german": "Golf nach deutscher Art" },
};

// Kept as its own block, merged into EN and DE below, so that it stays apart from the
// lobby's strings.
const NARRATION = {
  en: {
    "ev.peek.youUnseen": "You looked at position {n}.",
    "ev.reshuffle": "The discard pile was shuffled into a new stock of {size} cards.",
    "ev.finalTurns": "Last turns: one more turn for {names}.",
    "ev.playoffOver": "Playoff hole {n} is over.",
    "ev.playoff": "A tie: {names} play a playoff hole ({n}).",
    "ev.holeStart": "Hole {n} begins; {name} deals.",
    "ev.matchWon": "The match is over: {names} won.",
    "away.title": "While you were away",
    "away.none": "Nothing happened while you were away.",
    "away.close": "Back to the table",
    "ev.by.stand_in.you": "(a bot played for you)",
    // Every sentence that can name the reader has its own wording: never "You deals".
    "ev.holeStart.you": "Hole {n} begins; you deal.",
    "ev.finalTurns.you": "Last turns: one more turn for you.",
    "ev.finalTurns.youAnd": "Last turns: one more turn for you and {names}.",
    "ev.playoff.you": "A tie: you play a playoff hole ({n}).",
    "ev.playoff.youAnd": "A tie: you and {names} play a playoff hole ({n}).",
    "ev.matchWon.you": "The match is over: you won.",
    "ev.matchWon.youAnd": "The match is over: you and {names} won.",
    "match.share.youAnd": "You and {names} share the win!",
    "timer.turnLabel.you": "Time left for you: {s} seconds",
    "timer.absence.you": "You are away: {s} s",
    "card.the.m": "the", "card.the.f": "the", "card.the.n": "the",
    "title.quick": "Quick play · {preset}",
  },
  de: {
    "ev.peek.youUnseen": "Du hast dir Platz {n} angeschaut.",
    "ev.reshuffle": "Die Ablage wurde zu einem neuen Stapel mit {size} Karten gemischt.",
    "ev.finalTurns": "Letzte Züge: noch ein Zug für {names}.",
    "ev.playoffOver": "Die Stichrunde {n} ist vorbei.",
    "ev.playoff": "Gleichstand: {names} spielen eine Stichrunde ({n}).",
    "ev.holeStart": "Runde {n} beginnt; {name} gibt.",
    "ev.matchWon": "Die Partie ist vorbei. Gewonnen: {names}.",
    "away.title": "Während du weg warst",
    "away.none": "Während du weg warst, ist nichts passiert.",
    "away.close": "Zurück zum Tisch",
    "ev.by.stand_in.you": "(ein Bot hat für dich gespielt)",
    "ev.holeStart.you": "Runde {n} beginnt; du gibst.",
    "ev.finalTurns.you": "Letzte Züge: noch ein Zug für dich.",
    "ev.finalTurns.youAnd": "Letzte Züge: noch ein Zug für dich und {names}.",
    "ev.playoff.you": "Gleichstand: Du spielst eine Stichrunde ({n}).",
    "ev.playoff.youAnd": "Gleichstand: Du spielst mit {names} eine Stichrunde ({n}).",
    "ev.matchWon.you": "Die Partie ist vorbei. Du hast gewonnen.",
    "ev.matchWon.youAnd": "Die Partie ist vorbei. Du und {names} habt gewonnen.",
    "match.share.youAnd": "Du teilst dir den Sieg mit {names}!",
    "timer.turnLabel.you": "Deine Restzeit: {s} Sekunden",
    "timer.absence.you": "Du bist weg: {s} s",
    // The accusative article of a card: der Bube, König, Joker; die Dame and the numbers
    // (die 7); das Ass.
    "card.the.m": "den", "card.the.f": "die", "card.the.n": "das",
    "title.quick": "Schnellspiel · {preset}",
  },
};
Object.assign(EN, NARRATION.en);
Object.assign(DE, NARRATION.de);

const TABLES = { en: EN, de: DE };
const listeners = new Set();
let current = pickLanguage();

function pickLanguage() {
  const saved = localStorage.getItem("golf.lang");
  if (saved && TABLES[saved]) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (TABLES[base]) return base;
  }
  return "en";
}

/**
 * Add a feature's own strings (a module under js/strings/). Every key must come in both
 * languages: a key missing from either is an error at load time, not an English word in
 * the German page. A key already defined is refused too, so that each string is written once.
 */
export function extendStrings(en, de) {
  const keys = new Set([...Object.keys(en), ...Object.keys(de)]);
  for (const key of keys) {
    if (!(key in en) || !(key in de)) throw new Error(`string ${key} needs English and German`);
    if (key in EN) throw new Error(`string ${key} is defined twice`);
  }
  Object.assign(EN, en);
  Object.assign(DE, de);
}

export function lang() {
  return current;
}

export function setLang(code) {
  if (!TABLES[code] || code === current) return;
  current = code;
  localStorage.setItem("golf.lang", code);
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

// Right-to-left letters (Hebrew, Arabic, Syriac, Thaana, N'Ko... and their presentation
// forms) and the bidirectional controls themselves.
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/**
 * Text a person wrote (a name, a table's title, a chat line) as it goes into the page's own
 * text: when it holds right-to-left letters, wrapped in FIRST STRONG ISOLATE ... POP
 * DIRECTIONAL ISOLATE (U+2068 ... U+2069, plain text's <bdi>), so that it is laid out on
 * its own and cannot reorder the sentence around it ("Bob: 5" stays "Bob: 5" for a
 * Hebrew name). Left-to-right text, and text whose right-to-left parts are isolated already,
 * stays exactly as it is. The server drops the bidirectional controls themselves
 * (docs/protocol.md, the `name` of POST /api/tables and `chat`).
 */
export function isolate(text) {
  const s = String(text ?? "");
  // What is isolated already (a name inside "{name} ({points})") does not count.
  let bare = s;
  for (let before = ""; bare !== before;) {
    before = bare;
    bare = bare.replace(/\u2068[^\u2068\u2069]*\u2069/g, "");
  }
  return RTL.test(bare) ? `\u2068${s}\u2069` : s;
}

/**
 * text with its {placeholders} filled from params (unknown ones are left as they are); each
 * value isolated (a name written right to left cannot reorder the sentence).
 */
export function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, key) => (key in params ? isolate(params[key]) : m));
}

/** The string for key in the current language, with {placeholders} filled in. */
export function t(key, params) {
  const text = TABLES[current][key] ?? EN[key];
  if (text === undefined) return key;
  return fill(text, params);
}

/** A preset's display name ("Six-card Golf"); unknown presets keep their own name. */
export function presetName(name) {
  return PRESET_NAMES[current][name] || name;
}

export function presetText(name, fallback) {
  return PRESETS[current][name] || fallback || name;
}

/** A rank's spoken name: "jack", "Bube", "7"; "JK" is the joker. */
export function rankName(code) {
  if (code === "JK") return t("card.joker");
  return ["A", "J", "Q", "K"].includes(code) ? t(`rank.${code}`) : code;
}

/** A card's spoken name: "7 of clubs", "Kreuz 7"; null is a face-down card. */
export function cardName(card) {
  if (card === null || card === undefined) return t("card.back");
  if (card === "JK") return rankName(card);
  return t("card.name", { rank: rankName(card.slice(0, -1)), suit: t(`suit.${card.slice(-1)}`) });
}

/** The article a card takes as an object ("den B♣", "die D♥", "das A♠", "die 7♦"; "the"). */
export function cardArticle(card) {
  const rank = card === "JK" ? "JK" : String(card).slice(0, -1);
  const gender = rank === "Q" || /^\d+$/.test(rank) ? "f" : rank === "A" ? "n" : "m";
  return t(`card.the.${gender}`);
}

/**
 * A table's name in the page's language: the names the server gives by default ("Ann's
 * table", "Quick play · Six-card Golf", which names the game as golf.rules.PRESET_TITLES
 * does; before, "Quick play: six-card") are worded here; a name someone typed stays as it is.
 */
export function tableTitle(title) {
  const text = String(title || "");
  const own = text.match(/^(.+)'s table$/);
  if (own) return t("lobby.defaultTitle", { name: own[1] });
  const quick = text.match(/^Quick play · (.+)$/);
  const preset = quick && Object.keys(PRESET_NAMES.en).find((k) => PRESET_NAMES.en[k] === quick[1]);
  if (preset) return t("title.quick", { preset: presetName(preset) });
  const older = text.match(/^Quick play: ([\w-]+)$/);
  if (older) return t("title.quick", { preset: presetName(older[1]) });
  return isolate(text);
}

/**
 * A player's name in the page's language: the names the server gives bots of a level a table
 * seats ("Easy bot", "Easy bot 2": golf.server.core.bridge.bot_label and its numbering) are worded
 * here ("Leichter Bot 2"), as at the table; any other name stays as it is.
 */
export function playerName(name) {
  const text = String(name ?? "");
  const bot = text.match(/^(Easy|Medium|Hard) bot(?: (\d+))?$/);
  if (!bot) return isolate(text);
  const level = t(`lobby.seat.${bot[1].toLowerCase()}`);
  return bot[2] ? `${level} ${bot[2]}` : level;
}

/** A message shown as a sentence: its first letter a capital ("a password needs …" → "A …"). */
export function sentence(text) {
  const s = String(text ?? "");
  // A message that starts with a setting's key ("bot_delay must be …") keeps the key as it is.
  if (!/^\p{Ll}+(?![\w.])/u.test(s)) return s;
  return s[0].toLocaleUpperCase(current) + s.slice(1);
}

/** "Ann", "Ann and Bob", "Ann, Bob and Cy" (each name isolated: see isolate) */
export function joinNames(names) {
  const each = names.map(isolate);
  if (each.length <= 1) return each.join("");
  return each.slice(0, -1).join(", ") + t("match.and") + each[each.length - 1];
}

document.documentElement.lang = current;
