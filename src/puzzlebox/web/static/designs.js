// The design search (issue #34 item 6): a design file (a catalog design, or one opened from
// disk, or its text edited) tried by the server's DesignRun in the tab's search process, its
// progress streamed, Stop, and the ranked table of the kept designs as it grows (the command
// line's columns); a row opens that design in the editor, as if it were a file opened.
// Uses app.js's $, tab, state and openText. No framework, no build step.
"use strict";

const designs = {
  run: null, events: null, name: "design", shown: -1, fetching: false, again: false, clicks: 0,
};

// what each of the command line's columns means (its header words are kept)
const DESIGN_COLUMNS = {
  rank: "the rank by the space's ranking",
  design: "the design's number in the space's order (as the command line numbers it)",
  level: "the highest level among the assemblies that come apart",
  moves: "the moves that take that assembly apart",
  assemblies: "assemblies (solutions up to symmetry)",
  apart: "assemblies that come apart",
  solutions: "solutions up to symmetry",
  hardest: "the label combination with the fewest solutions",
  there: "the solutions of the hardest label combination",
  what: "the pieces, holes, optional cells or board of the design",
};

function designsError(text) { $("designs-error").textContent = text || ""; }

function designsOpen(text, name) {
  // a design file in the pane: nothing is run until Run
  $("designs-toml").value = text;
  designs.name = name;
  $("designs-name").textContent = name;
  designsError("");
}

function openDesignFile(text, name) {
  // a design file opened with the header's Open file…: shown in the design search's pane
  designsOpen(text, name);
  document.querySelector('.tabs button[data-pane="designs"]').click();
}

$("designs-catalog").addEventListener("change", async () => {
  const name = $("designs-catalog").value;
  if (!name) return;
  const response = await fetch(`/api/designs/file/${encodeURIComponent(name)}`);
  const data = await response.json();
  if (!response.ok) { designsError(data.error); return; }
  designsOpen(data.toml, name);
});

$("designs-file").addEventListener("change", () => {
  const file = $("designs-file").files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => designsOpen(String(reader.result), file.name.replace(/\.toml$/i, ""));
  reader.onerror = () => designsError(`${file.name}: cannot be read`);
  reader.readAsText(file);
  $("designs-file").value = "";  // the same file chosen again opens again
});

function designsReset() {
  designsError("");
  $("designs-result").textContent = ""; $("designs-progress").textContent = "";
  $("designs-order").textContent = ""; $("designs-bar").hidden = true;
  $("designs-table").hidden = true;
  $("designs-table").tHead.replaceChildren(); $("designs-table").tBodies[0].replaceChildren();
  designs.shown = -1;
}

async function designsPost(path, body) {
  const response = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                      body: JSON.stringify(Object.assign({tab}, body))});
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

$("designs-run").addEventListener("click", async () => {
  const text = $("designs-toml").value;
  designsReset();
  if (!text.trim()) { designsError("open a design file first: a catalog design, or a file"); return; }
  designs.run = null;
  try {
    const data = await designsPost("/api/designs/run", {toml: text, name: designs.name, save: $("designs-save").checked});
    designs.run = data.run;
    designsFollow(data.run);
  } catch (error) {
    designsError(error.message);
  }
});

$("designs-stop").addEventListener("click", () => designsPost("/api/designs/stop", {}).catch(() => {}));
window.addEventListener("pagehide", () => navigator.sendBeacon("/api/designs/stop", JSON.stringify({tab})));

function designsFollow(run) {
  // the search's progress, streamed by the server; the table is asked for when the number
  // kept changes, and once more at the end
  if (designs.events) designs.events.close();
  const events = designs.events = new EventSource(`/api/designs/events/${tab}?run=${run}`);
  $("designs-stop").disabled = false; $("designs-run").disabled = true;
  events.onmessage = (message) => { if (run === designs.run) designsProgress(JSON.parse(message.data), run); };
  const end = () => {
    events.close();
    if (designs.events !== events) return;
    designs.events = null;
    $("designs-stop").disabled = true; $("designs-run").disabled = false;
    designsTable(run);
    if ($("designs-save").checked) loadSaved();  // where the saved search stands now
  };
  events.addEventListener("end", end);
  events.onerror = end;
}

function designsProgress(p, run) {
  const counts = p.design || {};
  if (counts.tried !== undefined) {
    const parts = [`designs ${counts.tried.toLocaleString("en")}/${counts.total.toLocaleString("en")} tried`,
                   `${counts.kept.toLocaleString("en")} kept`];
    if (counts.undecided) parts.push(`${counts.undecided.toLocaleString("en")} undecided`);
    if (p.state === "running") parts.push(`${counts.rate.toFixed(1)} a second`);
    parts.push(`${p.seconds} s`);
    if (p.left) parts.push(p.left);
    $("designs-progress").textContent = `${p.state}: ${parts.join(", ")}`;
    if (counts.kept !== designs.shown) designsTable(run);
  } else {
    $("designs-progress").textContent = p.state === "running" ? "running: reading the design file" : p.state;
  }
  const bar = $("designs-bar");
  bar.hidden = p.share === null || p.share === undefined;
  if (!bar.hidden) bar.value = p.share;
  if (p.state === "error") designsError(p.message);
  else if (p.state !== "running") $("designs-result").textContent = p.message;
}

async function designsTable(run) {
  // one request at a time; a change meanwhile asks again once it is answered
  if (designs.fetching) { designs.again = true; return; }
  designs.fetching = true;
  try {
    const response = await fetch(`/api/designs/table/${tab}?run=${run}`);
    if (response.ok && run === designs.run) designsShow(await response.json());
  } catch (error) {
    // the next progress event or the end asks again
  } finally {
    designs.fetching = false;
    if (designs.again) { designs.again = false; designsTable(designs.run); }
  }
}

function designsShow(data) {
  designs.shown = data.rows.length;
  $("designs-order").textContent = data.rows.length
    ? `${data.rows.length} kept, ranked ${data.order}; click a row to open that design in the editor` : "";
  const table = $("designs-table");
  table.hidden = !data.rows.length;
  const head = document.createElement("tr");
  head.append(...data.header.map((name) => {
    const th = document.createElement("th");
    th.textContent = name; th.title = DESIGN_COLUMNS[name] || "";
    return th;
  }));
  table.tHead.replaceChildren(head);
  const opened = designs.opened;
  table.tBodies[0].replaceChildren(...data.rows.map((row) => {
    const tr = document.createElement("tr");
    tr.dataset.design = row[1];
    tr.title = `open design ${row[1]} in the editor`;
    tr.classList.toggle("opened", row[1] === opened);
    tr.append(...row.map((cell) => {
      const td = document.createElement("td");
      td.textContent = cell;
      return td;
    }));
    tr.addEventListener("click", () => designsOpenRow(row[1]));
    return tr;
  }));
}

async function designsOpenRow(number) {
  // the kept design as the puzzle file it is (the server writes it as --out would), opened
  // in the editor as a file opened from disk
  const click = ++designs.clicks;
  try {
    const data = await designsPost("/api/designs/open", {design: Number(number)});
    if (click !== designs.clicks) return;
    designs.opened = number;
    for (const tr of $("designs-table").tBodies[0].rows) tr.classList.toggle("opened", tr.dataset.design === number);
    state.target = "board";
    await openText(data.toml, data.name);
  } catch (error) {
    if (click === designs.clicks) designsError(error.message);
  }
}

(async () => {
  const response = await fetch("/api/designs");
  if (!response.ok) return;
  for (const entry of await response.json()) {
    const option = new Option(entry.name, entry.name);
    option.title = entry.title;
    $("designs-catalog").add(option);
  }
})();
