// Sounds (issue 22): short tones for your turn, a draw, a swap, a hole's end and a win,
// synthesised with Web Audio (nothing is downloaded). Off by default on touch screens (pointer:
// coarse: phones and tablets, often played where sound is unwelcome), on elsewhere; the switch
// in the display menu is remembered per browser.

import "./strings/layout.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { pref, setPref } from "./api.js";

const PREF = "sound";

// Each cue: notes of [frequency in Hz, start in s, length in s].
const CUES = {
  turn: [[660, 0, 0.09], [880, 0.1, 0.14]],
  draw: [[440, 0, 0.06]],
  swap: [[560, 0, 0.05], [400, 0.06, 0.08]],
  holeEnd: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.22]],
  win: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.12], [1047, 0.36, 0.36]],
};
const LOUDNESS = 0.16;

function coarsePointer() {
  return window.matchMedia("(pointer: coarse)").matches;
}

/** Whether this browser plays sounds: the remembered switch, else off on touch screens. */
export function soundOn() {
  return pref(PREF, !coarsePointer());
}

let ctx = null;

// Browsers let audio start only after a gesture on the page: the context is made (or woken)
// on the first click or key once sound is on.
function context() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!ctx) ctx = new Ctx();
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

function wake() {
  if (soundOn()) context();
}
document.addEventListener("pointerdown", wake, true);
document.addEventListener("keydown", wake, true);

/** Play a cue now (when sound is on); true when notes were scheduled. */
export function play(cue) {
  const notes = CUES[cue];
  if (!notes || !soundOn()) return false;
  const ac = context();
  if (!ac) return false;
  const start = ac.currentTime + 0.01;
  for (const [freq, at, len] of notes) {
    const osc = ac.createOscillator();
    const gain = ac.createGain();
    osc.type = "triangle";
    osc.frequency.value = freq;
    // A quick rise and an exponential fall: a soft pluck, no click at either end.
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(LOUDNESS, start + at + 0.012);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + len);
    osc.connect(gain).connect(ac.destination);
    osc.start(start + at);
    osc.stop(start + at + len + 0.02);
  }
  return true;
}

/**
 * The cue a new state frame deserves on this page (null: none). One cue per frame, the
 * weightiest: the match's end (a win for the winners), a hole's end, the turn coming to this
 * page's seat, then a swap or a draw by anyone.
 */
export function cueFor(msg, before, mySeat) {
  const facts = (msg.event && msg.event.facts) || [];
  const has = (type) => facts.some((f) => f.type === type);
  if (has("match_end")) {
    const winners = (msg.view && msg.view.winners) || [];
    return winners.includes(mySeat) ? "win" : "holeEnd";
  }
  if (has("hole_end")) return "holeEnd";
  if (msg.your_turn && !(before && before.your_turn)) return "turn";
  if (has("swap")) return "swap";
  if (has("draw")) return "draw";
  return null;
}

/** Play what a new state frame deserves (the table calls this once per frame). */
export function soundFor(msg, before, mySeat) {
  const cue = cueFor(msg, before, mySeat);
  return cue ? play(cue) : false;
}

/** The switch for the display menu. */
export function soundSwitch() {
  const box = h("input#pref-sound", { type: "checkbox", checked: soundOn(),
    onchange: (e) => {
      setPref(PREF, e.target.checked);
      wake();
    } });
  return [h("label.check", {}, box, " ", t("sound.switch")), h("p.help", { text: t("sound.help") })];
}
