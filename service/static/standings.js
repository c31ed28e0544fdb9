// The page's standings view (spec/standings.md, spec/api.md): the files of each round are
// added to the list, every file in the list is sent to POST /api/v1/standings, and the
// standings, the crosstable and the records that do not count are shown. The CSV, HTML
// and TRF buttons ask the same endpoint for its other formats and save the answer.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const chosen = []; // every file added so far, in the order added

  function element(tag, text, cls) {
    const node = document.createElement(tag);
    if (text != null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }

  function listFiles() {
    const names = chosen.map((file) => file.name);
    $("standings-list").textContent = names.length
      ? names.length + " file(s): " + names.join(", ")
      : "No file yet.";
  }

  function request(format) {
    const form = new FormData();
    for (const file of chosen) form.append("file", file, file.name);
    const query = new URLSearchParams();
    const order = $("standings-tiebreak").value.trim();
    if (order) query.set("tiebreak", order);
    if (format) query.set("format", format);
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
    const names = ["Rank", "Player", "Points", "Games", ...table.tiebreak_order];
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
      box.appendChild(grid(table));
      if (table.rounds) box.appendChild(element("p", legend(table), "note"));
    }
    for (const warning of table.warnings) box.appendChild(element("p", "Note: " + warning, "note"));
    if (table.excluded.length) {
      box.appendChild(element("h4", "Not counted (" + table.excluded.length + ")"));
      const list = element("ul", null, "excluded");
      for (const e of table.excluded) {
        list.appendChild(element("li", (e.file || "-") + " #" + e.index + ": " + e.reason + ": " + e.message));
      }
      box.appendChild(list);
    }
    return box;
  }

  async function show() {
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
    chosen.push(...event.target.files);
    event.target.value = "";
    listFiles();
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
