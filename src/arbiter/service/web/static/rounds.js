// The desk of a paired event (spec/pairings.md): its players, byes and withdrawals, each
// round paired by the event's system (or by hand), each board's result as it arrives, and
// records placed on their boards by the director. Everything goes through the API with the
// token desk.js keeps in this tab's sessionStorage.
"use strict";
(() => {
  const { $, element, say, refused, busy, t, number } = arbiterDom;
  const event = document.currentScript.dataset.event;
  const checking = document.currentScript.dataset.checkIn === "yes";
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
      const name = labelled(null, t("Name"), "player");
      const link = element("a", player.name);
      link.href = "/events/" + event + "/players/" + player.number;
      name.appendChild(link);
      row.appendChild(name);
      row.appendChild(labelled(player.rating == null ? "" : player.rating, t("Rating"), "num"));
      row.appendChild(labelled(number(player.points), t("Points"), "num"));
      const state = player.withdrawn_from ? t("withdrawn from round %(round)s", { round: player.withdrawn_from })
        : player.entered > 1 ? t("late entry, from round %(round)s", { round: player.entered })
        : player.checked_in === true ? t("checked in")
        : player.checked_in === false ? t("not checked in") : t("playing");
      const byes = (player.byes || []).map((bye) => (bye.kind === "half"
        ? t("half-point bye in round %(round)s", { round: bye.round })
        : t("zero-point bye in round %(round)s", { round: bye.round })));
      row.appendChild(labelled([state, ...byes].join("; "), t("State")));
      const cell = labelled(null, t("Player's link"));
      if (open) {
        // desk.js issues the player's upload token and shows the link that carries it.
        const button = element("button", t("Link…"));
        button.type = "button";
        button.setAttribute("aria-label", t("A link for %(name)s's own page", { name: player.name }));
        button.addEventListener("click", () => document.dispatchEvent(new CustomEvent(
          "arbiter:player-link",
          { detail: { name: player.name, number: player.number, button } })));
        cell.appendChild(button);
      }
      row.appendChild(cell);
      if (open) row.appendChild(fixes(player));
    }
  }

  // A player's buttons of corrections and undoing: each fills in the form below the table
  // (what, who, the values as they stand), for the director to give the reason and apply.
  function fixes(player) {
    const cell = labelled(null, t("Correct or undo"), "actions");
    const offer = (text, kind, round) => {
      const button = element("button", text);
      button.type = "button";
      button.setAttribute("aria-label", text + " (" + player.name + ")");
      button.addEventListener("click", () => fill(player, kind, round));
      cell.append(button, " ");
    };
    if (checking && !player.withdrawn_from) {
      const button = element("button", player.checked_in ? t("Undo check-in") : t("Check in"));
      button.type = "button";
      button.setAttribute("aria-label", button.textContent + " (" + player.name + ")");
      button.addEventListener("click", () => busy(button, async () => {
        const answer = await call(player.checked_in ? "DELETE" : "POST",
                                  api + "/players/" + player.number + "/check-in", {});
        say("players-note", answer.ok ? t("%(name)s: done.", { name: player.name }) : refused(answer), !answer.ok);
        loadPlayers();
      }));
      cell.append(button, " ");
    }
    offer(t("Correct…"), "correct");
    if (!player.paired) offer(t("Remove…"), "remove");
    for (const bye of player.byes || []) {
      offer(t("Cancel round %(round)s bye…", { round: bye.round }), "cancel-bye", bye.round);
    }
    if (player.withdrawn_from) offer(t("Take the withdrawal back…"), "cancel-withdrawal");
    return cell;
  }

  let fixing = null;  // the player the form was filled in for (their name guards a removal)

  function fill(player, kind, round) {
    fixing = player;
    $("fix-player").value = player.number;
    $("fix-kind").value = kind;
    $("fix-name").value = player.name;
    $("fix-rating").value = player.rating == null ? "" : player.rating;
    $("fix-federation").value = player.federation || "";
    $("fix-round").value = round || "";
    $("fix-confirm").checked = false;
    $("fix-reason").focus();
  }

  // The players' table is drawn from the newest answer only: a read started before the last
  // drawing (one the stream asked for while a player was being added) is dropped, never
  // drawn over a newer table.
  let asked = 0;
  let drawn = 0;

  async function loadPlayers() {
    const mine = ++asked;
    const answer = await call("GET", api + "/players");
    if (!answer.ok || mine < drawn) return;
    drawn = mine;
    showPlayers(answer.data.players);
    if ($("missing")) {  // who is missing, before the director pairs
      const away = answer.data.players.filter((p) => p.checked_in === false && !p.withdrawn_from);
      $("missing").textContent = away.length
        ? t("Not checked in for the next round (%(count)s): %(players)s. They are not paired.",
            { count: away.length, players: away.map((p) => p.number + " " + p.name).join(", ") })
        : t("Every player is checked in for the next round.");
    }
  }

  if ($("player-fix")) $("player-fix").addEventListener("submit", (e) => {
    e.preventDefault();
    busy($("player-fix"), fixPlayer);
  });

  async function fixPlayer() {
    const number = $("fix-player").value;
    const kind = $("fix-kind").value;
    const reason = $("fix-reason").value.trim();
    const path = api + "/players/" + number;
    let answer;
    if (kind === "correct") {
      const fields = { reason };
      const now = fixing && String(fixing.number) === number ? fixing : {};
      const name = $("fix-name").value.trim().replace(/\s+/g, " ");
      const rating = $("fix-rating").value === "" ? null : Number($("fix-rating").value);
      const federation = $("fix-federation").value.trim() || null;
      if (name && name !== now.name) fields.name = name;
      if (rating !== (now.rating ?? null)) fields.rating = rating;
      if (federation !== (now.federation ?? null)) fields.federation = federation;
      if ($("fix-confirm").checked) fields.confirm = true;
      answer = await call("PATCH", path, fields);
    } else if (kind === "remove") {
      const fields = { reason };
      if (fixing && String(fixing.number) === number) fields.name = fixing.name;
      answer = await call("DELETE", path, fields);
    } else if (kind === "cancel-bye") {
      answer = await call("DELETE", path + "/byes/" + $("fix-round").value, { reason });
    } else {
      answer = await call("DELETE", path + "/withdraw", { reason });
    }
    if (!answer.ok) { say("players-note", refused(answer), true); return; }
    const done = { correct: t("corrected"), remove: t("removed"), "cancel-bye": t("the bye is cancelled"),
                   "cancel-withdrawal": t("back from the next round") }[kind];
    const who = answer.data.name || (fixing ? fixing.name : t("Player %(number)s", { number }));
    say("players-note", answer.data.number && kind === "correct"
      ? t("%(name)s: %(done)s (number %(number)s).", { name: who, done, number: answer.data.number })
      : t("%(name)s: %(done)s.", { name: who, done }));
    $("fix-reason").value = "";
    fixing = null;
    if (answer.data.players) { drawn = ++asked; showPlayers(answer.data.players); }
    else loadPlayers();
    loadRounds(true);
  }

  if ($("player-add")) $("player-add").addEventListener("submit", (e) => {
    e.preventDefault();
    busy($("player-add"), addPlayer);
  });

  async function addPlayer() {
    const fields = { name: $("player-name").value };
    if ($("player-rating").value) fields.rating = Number($("player-rating").value);
    if ($("player-federation").value) fields.federation = $("player-federation").value;
    if ($("player-confirm").checked) fields.confirm = true;
    const answer = await call("POST", api + "/players", fields);
    if (!answer.ok) { say("players-note", refused(answer), true); return; }
    const added = answer.data.players.find((p) => p.name === fields.name.trim().replace(/\s+/g, " "));
    say("players-note", added ? t("%(name)s is number %(number)s.", { name: added.name, number: added.number })
      : t("Added."));
    $("player-name").value = "";
    $("player-rating").value = "";
    $("player-confirm").checked = false;
    drawn = ++asked;
    showPlayers(answer.data.players);
  }

  if ($("player-act")) $("player-act").addEventListener("submit", (e) => {
    e.preventDefault();
    busy($("player-act"), actOnPlayer);
  });

  async function actOnPlayer() {
    const kind = $("act-kind").value;
    const reason = $("act-reason").value.trim() || undefined;
    const path = api + "/players/" + $("act-player").value;
    const answer = kind === "withdraw"
      ? await call("POST", path + "/withdraw", { round: numberOr("act-round"), reason })
      : await call("POST", path + "/byes", { kind, round: numberOr("act-round"), reason });
    say("players-note", answer.ok ? t("%(name)s: done.", { name: answer.data.name }) : refused(answer), !answer.ok);
    loadPlayers();
  }

  // --- rounds and boards -------------------------------------------------------------------

  const STATES = {
    "result": t("result from its record"),
    "director": t("result given by the director"),
    "waits-for-a-record": t("waits for its record"),
    "waits-for-confirmation": t("its record waits for confirmation"),
    "waits-for-a-result": t("its record gives no result yet"),
    "reported": t("one player reported; waits for the other"),
    "disputed": t("disputed: the players reported different results; give the result"),
  };
  const BYES = { "not-checked-in": t("not checked in"), "not-entered": t("not yet entered"),
                 "pairing": t("pairing bye"), "requested": t("bye asked for"),
                 "absent": t("absent"), "withdrawn": t("withdrawn") };

  // A board's result in words: who won, and how it is written (first seat's side first).
  function resultWords(board) {
    const won = { "1-0": board.first, "+-": board.first, "0-1": board.second,
                  "-+": board.second }[board.result];
    if (!board.result) return "…";
    if (board.result === "--") return t("both lost by forfeit (--)");
    return board.result.includes("+")
      ? t("%(winner)s won by forfeit (%(result)s)", { winner: won, result: board.result })
      : t("%(winner)s won (%(result)s)", { winner: won, result: board.result });
  }

  function showRound(round) {
    const out = $("round-shown");
    out.replaceChildren();
    if (!round) return;
    out.appendChild(element("h3", t("Round %(round)s", { round: round.round })
                                  + (round.manual ? " " + t("(paired by hand)") : "")
                                  + (round.draft ? t(": a draft, shown to you only") : "")));
    if ($("publish")) {
      $("publish").hidden = !round.draft;
      $("publish").dataset.round = round.round;
    }
    const box = element("div", null, "scroll");
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", t("Round %(round)s", { round: round.round }));
    const table = element("table", null, "cards");
    const head = table.createTHead().insertRow();
    const titles = [t("Board"), t("First"), t("Second"), t("Result"), t("State")];
    for (const title of titles) {
      const cell = element("th", title);
      cell.scope = "col";
      head.appendChild(cell);
    }
    const body = table.createTBody();
    for (const board of round.boards) {
      const row = body.insertRow();
      const reported = board.state === "disputed"
        ? " (" + board.first + ": " + board.reports.first + "; " + board.second + ": "
          + board.reports.second + ")" : "";
      const texts = [board.board, board.first_number + " " + board.first,
                     board.second_number + " " + board.second, resultWords(board),
                     (STATES[board.state] || board.state) + reported];
      const classes = ["num", "player", "player", "", ""];
      texts.forEach((text, i) => row.appendChild(labelled(text, titles[i], classes[i])));
    }
    box.appendChild(table);
    out.appendChild(box);
    if (round.byes.length) {
      out.appendChild(element("p", t("Byes: %(byes)s", { byes: round.byes.map(
        (bye) => bye.player + " (" + (BYES[bye.kind] || bye.kind) + ", " + number(bye.points) + ")").join(", ") })));
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
    say("rounds-note", rounds.length ? t("%(count)s round(s) paired.", { count: rounds.length })
                                     : t("No round paired yet."));
  }

  if ($("pair-next")) $("pair-next").addEventListener("click", () => busy($("pair-next"), async () => {
    const draft = Boolean($("pair-draft") && $("pair-draft").checked);
    const answer = await call("POST", api + "/rounds", draft ? { draft } : {});
    if (!answer.ok) { say("rounds-note", refused(answer), true); return; }
    say("rounds-note", draft
      ? t("Round %(round)s is paired as a draft: check it, pair it again or by hand, then publish it.",
          { round: answer.data.round })
      : t("Round %(round)s is paired and published.", { round: answer.data.round }));
    showRound(answer.data);
    loadPlayers();
    document.dispatchEvent(new CustomEvent("arbiter:rounds-changed"));
  }));

  if ($("publish")) $("publish").addEventListener("click", () => busy($("publish"), async () => {
    const round = $("publish").dataset.round;
    const answer = await call("POST", api + "/rounds/" + round + "/publish", {});
    say("rounds-note", answer.ok ? t("Round %(round)s is published: everyone sees it now.", { round })
                                 : refused(answer), !answer.ok);
    if (answer.ok) showRound(answer.data);
    document.dispatchEvent(new CustomEvent("arbiter:rounds-changed"));
  }));

  if ($("unpair")) $("unpair").addEventListener("click", () => busy($("unpair"), async () => {
    const rounds = (await call("GET", api + "/rounds")).data.rounds || [];
    if (!rounds.length) { say("rounds-note", t("No round is paired."), true); return; }
    const last = rounds[rounds.length - 1].round;
    const reason = window.prompt(t("Take round %(round)s's pairing back? Give the reason:", { round: last }));
    if (!reason) return;
    const answer = await call("DELETE", api + "/rounds/" + last, { reason });
    say("rounds-note", answer.ok ? t("Round %(round)s is unpaired.", { round: last }) : refused(answer), !answer.ok);
    loadRounds(true);
  }));

  if ($("board-act")) $("board-act").addEventListener("submit", (e) => {
    e.preventDefault();
    busy($("board-act"), actOnBoard);
  });

  async function actOnBoard() {
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
    say("rounds-note", answer.ok ? t("Round %(round)s, board %(board)s: done.", { round, board })
                                 : refused(answer), !answer.ok);
    if (answer.ok) $("board-reason").value = "";
    loadRounds(true);
    loadPlayers();
    if (answer.ok) document.dispatchEvent(new CustomEvent("arbiter:rounds-changed"));
  }

  if ($("manual")) $("manual").addEventListener("submit", (e) => {
    e.preventDefault();
    busy($("manual"), pairByHand);
  });

  async function pairByHand() {
    const rounds = (await call("GET", api + "/rounds")).data.rounds || [];
    if (!rounds.length) { say("rounds-note", t("Pair a round first."), true); return; }
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
    say("rounds-note", answer.ok ? byHand(last, answer.data.system) : refused(answer), !answer.ok);
    if (answer.ok) showRound(answer.data);
  }

  // What the desk says of a round paired by hand: when the system pairs it otherwise, its
  // pairing, so that the director sees what the hand changed.
  function byHand(round, system) {
    const done = t("Round %(round)s is paired by hand.", { round });
    if (!system || !system.differs) return done;
    const pairs = system.boards.map((b) => b.first + "-" + b.second).join(", ");
    const pairing = system.bye ? pairs + "; " + t("bye %(player)s", { player: system.bye }) : pairs;
    return done + " " + t("The system pairs it otherwise: %(pairing)s.", { pairing });
  }

  // desk.js says when records came or changed: the boards they stand on may have results.
  document.addEventListener("arbiter:records-changed", () => { loadPlayers(); loadRounds(true); });
  // Any change of the event (pushed: live.js); loadRounds has the desk's records shown again.
  document.addEventListener("arbiter:event-changed", () => { loadPlayers(); loadRounds(true); });

  loadPlayers();
  loadRounds();
})();
