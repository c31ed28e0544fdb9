// The desk of a paired event (spec/pairings.md): its players, byes and withdrawals, each
// round paired by the event's system (or by hand), each board's result as it arrives, and
// records placed on their boards by the director. Everything goes through the API with the
// token desk.js keeps in this tab's sessionStorage.
"use strict";
(() => {
  const { $, element, say, refused } = arbiterDom;
  const event = document.currentScript.dataset.event;
  const api = "/api/v1/events/" + event;
  const open = Boolean($("player-add"));  // a finalised event's desk has no write control

  const call = (method, path, body) =>
    arbiterDom.request(method, path, body, sessionStorage.getItem("arbiter-token:" + event));
  const numberOr = (id) => ($(id).value ? Number($(id).value) : undefined);

  // --- players -----------------------------------------------------------------------------

  function labelled(text, label, cls) {
    const cell = element("td", text, cls);
    cell.dataset.label = label;
    return cell;
  }

  function showPlayers(players) {
    const body = $("players").tBodies[0];
    body.replaceChildren();
    for (const player of players) {
      const row = body.insertRow();
      row.appendChild(labelled(player.number, "#", "num"));
      const name = labelled(null, "Name", "player");
      const link = element("a", player.name);
      link.href = "/events/" + event + "/players/" + player.number;
      name.appendChild(link);
      row.appendChild(name);
      row.appendChild(labelled(player.rating == null ? "" : player.rating, "Rating", "num"));
      row.appendChild(labelled(player.points, "Points", "num"));
      const state = player.withdrawn_from ? "withdrawn from round " + player.withdrawn_from
        : player.entered > 1 ? "entered in round " + player.entered : "playing";
      row.appendChild(labelled(state, "State"));
      const cell = labelled(null, "Upload link");
      if (open) {
        // desk.js issues the player's upload token and shows the link that carries it.
        const button = element("button", "Link…");
        button.type = "button";
        button.setAttribute("aria-label", "An upload link for " + player.name);
        button.addEventListener("click", () => document.dispatchEvent(new CustomEvent(
          "arbiter:player-link", { detail: { name: player.name, number: player.number } })));
        cell.appendChild(button);
      }
      row.appendChild(cell);
    }
  }

  async function loadPlayers() {
    const answer = await call("GET", api + "/players");
    if (answer.ok) showPlayers(answer.data.players);
  }

  if ($("player-add")) $("player-add").addEventListener("submit", async (e) => {
    e.preventDefault();
    const fields = { name: $("player-name").value };
    if ($("player-rating").value) fields.rating = Number($("player-rating").value);
    if ($("player-federation").value) fields.federation = $("player-federation").value;
    if ($("player-confirm").checked) fields.confirm = true;
    const answer = await call("POST", api + "/players", fields);
    if (!answer.ok) { say("players-note", refused(answer), true); return; }
    const added = answer.data.players.find((p) => p.name === fields.name.trim().replace(/\s+/g, " "));
    say("players-note", (added ? added.name + " is number " + added.number : "Added") + ".");
    $("player-name").value = "";
    $("player-rating").value = "";
    $("player-confirm").checked = false;
    showPlayers(answer.data.players);
  });

  if ($("player-act")) $("player-act").addEventListener("submit", async (e) => {
    e.preventDefault();
    const kind = $("act-kind").value;
    const reason = $("act-reason").value.trim() || undefined;
    const path = api + "/players/" + $("act-player").value;
    const answer = kind === "withdraw"
      ? await call("POST", path + "/withdraw", { round: numberOr("act-round"), reason })
      : await call("POST", path + "/byes", { kind, round: numberOr("act-round"), reason });
    say("players-note", answer.ok ? answer.data.name + ": done." : refused(answer), !answer.ok);
    loadPlayers();
  });

  // --- rounds and boards -------------------------------------------------------------------

  const STATES = {
    "result": "result from its record",
    "director": "result given by the director",
    "waits-for-a-record": "waits for its record",
    "waits-for-confirmation": "its record waits for confirmation",
    "waits-for-a-result": "its record gives no result yet",
  };

  function showRound(round) {
    const out = $("round-shown");
    out.replaceChildren();
    if (!round) return;
    out.appendChild(element("h3", "Round " + round.round + (round.manual ? " (paired by hand)" : "")));
    const box = element("div", null, "scroll");
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", "Round " + round.round);
    const table = element("table", null, "cards");
    const head = table.createTHead().insertRow();
    const titles = ["Board", "First", "Second", "Result", "State"];
    for (const title of titles) {
      const cell = element("th", title);
      cell.scope = "col";
      head.appendChild(cell);
    }
    const body = table.createTBody();
    for (const board of round.boards) {
      const row = body.insertRow();
      const texts = [board.board, board.first_number + " " + board.first,
                     board.second_number + " " + board.second, board.result || "…",
                     STATES[board.state] || board.state];
      const classes = ["num", "player", "player", "", ""];
      texts.forEach((text, i) => row.appendChild(labelled(text, titles[i], classes[i])));
    }
    box.appendChild(table);
    out.appendChild(box);
    if (round.byes.length) {
      out.appendChild(element("p", "Byes: " + round.byes.map(
        (bye) => bye.player + " (" + bye.kind + ", " + bye.points + ")").join(", ")));
    }
    if ($("board-round")) $("board-round").value = round.round;
  }

  // `quiet`: the boards shown again without a word (the note says what the director did).
  async function loadRounds(quiet) {
    const answer = await call("GET", api + "/rounds");
    if (!answer.ok) return;
    document.dispatchEvent(new CustomEvent("arbiter:rounds-changed"));
    const rounds = answer.data.rounds;
    showRound(rounds[rounds.length - 1]);
    if (quiet) return;
    say("rounds-note", rounds.length ? rounds.length + " round(s) paired." : "No round paired yet.");
  }

  if ($("pair-next")) $("pair-next").addEventListener("click", async () => {
    const answer = await call("POST", api + "/rounds");
    if (!answer.ok) { say("rounds-note", refused(answer), true); return; }
    say("rounds-note", "Round " + answer.data.round + " is paired and published.");
    showRound(answer.data);
    loadPlayers();
    document.dispatchEvent(new CustomEvent("arbiter:rounds-changed"));
  });

  if ($("unpair")) $("unpair").addEventListener("click", async () => {
    const rounds = (await call("GET", api + "/rounds")).data.rounds || [];
    if (!rounds.length) { say("rounds-note", "No round is paired.", true); return; }
    const last = rounds[rounds.length - 1].round;
    const reason = window.prompt("Take round " + last + "'s pairing back? Give the reason:");
    if (!reason) return;
    const answer = await call("DELETE", api + "/rounds/" + last, { reason });
    say("rounds-note", answer.ok ? "Round " + last + " is unpaired." : refused(answer), !answer.ok);
    loadRounds(true);
  });

  if ($("board-act")) $("board-act").addEventListener("submit", async (e) => {
    e.preventDefault();
    const round = $("board-round").value;
    const board = $("board-number").value;
    const what = $("board-result").value;
    const reason = $("board-reason").value.trim();
    const path = api + "/rounds/" + round + "/boards/" + board + "/result";
    let answer;
    if (what === "place") {
      answer = await call("POST", api + "/records/" + $("board-record").value + "/place",
                          { round: Number(round), board: Number(board), reason });
    } else if (what === "clear") {
      answer = await call("DELETE", path, { reason });
    } else {
      answer = await call("PUT", path, { result: what, reason });
    }
    say("rounds-note", answer.ok ? "Round " + round + ", board " + board + ": done."
                                 : refused(answer), !answer.ok);
    if (answer.ok) $("board-reason").value = "";
    loadRounds(true);
    loadPlayers();
  });

  if ($("manual")) $("manual").addEventListener("submit", async (e) => {
    e.preventDefault();
    const rounds = (await call("GET", api + "/rounds")).data.rounds || [];
    if (!rounds.length) { say("rounds-note", "Pair a round first.", true); return; }
    const boards = [];
    let bye = null;
    for (const line of $("manual-boards").value.split(/\n/)) {
      const words = line.trim().split(/[\s,-]+/).filter(Boolean);
      if (!words.length) continue;
      if (words[0].toLowerCase() === "bye") { bye = Number(words[1]); continue; }
      boards.push({ first: Number(words[0]), second: Number(words[1]) });
    }
    const last = rounds[rounds.length - 1].round;
    const answer = await call("PUT", api + "/rounds/" + last,
                              { boards, bye, reason: $("manual-reason").value });
    say("rounds-note", answer.ok ? "Round " + last + " is paired by hand." : refused(answer),
        !answer.ok);
    if (answer.ok) showRound(answer.data);
  });

  // desk.js says when records came or changed: the boards they stand on may have results.
  document.addEventListener("arbiter:records-changed", () => { loadPlayers(); loadRounds(true); });

  loadPlayers();
  loadRounds();
})();
