// The public page of an event (spec/events.md §10): each game opens in the record viewer,
// and the page follows new results. Every 20 seconds (while the page is shown) it asks the
// event's version with If-None-Match; when it changed, it fetches the page again and puts
// its new standings, games and corrections in place, without a reload.
"use strict";
(() => {
  const script = document.currentScript;
  const event = script.dataset.event;
  let tag = '"' + event + "-" + script.dataset.version + '"';
  const { $ } = arbiterDom;

  async function view(button) {
    const sha = button.dataset.upload;
    const response = await fetch("/api/v1/events/" + event + "/uploads/" + sha);
    if (!response.ok) {
      $("updated").hidden = false;
      $("updated").textContent = "Cannot load the record: error " + response.status + ".";
      return;
    }
    const kind = (response.headers.get("Content-Type") || "").split(";")[0];
    const text = await response.text();
    // Sent as a body, the upload's records have no file name: its text is the body's.
    arbiterViewer.open({ body: text, headers: { "Content-Type": kind }, texts: { "": text },
                         label: button.dataset.file }, Number(button.dataset.index));
  }

  document.addEventListener("click", (e) => {
    const button = e.target.closest("button.view");
    if (button) view(button);
  });

  async function poll() {
    if (document.hidden) return;
    let response;
    try {
      response = await fetch("/api/v1/events/" + event, { headers: { "If-None-Match": tag } });
    } catch (err) {
      return; // offline for a moment: the next poll tries again
    }
    if (response.status !== 200) return;
    tag = response.headers.get("ETag") || tag;
    const page = await fetch(location.href);
    if (!page.ok) return;
    const fresh = new DOMParser().parseFromString(await page.text(), "text/html");
    for (const id of ["live"]) $(id).replaceWith(fresh.getElementById(id));
    document.querySelector("p.meta").replaceWith(fresh.querySelector("p.meta"));
    $("updated").hidden = false;
    $("updated").textContent = "Updated with the latest results at "
      + new Date().toLocaleTimeString() + ".";
  }

  setInterval(poll, 20000);
})();
