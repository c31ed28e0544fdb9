// The page's standings view (spec/standings.md, spec/api.md): the files of each round are
// added to the list, every file in the list is sent to POST /api/v1/standings, and the
// standings, the crosstable and the records that do not count are shown. The CSV, HTML
// and TRF buttons ask the same endpoint for its other formats and save the answer.
"use strict";
(() => {
  const { $, element } = arbiterDom;
  const chosen = []; // every file added so far, in the order added
  // Each tie-break as people name it, and its explanation in one line: the same as
  // arbiter.adjudicator.tiebreaks.TITLES and EXPLANATIONS (a test holds them together).
  const TIEBREAKS = {"buchholz": ["Buchholz", "the sum of the scores of the opponents met (unplayed rounds as FIDE's regulations count them)"], "sonneborn-berger": ["Sonneborn-Berger", "the sum of the scores of the opponents beaten"], "wins": ["Games won", "the number of games won over the board (forfeits not counted)"], "direct": ["Direct encounter", "the place among the players still tied, by their games against each other; blank for a player who was not tied when it was reached"], "margin": ["Margin", "the sum of the player's winning and losing margins in scored games"]};

  // The list of files, each with a button that takes it out; the standings follow it.
  function listFiles() {
    const list = $("standings-list");
    list.replaceChildren();
    if (!chosen.length) {
      list.appendChild(element("li", "No file yet."));
      return;
    }
    chosen.forEach((file, i) => {
      const item = element("li", file.name + " ");
      const remove = element("button", "Remove");
      remove.type = "button";
      remove.setAttribute("aria-label", "Remove " + file.name);
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
    return "Rounds: opponent's rank, colour at the start (" + letter.first + " " + first + ", "
      + letter.second + " " + second + "), result (1 won, 0 lost, + forfeit win, "
      + "- forfeit loss); . no counted game.";
  }

  function cellText(cell, letter) {
    if (!cell) return ".";
    return cell.opponent_rank + (cell.first ? letter.first : letter.second) + cell.result;
  }

  function grid(table) {
    const letter = letters(table);
    const out = element("table", null, "standings");
    const head = out.createTHead().insertRow();
    const names = ["Rank", "Player", "Points", "Games",
                   ...table.tiebreak_order.map((name) => TIEBREAKS[name][0])];
    for (let n = 1; n <= table.rounds; n++) names.push("R" + n);
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
        if (cell) td.title = "round " + cell.round + ": " + (cell.result === "1" || cell.result === "+" ? "won" : "lost")
          + " against " + cell.opponent + " as " + cell.colour + " (" + cell.termination + ")";
        row.appendChild(td);
      }
    });
    return out;
  }

  function section(table) {
    const box = element("section", null, "standings-table");
    const title = table.event == null
      ? "Records that belong to no event"
      : table.event + " (" + table.game + "): " + table.rounds + " round(s), "
        + table.standings.length + " player(s)";
    box.appendChild(element("h3", title));
    if (table.standings.length) {
      const scroll = element("div", null, "scroll");  // a wide table scrolls in its own box
      scroll.tabIndex = 0;
      scroll.setAttribute("role", "region");
      scroll.setAttribute("aria-label", "Standings of " + (table.event || "no event"));
      scroll.appendChild(grid(table));
      box.appendChild(scroll);
      if (table.rounds) box.appendChild(element("p", legend(table), "note"));
      if (table.event != null && table.tiebreak_order.length) {
        const list = element("dl", null, "tiebreaks");
        for (const name of table.tiebreak_order) {
          list.append(element("dt", TIEBREAKS[name][0]), element("dd", TIEBREAKS[name][1]));
        }
        box.append(element("p", "Ties are broken by, in order:", "note"), list);
      }
    }
    for (const warning of table.warnings) box.appendChild(element("p", "Note: " + warning, "note"));
    if (table.excluded.length) {
      box.appendChild(element("h4", "Not counted (" + table.excluded.length + ")"));
      const list = element("ul", null, "excluded");
      for (const e of table.excluded) {
        list.appendChild(element("li", (e.file || "-") + " #" + (e.index + 1) + ": " + e.reason + ": " + e.message));
      }
      box.appendChild(list);
    }
    return box;
  }

  let asked = 0; // the latest request: an answer to an older one is dropped

  async function show() {
    const mine = ++asked;
    const out = $("standings-out");
    out.replaceChildren();
    if (!chosen.length) {
      $("standings-status").textContent = "Add the records' files first.";
      return;
    }
    $("standings-status").textContent = "Working…";
    let response;
    try {
      response = await request(null);
    } catch (err) {
      $("standings-status").textContent = "The server did not answer: " + err;
      return;
    }
    const data = await response.json();
    if (mine !== asked) return;
    if (!response.ok) {
      $("standings-status").textContent = "Error " + response.status + ": " + data.error.message;
      return;
    }
    const tables = Array.isArray(data) ? data : [data];
    $("standings-status").textContent = tables.filter((t) => t.event != null).length + " event table(s).";
    for (const table of tables) out.appendChild(section(table));
  }

  async function save(format) {
    if (!chosen.length) {
      $("standings-status").textContent = "Add the records' files first.";
      return;
    }
    const response = await request(format);
    if (!response.ok) {
      const data = await response.json();
      $("standings-status").textContent = "Error " + response.status + ": " + data.error.message;
      return;
    }
    const link = element("a");
    link.href = URL.createObjectURL(await response.blob());
    link.download = "standings." + (format === "trf" ? "trf" : format);
    document.body.appendChild(link);
    link.click();
    link.remove();
    $("standings-status").textContent = "Saved standings." + format + ".";
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
        $("standings-status").textContent = "Already in the list, not added again: "
          + refused.join(", ") + ". " + $("standings-status").textContent;
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
