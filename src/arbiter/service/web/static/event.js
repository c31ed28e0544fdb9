// The public page of an event, its round pages and its players' pages (spec/events.md §10):
// each game opens in the record viewer, fetching that record alone, and the page follows
// new results. When the event's version changes (pushed on its stream, or asked every 20
// seconds where there is no stream: live.js), it fetches the page again and puts its new
// content in place, without a reload.
"use strict";
(() => {
  const script = document.currentScript;
  const event = script.dataset.event;
  const { $, t } = arbiterDom;

  async function view(button) {
    const path = "/api/v1/events/" + event + "/records/" + button.dataset.record + "/text";
    let response;
    try {
      response = await fetch(path);
    } catch (err) {
      response = { ok: false, status: 0 };
    }
    if (!response.ok) {
      $("updated").hidden = false;
      $("updated").textContent = t("Cannot load the record: error %(status)s.", { status: response.status });
      return;
    }
    const kind = (response.headers.get("Content-Type") || "").split(";")[0];
    const text = await response.text();
    arbiterViewer.open({ body: text, headers: { "Content-Type": kind }, texts: { "": text },
                         title: button.dataset.title }, 0);
  }

  document.addEventListener("click", (e) => {
    const button = e.target.closest("button.view");
    if (button) view(button);
  });

  async function refresh() {
    if (!$("live")) return;
    const page = await fetch(location.href);
    if (!page.ok) return;
    const fresh = new DOMParser().parseFromString(await page.text(), "text/html");
    for (const id of ["live", "meta"]) {
      if ($(id) && fresh.getElementById(id)) $(id).replaceWith(fresh.getElementById(id));
    }
    arbiterTimes.show(document);
    $("updated").hidden = false;
    $("updated").textContent = t("Updated with the latest results at %(time)s.",
                                 { time: arbiterTimes.text(new Date().toISOString()) });
  }

  arbiterLive.follow(event, script.dataset.version, refresh);
})();
