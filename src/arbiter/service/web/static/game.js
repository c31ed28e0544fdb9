// A game's own page (spec/events.md §10): its record, and only its record, is fetched
// (GET /api/v1/events/ID/records/N/text) and opened in the record viewer, titled as people
// name the game: "Round 3 · Board 2 · A v B".
"use strict";
(() => {
  const script = document.currentScript;
  const { $, t } = arbiterDom;

  async function show() {
    const path = "/api/v1/events/" + script.dataset.event + "/records/"
      + script.dataset.record + "/text";
    let response;
    try {
      response = await fetch(path);
    } catch (err) {
      $("v-title").textContent = t("The server did not answer.");
      return;
    }
    if (!response.ok) {
      $("viewer").hidden = false;
      $("v-title").textContent = t("Cannot load the record: error %(status)s.", { status: response.status });
      return;
    }
    const kind = (response.headers.get("Content-Type") || "").split(";")[0];
    const text = await response.text();
    arbiterViewer.open({ body: text, headers: { "Content-Type": kind }, texts: { "": text },
                         title: script.dataset.title }, 0, { scroll: false });
  }

  document.addEventListener("DOMContentLoaded", show);
})();
