// Small DOM helpers. Everything that comes from the server or a player is put into the page
// with textContent or setAttribute, never as HTML.

/** h("button#id.primary", {onclick, "aria-label": "x"}, "text", child) -> element */
export function h(tag, attrs, ...children) {
  const parts = tag.match(/^[a-z0-9]*|[#.][^#.]+/gi) || ["div"];
  const el = document.createElement(parts[0] || "div");
  const classes = [];
  for (const part of parts.slice(1)) {
    if (part[0] === "#") el.id = part.slice(1);
    else classes.push(part.slice(1));
  }
  if (classes.length) el.className = classes.join(" ");
  if (attrs) setAttrs(el, attrs);
  append(el, children);
  return el;
}

export function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = value;
    } else if (key === "text") {
      el.textContent = value;
    } else if (key === "value") {
      el.value = value;
    } else if (key === "checked" || key === "disabled" || key === "selected") {
      el[key] = Boolean(value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export function replace(el, ...children) {
  clear(el);
  return append(el, children);
}

const SVG = "http://www.w3.org/2000/svg";

export function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null) continue;
    el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * Redraws of `el` wait while a pointer is pressed on it: a redraw between the press and
 * the release of a click takes the pressed button out of the page, and the click is lost
 * (the host's "Start" as a player came online; "Pause" in a replay stepping at 8×).
 * `defer(redraw)` says whether to wait: if so, `redraw` runs after the release (and the
 * click it makes), or after `longest` ms at most. `stop()` ends the watching.
 */
export function pressGuard(el, longest = 1500) {
  let pressed = false;
  let owed = null;
  let redraw = null;
  const release = () => {
    if (!pressed) return;
    pressed = false;
    if (owed !== null) {
      clearTimeout(owed);
      owed = null;
      setTimeout(redraw, 0);
    }
  };
  const press = () => { pressed = true; };
  el.addEventListener("pointerdown", press, true);
  window.addEventListener("pointerup", release, true);
  window.addEventListener("pointercancel", release, true);
  return {
    defer(fn) {
      if (!pressed) return false;
      redraw = fn;
      if (owed === null) owed = setTimeout(release, longest);
      return true;
    },
    stop() {
      el.removeEventListener("pointerdown", press, true);
      window.removeEventListener("pointerup", release, true);
      window.removeEventListener("pointercancel", release, true);
      clearTimeout(owed);
      owed = null;
    },
  };
}

export function prefersReducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
