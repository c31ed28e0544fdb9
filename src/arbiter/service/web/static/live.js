// An event's pages follow its changes (spec/events.md §10.1): the server pushes the event's
// version on /events/ID/stream, and each version newer than the page's calls `changed`
// (the public, round and player pages put their new content in place; the desk shows its
// lists again). Where the browser has no EventSource, or the stream fails (refused, or cut
// three times without coming back), the page asks the version every 20 seconds instead.
// Without scripts the pages are whole as served; nothing here is needed to read them.
"use strict";
const arbiterLive = (() => {
  const POLL_MS = 20000;
  const FAILURES = 3;

  // `changed(version)` runs once at a time: a version that arrives during it runs it again
  // afterwards, once, with the newest. A hidden page waits until it is shown; on the desk,
  // a field being typed in waits until it is left (`typing`), so a push never takes away
  // what the director is writing.
  function follow(event, version, changed, typing) {
    let known = Number(version) || 0;
    let running = false;
    let pending = false;

    async function run() {
      if (running) { pending = true; return; }
      if (document.hidden) { pending = true; return; }
      if (typing && typing()) {
        pending = true;
        document.addEventListener("focusout", later, { once: true });
        return;
      }
      running = true;
      pending = false;
      try {
        await changed(known);
      } catch (err) {
        // a refresh that failed: the next change, or the next poll, tries again
      } finally {
        running = false;
      }
      if (pending) run();
    }

    function later() { setTimeout(() => { if (pending) run(); }, 0); }

    function seen(next) {
      if (typeof next !== "number" || next <= known) return;
      known = next;
      run();
    }

    document.addEventListener("visibilitychange", () => { if (!document.hidden && pending) run(); });

    let polling = false;
    function poll() {
      if (polling) return;
      polling = true;
      setInterval(async () => {
        if (document.hidden) return;
        let response;
        try {
          response = await fetch("/api/v1/events/" + encodeURIComponent(event),
                                  { headers: { "If-None-Match": '"' + event + "-" + known + '"' } });
        } catch (err) {
          return; // offline for a moment: the next poll tries again
        }
        if (response.status !== 200) return;
        try {
          seen((await response.json()).version);
        } catch (err) {
          // not the event's JSON: the next poll tries again
        }
      }, POLL_MS);
    }

    if (typeof EventSource !== "function") { poll(); return; }
    const source = new EventSource("/events/" + encodeURIComponent(event) + "/stream");
    let failures = 0;
    source.addEventListener("open", () => { failures = 0; });
    source.addEventListener("version", (e) => {
      try {
        seen(JSON.parse(e.data).version);
      } catch (err) {
        // an event that cannot be read: the next one says the version again
      }
    });
    source.addEventListener("error", () => {
      failures += 1;
      // CLOSED: the server refused the stream (no such event, too many streams); the
      // browser connects again by itself otherwise, but not for ever.
      if (source.readyState === EventSource.CLOSED || failures >= FAILURES) {
        source.close();
        poll();
      }
    });
  }

  // The desk names its event on this script's tag: each change is told to the desk's own
  // scripts (desk.js, rounds.js) as the document's event "arbiter:event-changed", held
  // while the director types in a field.
  const tag = document.currentScript;
  if (tag && tag.dataset.event) {
    const typing = () => Boolean(document.activeElement
      && document.activeElement.matches("input:not([type=checkbox]):not([type=file]), textarea"));
    follow(tag.dataset.event, tag.dataset.version, async (version) => {
      document.dispatchEvent(new CustomEvent("arbiter:event-changed", { detail: { version } }));
    }, typing);
  }

  return { follow };
})();
