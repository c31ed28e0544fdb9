// A player's upload page (spec/events.md §10). The desk gives each player a link with an
// upload token after the "#" (the part of an address a browser never sends to a server):
// the token is moved to this tab's sessionStorage and taken out of the address at once, and
// the page uploads records with it, and does nothing else.
"use strict";
(() => {
  const { $, element, busy } = arbiterDom;
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
    say("This page needs the link the director gave you (it carries your upload token).", true);
    return;
  }
  if (!$("send")) {
    say("The event is finalised.");
    return;
  }
  say("Ready: you may upload your game's record.");
  $("send").hidden = false;

  $("upload").addEventListener("click", () => busy($("upload"), upload));

  async function upload() {
    const files = $("upload-files").files;
    if (!files.length) { say("Choose the file first.", true); return; }
    const form = new FormData();
    for (const file of files) form.append("file", file, file.name);
    say("Uploading…");
    const answer = await arbiterDom.request("POST", "/api/v1/events/" + event + "/records",
                                            form, token);
    if (answer.status === 0) { say("The server did not answer; try again.", true); return; }
    const data = answer.data;
    if (!answer.ok) { say("Refused: " + data.error.message, true); return; }
    const out = $("upload-result");
    out.replaceChildren();
    const list = element("ul", null, "plain");
    for (const kept of data.uploads) {
      for (const one of kept.records) {
        const named = Object.keys(one.players).length ? one.players : (one.report.players || {});
        const names = Object.values(named).join(" v ") || "no players named";
        const verdict = one.valid ? one.result + ", valid"
          : (one.report.errors[0] || {}).message || "invalid";
        const waits = one.status === "pending" ? "; it waits for the director's confirmation" : "";
        list.appendChild(element("li", "Record " + one.record + " (" + names + "): " + verdict
                                       + waits + (kept.duplicate ? " (sent before)" : "") + "."));
      }
    }
    out.appendChild(list);
    say("Uploaded. Thank you.");
    $("upload-files").value = "";
  }
})();
