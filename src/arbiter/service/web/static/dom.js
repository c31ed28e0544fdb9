// What every script of the pages shares: finding an element by its id, and making one with
// its text and class. Loaded before the page's own scripts, which take these two names from
// `arbiterDom` (a text is always set as text, never as HTML).
"use strict";

const arbiterDom = Object.freeze({
  $: (id) => document.getElementById(id),

  element(tag, text, cls) {
    const node = document.createElement(tag);
    if (text != null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  },
});
