// The director's desk and the form that creates an event (spec/events.md §10). Everything
// goes through the API (/api/v1/events) with the token as a bearer token. The token is kept
// in sessionStorage, under the event's id: this tab only, never in a URL's path or query,
// nor in a cookie. The records are the page's own (server-rendered, with each one's status
// in words and its repair hints): after a change the desk fetches itself again and puts
// the new records in place.
"use strict";
(() => {
  const { $, element, say, refused, busy, t, lang, recordError } = arbiterDom;
  const script = document.currentScript;
  const event = script.dataset.event || null;
  const api = "/api/v1/events/" + event;
  const keyOf = (id) => "arbiter-token:" + id;

  const call = (method, path, body) =>
    arbiterDom.request(method, path, body, event ? sessionStorage.getItem(keyOf(event)) : null);

  // A link that opens the upload page with a token: the token after the "#", which a
  // browser never sends to a server (nor keeps in its logs), the player's number before.
  function uploadLink(eventId, token, player) {
    const page = location.origin + "/events/" + eventId + "/upload"
      + (player ? "?player=" + player : "");
    return page + "#token=" + encodeURIComponent(token);
  }

  function linkBox(text, link) {
    const box = element("div", null, "link-box");
    box.appendChild(element("p", text));
    const field = element("input");
    field.type = "text";
    field.readOnly = true;
    field.value = link;
    field.className = "secret";
    field.setAttribute("aria-label", t("The link"));
    const copy = element("button", t("Copy the link"));
    copy.type = "button";
    copy.addEventListener("click", async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(link);
        copy.textContent = t("Copied");
      } catch (err) {
        copy.textContent = t("Select and copy it");
      }
    });
    box.append(field, copy);
    return box;
  }

  // --- creating an event (the events page) -------------------------------------------------

  const create = $("create");
  if (create) {
    const takenNames = () => Array.from(document.querySelectorAll("#events-list td.name"))
      .map((cell) => cell.textContent.trim().toLowerCase());
    let warned = "";

    create.addEventListener("submit", (e) => {
      e.preventDefault();
      busy(create, createEvent);
    });

    // The tie-breaks offered first are those of the kind chosen (a round robin's have no
    // Buchholz, which it may not use), until the director picks some.
    const orderSelects = () => Array.from(document.querySelectorAll("#new-tiebreaks select"));
    let orderPicked = false;
    orderSelects().forEach((select) => select.addEventListener("change", () => { orderPicked = true; }));
    const kindChoice = $("new-pairing");
    const offerOrder = () => {
      const chosen = kindChoice.selectedOptions[0];
      if (orderPicked || !chosen || chosen.dataset.tiebreaks === undefined) return;
      const order = chosen.dataset.tiebreaks ? chosen.dataset.tiebreaks.split(",") : [];
      orderSelects().forEach((select, place) => { select.value = order[place] || ""; });
    };
    if (kindChoice) {
      kindChoice.addEventListener("change", offerOrder);
      offerOrder();
    }

    async function createEvent() {
      const name = $("new-name").value.trim().replace(/\s+/g, " ");
      if (takenNames().includes(name.toLowerCase()) && warned !== name) {
        warned = name;
        say("created", t("Another event is named “%(name)s” already. Give this one another name, or press Create again to keep the same name.", { name }), true);
        return;
      }
      const fields = { name, game: $("new-game").value, confirm_uploads: $("new-confirm").checked };
      if ($("new-rounds").value) fields.rounds = Number($("new-rounds").value);
      const order = Array.from(document.querySelectorAll("#new-tiebreaks select"))
        .map((select) => select.value).filter((value) => value);
      if (order.length) fields.tiebreaks = Array.from(new Set(order));
      const kind = $("new-pairing") ? $("new-pairing").selectedOptions[0] : null;
      if (kind && kind.dataset.paired) {
        fields.pairing = $("new-pairing").value;
        fields.bye_points = Number($("new-bye-points").value);
      }
      const answer = await call("POST", "/api/v1/events", fields);
      const out = $("created");
      out.replaceChildren();
      if (!answer.ok) { say("created", refused(answer), true); return; }
      warned = "";
      sessionStorage.setItem(keyOf(answer.data.id), answer.data.token);
      out.className = "notice";
      out.append(
        element("p", t("The event is created. This is its director's token: keep it now, it is shown this once (this tab keeps it until it is closed).")),
        element("code", answer.data.token, "secret"));
      const links = element("p");
      const desk = element("a", t("Go to the director's desk"));
      desk.href = "/events/" + answer.data.id + "/desk";
      const page = element("a", t("the public page"));
      page.href = answer.data.url;
      links.append(desk, " · ", page);
      out.appendChild(links);
      listed(answer.data);
    }
    return;
  }

  function listed(made) {
    // The new event at the top of the list, as the server lists it.
    const body = document.querySelector("#events-list tbody");
    if (!body) return;
    if ($("no-events")) $("no-events").remove();
    $("events-box").hidden = false;
    const row = element("tr");
    const name = element("td", null, "name");
    const link = element("a", made.name);
    link.href = "/events/" + made.id;
    name.appendChild(link);
    const created = element("time", arbiterTimes.day(made.created_at));
    created.setAttribute("datetime", made.created_at);
    const day = element("td", null, "nums");
    day.appendChild(created);
    row.append(name, element("td", made.game, "word"), day,
               element("td", t("in progress"), "word"));
    body.prepend(row);
  }

  // --- the token ---------------------------------------------------------------------------

  const open = script.dataset.open === "yes";

  function roleShown(role) {
    // An upload token uploads only: the director's controls are not shown to it.
    for (const part of document.querySelectorAll("[data-director]")) part.hidden = role === "upload";
  }

  async function signIn() {
    const token = sessionStorage.getItem(keyOf(event));
    if (!token) {
      roleShown(null);
      say("who", t("No token yet: give the event's token to make changes."));
      return;
    }
    const answer = await call("GET", api + "/tokens");
    if (answer.ok) {
      roleShown("director");
      say("who", t("Using a director's token."));
      showTokens(answer.data.tokens);
      loadWebhooks();
    } else if (answer.status === 403 && answer.data.error.code === "not-allowed") {
      roleShown("upload");
      say("who", t("Using an upload token: you may upload records; the director confirms them."));
    } else {
      say("who", refused(answer), true);
    }
  }

  $("token-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const token = $("token").value.trim();
    if (token) sessionStorage.setItem(keyOf(event), token);
    $("token").value = "";
    signIn();
  });
  $("forget").addEventListener("click", () => {
    sessionStorage.removeItem(keyOf(event));
    $("tokens").tBodies[0].replaceChildren();
    signIn();
  });

  // --- uploads -----------------------------------------------------------------------------

  let files = [];

  function chose(list) {
    files = Array.from(list);
    say("upload-result", files.length
      ? t("%(count)s file(s) chosen: %(names)s", { count: files.length, names: files.map((f) => f.name).join(", ") })
      : "");
  }

  const zone = $("dropzone");
  if (zone) {
    zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
    zone.addEventListener("dragleave", () => zone.classList.remove("over"));
    zone.addEventListener("drop", (e) => {
      e.preventDefault();
      zone.classList.remove("over");
      chose(e.dataTransfer.files);
    });
    $("upload-files").addEventListener("change", () => chose($("upload-files").files));
    $("upload").addEventListener("click", () => busy($("upload"), upload));
  }

  async function upload() {
    if (!files.length) { say("upload-result", t("Choose or drop the files first."), true); return; }
    const form = new FormData();
    for (const file of files) form.append("file", file, file.name);
    say("upload-result", t("Uploading…"));
    const answer = await call("POST", api + "/records", form);
    if (!answer.ok) { say("upload-result", refused(answer), true); return; }
    const out = $("upload-result");
    out.replaceChildren();
    out.className = answer.data.invalid ? "warning" : "notice";
    out.appendChild(element("p", t("%(count)s record(s), %(invalid)s invalid.",
                                   { count: answer.data.count, invalid: answer.data.invalid })));
    const list = element("ul", null, "plain");
    for (const kept of answer.data.uploads) {
      for (const one of kept.records) list.appendChild(verdict(kept, one));
    }
    out.appendChild(list);
    files = [];
    $("upload-files").value = "";
    reloadRecords();
    document.dispatchEvent(new CustomEvent("arbiter:records-changed"));
  }

  // A record's players as it names them: a record of another game names its own colours
  // (its report says them), one that could not be read names none.
  function namesOf(one) {
    const named = Object.keys(one.players).length ? one.players : (one.report.players || {});
    return Object.values(named).join(" " + t("v") + " ") || t("no players named");
  }

  function verdict(kept, one) {
    const item = element("li");
    const names = namesOf(one);
    const said = names + (kept.duplicate ? ", " + t("sent before") : "");
    const label = one.round != null
      ? t("Record %(record)s, round %(round)s (%(names)s): ", { record: one.record, round: one.round, names: said })
      : t("Record %(record)s (%(names)s): ", { record: one.record, names: said });
    item.append(label);
    if (one.valid) item.appendChild(element("span", t("%(result)s, valid", { result: one.result }), "ok"));
    else item.appendChild(element("span", problem(one.report), "bad"));
    if (one.status === "pending") item.append(" ", element("span", t("waits for confirmation"),
                                                           "badge pending"));
    if (one.board != null && one.placement == null) {
      item.append(" ", element("span", t("counts on round %(round)s board %(board)s",
                                         { round: one.board_round, board: one.board }), "badge"));
    }
    for (const warning of one.warnings || []) {
      item.append(" ", element("span", WARNINGS[warning.code] && lang !== "en"
        ? WARNINGS[warning.code] : warning.message, "note"));
    }
    const best = (one.suggestions || [])[0];
    if (best) {
      item.append(" ", element("span", t("Did you mean round %(round)s board %(board)s, %(first)s v %(second)s? The records below place it in a click.",
        { round: best.round, board: best.board, first: best.first, second: best.second }), "note"));
    }
    return item;
  }

  function problem(report) {
    return recordError(report.errors[0]);
  }

  // What a director should look at in a record that counts all the same, by its code.
  const WARNINGS = {
    "no-event-tag": t("the record has no Event tag; it counts for the event it was uploaded to"),
    "event-tag-differs": t("the record's Event tag names another event; it counts for the event it was uploaded to"),
    "names-taken": t("the director placed it: its names are taken as the board's players"),
    "names-folded": t("its board was found by its players' names written otherwise"),
  };

  // --- records: the page's own, filtered, corrected, repaired --------------------------------

  async function reloadRecords() {
    // The desk's records as the server renders them now (statuses, hints), in place.
    let response;
    try {
      response = await fetch(location.pathname, { headers: { Accept: "text/html" } });
    } catch (err) {
      return;
    }
    if (!response.ok) return;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
    const records = fresh.getElementById("desk-records");
    if (records) $("desk-records").replaceWith(records);
    arbiterTimes.show($("desk-records"));
    filter();
  }

  function filter() {
    const wanted = $("records-filter").value;
    const typed = $("records-search").value.trim().toLowerCase();
    let shown = 0;
    for (const part of document.querySelectorAll("#desk-records .desk-round")) {
      let any = false;
      for (const row of part.querySelectorAll("tr.record")) {
        const state = row.dataset.state;
        const fits = wanted === "all" || state === wanted
          || (wanted === "attention" && (state !== "counts" || row.dataset.valid === "no"));
        const named = !typed || (row.dataset.names || "").toLowerCase().includes(typed);
        row.hidden = !(fits && named);
        any = any || !row.hidden;
        shown += row.hidden ? 0 : 1;
      }
      part.hidden = !any;
    }
    $("records-count").textContent = t("%(count)s record(s) shown.", { count: shown });
  }

  $("records-filter").addEventListener("change", filter);
  document.addEventListener("arbiter:rounds-changed", reloadRecords);
  // A change of the event, from this desk or anywhere else (pushed: live.js).
  if (script.dataset.paired !== "yes") {
    document.addEventListener("arbiter:event-changed", reloadRecords);
  }
  $("records-search").addEventListener("input", filter);

  function wordsOf(number) {
    const row = document.querySelector('#desk-records tr[data-record="' + number + '"] .status');
    return row ? row.textContent : "";
  }

  document.addEventListener("click", (e) => {
    const button = e.target.closest("button.correct");
    if (!button || !$("correct")) return;
    $("correct-record").value = button.dataset.record;
    const status = button.dataset.status;
    $("correct-action").value = status === "pending" ? "confirm"
      : status === "excluded" ? "reinstate" : "set-result";
    $("correct-reason").focus();
  });

  document.addEventListener("submit", async (e) => {
    const form = e.target.closest("form.repair");
    if (!form) return;
    e.preventDefault();
    const number = form.dataset.record;
    const reason = form.elements.reason.value.trim();
    const answer = await busy(form, () => call("POST", api + "/records/" + number + "/repair",
                                               { apply: [form.dataset.correction], reason }));
    if (!answer) return;
    if (!answer.ok) { say("records-note", refused(answer), true); return; }
    const copy = answer.data.copy.records[0];
    await reloadRecords();
    document.dispatchEvent(new CustomEvent("arbiter:records-changed"));
    say("records-note", t("Record %(record)s repaired (%(hint)s): its corrected copy is record %(copy)s, which %(copy_state)s; record %(record)s is kept and %(state)s.",
        { record: number, hint: form.dataset.hint, copy: copy.record, copy_state: wordsOf(copy.record),
          state: wordsOf(number) }));
  });

  // A record placed on the board the desk suggests, in a click (its reason filled in).
  document.addEventListener("submit", async (e) => {
    const form = e.target.closest("form.place");
    if (!form) return;
    e.preventDefault();
    const fields = { round: Number(form.dataset.round), board: Number(form.dataset.board),
                     seats: form.dataset.seats, reason: form.elements.reason.value.trim() };
    const number = form.dataset.record;
    const answer = await busy(form, () => call("POST", api + "/records/" + number + "/place",
                                               fields));
    if (!answer) return;
    if (!answer.ok) { say("records-note", refused(answer), true); return; }
    await reloadRecords();
    document.dispatchEvent(new CustomEvent("arbiter:records-changed"));
    say("records-note", t("Record %(record)s is placed on round %(round)s board %(board)s: %(state)s.",
        { record: number, round: fields.round, board: fields.board, state: wordsOf(number) }));
  });

  const correct = $("correct");
  if (correct) correct.addEventListener("submit", (e) => {
    e.preventDefault();
    busy(correct, correctRecord);
  });

  async function correctRecord() {
    const number = $("correct-record").value;
    const action = $("correct-action").value;
    const reason = $("correct-reason").value.trim() || undefined;
    const path = api + "/records/" + number;
    const answer = action === "set-result"
      ? await call("PUT", path + "/result", { result: $("correct-result").value, reason })
      : action === "clear-result"
        ? await call("DELETE", path + "/result", { reason })
        : await call("POST", path + "/" + action, { reason });
    if (!answer.ok) { say("correct-note", refused(answer), true); return; }
    $("correct-reason").value = "";
    await reloadRecords();
    document.dispatchEvent(new CustomEvent("arbiter:records-changed"));
    say("correct-note", answer.data.official_result
      ? t("Record %(record)s, official result %(result)s: %(state)s.",
          { record: number, result: answer.data.official_result, state: wordsOf(number) })
      : t("Record %(record)s: %(state)s.", { record: number, state: wordsOf(number) }));
  }

  // --- the event -----------------------------------------------------------------------------

  const settings = $("settings");
  if (settings) settings.addEventListener("submit", (e) => {
    e.preventDefault();
    const fields = { confirm_uploads: $("confirm-uploads").checked };
    fields.rounds = $("planned").value ? Number($("planned").value) : null;
    const order = Array.from(new Set(Array.from(
      document.querySelectorAll("#settings-tiebreaks select"), (select) => select.value)
      .filter((value) => value)));
    const kept = $("settings-tiebreaks").dataset.tiebreaks;
    if (order.join(",") !== kept) fields.tiebreaks = order;
    busy(settings, async () => {
      if (fields.tiebreaks && !(await tiebreaksExplained(fields))) return;
      const answer = await call("PATCH", api, fields);
      if (answer.ok) {
        $("settings-tiebreaks").dataset.tiebreaks = answer.data.tiebreaks.join(",");
        $("settings-reason").value = "";
        $("settings-why").hidden = true;
      }
      say("settings-note", !answer.ok ? refused(answer)
        : answer.data.rounds ? t("Saved: %(rounds)s planned rounds.", { rounds: answer.data.rounds })
          : t("Saved: no planned rounds."), !answer.ok);
    });
  });

  // Once a round is paired, a change of the tie-breaks is warned of and needs a reason
  // (FIDE's checklist): the trail and the TRF keep it, with the list it replaces.
  async function tiebreaksExplained(fields) {
    if (script.dataset.paired !== "yes") return true;
    const rounds = await call("GET", api + "/rounds");  // the director's: a draft too
    const paired = rounds.ok ? Math.max(0, ...rounds.data.rounds.map((one) => one.round)) : 0;
    if (!paired) return true;
    const reason = $("settings-reason").value.trim();
    if (!reason) {
      $("settings-why").hidden = false;
      $("settings-reason").focus();
      say("settings-note", t("Round %(round)s is paired: changing the tie-breaks now changes how the players are ranked. Say why, then Save again.", { round: paired }), true);
      return false;
    }
    if (!window.confirm(t("Change the tie-breaks after round %(round)s? The trail and the TRF keep the change, the list it replaces and your reason.", { round: paired }))) {
      return false;
    }
    fields.reason = reason;
    return true;
  }

  const finalise = $("finalise");
  if (finalise) finalise.addEventListener("click", () => {
    if (!window.confirm(t("Finalise the event? It becomes read-only: no upload or correction can be made after this."))) return;
    busy(finalise, async () => {
      const answer = await call("POST", api + "/finalise", {});
      if (answer.ok) location.reload();  // the desk without its write controls
      else say("settings-note", refused(answer), true);
    });
  });

  // --- tokens ------------------------------------------------------------------------------

  function showTokens(tokens) {
    const body = $("tokens").tBodies[0];
    body.replaceChildren();
    for (const token of tokens) {
      const row = body.insertRow();
      const cells = [["#", token.number, "num"], [t("Role"), ROLES[token.role] || token.role],
                     [t("For"), token.label, "player"],
                     [t("Issued"), arbiterTimes.text(token.created_at)],
                     [t("State"), token.revoked_at ? t("revoked") : t("active")]];
      for (const [label, text, cls] of cells) {
        const cell = element("td", text, cls);
        cell.dataset.label = label;
        row.appendChild(cell);
      }
      const cell = row.insertCell();
      cell.dataset.label = t("Revoke");
      if (!token.revoked_at && open) {
        const button = element("button", t("Revoke…"));
        button.type = "button";
        button.setAttribute("aria-label", t("Revoke token %(token)s (%(label)s)",
                                            { token: token.number, label: token.label }));
        button.addEventListener("click", () => busy(button, () => revoke(token)));
        cell.appendChild(button);
      }
    }
  }

  const ROLES = { upload: t("upload"), director: t("director"), player: t("player") };

  async function revoke(token) {
    const named = { token: token.number, label: token.label };
    if (!window.confirm(t("Revoke token %(token)s (%(label)s)? Whoever holds it can no longer upload or change anything with it.", named))) return;
    const answer = await call("DELETE", api + "/tokens/" + token.number, {});
    say("issued", answer.ok ? t("Token %(token)s (%(label)s) is revoked.", named)
                            : refused(answer), !answer.ok);
    signIn();
  }

  // A token for a player (`player`: their pairing number) claims that player's boards only.
  async function issue(label, role, player) {
    const fields = { label, role };
    if (player) fields.player = player;
    const answer = await call("POST", api + "/tokens", fields);
    const out = $("issued");
    out.replaceChildren();
    if (!answer.ok) { say("issued", refused(answer), true); return null; }
    out.className = "notice";
    if (role === "upload" || role === "player") {
      const named = { token: answer.data.number, label: answer.data.label };
      out.appendChild(linkBox(role === "player"
        ? t("Token %(token)s for %(label)s: give them this link now; it is shown this once. It opens their page: check in, report their game's result, upload its record.", named)
        : t("Token %(token)s for %(label)s: give them this link now; it is shown this once. It opens their page: upload records.", named),
        uploadLink(event, answer.data.token, player)));
    } else {
      out.append(element("p", t("Token %(token)s for %(label)s: give it to them now, it is shown this once.",
                                { token: answer.data.number, label: answer.data.label })),
                 element("code", answer.data.token, "secret"));
    }
    signIn();
    return answer.data;
  }

  const issueForm = $("issue");
  if (issueForm) issueForm.addEventListener("submit", (e) => {
    e.preventDefault();
    busy(issueForm, async () => {
      if (await issue($("issue-label").value, $("issue-role").value, null)) {
        $("issue-label").value = "";
      }
    });
  });

  // The players' table (rounds.js) asks for a player's link here.
  document.addEventListener("arbiter:player-link", (e) => {
    busy(e.detail.button, () => issue(e.detail.name.slice(0, 100), "player", e.detail.number))
      .then(() => $("issued").scrollIntoView({ block: "nearest" }));
  });

  // --- receipts: each change's, kept in this browser, listed, downloaded, checked -----------

  function showReceipts() {
    const table = $("receipts");
    if (!table) return;
    const kept = arbiterDom.receipts(event);
    const body = table.tBodies[0];
    body.replaceChildren();
    for (const one of kept.slice().reverse()) {
      const row = body.insertRow();
      const cells = [[t("Entry"), one.receipt.entry, "num"], [t("What"), one.what],
                     [t("When"), arbiterTimes.text(one.receipt.at)],
                     [t("Hash"), one.receipt.hash.slice(0, 16) + "…", "hash"]];
      for (const [label, text, cls] of cells) {
        const cell = element("td", text, cls);
        cell.dataset.label = label;
        row.appendChild(cell);
      }
    }
    say("receipts-note", kept.length ? t("%(count)s receipt(s) kept in this browser.", { count: kept.length })
                                     : t("No receipt yet: each change made here adds one."));
    $("receipts-download").disabled = !kept.length;
    $("receipts-check").disabled = !kept.length;
  }

  if ($("receipts")) {
    document.addEventListener("arbiter:receipt", showReceipts);
    $("receipts-download").addEventListener("click", () => {
      const kept = arbiterDom.receipts(event).map((one) => one.receipt);
      const blob = new Blob([JSON.stringify(kept, null, 1) + "\n"], { type: "application/json" });
      const link = element("a");
      link.href = URL.createObjectURL(blob);
      link.download = "receipts-" + event + ".json";
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    });
    $("receipts-check").addEventListener("click", () => busy($("receipts-check"), async () => {
      const kept = arbiterDom.receipts(event).map((one) => one.receipt);
      const answer = await arbiterDom.request("POST", api + "/verify", { receipts: kept }, null);
      if (!answer.ok) { say("receipts-note", refused(answer), true); return; }
      const problems = [...answer.data.problems, ...answer.data.receipts.problems];
      say("receipts-note", answer.data.ok
        ? t("All %(count)s receipt(s) hold: the trail still has each entry with its hash, and the event verifies (%(entries)s entries).",
            { count: answer.data.receipts.checked, entries: answer.data.entries })
        : t("Problems: %(problems)s", { problems: problems.join("; ") }), !answer.data.ok);
    }));
    showReceipts();
  }

  // --- webhooks: the URLs the event's changes are sent to, with their deliveries ----------

  const KIND_WORDS = { "round-published": t("rounds published"), result: t("results"),
                       correction: t("corrections"), finalised: t("the event finalised") };
  const DELIVERY = { delivered: t("delivered"), retrying: t("retrying"), failed: t("failed"),
                     pending: t("pending") };

  function deliveryWords(one) {
    const answer = one.http_status ? "HTTP " + one.http_status : "";
    const why = [answer, one.error || ""].filter(Boolean).join(": ");
    const tries = one.attempts === 1 ? t("1 attempt") : t("%(count)s attempts", { count: one.attempts });
    let words = t("entry %(entry)s %(status)s (%(tries)s)",
                  { entry: one.entry, status: DELIVERY[one.status] || one.status, tries });
    if (one.status === "delivered") words += " " + arbiterTimes.text(one.delivered_at);
    else if (one.status === "retrying" && one.next_at) {
      words += ", " + t("next %(time)s", { time: arbiterTimes.text(one.next_at) });
    }
    return why && one.status !== "delivered" ? words + ": " + why : words;
  }

  function showWebhooks(webhooks) {
    const body = $("webhooks").tBodies[0];
    body.replaceChildren();
    for (const hook of webhooks) {
      const row = body.insertRow();
      const latest = hook.deliveries.slice(0, 3).map(deliveryWords).join("; ");
      const cells = [["#", hook.number, "num"], [t("URL"), hook.url, "url"],
                     [t("Sends"), hook.events.map((kind) => KIND_WORDS[kind] || kind).join(", ")],
                     [t("State"), hook.active ? t("active") : t("removed")],
                     [t("Deliveries"), latest || t("none yet")]];
      for (const [label, text, cls] of cells) {
        const cell = element("td", String(text), cls);
        cell.dataset.label = label;
        row.appendChild(cell);
      }
      const cell = row.insertCell();
      cell.dataset.label = t("Remove");
      if (hook.active && open) {
        const button = element("button", t("Remove…"));
        button.type = "button";
        button.setAttribute("aria-label", t("Remove webhook %(webhook)s", { webhook: hook.number }));
        button.addEventListener("click", () => busy(button, () => removeWebhook(hook)));
        cell.appendChild(button);
      }
    }
  }

  async function loadWebhooks() {
    const answer = await call("GET", api + "/webhooks");
    if (answer.ok) showWebhooks(answer.data.webhooks);
    else say("webhooks-note", refused(answer), true);
  }

  async function removeWebhook(hook) {
    if (!window.confirm(t("Remove webhook %(webhook)s? Nothing more is sent to %(url)s.",
                          { webhook: hook.number, url: hook.url }))) return;
    const answer = await call("DELETE", api + "/webhooks/" + hook.number, {});
    say("webhooks-note", answer.ok ? t("Webhook %(webhook)s is removed.", { webhook: hook.number })
      : refused(answer), !answer.ok);
    loadWebhooks();
  }

  const webhookForm = $("webhook-form");
  if (webhookForm) webhookForm.addEventListener("submit", (e) => {
    e.preventDefault();
    busy(webhookForm, async () => {
      const kinds = [...webhookForm.querySelectorAll("input[name=webhook-kind]:checked")]
        .map((box) => box.value);
      if (!kinds.length) { say("webhooks-note", t("Choose at least one kind of change."), true); return; }
      const answer = await call("POST", api + "/webhooks", { url: $("webhook-url").value.trim(),
                                                             events: kinds });
      if (!answer.ok) { say("webhooks-note", refused(answer), true); return; }
      say("webhooks-note", t("Webhook %(webhook)s sends to %(url)s.", { webhook: answer.data.number, url: answer.data.url }));
      $("webhook-url").value = "";
      loadWebhooks();
    });
  });

  signIn();
  filter();
})();
