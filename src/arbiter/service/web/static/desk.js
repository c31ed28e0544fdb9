// The director's desk and the form that creates an event (spec/events.md §10). Everything
// goes through the API (/api/v1/events) with the token as a bearer token. The token is kept
// in sessionStorage, under the event's id: this tab only, never in a URL or a cookie.
"use strict";
(() => {
  const { $, element, say, refused } = arbiterDom;
  const script = document.currentScript;
  const event = script.dataset.event || null;
  const api = "/api/v1/events/" + event;
  const keyOf = (id) => "arbiter-token:" + id;

  const call = (method, path, body) =>
    arbiterDom.request(method, path, body, event ? sessionStorage.getItem(keyOf(event)) : null);

  // --- creating an event (the events page) -------------------------------------------------

  const create = $("create");
  if (create) {
    create.addEventListener("submit", async (e) => {
      e.preventDefault();
      const fields = { name: $("new-name").value, game: $("new-game").value,
                       confirm_uploads: $("new-confirm").checked };
      if ($("new-rounds").value) fields.rounds = Number($("new-rounds").value);
      if ($("new-pairing") && $("new-pairing").value !== "none") {
        fields.pairing = $("new-pairing").value;
        fields.bye_points = Number($("new-bye-points").value);
      }
      const answer = await call("POST", "/api/v1/events", fields);
      const out = $("created");
      out.replaceChildren();
      if (!answer.ok) { say("created", refused(answer), true); return; }
      sessionStorage.setItem(keyOf(answer.data.id), answer.data.token);
      out.className = "notice";
      out.append(
        element("p", "The event is created. This is its director's token: keep it now, it is "
                     + "shown this once (this tab keeps it until it is closed)."),
        element("code", answer.data.token, "secret"));
      const links = element("p");
      const desk = element("a", "Go to the director's desk");
      desk.href = "/events/" + answer.data.id + "/desk";
      const page = element("a", "the public page");
      page.href = answer.data.url;
      links.append(desk, " · ", page);
      out.appendChild(links);
    });
    return;
  }

  // --- the token ---------------------------------------------------------------------------

  async function signIn() {
    const token = sessionStorage.getItem(keyOf(event));
    if (!token) { say("who", "No token yet: give the event's token to make changes."); return; }
    const answer = await call("GET", api + "/tokens");
    if (answer.ok) {
      say("who", "Using a director's token.");
      showTokens(answer.data.tokens);
    } else if (answer.status === 403 && answer.data.error.code === "not-allowed") {
      say("who", "Using an upload token: you may upload records; the director confirms them.");
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
      ? files.length + " file(s) chosen: " + files.map((f) => f.name).join(", ") : "");
  }

  const zone = $("dropzone");
  zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    chose(e.dataTransfer.files);
  });
  $("upload-files").addEventListener("change", () => chose($("upload-files").files));

  $("upload").addEventListener("click", async () => {
    if (!files.length) { say("upload-result", "Choose or drop the files first.", true); return; }
    const form = new FormData();
    for (const file of files) form.append("file", file, file.name);
    say("upload-result", "Uploading…");
    const answer = await call("POST", api + "/records", form);
    if (!answer.ok) { say("upload-result", refused(answer), true); return; }
    const out = $("upload-result");
    out.replaceChildren();
    out.className = answer.data.invalid ? "warning" : "notice";
    out.appendChild(element("p", answer.data.count + " record(s), " + answer.data.invalid
                                 + " invalid."));
    const list = element("ul", null, "plain");
    for (const upload of answer.data.uploads) {
      for (const one of upload.records) list.appendChild(verdict(upload, one));
    }
    out.appendChild(list);
    files = [];
    $("upload-files").value = "";
    loadRecords();
  });

  function verdict(upload, one) {
    const item = element("li");
    const where = (upload.file || "body") + " #" + (one.index + 1);
    const label = "Record " + one.record + " (" + where + (upload.duplicate ? ", sent before" : "")
      + "): ";
    item.append(label);
    if (one.valid) item.appendChild(element("span", one.result + ", valid", "ok"));
    else item.appendChild(element("span", problem(one.report), "bad"));
    if (one.status !== "accepted") item.append(" ", element("span", one.status, "badge " + one.status));
    for (const warning of one.warnings || []) item.append(" ", element("span", warning.message, "note"));
    return item;
  }

  function problem(report) {
    const error = report.errors[0];
    if (!error) return "invalid";
    const where = error.ply ? " at ply " + error.ply
      : error.line ? " (line " + error.line + ", column " + error.column + ")" : "";
    return error.code + where + ": " + error.message;
  }

  // --- records and corrections -------------------------------------------------------------

  async function loadRecords() {
    const answer = await call("GET", api + "/records");
    if (!answer.ok) { say("records-note", refused(answer), true); return; }
    const body = $("records").tBodies[0];
    body.replaceChildren();
    for (const one of answer.data.records) {
      const row = body.insertRow();
      row.appendChild(element("td", one.record, "num"));
      row.appendChild(element("td", one.round == null ? "-" : one.round, "num"));
      row.appendChild(element("td", Object.values(one.players).join(" v ") || "-", "players"));
      row.appendChild(element("td", one.result + (one.official_result ? " (official)" : "")));
      const verdictCell = element("td", one.valid ? one.adjudicated_result + ", valid"
                                                  : problem(one.report), one.valid ? "ok" : "bad");
      for (const warning of one.warnings || []) {
        verdictCell.append(element("br"), element("span", warning.message, "note"));
      }
      row.appendChild(verdictCell);
      row.appendChild(element("td", one.status));
      const act = row.insertCell();
      const button = element("button", "Correct…");
      button.type = "button";
      button.setAttribute("aria-label", "Confirm or correct record " + one.record);
      button.addEventListener("click", () => {
        $("correct-record").value = one.record;
        $("correct-action").value = one.status === "pending" ? "confirm"
          : one.status === "excluded" ? "reinstate" : "set-result";
        $("correct-reason").focus();
      });
      act.appendChild(button);
    }
    say("records-note", answer.data.records.length + " record(s) kept.");
  }

  $("correct").addEventListener("submit", async (e) => {
    e.preventDefault();
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
    say("correct-note", "Record " + number + ": " + answer.data.status + ", counts as "
                        + answer.data.result + ".");
    $("correct-reason").value = "";
    loadRecords();
  });

  // --- the event -----------------------------------------------------------------------------

  $("settings").addEventListener("submit", async (e) => {
    e.preventDefault();
    const fields = { confirm_uploads: $("confirm-uploads").checked };
    fields.rounds = $("planned").value ? Number($("planned").value) : null;
    const answer = await call("PATCH", api, fields);
    say("settings-note", answer.ok ? "Saved: " + (answer.data.rounds || "no") + " planned rounds."
                                   : refused(answer), !answer.ok);
  });

  $("finalise").addEventListener("click", async () => {
    if (!window.confirm("Finalise the event? It becomes read-only: no upload or correction "
                        + "can be made after this.")) return;
    const answer = await call("POST", api + "/finalise", {});
    say("settings-note", answer.ok ? "The event is finalised." : refused(answer), !answer.ok);
  });

  // --- tokens ------------------------------------------------------------------------------

  function showTokens(tokens) {
    const body = $("tokens").tBodies[0];
    body.replaceChildren();
    for (const token of tokens) {
      const row = body.insertRow();
      row.appendChild(element("td", token.number, "num"));
      row.appendChild(element("td", token.role));
      row.appendChild(element("td", token.label, "player"));
      row.appendChild(element("td", token.created_at.slice(0, 16).replace("T", " ")));
      row.appendChild(element("td", token.revoked_at ? "revoked" : "active"));
      const cell = row.insertCell();
      if (!token.revoked_at) {
        const button = element("button", "Revoke");
        button.type = "button";
        button.setAttribute("aria-label", "Revoke token " + token.number + " (" + token.label + ")");
        button.addEventListener("click", async () => {
          const answer = await call("DELETE", api + "/tokens/" + token.number, {});
          say("issued", answer.ok ? "Token " + token.number + " is revoked." : refused(answer),
              !answer.ok);
          signIn();
        });
        cell.appendChild(button);
      }
    }
  }

  $("issue").addEventListener("submit", async (e) => {
    e.preventDefault();
    const answer = await call("POST", api + "/tokens",
                              { label: $("issue-label").value, role: $("issue-role").value });
    const out = $("issued");
    out.replaceChildren();
    if (!answer.ok) { say("issued", refused(answer), true); return; }
    out.className = "notice";
    out.append(element("p", "Token " + answer.data.number + " for " + answer.data.label
                            + ": give it to them now, it is shown this once."),
               element("code", answer.data.token, "secret"));
    $("issue-label").value = "";
    signIn();
  });

  signIn();
  loadRecords();
})();
