// A player's upload page (spec/events.md §10). The desk gives each player a link with an
// upload token after the "#" (the part of an address a browser never sends to a server):
// the token is moved to this tab's sessionStorage and taken out of the address at once. With
// a player's token (`?player=N`) the page is the player's own round on a phone: check in,
// report the board's result, upload the game's record; it does nothing else.
"use strict";
(() => {
  const { $, element, busy, t, lang, refused, recordError } = arbiterDom;
  const event = document.currentScript.dataset.event;
  const key = "arbiter-token:" + event;

  function say(text, bad) {
    $("upload-who").textContent = text;
    $("upload-who").className = bad ? "warning" : "notice";
  }

  const given = new URLSearchParams(location.hash.slice(1)).get("token");
  if (given) {
    sessionStorage.setItem(key, given);
    history.replaceState(null, "", location.pathname + location.search);
  }
  const token = sessionStorage.getItem(key);
  if (!token) {
    say(t("This page needs the link the director gave you (it carries your upload token)."), true);
    return;
  }
  if (!$("send")) {
    say(t("The event is finalised."));
    return;
  }
  say(t("Ready: you may upload your game's record."));
  $("send").hidden = false;

  // --- a player's own round: check in, report the board's result (spec/pairings.md §12) ----

  const api = "/api/v1/events/" + event;
  const send = (method, path, body) => arbiterDom.request(method, api + path, body, token);

  function tell(id, text, bad) {
    $(id).textContent = text;
    $(id).className = bad ? "warning" : "";
  }

  // What the page shows of the player's round, read again after each change.
  async function here() {
    const number = Number($("here").dataset.player);
    const [players, rounds] = await Promise.all([send("GET", "/players"), send("GET", "/rounds")]);
    if (!players.ok || !rounds.ok) { tell("here-state", t("Cannot read the event now."), true); return; }
    const me = players.data.players.find((p) => p.number === number);
    if (!me) { tell("here-state", t("This link's player is not in the event."), true); return; }
    $("here").hidden = false;
    const last = rounds.data.rounds[rounds.data.rounds.length - 1];
    const board = last && last.boards.find((b) => b.first_number === number || b.second_number === number);
    const checking = $("here").dataset.checkIn === "yes";
    const coming = last ? last.round + 1 : 1;
    if (checking) {
      const open = !board || board.result !== null;  // the round played: check in for the next
      $("check-in").hidden = !open || me.checked_in;
      $("check-out").hidden = !open || !me.checked_in;
      tell("here-state", me.checked_in ? t("You are checked in for round %(round)s.", { round: coming })
        : open ? t("Check in for round %(round)s when you are at the venue.", { round: coming })
        : t("Round %(round)s is under way.", { round: last.round }));
    } else {
      tell("here-state", last ? t("Round %(round)s is paired.", { round: last.round })
        : t("No round is paired yet."));
    }
    showBoard(last, board, number);
  }

  function showBoard(last, board, number) {
    $("report").hidden = !board;
    if (!board) return;
    const first = board.first_number === number;
    const other = first ? board.second : board.first;
    $("report-board").textContent = first
      ? t("Round %(round)s, board %(board)s: you play first against %(opponent)s.",
          { round: last.round, board: board.board, opponent: other })
      : t("Round %(round)s, board %(board)s: you play second against %(opponent)s.",
          { round: last.round, board: board.board, opponent: other });
    if ($("board-line")) $("board-line").textContent = $("report-board").textContent;
    $("report").dataset.round = last.round;
    $("report").dataset.board = board.board;
    $("report").dataset.first = first ? "yes" : "no";
    const mine = board.reports[first ? "first" : "second"];
    const words = { "result": t("The result counts: %(result)s.", { result: board.result }),
                    "director": t("The director gave the result: %(result)s.", { result: board.result }),
                    "disputed": t("You and your opponent reported different results: the director decides."),
                    "reported": mine ? t("You reported %(result)s; waiting for your opponent.", { result: mine })
                      : t("Your opponent reported %(result)s; report yours.",
                          { result: board.reports.first || board.reports.second }),
                    "waits-for-a-record": t("Report the result when your game ends.") };
    tell("report-state", words[board.state] || t("Waiting for the result."));
    const done = board.result !== null;
    for (const id of ["report-won", "report-lost", "report-forfeit"]) $(id).disabled = done;
  }

  async function checkIn(method) {
    const answer = await send(method, "/players/" + $("here").dataset.player + "/check-in", {});
    if (!answer.ok) tell("here-state", refused(answer), true);
    else await here();
  }

  async function report(won, forfeit) {
    const first = $("report").dataset.first === "yes";
    const result = forfeit ? (first ? "+-" : "-+") : (won === first ? "1-0" : "0-1");
    const answer = await send("POST", "/rounds/" + $("report").dataset.round + "/boards/"
                              + $("report").dataset.board + "/report", { result });
    if (!answer.ok) { tell("report-state", refused(answer), true); return; }
    await here();
  }

  if ($("here")) {
    $("check-in").addEventListener("click", () => busy($("check-in"), () => checkIn("POST")));
    $("check-out").addEventListener("click", () => busy($("check-out"), () => checkIn("DELETE")));
    $("report-won").addEventListener("click", () => busy($("report-won"), () => report(true, false)));
    $("report-lost").addEventListener("click", () => busy($("report-lost"), () => report(false, false)));
    $("report-forfeit").addEventListener("click",
                                         () => busy($("report-forfeit"), () => report(true, true)));
    document.addEventListener("arbiter:event-changed", () => here());
    here();
  }

  $("upload").addEventListener("click", () => busy($("upload"), upload));

  async function upload() {
    const files = $("upload-files").files;
    if (!files.length) { say(t("Choose the file first."), true); return; }
    const form = new FormData();
    for (const file of files) form.append("file", file, file.name);
    say(t("Uploading…"));
    const answer = await arbiterDom.request("POST", "/api/v1/events/" + event + "/records",
                                            form, token);
    if (answer.status === 0) { say(t("The server did not answer; try again."), true); return; }
    const data = answer.data;
    if (!answer.ok) { say(refused(answer), true); return; }
    const out = $("upload-result");
    out.replaceChildren();
    const list = element("ul", null, "plain");
    for (const kept of data.uploads) {
      for (const one of kept.records) {
        const named = Object.keys(one.players).length ? one.players : (one.report.players || {});
        const names = Object.values(named).join(" " + t("v") + " ") || t("no players named");
        const verdict = one.valid ? t("%(result)s, valid", { result: one.result })
          : lang === "en" ? (one.report.errors[0] || {}).message || "invalid"
            : recordError(one.report.errors[0]);
        const waits = one.status === "pending" ? t("; it waits for the director's confirmation") : "";
        list.appendChild(element("li", t("Record %(record)s (%(names)s): %(verdict)s", {
          record: one.record, names, verdict }) + waits + (kept.duplicate ? " " + t("(sent before)") : "") + "."));
      }
    }
    out.appendChild(list);
    say(t("Uploaded. Thank you."));
    $("upload-files").value = "";
  }
})();
