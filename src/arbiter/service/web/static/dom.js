// What every script of the pages shares: finding an element by its id, making one with its
// text and class, saying something in a status line, asking the API, keeping the receipts
// of the changes made, and the page's language: `t("English text", {name: value})` says a
// message in it (the page hands its scripts their translations, from the one catalogue of
// the pages, in the JSON block #arbiter-words; a message it does not translate is said as
// written, as in English), and `number` writes a number for it. Loaded before the page's
// own scripts, which take these names from `arbiterDom` (a text is always set as text,
// never as HTML).
"use strict";

const arbiterDom = (() => {
  const WRITES = ["POST", "PUT", "PATCH", "DELETE"];
  const lang = document.documentElement.lang || "en";
  const given = (() => {
    const block = document.getElementById("arbiter-words");
    try {
      return JSON.parse(block ? block.textContent : "{}") || {};
    } catch (err) {
      return {};
    }
  })();
  const table = (name) => given[name] || {};
  const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

  function t(message, values) {
    const said = own(table("messages"), message) ? table("messages")[message] : message;
    if (!values) return said;
    return said.replace(/%\((\w+)\)s/g, (whole, name) => (own(values, name) ? String(values[name]) : whole));
  }

  const numbers = new Intl.NumberFormat(lang);
  const number = (value) => (typeof value === "number" ? numbers.format(value) : String(value ?? ""));

  // An error the API answered, as the page says it: in English its message; in another
  // language what its code means (the field it names beside it).
  function errorText(error, codes) {
    if (!error) return "";
    const meaning = codes || table("codes");
    if (lang === "en" || !own(meaning, error.code)) return error.message || error.code || "";
    const field = error.field || error.parameter;
    return field ? t("%(error)s (%(field)s)", { error: meaning[error.code], field })
      : meaning[error.code];
  }

  // A record's error where it stands (a report's, spec/report.md).
  function recordError(error) {
    if (!error) return t("invalid");
    if (lang === "en" || !own(table("recordCodes"), error.code)) {
      const where = error.ply ? " at ply " + error.ply
        : error.line ? " (line " + error.line + ", column " + error.column + ")" : "";
      return error.code + where + ": " + error.message;
    }
    const said = table("recordCodes")[error.code];
    if (error.ply) return t("%(error)s, at ply %(ply)s", { error: said, ply: error.ply });
    if (error.line) {
      return t("%(error)s (line %(line)s, column %(column)s)",
               { error: said, line: error.line, column: error.column });
    }
    return said;
  }

  // A game's colour, a termination, a tie-break's name and explanation, as the page says them.
  const colour = (name) => (own(table("colours"), name) ? table("colours")[name] : name);
  const termination = (word) => (own(table("terminations"), word) ? table("terminations")[word] : word);
  const tiebreak = (name) => (own(table("tiebreaks"), name) ? table("tiebreaks")[name] : null);
  const exclusion = (reason) => (own(table("exclusions"), reason) ? table("exclusions")[reason] : null);

  // A key of this change alone (the Idempotency-Key header): 128 random bits. The same
  // request sent again with it is answered as the first time and written once.
  function newKey() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // The receipts of the changes this browser made to an event, kept in its localStorage
  // (a receipt is no secret: it proves what the server answered), newest last.
  const receiptsKey = (event) => "arbiter-receipts:" + event;

  function receipts(event) {
    try {
      const kept = JSON.parse(localStorage.getItem(receiptsKey(event)) || "[]");
      return Array.isArray(kept) ? kept : [];
    } catch (err) {
      return [];
    }
  }

  function keepReceipt(receipt, method, path) {
    if (!receipt || !receipt.event) return;
    const kept = receipts(receipt.event);
    if (kept.some((one) => one.receipt.entry === receipt.entry
                           && one.receipt.hash === receipt.hash)) return;  // the same answer
    kept.push({ receipt, what: method + " " + path.replace(/^\/api\/v1\/events\/[^/]+/, ""),
                kept_at: new Date().toISOString() });
    try {
      localStorage.setItem(receiptsKey(receipt.event), JSON.stringify(kept));
    } catch (err) {
      return;  // a full or refused storage: the change is made all the same
    }
    document.dispatchEvent(new CustomEvent("arbiter:receipt", { detail: receipt }));
  }

  return Object.freeze({
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
    // bearer token when one is given; a change goes with an Idempotency-Key of its own, and
    // its receipt is kept. The answer is {ok, status, data}, and a server that does not
    // answer is {ok: false, status: 0} with a message, never an exception.
    async request(method, path, body, token) {
      const headers = {};
      if (token) headers.Authorization = "Bearer " + token;
      if (WRITES.includes(method)) headers["Idempotency-Key"] = newKey();
      if (body !== undefined && !(body instanceof FormData)) {
        headers["Content-Type"] = "application/json";
        body = JSON.stringify(body);
      }
      let response;
      try {
        response = await fetch(path, { method, body, headers });
      } catch (err) {
        return { ok: false, status: 0,
                 data: { error: { code: "", message: t("the server did not answer") } } };
      }
      const data = (response.headers.get("Content-Type") || "").startsWith("application/json")
        ? await response.json() : {};
      if (response.ok && WRITES.includes(method) && data && data.receipt) {
        keepReceipt(data.receipt, method, path);
      }
      return { ok: response.ok, status: response.status, data };
    },

    // Run `work` with `control` (a button, or a form's buttons) disabled until it is done:
    // a click or a second submit while a request is on its way does nothing. Answers what
    // `work` answers, or undefined when the control was busy already.
    async busy(control, work) {
      const buttons = !control ? []
        : control.tagName === "FORM" ? Array.from(control.querySelectorAll("button"))
          : [control];
      if (control && control.dataset.busy === "yes") return undefined;
      if (control) control.dataset.busy = "yes";
      for (const button of buttons) button.disabled = true;
      try {
        return await work();
      } finally {
        if (control) delete control.dataset.busy;
        for (const button of buttons) button.disabled = false;
      }
    },

    receipts,

    lang, t, number, errorText, recordError, colour, termination, tiebreak, exclusion,

    // Why the API refused a request, for a person.
    refused(answer) {
      return t("Refused (%(status)s): %(error)s",
               { status: answer.status, error: errorText(answer.data.error) });
    },
  });
})();
