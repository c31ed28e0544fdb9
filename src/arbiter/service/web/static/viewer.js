// The page's record viewer (spec/api.md section 3.6, spec/diagrams.md).
//
// For the record shown it asks POST /api/v1/positions?record=K&svg=true&control=true once,
// then steps through every ply without asking again. Beside a refused move it offers the
// report's repair suggestions, each with a button that asks for the same record replayed as
// a corrected copy (apply=PLY:MOVE): that copy is shown, labelled as such, until "Back to the
// uploaded record"; nothing sent is changed. The server sends the parts of the
// pictures (the board once, each kind of square's drawing once, and per ply its title, the
// tint and marks of the moves); each ply's picture is put together here in the same order
// as arbiter.diagram.viewer_parts describes, so that it is the picture that
// POST /api/v1/diagram draws for that ply (a browser test compares the two).
"use strict";

const arbiterViewer = (() => {
  const { $, t, lang, colour, termination, recordError } = arbiterDom;
  const state = {
    record: null, ply: 0, sent: null, svg: "", buttons: [], lines: [],
    original: null, index: 0, corrections: [],
  };
  const MOST_SUGGESTIONS = 3;  // as arbiter validate: past three, a person would rather look

  // A finished game (samples/pilo/valid/02-blitz-6x6.grn), for the "Load an example" button.
  const example = [
    '[Game "Pilo"]', '[Size "6"]', '[Event "Friday blitz"]', '[Date "2026.10.16"]',
    '[Round "5"]', '[Blue "player-21"]', '[Orange "player-04"]', '[Result "Blue+5"]', "",
    "1. e1 b3 2. f6 b2 3. e2 c2 4. e3 c3 5. d3 b1 6. d1 d2 7. f1 a2 8. e4 f4 9. b4",
    "f3 10. e5 c4 11. b5 c1 12. f2 f5 13. a4 a1 14. d4 c5 15. d5 b1xd1 16. d3xf3 b6",
    "17. e6 c6 18. d6 a6 19. b5xc5 f4xe4 20. b4xc4 a5 21. a4xa2 c6xd6 22. a3 f5xe5",
    "23. a3xa1 d2xe2 24. c5xe5 c1xe1 25. c4xe4 pass 26. pass Blue+5", "",
  ].join("\n");

  // --- putting a picture together ---------------------------------------------------------

  function cells(position, size) {
    // The position notation: ranks from the top down, "/" between ranks, "," between
    // squares, a number for that many empty squares. Returns rank 1 first, file a first.
    const ranks = position.split("/").map((rank) => {
      const row = [];
      for (const square of rank.split(",")) {
        if (/^[0-9]+$/.test(square)) for (let i = 0; i < Number(square); i++) row.push("");
        else row.push(square);
      }
      return row;
    });
    ranks.reverse();
    return ranks.flat().slice(0, size * size);
  }

  const escapeXml = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

  function compose(record, frame, control) {
    const sheet = record.svg;
    const size = record.size;
    const place = (index, fragment) => {
      const x = sheet.left + (index % size) * sheet.unit + sheet.unit / 2;
      const y = sheet.top + (size - 1 - Math.floor(index / size)) * sheet.unit + sheet.unit / 2;
      return '<g transform="translate(' + x + " " + y + ')">' + fragment + "</g>";
    };
    // The title a screen reader says: the caption, in the page's language.
    const title = lang === "en" ? frame.svg.title
      : "<title>" + escapeXml(caption(record, frame).join(" — ")) + "</title>";
    const parts = [sheet.open, title, sheet.board, frame.svg.tint];
    if (control && frame.control) {
      for (let i = 0; i < frame.control.length; i++) {
        const owner = frame.control[i];
        if (owner !== "-") parts.push(place(i, sheet.control[Number(owner)]));
      }
    }
    cells(frame.position, size).forEach((square, i) => {
      if (square) parts.push(place(i, sheet.pieces[square]));
    });
    parts.push(frame.svg.marks, sheet.close);
    return parts.join("");
  }

  // --- loading a record -------------------------------------------------------------------

  async function open(sent, index, options) {
    state.sent = sent;
    state.index = index;
    state.corrections = [];
    const viewer = $("viewer");
    viewer.hidden = false;
    $("v-title").textContent = t("Loading %(what)s…",
                                 { what: sent.title || t("record %(record)s", { record: index + 1 }) });
    let record;
    try {
      record = await positions(index, []);
    } catch (err) {
      $("v-title").textContent = failure(err, t("Cannot show record %(record)s", { record: index + 1 }));
      return;
    }
    state.record = state.original = record;
    showRecord();
    if (!options || options.scroll !== false) viewer.scrollIntoView({ block: "start" });
  }

  // The positions of record `index` of what was sent, with the corrections applied (each
  // PLY:MOVE, and where the move stands); throws the API's error message if refused.
  async function positions(index, corrections) {
    let path = "/api/v1/positions?svg=true&control=true&record=" + index;
    for (const correction of corrections) path += "&apply=" + encodeURIComponent(correction);
    const sent = state.sent;
    const response = await fetch(path, { method: "POST", body: sent.body, headers: sent.headers });
    const data = await response.json();
    if (!response.ok) throw new Refused(arbiterDom.errorText(data.error));
    return data.records[0];
  }

  class Refused extends Error {}

  function failure(err, what) {
    return err instanceof Refused ? what + ": " + err.message
      : t("The server did not answer: %(error)s", { error: err });
  }

  // --- repair suggestions and corrected copies -------------------------------------------

  function suggestionText(s, claimed) {
    // The words of arbiter validate (service/core/suggestions.py): the move, what is written,
    // the slip, and what the correction achieves. `claimed` undefined: the claim is unknown.
    let written = typeof s.written === "string" ? t("written %(move)s", { move: shown(s.written) }) : "";
    if (typeof s.slip === "string" && s.slip) {
      written = written ? written + ": " + (SLIPS[s.slip] || shown(s.slip)) : (SLIPS[s.slip] || shown(s.slip));
    }
    return t("ply %(ply)s %(move)s (%(why)s)", { ply: s.ply, move: shown(s.move),
                                                 why: (written ? written + "; " : "") + outcome(s, claimed) });
  }

  // The slips of the suggestions (arbiter.adjudicator.hints), said in the page's language.
  const SLIPS = {
    "a character doubled": t("a character doubled"),
    "a character dropped": t("a character dropped"),
    "a character too many": t("a character too many"),
    "a direction doubled": t("a direction doubled"),
    "a direction dropped": t("a direction dropped"),
    "a direction miswritten": t("a direction miswritten"),
    "a direction reversed": t("a direction reversed"),
    "a look-alike character": t("a look-alike character"),
    "a neighbouring key": t("a neighbouring key"),
    "file off by one": t("file off by one"),
    "file off by two": t("file off by two"),
    "rank off by one": t("rank off by one"),
    "rank off by two": t("rank off by two"),
    "the directions reversed": t("the directions reversed"),
    "the two squares swapped": t("the two squares swapped"),
    "two characters swapped": t("two characters swapped"),
    "two directions swapped": t("two directions swapped"),
    "two squares swapped": t("two squares swapped"),
  };

  function outcome(s, claimed) {
    if (s.replays !== true) return t("then that ply is legal");
    if (typeof s.result !== "string") return t("then every move is legal");
    const result = shown(s.result);
    if (s.claimed === true) return t("then the game replays to %(result)s, as claimed", { result });
    if (claimed === undefined) return t("then the game replays to %(result)s, not the claimed result", { result });
    return claimed && claimed !== "*"
      ? t("then the game replays to %(result)s, not the claimed %(claimed)s", { result, claimed: shown(claimed) })
      : t("then the game replays to %(result)s", { result });
  }

  function shown(text) {
    // What was typed, with the characters no one can see (control characters) as escapes,
    // as arbiter validate prints them. It is put in the page as text, never as HTML.
    const named = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
    return String(text).replace(/[\u0000-\u001f\u007f-\u009f]/g,
      (c) => named[c] || "\\x" + c.charCodeAt(0).toString(16).padStart(2, "0"));
  }

  function suggestionsOf(error) {
    const found = error && Array.isArray(error.suggestions) ? error.suggestions : [];
    return found.filter((s) => s && Number.isInteger(s.ply) && typeof s.move === "string");
  }

  function correctionOf(s) {
    // PLY:MOVE, and where the move stands, for a record that cannot be read.
    const where = Number.isInteger(s.line) && Number.isInteger(s.column)
      ? "@" + s.line + ":" + s.column
      : typeof s.pointer === "string" ? "@" + s.pointer : "";
    return s.ply + ":" + s.move + where;
  }

  function suggestionList(report) {
    const list = $("v-suggestion-list");
    list.replaceChildren();
    const found = suggestionsOf(report.errors[0]).slice(0, MOST_SUGGESTIONS);
    $("v-suggestions").hidden = found.length === 0;
    found.forEach((s, i) => {
      const item = document.createElement("li");
      const text = document.createElement("span");
      text.id = "v-suggestion-" + i;
      text.textContent = suggestionText(s, report.claimed_result);
      const button = document.createElement("button");
      button.type = "button";
      button.className = "v-apply";
      button.textContent = t("Show with this correction");
      button.setAttribute("aria-describedby", text.id);
      button.addEventListener("click", () => showCorrected(s));
      item.append(text, button);
      list.appendChild(item);
    });
  }

  async function showCorrected(suggestion) {
    // A suggestion of a corrected copy corrects that copy further: the corrections chain.
    const corrections = state.corrections.concat([correctionOf(suggestion)]);
    let record;
    try {
      record = await positions(state.index, corrections);
    } catch (err) {
      $("v-corrected").hidden = false;
      $("v-corrected-text").textContent = failure(err, t("Cannot show this correction"));
      return;
    }
    state.corrections = corrections;
    state.record = record;
    showRecord();
    $("v-back").focus();
  }

  function back() {
    state.corrections = [];
    state.record = state.original;
    showRecord();
  }

  function correctedNote(record) {
    const changes = (record.corrections || []).map(
      (c) => t("ply %(ply)s %(move)s instead of %(written)s", { ply: c.ply, move: c.move, written: c.written }));
    $("v-corrected").hidden = changes.length === 0;
    $("v-corrected-text").textContent = changes.length
      ? t("A corrected copy, not the uploaded record: %(changes)s. The uploaded record is unchanged.",
          { changes: changes.join(", ") })
      : "";
  }

  function close() {
    $("viewer").hidden = true;
    state.record = null;
  }

  function showRecord() {
    const record = state.record;
    const report = record.report;
    const number = record.index + 1;  // people count records from 1 (JSON from 0)
    const where = record.file ? t("%(file)s, record %(record)s", { file: record.file, record: number })
      : t("record %(record)s", { record: number });
    const board = record.game ? record.game + " " + record.size + "×" + record.size : "";
    // A game of an event is named as people name it: its round, board and players.
    const named = state.sent.title;
    const what = named ? named + (board ? " — " + board : " — " + t("unreadable record"))
      : board ? board + " — " + where : "";
    $("v-title").textContent = !what ? t("Unreadable record — %(where)s", { where })
      : record.corrections ? t("Corrected copy of %(what)s", { what }) : what;
    correctedNote(record);
    resultTable(report);
    const error = report.errors[0];
    $("v-error").hidden = !error;
    $("v-error").textContent = !error ? ""
      : lang !== "en" ? recordError(error)
        : (error.code + (error.ply ? " at ply " + error.ply : "")
           + (error.line ? " (line " + error.line + ", column " + error.column + ")" : "")
           + ": " + error.message);
    suggestionList(report);
    moveList(record);
    sourceView(record, error);
    const last = Math.max(record.frames.length - 1, 0);
    $("v-slider").max = String(last);
    $("v-control-label").hidden = !record.frames.some((f) => f.control);
    const controls = ["v-first", "v-prev", "v-next", "v-last", "v-slider"];
    for (const id of controls) $(id).disabled = record.frames.length === 0;
    if (record.frames.length) go(last);
    else {
      $("v-board").replaceChildren();
      $("v-caption").textContent = t("This record cannot be replayed.");
      $("v-ply").textContent = "";
    }
  }

  function resultTable(report) {
    const table = $("v-result");
    table.replaceChildren();
    const head = table.insertRow();
    for (const text of ["", t("claimed"), t("official")]) {
      const th = document.createElement("th");
      th.textContent = text;
      head.appendChild(th);
    }
    const row = (label, claimed, official, cls) => {
      const tr = table.insertRow();
      const th = document.createElement("th");
      th.textContent = label;
      tr.appendChild(th);
      for (const text of [claimed, official]) tr.insertCell().textContent = text;
      if (cls) {
        tr.className = cls;
        const said = cls === "ok" ? t("✓ claim holds") : t("✗ claim contradicted");
        tr.lastChild.appendChild(arbiterDom.element("span", said, "v-claim"));
      }
    };
    const claim = report.claimed_result == null ? "—" : report.claimed_result;
    const verdict = report.claim_ok === false ? "bad" : report.claim_ok ? "ok" : "";
    row(t("Result"), claim, report.result, verdict);
    const winner = report.winner
      ? colour(report.winner) + (report.winner_player ? " (" + report.winner_player + ")" : "") : "—";
    row(t("Winner"), "", winner);
    if (report.scores) {
      row(t("Scores"), "", Object.entries(report.scores).map(([c, s]) => colour(c) + " " + s).join(" · "));
    }
    row(t("Tie-break"), "", report.tiebreak ? tiebreakWords(report.tiebreak) : "—");
    if (report.termination) row(t("Ended by"), "", termination(report.termination));
    const players = Object.entries(report.players || {}).map(([c, p]) => colour(c) + ": " + p).join(", ");
    if (players) row(t("Players"), "", players + (report.swapped ? " " + t("(colours swapped)") : ""));
  }

  function moveList(record) {
    const list = $("v-moves");
    list.replaceChildren();
    state.buttons = [];
    const reached = record.frames.length - 1;
    const corrected = new Map((record.corrections || []).map((c) => [c.ply, c]));
    let item = null;
    for (const move of record.moves) {
      if (move.ply % 2 === 1 || item === null) {
        item = document.createElement("li");
        item.value = move.number;
        list.appendChild(item);
      }
      const button = document.createElement("button");
      button.type = "button";
      button.className = "v-move";
      button.dataset.ply = String(move.ply);
      button.textContent = move.move;
      if (corrected.has(move.ply)) {
        button.classList.add("corrected");
        button.title = t("corrected: %(written)s was written", { written: corrected.get(move.ply).written });
      }
      if (move.ply === record.refused_ply) {
        button.classList.add("refused");
        button.title = t("refused: %(error)s", { error: lang === "en" ? record.report.errors[0].message
                                                                  : recordError(record.report.errors[0]) });
      } else if (move.ply > reached) {
        button.classList.add("unplayed");
        button.disabled = true;
        button.title = t("not replayed: an earlier move was refused");
      }
      button.addEventListener("click", () => go(move.ply));
      item.appendChild(button);
      state.buttons[move.ply] = button;
    }
  }

  function sourceView(record, error) {
    const source = $("v-source");
    source.replaceChildren();
    state.lines = [];
    const text = state.sent.texts[record.file || ""];
    $("v-source-title").hidden = source.hidden = text == null;
    $("v-source-title").textContent = record.corrections
      ? t("Source as uploaded (without the correction)") : t("Source");
    if (text == null) return;
    const lines = text.split(/\r\n|\r|\n/);
    lines.forEach((line, i) => {
      const span = document.createElement("span");
      span.className = "v-line";
      span.dataset.line = String(i + 1);
      span.textContent = String(i + 1).padStart(4) + "  " + line + "\n";
      if (error && error.line === i + 1) span.classList.add("error-line");
      source.appendChild(span);
      state.lines[i + 1] = span;
    });
  }

  // --- stepping ---------------------------------------------------------------------------

  function go(ply) {
    const record = state.record;
    if (!record || !record.frames.length) return;
    ply = Math.max(0, Math.min(ply, record.frames.length - 1));
    state.ply = ply;
    const frame = record.frames[ply];
    state.svg = compose(record, frame, $("v-control").checked);
    const board = $("v-board");
    board.innerHTML = state.svg;
    board.dataset.ply = String(ply);
    board.dataset.refused = String(frame.refused);
    $("v-caption").textContent = caption(record, frame).join(" — ");
    $("v-caption").classList.toggle("refused", frame.refused);
    $("v-slider").value = String(ply);
    $("v-ply").textContent = t("ply %(ply)s of %(plies)s", { ply, plies: record.frames.length - 1 });
    // Only the previous and the new current move and source line change: a step stays
    // cheap however long the record is.
    for (const old of document.querySelectorAll("#v-moves .current, #v-source .move-line")) {
      old.classList.remove("current", "move-line");
      old.removeAttribute("aria-current");
    }
    const button = state.buttons[ply];
    if (button) {
      button.classList.add("current");
      button.setAttribute("aria-current", "step");
      keepInView($("v-moves"), button);
    }
    const move = record.moves[ply - 1];
    const line = move && state.lines[move.line];
    if (line) line.classList.add("move-line");
  }

  function step(delta) { go(state.ply + delta); }

  // What the diagram shows, in two lines (arbiter.diagram's caption): the server's in
  // English; in another language, said here from the frame.
  function caption(record, frame) {
    if (lang === "en" || !record.game) return frame.caption;
    const game = record.game + " " + record.size + "×" + record.size;
    const head = frame.move == null
      ? (frame.ply === 0 ? t("%(game)s · start", { game }) : t("%(game)s · ply %(ply)s", { game, ply: frame.ply }))
      : frame.refused
        ? t("%(game)s · ply %(ply)s · %(number)s. %(mover)s %(move)s refused", moved(game, frame))
        : t("%(game)s · ply %(ply)s · %(number)s. %(mover)s %(move)s", moved(game, frame));
    const error = frame.refused ? record.report.errors[0] : null;
    const second = error ? recordError(error)
      : frame.to_move == null
        ? (frame.result ? t("Game over: %(result)s", { result: frame.result }) : t("Game over"))
        : t("%(colour)s to move", { colour: colour(frame.to_move) });
    return [head, second];
  }

  const moved = (game, frame) => ({ game, ply: frame.ply, number: Math.floor((frame.ply + 1) / 2),
                                   mover: colour(frame.mover), move: frame.move });

  // Which tie-break decided a finished game (a report's `tiebreak`, English): its own words
  // in English, the page's where it knows them.
  function tiebreakWords(text) {
    const size = /^marker groups of size (\d+)$/.exec(text);
    if (size) return t("marker groups of size %(size)s", { size: size[1] });
    const known = { "stones": t("stones"), "last mover": t("last mover") };
    return known[text] || text;
  }

  function keepInView(list, item) {
    // Scroll the move list alone (scrollIntoView would scroll the page too).
    const top = item.offsetTop; // the list is positioned: offsets are from its top
    if (top < list.scrollTop) list.scrollTop = top - 4;
    else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + item.offsetHeight - list.clientHeight + 4;
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("v-first").addEventListener("click", () => go(0));
    $("v-prev").addEventListener("click", () => step(-1));
    $("v-next").addEventListener("click", () => step(1));
    $("v-last").addEventListener("click", () => go(Infinity));
    $("v-slider").addEventListener("input", () => go(Number($("v-slider").value)));
    $("v-control").addEventListener("change", () => go(state.ply));
    $("v-back").addEventListener("click", back);
    document.addEventListener("keydown", (event) => {
      // Keys typed in a form field are the field's (the slider moves itself).
      const field = event.target.closest("textarea, select, input:not([type=checkbox])");
      const modified = event.altKey || event.ctrlKey || event.metaKey;
      if (!state.record || $("viewer").hidden || field || modified) return;
      const moves = { ArrowLeft: -1, ArrowRight: 1 };
      if (event.key in moves) step(moves[event.key]);
      else if (event.key === "Home") go(0);
      else if (event.key === "End") go(Infinity);
      else return;
      event.preventDefault();
    });
  });

  return {
    open, close, go, example, suggestionText, suggestionsOf,
    current: () => state.svg, ply: () => state.ply,
  };
})();
