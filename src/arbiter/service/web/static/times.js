// Times in the reader's own time zone, to the minute (spec/events.md §10): every
// <time class="local" datetime="2026-11-25T17:02:03.456Z"> of a page shows the time as
// the server wrote it (UTC) until this script puts it in the reader's zone, and again
// whenever a page puts new content in place (arbiterTimes.show).
"use strict";

const arbiterTimes = (() => {
  // The page's language (<html lang>), in the reader's time zone.
  const format = new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
    year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit",
    timeZoneName: "short",
  });

  function show(root) {
    for (const node of (root || document).querySelectorAll("time.local[datetime]")) {
      const at = new Date(node.getAttribute("datetime"));
      if (Number.isNaN(at.getTime())) continue;
      node.textContent = format.format(at);
      node.title = node.getAttribute("datetime");
    }
  }

  document.addEventListener("DOMContentLoaded", () => show(document));
  const days = new Intl.DateTimeFormat(document.documentElement.lang || undefined,
                                       { year: "numeric", month: "short", day: "numeric" });
  return Object.freeze({ show, text: (iso) => format.format(new Date(iso)),
                         day: (iso) => days.format(new Date(iso)) });
})();
