// puzzlebox's page: an editor of the TOML contract, searches run by the server, and the
// server's own SVG pictures. No framework, no build step, nothing fetched from elsewhere.
"use strict";

const $ = (id) => document.getElementById(id);
const tab = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now()).replace(/[^A-Za-z0-9]/g, "").slice(0, 32);
const state = {
  toml: "", name: "puzzle", model: null, board: 0, target: "board",
  index: 0, found: 0, exhausted: false, events: null, watching: false, checking: null,
};

async function post(path, body) {
  const response = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                      body: JSON.stringify(Object.assign({tab}, body))});
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function showError(text) { $("error").textContent = text || ""; }

// -- opening and checking --------------------------------------------------------------------
let checkSeq = 0;  // answers to older checks (overtaken by a later edit) are dropped
async function check(body) {
  const seq = ++checkSeq;
  try {
    const data = await post("/api/check", Object.assign({name: state.name, board: 0}, body));
    if (seq !== checkSeq) return null;
    showError("");
    state.toml = data.toml;
    $("toml").value = data.toml;
    $("area").textContent = data.area;
    const proofs = $("proofs");
    proofs.replaceChildren(...data.proofs.map((p) => {
      const li = document.createElement("li");
      li.textContent = `No solution (${p.argument}): ${p.sentence}`;
      return li;
    }));
    $("puzzle-svg").innerHTML = data.svg;
    if (data.notes && data.notes.length) showError(data.notes.join("; "));
    const boards = $("board");
    boards.replaceChildren(...data.boards.map((b, i) => new Option(b, i)));
    $("board-choice").hidden = data.boards.length < 2;
    state.board = Math.min(state.board, data.boards.length - 1);
    boards.value = state.board;
    return data;
  } catch (error) {
    if (seq === checkSeq) showError(error.message);
    return null;
  }
}

async function openText(text, name) {
  stopWatch();
  state.name = name; state.model = null; state.board = 0;
  $("name").textContent = name;
  const data = await check({toml: text});
  if (data) {
    state.model = data.model;
    resetSolutions();
    showEditor();
  } else {
    state.model = null;
    $("toml").value = text; state.toml = text;
    showEditor();
  }
}

function resetSolutions() {
  state.index = 0; state.found = 0; state.exhausted = false;
  $("solution-svg").innerHTML = ""; $("result").textContent = ""; $("progress").textContent = "";
  $("watch-svg").innerHTML = ""; $("watch-levels").replaceChildren(); $("watch-status").textContent = "";
  updateBrowse();
}

let pending = null, resolvePending = null;
function edited() {
  // the model changed: ask the server for the TOML, the picture and the proofs (debounced;
  // state.checking settles once the last edit's answer is in, and searches wait for it);
  // the cells themselves were filled in place as they were drawn
  clearTimeout(pending);
  if (!resolvePending) state.checking = new Promise((resolve) => { resolvePending = resolve; });
  pending = setTimeout(async () => {
    const done = resolvePending;
    resolvePending = null;
    await check({model: state.model});
    resetSolutions();
    done();
  }, 200);
}

// -- the grid editor -------------------------------------------------------------------------
function cellsOf() {
  if (state.target === "board") return state.model.board;
  return state.model.pieces[Number(state.target)].cells;
}

function showEditor() {
  const editable = !!state.model;
  $("grid-editor").hidden = !editable;
  $("not-editable").hidden = editable;
  $("toml-box").open = !editable;
  if (!editable) return;
  $("title").value = state.model.title || "";
  $("lattice").value = state.model.lattice || "square";
  for (const rule of ["rotate", "reflect", "match_colors"]) $(rule).checked = !!state.model.rules[rule];
  const target = $("target");
  target.replaceChildren(new Option("the board", "board"),
    ...state.model.pieces.map((p, i) => new Option(`piece ${p.name}`, i)));
  if (state.target !== "board" && Number(state.target) >= state.model.pieces.length) state.target = "board";
  target.value = state.target;
  const cells = cellsOf();  // [row, col, ch], on cube [layer, row, col, ch]
  const rows = Math.max(0, ...cells.map((c) => c[c.length - 3] + 1));
  const cols = Math.max(0, ...cells.map((c) => c[c.length - 2] + 1));
  $("grid-rows").value = Math.max(rows, state.target === "board" ? 6 : 4);
  $("grid-cols").value = Math.max(cols, state.target === "board" ? 10 : 4);
  pieceFields();
  designerShow();  // designer.js: undo, the cube editor, the tools of the lattice
  drawGrid();
}

function pieceFields() {
  const piece = state.target === "board" ? null : state.model.pieces[Number(state.target)];
  $("piece-fields").hidden = !piece;
  $("remove-piece").disabled = !piece;
  if (!piece) return;
  $("piece-name").value = piece.name;
  const c = piece.count;
  $("piece-count").value = Array.isArray(c) ? `${c[0]}-${c[1]}` : String(c);
}

function colourOf(ch) {
  if (ch === "#") return null;
  let h = 0;
  for (const x of ch) h = (h * 31 + x.codePointAt(0)) % 360;
  return `hsl(${h} 55% 45%)`;
}

const SVG = "http://www.w3.org/2000/svg";
const CELL_PX = 24;
const outlines = new Map();  // "lattice rows cols" -> the server's cell outlines

async function cellOutlines(lattice, rows, cols) {
  const key = `${lattice} ${rows} ${cols}`;
  if (!outlines.has(key)) {
    const response = await fetch(`/api/cells/${encodeURIComponent(lattice)}?rows=${rows}&cols=${cols}`);
    outlines.set(key, response.ok ? await response.json() : []);
  }
  return outlines.get(key);
}

function fillCell(el, ch) {
  el.classList.toggle("on", ch !== undefined);
  if (ch === undefined) { delete el.dataset.colour; el.style.fill = ""; return; }
  el.dataset.colour = ch;
  el.style.fill = colourOf(ch) || "";
  el.querySelector("title").textContent = `${el.dataset.r},${el.dataset.c} ${ch}`;
}

async function drawGrid() {
  // the cells are the lattice's own polygons (geometry/, through the server): the page knows
  // no lattice, it only fills and clicks the outlines it is given
  if (!state.model) return;
  if (isCube()) { drawCube(); return; }  // designer.js: layers and an isometric view
  const rows = Math.min(60, Number($("grid-rows").value) || 1), cols = Math.min(60, Number($("grid-cols").value) || 1);
  const cells = await cellOutlines(state.model.lattice || "square", rows, cols);
  const at = new Map(cellsOf().map((c) => [`${c[0]},${c[1]}`, c[2]]));
  let width = 1, height = 1;
  const children = cells.map(([r, c, points]) => {
    const polygon = document.createElementNS(SVG, "polygon");
    polygon.setAttribute("points", points.map(([x, y]) => `${x * CELL_PX + 1},${y * CELL_PX + 1}`).join(" "));
    for (const [x, y] of points) { width = Math.max(width, x); height = Math.max(height, y); }
    polygon.setAttribute("class", "cell");
    polygon.dataset.r = r; polygon.dataset.c = c;
    polygon.appendChild(document.createElementNS(SVG, "title")).textContent = `${r},${c}`;
    fillCell(polygon, at.get(`${r},${c}`));
    return polygon;
  });
  const grid = $("grid");
  grid.setAttribute("width", Math.ceil(width * CELL_PX + 2));
  grid.setAttribute("height", Math.ceil(height * CELL_PX + 2));
  grid.replaceChildren(...children);
}

let painting = null;  // "on" or "off" while the mouse button is down
function paint(el) {
  const r = Number(el.dataset.r), c = Number(el.dataset.c);
  const cells = cellsOf();
  const i = cells.findIndex((x) => x[0] === r && x[1] === c);
  if (i >= 0) cells.splice(i, 1);
  const ch = $("colour").value || "#";
  if (painting === "on") cells.push([r, c, ch]);
  fillCell(el, painting === "on" ? ch : undefined);
}

$("grid").addEventListener("mousedown", (event) => {
  const div = event.target.closest(".cell");
  if (!div) return;
  event.preventDefault();
  if (["rectangle", "fill"].includes($("tool").value)) { queued(() => shapeTool(div, $("tool").value)); return; }
  const same = div.classList.contains("on") && div.dataset.colour === ($("colour").value || "#");
  painting = $("tool").value === "erase" || same ? "off" : "on";
  paint(div);
});
$("grid").addEventListener("mouseover", (event) => {
  const div = event.target.closest(".cell");
  if (painting && div) paint(div);
});
window.addEventListener("mouseup", () => { if (painting) { painting = null; remember(); edited(); } });

$("target").addEventListener("change", () => { state.target = $("target").value; showEditor(); });
$("grid-rows").addEventListener("change", drawGrid);
$("grid-cols").addEventListener("change", drawGrid);
$("lattice").addEventListener("change", () => {
  // cells of one lattice mean nothing on another of other dimensions: those are cleared
  const before = state.model.lattice || "square", after = $("lattice").value;
  if ((before === "cube") !== (after === "cube")) {
    state.model.board = [];
    for (const piece of state.model.pieces) piece.cells = [];
  }
  state.model.lattice = after; remember(); showEditor(); edited();
});
$("title").addEventListener("change", () => { state.model.title = $("title").value; remember(); edited(); });
for (const rule of ["rotate", "reflect", "match_colors"]) {
  $(rule).addEventListener("change", () => { state.model.rules[rule] = $(rule).checked; remember(); edited(); });
}
$("add-piece").addEventListener("click", () => {
  const names = new Set(state.model.pieces.map((p) => p.name));
  let n = 1; while (names.has(`P${n}`)) n++;
  state.model.pieces.push({name: `P${n}`, cells: [], count: 1});
  state.target = String(state.model.pieces.length - 1);
  remember(); showEditor();
});
$("remove-piece").addEventListener("click", () => {
  state.model.pieces.splice(Number(state.target), 1);
  state.target = "board";
  remember(); showEditor(); edited();
});
$("piece-name").addEventListener("change", () => {
  state.model.pieces[Number(state.target)].name = $("piece-name").value.trim();
  remember(); showEditor(); edited();
});
$("piece-count").addEventListener("change", () => {
  const text = $("piece-count").value.trim();
  let count = text;
  if (/^\d+$/.test(text)) count = Number(text);
  else if (/^\d+\s*-\s*\d+$/.test(text)) count = text.split("-").map((x) => Number(x.trim()));
  state.model.pieces[Number(state.target)].count = count;
  remember(); edited();
});

$("new").addEventListener("click", () => {
  stopWatch();
  state.name = "my-puzzle"; $("name").textContent = state.name;
  state.model = {title: "", notes: "", lattice: "square", board: [], pieces: [],
                 rules: {rotate: true, reflect: true, match_colors: false}};
  state.target = "board"; state.toml = "";
  $("toml").value = ""; $("puzzle-svg").innerHTML = ""; $("area").textContent = "";
  $("proofs").replaceChildren(); showError("Draw the board, then add pieces.");
  resetSolutions(); showEditor();
});

$("open-catalog").addEventListener("click", async () => {
  const name = $("catalog").value;
  if (!name) return;
  const response = await fetch(`/api/catalog/${encodeURIComponent(name)}`);
  const data = await response.json();
  if (!response.ok) { showError(data.error); return; }
  state.target = "board";
  await openText(data.toml, name);
});

$("file").addEventListener("change", () => {
  const file = $("file").files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => { state.target = "board"; openText(String(reader.result), file.name.replace(/\.toml$/i, "")); };
  reader.readAsText(file);
});

$("apply-toml").addEventListener("click", () => openText($("toml").value, state.name));
$("board").addEventListener("change", () => { state.board = Number($("board").value); resetSolutions(); });

$("save").addEventListener("click", () => {
  if (!state.toml) { showError("nothing to save yet"); return; }
  const link = document.createElement("a");
  link.id = "save-link";
  link.href = URL.createObjectURL(new Blob([state.toml], {type: "application/toml"}));
  link.download = `${state.name}.toml`;
  document.body.appendChild(link); link.click(); link.remove();
});

// -- solving and counting ------------------------------------------------------------------
function puzzleBody() { return {toml: state.toml, name: state.name, board: state.board}; }

function follow() {
  return new Promise((resolve) => {
    if (state.events) state.events.close();
    const events = state.events = new EventSource(`/api/events/${tab}`);
    $("stop").disabled = false;
    events.onmessage = (message) => showProgress(JSON.parse(message.data));
    const end = () => { events.close(); state.events = null; $("stop").disabled = true; resolve(); };
    events.addEventListener("end", end);
    events.onerror = end;
  });
}

function showProgress(p) {
  const parts = [p.solutions_text || `${p.solutions} solutions`, `${p.nodes} nodes`, `${p.seconds} s`];
  if (p.engine) parts.push(`${p.engine} engine`);
  if (p.share !== null && p.share !== undefined && p.state === "running") {
    parts.push(`${(100 * p.share).toFixed(2)}% of the tree`);
  }
  if (p.left) parts.push(p.left);
  $("progress").textContent = `${p.state}: ` + parts.join(", ");
  const bar = $("bar");
  bar.hidden = p.share === null || p.share === undefined;
  if (!bar.hidden) bar.value = p.share;
  if (p.state !== "running") $("result").textContent = p.message;
}

async function run(index) {
  // ask for solution number index; the server searches on (streaming progress) only when
  // it has not been found yet, and a second request with peek only reads where it stopped
  if (state.checking) await state.checking;
  try {
    let data = await post("/api/solve", Object.assign(puzzleBody(), {index}));
    if (data.state === "running") {
      await follow();
      data = await post("/api/solve", Object.assign(puzzleBody(), {index, peek: true}));
    }
    return data;
  } catch (error) {
    $("result").textContent = error.message;
    return null;
  }
}

async function showSolution(index) {
  const data = await run(index);
  if (!data) return;
  state.found = data.found; state.exhausted = data.exhausted;
  if (index < data.found) {
    state.index = index;
    $("result").textContent = "";
    const response = await fetch(`/api/solution/${tab}/${index}.svg`);
    $("solution-svg").innerHTML = await response.text();
  } else if (data.state !== "stopped") {
    $("result").textContent = data.found ? `no more solutions: ${data.found} in all` : (data.message || "no solution");
  }
  updateBrowse();
}

function updateBrowse() {
  const have = state.found > 0;
  $("prev").disabled = !have || state.index === 0;
  $("next").disabled = !have || (state.exhausted && state.index + 1 >= state.found);
  $("position").textContent = have ? `solution ${state.index + 1} of ${state.found}${state.exhausted ? "" : "+"}` : "";
  $("downloads").hidden = !have;
  for (const fmt of ["svg", "png", "json"]) {
    $(`dl-${fmt}`).href = `/api/solution/${tab}/${state.index}.${fmt}?download=1`;
  }
}

$("solve").addEventListener("click", () => { $("result").textContent = ""; showSolution(0); });
$("next").addEventListener("click", () => showSolution(state.index + 1));
$("prev").addEventListener("click", () => showSolution(Math.max(0, state.index - 1)));
$("count").addEventListener("click", async () => {
  if (state.checking) await state.checking;
  $("result").textContent = "";
  try {
    const data = await post("/api/count", puzzleBody());
    if (data.state === "running") await follow(); else showProgress(data);
  } catch (error) { $("result").textContent = error.message; }
});
$("stop").addEventListener("click", () => post("/api/stop", {}).catch(() => {}));
window.addEventListener("pagehide", () => navigator.sendBeacon("/api/stop", JSON.stringify({tab})));

// -- watching the search -------------------------------------------------------------------
let watchTimer = null;
function stopWatch() { state.watching = false; clearTimeout(watchTimer); $("watch-play").textContent = "Play"; }

async function watchFrame(restart) {
  if (state.checking) await state.checking;
  try {
    const frame = await post("/api/watch", Object.assign(puzzleBody(), {nodes: Number($("watch-nodes").value), restart: !!restart}));
    $("watch-svg").innerHTML = frame.svg;
    $("watch-levels").replaceChildren(...frame.levels.map((level) => {
      const li = document.createElement("li");
      li.textContent = `${level.item === null ? "(forced or free)" : level.item} -> ${level.option}`;
      return li;
    }));
    const log = [];
    if (frame.undone.length) log.push(`undone: ${frame.undone.join("; ")}`);
    if (frame.placed.length) log.push(`placed: ${frame.placed.join("; ")}`);
    $("watch-log").textContent = log.join(" | ");
    $("watch-status").textContent = `${frame.nodes} nodes, depth ${frame.depth}, ${frame.solutions} solutions found` +
      (frame.solved ? " (a solution!)" : "") + (frame.done ? ": the search is over" : "");
    if (frame.done) stopWatch();
    return frame;
  } catch (error) {
    $("watch-status").textContent = error.message; stopWatch();
    return null;
  }
}

async function watchLoop() {
  if (!state.watching) return;
  const began = performance.now();
  const frame = await watchFrame(false);
  if (!frame || !state.watching) return;
  const wait = Math.max(0, 1000 / Number($("speed").value) - (performance.now() - began));
  watchTimer = setTimeout(watchLoop, frame.solved ? Math.max(wait, 1000) : wait);
}

$("watch-play").addEventListener("click", () => {
  if (state.watching) { stopWatch(); return; }
  state.watching = true; $("watch-play").textContent = "Pause"; watchLoop();
});
$("watch-step").addEventListener("click", () => { stopWatch(); watchFrame(false); });
$("watch-restart").addEventListener("click", () => { stopWatch(); watchFrame(true); });
$("speed").addEventListener("input", () => { $("speed-text").textContent = $("speed").value; });

// -- the panes -----------------------------------------------------------------------------
for (const button of document.querySelectorAll(".tabs button")) {
  button.addEventListener("click", () => {
    for (const other of document.querySelectorAll(".tabs button")) other.classList.toggle("active", other === button);
    for (const pane of document.querySelectorAll(".pane")) pane.hidden = pane.id !== `pane-${button.dataset.pane}`;
    if (button.dataset.pane !== "watch") stopWatch();
  });
}

(async () => {
  const lattices = await (await fetch("/api/lattices")).json();
  $("lattice").replaceChildren(...lattices.map((name) => new Option(name, name)));
  const response = await fetch("/api/catalog");
  const entries = await response.json();
  for (const entry of entries) $("catalog").add(new Option(`${entry.name} (${entry.kind})`, entry.name));
  $("new").click();
})();
