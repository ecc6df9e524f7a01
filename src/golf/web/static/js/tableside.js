// The table's side panel: the scorecard, the move log ("What happened") and the chat. Its
// elements are kept across renders, so that what is typed in the chat box and the focus
// survive each new frame; each part is drawn again from the page's state (js/tablestate.js).

import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./narrate.js";
import { scorecardEl } from "./holeend.js";
import { LOG_SIZE, seated } from "./tablestate.js";
import "./strings/table.js";
import "./strings/holeend.js";
import "./strings/tablebits.js";

/** The panel; onSend(text) sends a chat line and says whether it went out (the box then empties). */
export function sidePanel({ onSend }) {
  const el = h("aside.side-panels");
  const logList = h("ol.log", { "aria-label": t("log.title") });
  const chatList = h("ol.chat-list", { "aria-label": t("chat.title") });
  const chatInput = h("input#chat-input", { type: "text", maxlength: 300, autocomplete: "off" });
  const chatForm = h("form.chat-form", { onsubmit: (e) => {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    if (onSend(text)) chatInput.value = "";
  } });
  const scoreBox = h("div.score-box");

  function renderLog(S) {
    replace(logList, S.log.slice(0, LOG_SIZE).map((line) => h("li", { text: line })));
  }

  function renderChat(S) {
    if (!S.chat.length) {
      replace(chatList, h("li.muted", { text: t("chat.empty") }));
    } else {
      // The name and the line each in a <bdi>: laid out on its own, in its own direction, so
      // that neither can reorder the other (docs/protocol.md, "chat").
      replace(chatList, S.chat.slice(-100).map((m) => h("li", {},
        h("strong", {}, h("bdi", { text: m.name || seatName(S.table, m.seat, S.seat) })), ": ",
        h("bdi.chat-text", { text: m.text }))));
      chatList.scrollTop = chatList.scrollHeight;
    }
  }

  const chatLabel = h("label.sr-only", { for: "chat-input" });
  const chatSend = h("button.primary.small", { type: "submit" });
  const chatNote = h("p.muted.chat-note");
  // Whether the form holds the box or the spectators' sentence: it is built again only when
  // that changes. Taking the box out of the page, even to put it straight back, takes the
  // focus from it, and what is typed next goes nowhere (every frame renders).
  let formSeated = null;

  function render(S) {
    chatInput.placeholder = t("chat.placeholder");
    chatLabel.textContent = t("chat.field");
    chatSend.textContent = t("chat.send");
    chatNote.textContent = t("chat.spectators");
    const mayWrite = seated(S);
    if (mayWrite !== formSeated) {
      formSeated = mayWrite;
      // Spectators read the chat: no disabled box, a sentence saying why they cannot write.
      if (mayWrite) replace(chatForm, chatLabel, chatInput, chatSend);
      else replace(chatForm, chatNote);
    }
    if (S.state && S.table) replace(scoreBox, scorecardEl(S.state.view, S.table, S.seat));
    else replace(scoreBox);
    if (!el.firstChild) {
      replace(el,
        h("section.panel.score-panel", { "aria-labelledby": "score-title" },
          h("h2#score-title", { text: t("score.title") }), scoreBox),
        h("section.panel.log-panel", { "aria-labelledby": "log-title" },
          h("h2#log-title", { text: t("log.title") }), logList),
        h("section.panel.chat-panel", { "aria-labelledby": "chat-title" },
          h("h2#chat-title", { text: t("chat.title") }), chatList, chatForm));
      renderChat(S);
    }
    el.hidden = !S.table;
    // Before the first match there is nothing to score or tell yet: only the chat.
    const playing = Boolean(S.state) && !(S.table && S.table.status === "waiting" && S.state.view.is_over);
    for (const panel of el.querySelectorAll(".score-panel, .log-panel")) panel.hidden = !playing;
  }

  return {
    el, render, renderLog, renderChat,
    /** Emptied: the next render builds the panels again, in the page's language. */
    clear() {
      replace(el);
    },
    /** The lists' names in the page's language, after a switch. */
    relabel() {
      logList.setAttribute("aria-label", t("log.title"));
      chatList.setAttribute("aria-label", t("chat.title"));
    },
  };
}
