// The judging page: keyboard only; every answer is posted (and on the server's disk) before
// the page moves on. Dataset text is only ever put in with textContent / append(string).
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  let annotator = params.get("annotator") || "";
  let items = [], answers = {}, questions = [];
  let pos = 0, redo = null, busy = false;
  const reveals = {};

  const show = (id) => { for (const s of ["who", "judge", "done"]) $(s).hidden = s !== id; };
  const fail = (msg) => { $("error").textContent = msg || ""; $("error").hidden = !msg; };
  const complete = (a) => !!a && questions.every((q) => q in a);
  const judged = () => items.filter((it) => complete(answers[it.item])).length;

  async function call(path, options) {
    const response = await fetch(path, options);
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.error || `HTTP ${response.status}`);
    return body;
  }

  function nextOpen(from) {
    for (let k = 0; k < items.length; k++) {
      const i = (from + k) % items.length;
      if (!complete(answers[items[i].item])) return i;
    }
    return -1;
  }

  function asking() {
    const a = answers[items[pos].item] || {};
    return redo || questions.find((q) => !(q in a)) || "notes";
  }

  function words(cell, segments) {
    cell.textContent = "";
    segments.forEach(([kind, text], k) => {
      if (k) cell.append(" ");
      if (kind === "same") { cell.append(text); return; }
      const mark = document.createElement(kind === "del" ? "del" : "ins");
      mark.textContent = text;
      cell.append(mark);
    });
  }

  function labelKeys(labels) {
    const box = $("label-keys");
    box.textContent = "";
    labels.forEach((label, k) => {
      if (k) box.append(" · ");
      const key = document.createElement("kbd");
      key.textContent = label[0];
      box.append(key, ` or `);
      const num = document.createElement("kbd");
      num.textContent = String(k + 1);
      box.append(num, ` ${label}`);
    });
  }

  function progress() {
    $("progress").textContent = `${judged()} of ${items.length} judged by ${annotator}`;
  }

  async function showReveal(item) {
    if (!reveals[item]) reveals[item] = await call(
      `reveal?annotator=${encodeURIComponent(annotator)}&item=${encodeURIComponent(item)}`);
    if (items[pos].item !== item) return;
    const r = reveals[item];
    $("rule-label").textContent = r.label || "none";
    $("rule").textContent = r.label_rule || "–";
    $("rationale").textContent = r.label_rationale || "";
    $("original-label").textContent = r.original_label || "none";
    $("reveal").hidden = false;
  }

  function render() {
    const it = items[pos];
    const a = answers[it.item] || {};
    const now = asking();
    progress();
    document.body.dataset.item = it.item;
    document.body.dataset.asking = now;
    $("item-id").textContent = `${pos + 1} of ${items.length}`;
    $("spec").textContent = it.spec;
    $("intended").textContent = it.intended;
    const body = $("pair").tBodies[0];
    body.textContent = "";
    for (const side of it.sides) {
      const row = body.insertRow();
      const head = document.createElement("th");
      head.textContent = side.role;
      row.append(head);
      words(row.insertCell(), side.original);
      words(row.insertCell(), side.output);
    }
    labelKeys(it.labels);
    for (const li of $("questions").children) {
      const q = li.dataset.q;
      li.classList.toggle("current", q === now);
      li.classList.toggle("answered", q in a);
      li.querySelector(".answer").textContent = a[q] || "";
    }
    $("reveal").hidden = true;
    if ("label" in a) showReveal(it.item).catch((e) => fail(`Could not fetch the rule's label: ${e.message}`));
    $("notes-box").hidden = !complete(a);
    if (now === "notes") {
      $("notes").value = a.notes || "";
      $("notes").focus();
    } else if (document.activeElement === $("notes")) {
      $("notes").blur();
    }
  }

  function go(to) {
    pos = Math.max(0, Math.min(items.length - 1, to));
    redo = null;
    show("judge");
    render();
  }

  function finishItem() {
    const next = nextOpen(pos + 1);
    progress();
    if (next < 0) { $("notes").blur(); show("done"); return; }
    go(next);
  }

  async function save(question, value) {
    if (busy) return;
    busy = true;
    document.body.dataset.busy = "1";
    const item = items[pos].item;
    try {
      await call("answer", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ annotator, item, question, answer: value }),
      });
      (answers[item] = answers[item] || {})[question] = value;
      fail("");
      if (question === "notes") { finishItem(); } else { redo = null; render(); }
    } catch (e) {
      fail(`Not saved (${e.message}). Is \`lit judge serve\` still running? ` +
           "Serve the sample again, reload this page and go on: nothing saved is lost.");
    } finally {
      busy = false;
      delete document.body.dataset.busy;
    }
  }

  function back() {
    const order = [...questions, "notes"];
    const k = order.indexOf(asking());
    if (k > 0) { redo = order[k - 1]; render(); }
  }

  function onKey(event) {
    if ($("judge").hidden || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target === $("notes")) {
      if (event.key === "Enter") { event.preventDefault(); save("notes", $("notes").value); }
      if (event.key === "Escape") { $("notes").blur(); }
      return;
    }
    const q = asking();
    const it = items[pos];
    const key = event.key.toLowerCase();
    let handled = true;
    if (event.key === "ArrowLeft") go(pos - 1);
    else if (event.key === "ArrowRight") go(pos + 1);
    else if (event.key === "Backspace") back();
    else if (key === "t" && complete(answers[it.item])) { redo = "notes"; render(); }
    else if ((q === "fluent" || q === "change") && (key === "y" || key === "n")) {
      save(q, key === "y" ? "yes" : "no");
    } else if (q === "label") {
      const k = it.labels.findIndex((l, i) => l[0].toLowerCase() === key || String(i + 1) === key);
      if (k >= 0) save("label", it.labels[k]); else handled = false;
    } else handled = false;
    if (handled) event.preventDefault();
  }

  async function start() {
    try {
      const state = await call(`state?annotator=${encodeURIComponent(annotator)}`);
      items = state.items;
      answers = state.answers;
      questions = state.questions;
    } catch (e) {
      fail(`Could not load the sample (${e.message}).`);
      show("who");
      $("name").focus();
      return;
    }
    const first = nextOpen(0);
    if (first < 0) { progress(); show("done"); return; }
    go(first);
  }

  document.addEventListener("keydown", onKey);
  $("name").addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    const name = $("name").value.trim();
    if (!name) return;
    annotator = name;
    $("name").blur();
    params.set("annotator", name);
    history.replaceState(null, "", `?${params}`);
    start();
  });
  if (annotator) { start(); } else { show("who"); $("name").focus(); }
})();
