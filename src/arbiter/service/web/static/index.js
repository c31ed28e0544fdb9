// The front page (spec/api.md §3): records chosen as files or pasted are sent to the API to be
// adjudicated, validated or converted; the answers are shown as a table, each record opening
// in the viewer (viewer.js).
"use strict";
(() => {
  const { $, t, colour, errorText, recordError, lang } = arbiterDom;

  function cell(row, text, cls) {
    const td = row.insertCell();
    td.textContent = text == null ? "" : String(text);
    if (cls) td.className = cls;
    return td;
  }

  // Exactly one input is judged: chosen files, or else the pasted text. Typing or pasting in
  // the text box drops the chosen files; choosing files sets the text box aside, and the line
  // under the inputs always says which one the buttons will send.
  function chosenFiles() { return Array.from($("files").files); }

  function showJudging() {
    const files = chosenFiles();
    const note = $("judging");
    $("clear-files").hidden = files.length === 0;
    $("text").classList.toggle("set-aside", files.length > 0);
    const names = files.map((f) => f.name).join(", ");
    note.textContent = files.length > 1
      ? t("Judging: the chosen files %(names)s. The text box is ignored until you type in it or use the pasted text instead.", { names })
      : files.length
        ? t("Judging: the chosen file %(names)s. The text box is ignored until you type in it or use the pasted text instead.", { names })
        : t("Judging: the pasted text.");
  }

  function dropFiles() { $("files").value = ""; showJudging(); }

  $("files").addEventListener("change", showJudging);
  $("text").addEventListener("input", () => { if (chosenFiles().length) dropFiles(); });
  $("clear-files").addEventListener("click", dropFiles);
  $("example").addEventListener("click", () => {
    $("text").value = arbiterViewer.example;
    dropFiles();
  });

  // What the buttons send, taken once per click, so that every request made for one answer
  // (the reports, then the viewer's plies) judges the same input.
  async function requestBody() {
    const files = chosenFiles();
    if (files.length) {
      const form = new FormData();
      const texts = {};
      for (const file of files) {
        form.append("file", file, file.name);
        texts[file.name] = await file.text();
      }
      return { body: form, headers: {}, texts, label: files.map((f) => f.name).join(", ") };
    }
    const type = $("format").value;
    const text = $("text").value;
    return { body: text, headers: { "Content-Type": type || "application/octet-stream" },
             texts: { "": text }, label: t("the pasted text") };
  }

  function reportTable(reports, sent) {
    const table = document.createElement("table");
    const head = table.createTHead().insertRow();
    for (const name of [t("file"), "#", t("game"), t("size"), t("plies"), t("result"), t("winner"),
                        t("status"), ""]) {
      const th = document.createElement("th");
      th.textContent = name;
      head.appendChild(th);
    }
    const body = table.createTBody();
    reports.forEach((r, position) => {
      const row = body.insertRow();
      cell(row, r.file || t("(pasted)")); cell(row, r.index + 1); cell(row, r.game); cell(row, r.size);
      cell(row, r.plies); cell(row, r.result);
      cell(row, r.winner ? colour(r.winner) + (r.winner_player ? " (" + r.winner_player + ")" : "") : "");
      const e = r.errors[0];
      const best = r.valid ? [] : arbiterViewer.suggestionsOf(e);
      const hint = best.length
        ? "; " + t("did you mean ply %(ply)s %(move)s?", { ply: best[0].ply, move: best[0].move }) : "";
      const wrong = lang === "en" ? e && e.code + ": " + (e.ply ? "ply " + e.ply + ": " : "") + e.message
        : recordError(e);
      cell(row, r.valid ? t("valid") : wrong + hint, r.valid ? "ok" : "bad");
      const view = document.createElement("button");
      view.type = "button";
      view.textContent = t("View");
      view.addEventListener("click", () => arbiterViewer.open(sent, position));
      cell(row, "").appendChild(view);
    });
    return table;
  }

  function problemList(problems) {
    const pre = document.createElement("pre");
    pre.textContent = problems.map((p) => {
      const where = p.line ? p.line + ":" + p.column
        : t("record %(record)s", { record: p.index + 1 }) + (p.pointer || "");
      // The best suggestions under the problem, as arbiter validate prints them.
      const hints = arbiterViewer.suggestionsOf(p).slice(0, 3)
        .map((s) => "\n  " + t("did you mean %(suggestion)s", { suggestion: arbiterViewer.suggestionText(s) }));
      const said = lang === "en" ? p.code + ": " + p.message : recordError({ code: p.code, message: p.message });
      return (p.file || t("(pasted)")) + ":" + where + ": " + said + hints.join("");
    }).join("\n") || t("No problems: every record is valid.");
    return pre;
  }

  async function send(path) {
    const out = $("out");
    out.replaceChildren();
    arbiterViewer.close();
    $("status").textContent = t("Working…");
    const sent = await requestBody();
    let response;
    try {
      response = await fetch(path, { method: "POST", body: sent.body, headers: sent.headers });
    } catch (err) {
      $("status").textContent = t("The server did not answer: %(error)s", { error: err });
      return;
    }
    const isJson = (response.headers.get("Content-Type") || "").startsWith("application/json");
    const data = isJson ? await response.json() : await response.text();
    const pre = document.createElement("pre");
    if (!response.ok) {
      $("status").textContent = t("Error %(status)s: %(error)s", { status: response.status, error: errorText(data.error) });
      if (data.error.problems) out.appendChild(problemList(data.error.problems));
      if (data.error.output) {
        const note = document.createElement("p");
        note.textContent = t("The records that could be read, converted:");
        pre.textContent = data.error.output;
        out.append(note, pre);
      }
      return;
    }
    if (path.includes("/convert")) {
      $("status").textContent = t("Converted %(what)s.", { what: sent.label });
      pre.textContent = isJson ? JSON.stringify(data, null, 2) : data;
      out.appendChild(pre);
      return;
    }
    $("status").textContent = data.count
      ? t("Judged %(what)s: %(count)s record(s), %(invalid)s invalid.",
          { what: sent.label, count: data.count, invalid: data.invalid })
      : t("No records found in %(what)s.", { what: sent.label });
    const found = data.reports ? reportTable(data.reports, sent) : problemList(data.problems);
    const box = document.createElement("div");  // a wide table scrolls in its own box
    box.className = "scroll";
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", t("Reports"));
    box.appendChild(found);
    out.appendChild(box);
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = "JSON";
    pre.textContent = JSON.stringify(data, null, 2);
    details.append(summary, pre);
    out.appendChild(details);
    if (data.reports && data.reports.length) arbiterViewer.open(sent, 0);
  }

  for (const button of document.querySelectorAll("button[data-path]")) {
    button.addEventListener("click", () => send(button.dataset.path));
  }
  showJudging();
})();
