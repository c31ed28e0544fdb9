// The page's standings view (spec/standings.md, spec/api.md): the files of each round are
// added to the list, every file in the list is sent to POST /api/v1/standings, and the
// standings, the crosstable and the records that do not count are shown. The CSV, HTML
// and TRF buttons ask the same endpoint for its other formats and save the answer.
"use strict";
(() => {
  const { $, element, t, colour, termination, tiebreak, errorText, exclusion } = arbiterDom;
  const chosen = []; // every file added so far, in the order added
  // Each tie-break as people name it, and its explanation in one line: the same as
  // arbiter.adjudicator.tiebreaks.TITLES and EXPLANATIONS (a test holds them together).
  const ENGLISH = {"buchholz": ["Buchholz", "the sum of the scores of the opponents met (unplayed rounds as FIDE's regulations count them)"], "sonneborn-berger": ["Sonneborn-Berger", "the sum of the scores of the opponents beaten"], "wins": ["Games won", "the number of games won over the board (forfeits not counted)"], "direct": ["Direct encounter", "the place among the players still tied, by their games against each other; blank for a player who was not tied when it was reached"], "margin": ["Margin", "the sum of the player's winning and losing margins in scored games"]};

  // In the page's language when it gives them (dom.js), else in English.
  const named = (name) => tiebreak(name) || ENGLISH[name] || [name, ""];

  // The list of files, each with a button that takes it out; the standings follow it.
  function listFiles() {
    const list = $("standings-list");
    list.replaceChildren();
    if (!chosen.length) {
      list.appendChild(element("li", t("No file yet.")));
      return;
    }
    chosen.forEach((file, i) => {
      const item = element("li", file.name + " ");
      const remove = element("button", t("Remove"));
      remove.type = "button";
      remove.setAttribute("aria-label", t("Remove %(file)s", { file: file.name }));
      remove.addEventListener("click", () => {
        chosen.splice(i, 1);
        listFiles();
        show();
      });
      item.appendChild(remove);
      list.appendChild(item);
    });
  }

  const same = (a, b) => a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

  function request(format) {
    const form = new FormData();
    for (const file of chosen) form.append("file", file, file.name);
    const query = new URLSearchParams();
    const order = $("standings-tiebreak").value.trim();
    if (order) query.set("tiebreak", order);
    if (format) query.set("format", format);
    const planned = $("standings-rounds").value.trim();
    if (format === "trf" && planned) query.set("total_rounds", planned);
    const text = query.toString();
    return fetch("/api/v1/standings" + (text ? "?" + text : ""), { method: "POST", body: form });
  }

  // The letter shown for each colour: its initial, or w and b when the initials agree
  // (as the CLI's table does).
  function letters(table) {
    const colours = {};
    for (const row of table.crosstable) {
      for (const cell of row.results) {
        if (cell) colours[cell.first ? "first" : "second"] = cell.colour;
      }
    }
    const a = (colours.first || "?")[0].toLowerCase();
    const b = (colours.second || "?")[0].toLowerCase();
    return {
      first: a === b ? "w" : a,
      second: a === b ? "b" : b,
      names: [colours.first, colours.second],
    };
  }

  function legend(table) {
    const letter = letters(table);
    const [first, second] = letter.names;
    return t("Rounds: opponent's rank, colour at the start (%(colours)s), result (1 won, 0 lost, + forfeit win, - forfeit loss); . no counted game.",
             { colours: letter.first + " " + colour(first) + ", " + letter.second + " " + colour(second) });
  }

  function cellText(cell, letter) {
    if (!cell) return ".";
    return cell.opponent_rank + (cell.first ? letter.first : letter.second) + cell.result;
  }

  function grid(table) {
    const letter = letters(table);
    const out = element("table", null, "standings");
    const head = out.createTHead().insertRow();
    const names = [t("Rank"), t("Player"), t("Points"), t("Games"),
                   ...table.tiebreak_order.map((name) => named(name)[0])];
    for (let n = 1; n <= table.rounds; n++) names.push(t("R%(round)s", { round: n }));
    for (const name of names) head.appendChild(element("th", name));
    const body = out.createTBody();
    table.standings.forEach((line, i) => {
      const row = body.insertRow();
      for (const value of [line.rank, line.player, line.points, line.games]) {
        row.appendChild(element("td", value));
      }
      for (const name of table.tiebreak_order) {
        const value = line.tiebreaks[name];
        row.appendChild(element("td", value == null ? "" : value));
      }
      for (const cell of table.crosstable[i].results) {
        const td = element("td", cellText(cell, letter), "round");
        const values = { round: cell && cell.round, opponent: cell && cell.opponent,
                         colour: cell && colour(cell.colour), ended: cell && termination(cell.termination) };
        if (cell && cell.opponent != null) {
          td.title = cell.result === "1" || cell.result === "+"
            ? t("round %(round)s: won against %(opponent)s as %(colour)s (%(ended)s)", values)
            : t("round %(round)s: lost against %(opponent)s as %(colour)s (%(ended)s)", values);
        }
        row.appendChild(td);
      }
    });
    return out;
  }

  function section(table) {
    const box = element("section", null, "standings-table");
    const title = table.event == null
      ? t("Records that belong to no event")
      : t("%(event)s (%(game)s): %(rounds)s round(s), %(players)s player(s)",
          { event: table.event, game: table.game, rounds: table.rounds, players: table.standings.length });
    box.appendChild(element("h3", title));
    if (table.standings.length) {
      const scroll = element("div", null, "scroll");  // a wide table scrolls in its own box
      scroll.tabIndex = 0;
      scroll.setAttribute("role", "region");
      scroll.setAttribute("aria-label", table.event ? t("Standings of %(event)s", { event: table.event })
        : t("Standings of no event"));
      scroll.appendChild(grid(table));
      box.appendChild(scroll);
      if (table.rounds) box.appendChild(element("p", legend(table), "note"));
      if (table.event != null && table.tiebreak_order.length) {
        const list = element("dl", null, "tiebreaks");
        for (const name of table.tiebreak_order) {
          list.append(element("dt", named(name)[0]), element("dd", named(name)[1]));
        }
        box.append(element("p", t("Ties are broken by, in order:"), "note"), list);
      }
    }
    for (const warning of table.warnings) {
      box.appendChild(element("p", t("Note: %(note)s", { note: warningWords(warning) }), "note"));
    }
    if (table.excluded.length) {
      box.appendChild(element("h4", t("Not counted (%(count)s)", { count: table.excluded.length })));
      const list = element("ul", null, "excluded");
      for (const e of table.excluded) {
        const why = exclusion(e.reason);
        list.appendChild(element("li", (e.file || "-") + " #" + (e.index + 1) + ": "
                                       + (why ? why : e.reason + ": " + e.message)));
      }
      box.appendChild(list);
    }
    return box;
  }

  // A warning of the standings (arbiter.adjudicator.standings, English) in the page's language.
  function warningWords(text) {
    const empty = /^no game counts in round (\d+)$/.exec(text);
    if (empty) return t("no game counts in round %(round)s", { round: empty[1] });
    const names = /^the names (.+) differ only in letter case; they are different players here$/.exec(text);
    if (names) {
      return t("the names %(names)s differ only in letter case; they are different players here",
               { names: names[1] });
    }
    return text;
  }

  let asked = 0; // the latest request: an answer to an older one is dropped

  async function show() {
    const mine = ++asked;
    const out = $("standings-out");
    out.replaceChildren();
    if (!chosen.length) {
      $("standings-status").textContent = t("Add the records' files first.");
      return;
    }
    $("standings-status").textContent = t("Working…");
    let response;
    try {
      response = await request(null);
    } catch (err) {
      $("standings-status").textContent = t("The server did not answer: %(error)s", { error: err });
      return;
    }
    const data = await response.json();
    if (mine !== asked) return;
    if (!response.ok) {
      $("standings-status").textContent = t("Error %(status)s: %(error)s", { status: response.status, error: errorText(data.error) });
      return;
    }
    const tables = Array.isArray(data) ? data : [data];
    $("standings-status").textContent = t("%(count)s event table(s).",
                                          { count: tables.filter((one) => one.event != null).length });
    for (const table of tables) out.appendChild(section(table));
  }

  async function save(format) {
    if (!chosen.length) {
      $("standings-status").textContent = t("Add the records' files first.");
      return;
    }
    const response = await request(format);
    if (!response.ok) {
      const data = await response.json();
      $("standings-status").textContent = t("Error %(status)s: %(error)s", { status: response.status, error: errorText(data.error) });
      return;
    }
    const link = element("a");
    link.href = URL.createObjectURL(await response.blob());
    link.download = "standings." + (format === "trf" ? "trf" : format);
    document.body.appendChild(link);
    link.click();
    link.remove();
    $("standings-status").textContent = t("Saved %(file)s.", { file: "standings." + format });
  }

  $("standings-files").addEventListener("change", (event) => {
    const refused = [];
    for (const file of event.target.files) {
      if (chosen.some((other) => same(other, file))) refused.push(file.name);
      else chosen.push(file);
    }
    event.target.value = "";
    listFiles();
    show().then(() => {
      if (refused.length) {
        $("standings-status").textContent = t("Already in the list, not added again: %(files)s.",
                                              { files: refused.join(", ") })
          + " " + $("standings-status").textContent;
      }
    });
  });
  $("standings-clear").addEventListener("click", () => {
    chosen.length = 0;
    listFiles();
    $("standings-out").replaceChildren();
    $("standings-status").textContent = "";
  });
  $("standings-run").addEventListener("click", show);
  for (const button of document.querySelectorAll("button[data-standings-format]")) {
    button.addEventListener("click", () => save(button.dataset.standingsFormat));
  }
  listFiles();
})();
