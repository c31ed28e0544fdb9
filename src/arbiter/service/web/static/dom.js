// What every script of the pages shares: finding an element by its id, making one with its
// text and class, saying something in a status line, and asking the API. Loaded before the
// page's own scripts, which take these names from `arbiterDom` (a text is always set as text,
// never as HTML).
"use strict";

const arbiterDom = Object.freeze({
  $: (id) => document.getElementById(id),

  element(tag, text, cls) {
    const node = document.createElement(tag);
    if (text != null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  },

  // A status line: its text, marked as a warning when `bad` (none on a page without that
  // line, such as a finalised event's desk).
  say(id, text, bad) {
    const note = document.getElementById(id);
    if (!note) return;
    note.textContent = text;
    note.className = bad ? "warning" : (text ? "notice" : "");
  },

  // Ask the API: `body` is sent as JSON (or as it is, for a FormData), with the token as a
  // bearer token when one is given; the answer is {ok, status, data}, and a server that does
  // not answer is {ok: false, status: 0} with a message, never an exception.
  async request(method, path, body, token) {
    const headers = {};
    if (token) headers.Authorization = "Bearer " + token;
    if (body !== undefined && !(body instanceof FormData)) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, { method, body, headers });
    } catch (err) {
      return { ok: false, status: 0, data: { error: { message: "the server did not answer" } } };
    }
    const data = (response.headers.get("Content-Type") || "").startsWith("application/json")
      ? await response.json() : {};
    return { ok: response.ok, status: response.status, data };
  },

  // Why the API refused a request, for a person.
  refused(answer) {
    return "Refused (" + answer.status + "): " + answer.data.error.message;
  },
});
