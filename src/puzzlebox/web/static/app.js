// puzzlebox's page: an editor of the TOML contract, searches run by the server, and the
// server's own SVG pictures. No framework, no build step, nothing fetched from elsewhere.
"use strict";

const $ = (id) => document.getElementById(id);
const tab = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now()).replace(/[^A-Za-z0-9]/g, "").slice(0, 32);
const state = {
  toml: "", name: "puzzle", model: null, board: 0, target: "board",
  index: 0, found: 0, exhausted: false, events: null, watching: false, checking: null,
  counted: null,  // the last count's totals ({solutions, distinct}) of the puzzle on screen
  // the version of the puzzle on screen: bumped by every open and every edit, carried by
  // every request; an answer for another version is dropped (#25: answers belong to the
  // puzzle on screen, however fast the clicks)
  version: 0,
};

class Stale extends Error {}  // an answer for a puzzle no longer on screen: dropped silently

async function post(path, body) {
  const version = state.version;
  const response = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                      body: JSON.stringify(Object.assign({tab, version}, body))});
  const data = await response.json();
  if (version !== state.version || (data.version !== undefined && data.version !== null && data.version !== state.version)) {
    throw new Stale("stale");
  }
  if (response.status === 409 && String(data.error).startsWith("stale")) throw new Stale(data.error);
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function showError(text) { $("error").textContent = text || ""; if (text) $("hint").textContent = ""; }
function showHint(text) { $("hint").textContent = text || ""; }

// -- opening and checking --------------------------------------------------------------------
function clearPuzzle() {
  // what was shown of the previous puzzle goes: a broken file shows its error alone
  $("puzzle-svg").innerHTML = ""; $("area").textContent = ""; $("proofs").replaceChildren();
  $("board-choice").hidden = true; $("board").replaceChildren();
  $("notes").textContent = "";
  if (window.page3d) page3d.puzzle(null);
}

async function check(body) {
  // the picture, the area sums and the proofs of the puzzle on screen; an answer that comes
  // back after the puzzle changed again is dropped
  const version = state.version;
  try {
    const data = await post("/api/check", Object.assign({name: state.name, board: 0}, body));
    if (version !== state.version) return null;
    showError(""); showHint("");
    state.toml = data.toml; state.broken = false;
    $("toml").value = data.toml;
    $("area").textContent = data.area;
    const proofs = $("proofs");
    proofs.replaceChildren(...data.proofs.map((p) => {
      const li = document.createElement("li");
      li.textContent = `No solution (${p.argument}): ${p.sentence}`;
      return li;
    }));
    $("puzzle-svg").innerHTML = data.svg;
    if (window.page3d) page3d.puzzle();  // a solid's board and pieces in 3-D
    fitPicture($("puzzle-svg"));
    // (why a file is edited as text is said above the TOML box: #not-editable)
    $("notes").textContent = (data.notes || []).join("; ");
    const boards = $("board");
    boards.replaceChildren(...data.boards.map((b, i) => new Option(b, i)));
    $("board-choice").hidden = data.boards.length < 2;
    state.board = Math.min(state.board, data.boards.length - 1);
    boards.value = state.board;
    return data;
  } catch (error) {
    if (error instanceof Stale || version !== state.version) return null;
    state.broken = true;
    clearPuzzle();
    showError(error.message);
    return null;
  }
}

function change() {
  // the puzzle on screen is about to change: a new version, and nothing of the old one's
  // searches or answers stays on screen
  state.version += 1;
  state.counted = null;  // the last count's totals were of the puzzle before
  stopWatch();
  if (state.endFollow) state.endFollow();  // its search stops with its stream (web/app.py)
  resetSolutions();
  return state.version;
}

function whileChecking(work) {
  // Solve, Count and Watch wait for this: the check of the newest version of the puzzle
  const done = work().catch((error) => { if (!(error instanceof Stale)) showError(error.message); });
  state.checking = done;
  return done;
}

async function settled() {
  // wait until the puzzle on screen is checked (an edit or open during the wait: that one)
  for (;;) {
    const version = state.version, checking = state.checking;
    if (checking) await checking;
    if (version === state.version && checking === state.checking) return version;
  }
}

function limitNote(asked) {
  // the grid editor's size limit, said beside its fields (and what was asked past it); the
  // cube editor's are its own (designer.js sets the fields' maxima: #36 fix 7)
  const most = Number($("grid-rows").max), cols = Number($("grid-cols").max);
  const cube = !!state.model && isCube();  // designer.js: a lattice in layers
  const size = cube ? `${most} x ${cols} x ${$("grid-layers").max} layers` : `${most} x ${cols}`;
  $("grid-limit").textContent = asked > most
    ? (cube ? `the cube editor draws at most ${size} (${asked} asked)`
      : `the editor draws at most ${size} cells (${asked} asked); a bigger board is edited as text`)
    : `up to ${size}`;
  $("grid-limit").classList.toggle("warn", asked > most);
}

function openText(text, name) {
  change();
  limitNote(0);
  state.name = name; state.model = null; state.board = 0;
  $("name").textContent = name;
  state.toml = text; $("toml").value = text;
  return whileChecking(async () => {
    const data = await check({toml: text});
    state.model = data ? data.model : null;
    if (!data) { $("toml").value = text; state.toml = text; }
    showEditor();
    editorNote(data);
  });
}

function editorNote(data) {
  const why = data && data.model_note;
  $("not-editable").textContent = why ? `This puzzle is edited as text: ${why}.`
    : "This puzzle is edited as text: the grid editor draws one board of pieces on a flat lattice.";
}

function resetSolutions() {
  state.index = 0; state.found = 0; state.exhausted = false;
  $("solution-svg").innerHTML = ""; $("result").textContent = ""; $("progress").textContent = "";
  if (window.page3d) page3d.solution(null);
  $("bar").hidden = true; $("answer-for").textContent = "";
  $("watch-svg").innerHTML = ""; $("watch-levels").replaceChildren(); $("watch-status").textContent = "";
  $("watch-log").textContent = "";
  updateBrowse();
}

function incomplete(model) {
  // what an editor model still lacks before it is a puzzle (a hint, not an error: #25)
  if (!model.board.length) return "Draw the board, then add pieces.";
  if (!model.pieces.length) return "Now add pieces: Add piece, then draw it.";
  const empty = model.pieces.find((p) => !p.cells.length);
  if (empty) return `Draw piece ${empty.name}: click or drag on the grid.`;
  return "";
}

let pending = null, resolvePending = null;
function edited() {
  // the model changed: a new version; ask the server for the TOML, the picture and the
  // proofs (debounced; state.checking settles once the last edit's answer is in, and
  // searches wait for it); the cells themselves were filled in place as they were drawn
  change();
  clearTimeout(pending);
  if (state.model) { pruneOptional(); drawLegend(); }
  if (!resolvePending) state.checking = new Promise((resolve) => { resolvePending = resolve; });
  pending = setTimeout(async () => {
    const done = resolvePending;
    resolvePending = null;
    const missing = incomplete(state.model);
    if (missing) {
      // not sent: the server would only refuse it (and the browser log it as an error)
      state.toml = ""; $("toml").value = ""; clearPuzzle(); showError(""); showHint(missing);
    } else {
      await check({model: state.model});
    }
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
  $("neutral").value = state.model.rules.neutral || "";
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
  groupsNote();
  designerShow();  // designer.js: undo, the cube editor, the tools of the lattice
  drawGrid();
  drawLegend();
}

function pieceFields() {
  const piece = state.target === "board" ? null : state.model.pieces[Number(state.target)];
  $("piece-fields").hidden = !piece;
  $("remove-piece").disabled = !piece;
  if (!piece) return;
  $("piece-name").value = piece.name;
  const c = piece.count;
  $("piece-count").value = Array.isArray(c) ? `${c[0]}-${c[1]}` : String(c);
  const apart = disassemblyOf();
  $("piece-fixed").checked = apart.fixed.includes(piece.name);
  $("piece-groups").value = apart.groups.map((g, k) => g.includes(piece.name) ? k + 1 : 0).filter((k) => k).join(", ");
}

// -- [disassembly] (fixed pieces, groups), optional cells and the legend (#36 item 1) ----------
function disassemblyOf() {
  if (!state.model.disassembly) state.model.disassembly = {fixed: [], groups: []};
  return state.model.disassembly;
}

function groupsNote() {
  // the groups as they stand, numbered as the Groups fields number them
  const apart = state.model ? disassemblyOf() : {fixed: [], groups: []};
  const parts = [];
  if (apart.fixed.length) parts.push(`fixed: ${apart.fixed.join(", ")}`);
  apart.groups.forEach((g, k) => parts.push(`group ${k + 1}: ${g.join(", ")}`));
  $("groups-note").textContent = parts.length ? `Taking apart ([disassembly]): ${parts.join("; ")}` : "";
}

function renamed(before, after) {
  // a piece renamed or removed (after null): its place in [disassembly] follows it
  const apart = disassemblyOf();
  const swap = (list) => list.flatMap((n) => n === before ? (after === null ? [] : [after]) : [n]);
  apart.fixed = swap(apart.fixed);
  apart.groups = apart.groups.map(swap).filter((g) => g.length);
}

const cellKey = (cell) => cell.slice(0, -1).join(",");  // [.., ch] -> "r,c" ("l,r,c")
function optionalSet() {
  return new Set((state.model.optional || []).map((c) => c.join(",")));
}

function pruneOptional() {
  // an optional cell is a board cell: one erased from the board is no longer optional
  const board = new Set(state.model.board.map(cellKey));
  state.model.optional = (state.model.optional || []).filter((c) => board.has(c.join(",")));
}

function markOptional(el, yes) { el.classList.toggle("optional", !!yes); }

function drawLegend() {
  // every colour drawn, on the board and the pieces (click one to draw with it), the neutral
  // colour, and the optional cells: each as the editor draws it
  if (!state.model) { $("legend").replaceChildren(); return; }
  const used = new Map();  // colour -> [board cells, piece cells]
  const tally = (cells, k) => { for (const c of cells) { const ch = c[c.length - 1]; if (!used.has(ch)) used.set(ch, [0, 0]); used.get(ch)[k]++; } };
  tally(state.model.board, 0);
  for (const p of state.model.pieces) tally(p.cells, 1);
  const swatch = (ch, optional) => {
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 16 16");
    const rect = document.createElementNS(SVG, "polygon");
    rect.setAttribute("points", "1,1 15,1 15,15 1,15");
    rect.setAttribute("class", "cell on" + (optional ? " optional" : ""));
    rect.appendChild(document.createElementNS(SVG, "title"));
    if (ch !== "#") rect.style.fill = colourOf(ch);
    svg.appendChild(rect);
    return svg;
  };
  const neutral = state.model.rules.match_colors ? state.model.rules.neutral || "" : "";
  const chosen = $("colour").value || "#";
  const items = [...used.keys()].sort().map((ch) => {
    const [board, pieces] = used.get(ch);
    const button = document.createElement("button");
    button.className = "swatch" + (ch === chosen ? " chosen" : "");
    button.dataset.colour = ch;
    button.title = `draw with colour ${ch}`;
    const words = [`${ch}`, ch === neutral ? "(neutral: goes with any colour)" : "", `board ${board}, pieces ${pieces}`];
    button.append(swatch(ch, false), words.filter(Boolean).join(" "));
    return button;
  });
  const optional = (state.model.optional || []).length;
  if (optional || $("tool").value === "optional") {
    const span = document.createElement("span");
    span.className = "swatch optional-key";
    span.append(swatch("#", true), `optional: ${optional} board cell${optional === 1 ? "" : "s"} may stay empty`);
    items.push(span);
  }
  if (used.size > 1 && !state.model.rules.match_colors) {
    const note = document.createElement("span");
    note.className = "muted";
    note.textContent = "(colours only drawn: tick match colours to make them count)";
    items.push(note);
  }
  $("legend").replaceChildren(...items);
}
$("legend").addEventListener("click", (event) => {
  const button = event.target.closest("button.swatch");
  if (!button) return;
  $("colour").value = button.dataset.colour;
  drawLegend();
});
$("colour").addEventListener("input", drawLegend);
$("tool").addEventListener("change", drawLegend);

function colourOf(ch) {
  // a colour character's shade: neighbouring characters ("a", "b") a golden angle apart on
  // the colour wheel, so that the editor and its legend show them distinctly (#36 item 1)
  if (ch === "#") return null;
  let h = 0;
  for (const x of ch) h = h * 31 + x.codePointAt(0);
  return `hsl(${Math.round((h * 137.508) % 360)} 55% 45%)`;
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
  const optional = state.target === "board" ? optionalSet() : new Set();
  let width = 1, height = 1;
  const children = cells.map(([r, c, points]) => {
    const polygon = document.createElementNS(SVG, "polygon");
    polygon.setAttribute("points", points.map(([x, y]) => `${x * CELL_PX + 1},${y * CELL_PX + 1}`).join(" "));
    for (const [x, y] of points) { width = Math.max(width, x); height = Math.max(height, y); }
    polygon.setAttribute("class", "cell");
    polygon.dataset.r = r; polygon.dataset.c = c;
    polygon.appendChild(document.createElementNS(SVG, "title")).textContent = `${r},${c}`;
    fillCell(polygon, at.get(`${r},${c}`));
    markOptional(polygon, optional.has(`${r},${c}`));
    return polygon;
  });
  const grid = $("grid");
  grid.setAttribute("width", Math.ceil(width * CELL_PX + 2));
  grid.setAttribute("height", Math.ceil(height * CELL_PX + 2));
  grid.replaceChildren(...children);
}

let painting = null;  // "on" or "off" while the mouse button is down ("mark", "unmark": optional)

function optionalPaint(el, place) {
  // the optional tool: a board cell marked as one that may stay empty, or unmarked; an
  // empty cell is drawn (in the colour chosen) and marked
  const key = place.join(","), list = state.model.optional || (state.model.optional = []);
  const i = list.findIndex((x) => x.join(",") === key);
  if (painting === "mark") {
    if (!el.classList.contains("on")) {
      const ch = $("colour").value || "#";
      state.model.board.push([...place, ch]);
      fillCell(el, ch);
    }
    if (i < 0) list.push(place);
  } else if (i >= 0) list.splice(i, 1);
  markOptional(el, painting === "mark");
}

function startPaint(el, place) {
  // the mouse went down on a cell: what the stroke does (draw, erase, mark optional)
  const tool = $("tool").value;
  if (tool === "optional") {
    if (state.target !== "board") { designError("optional cells are board cells: edit the board to mark them"); return false; }
    designError("");
    painting = optionalSet().has(place.join(",")) ? "unmark" : "mark";
    return true;
  }
  const same = el.classList.contains("on") && el.dataset.colour === ($("colour").value || "#");
  painting = tool === "erase" || same ? "off" : "on";
  return true;
}

function paint(el) {
  const r = Number(el.dataset.r), c = Number(el.dataset.c);
  if (painting === "mark" || painting === "unmark") { optionalPaint(el, [r, c]); return; }
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
  if (startPaint(div, [Number(div.dataset.r), Number(div.dataset.c)])) paint(div);
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
  // designer.js: lattices in layers; rhombic, sphere, tetra-octa have cells of their own
  if (!!layerOf(before) !== !!layerOf(after) || (before !== after && (isSolidLattice(before) || isSolidLattice(after)))) {
    state.model.board = []; state.model.optional = [];
    for (const piece of state.model.pieces) piece.cells = [];
  }
  if ((before === "cube") !== (after === "cube")) state.model.optional = [];
  state.model.lattice = after; remember(); showEditor(); edited();
});
$("title").addEventListener("change", () => { state.model.title = $("title").value; remember(); edited(); });
for (const rule of ["rotate", "reflect", "match_colors"]) {
  $(rule).addEventListener("change", () => { state.model.rules[rule] = $(rule).checked; remember(); edited(); });
}
$("neutral").addEventListener("change", () => { state.model.rules.neutral = $("neutral").value.trim(); remember(); edited(); });
$("piece-fixed").addEventListener("change", () => {
  const name = state.model.pieces[Number(state.target)].name, apart = disassemblyOf();
  apart.fixed = apart.fixed.filter((n) => n !== name);
  if ($("piece-fixed").checked) apart.fixed.push(name);
  remember(); groupsNote(); edited();
});
$("piece-groups").addEventListener("change", () => {
  // "1, 2": the piece in groups 1 and 2 and no other; a new number past the last makes a
  // new group; a group left empty goes (the others are numbered again, as the note says)
  const name = state.model.pieces[Number(state.target)].name, apart = disassemblyOf();
  const text = $("piece-groups").value.trim();
  if (text && !/^\d+(\s*,\s*\d+)*$/.test(text)) { designError("Groups: the numbers of the piece's groups, as 1 or 1, 2"); return; }
  const wanted = new Set(text ? text.split(",").map((x) => Number(x.trim())).filter((k) => k > 0) : []);
  const most = Math.max(0, ...wanted);
  while (apart.groups.length < most) apart.groups.push([]);
  apart.groups = apart.groups.map((g, k) => {
    const rest = g.filter((n) => n !== name);
    return wanted.has(k + 1) ? rest.concat([name]) : rest;
  }).filter((g) => g.length);
  designError("");
  remember(); pieceFields(); groupsNote(); edited();
});
$("add-piece").addEventListener("click", () => {
  const names = new Set(state.model.pieces.map((p) => p.name));
  let n = 1; while (names.has(`P${n}`)) n++;
  state.model.pieces.push({name: `P${n}`, cells: [], count: 1});
  const before = state.target;
  state.target = String(state.model.pieces.length - 1);
  remember(before); showEditor();
});
$("remove-piece").addEventListener("click", () => {
  renamed(state.model.pieces[Number(state.target)].name, null);
  state.model.pieces.splice(Number(state.target), 1);
  const before = state.target;
  state.target = "board";
  remember(before); showEditor(); edited();
});
$("piece-name").addEventListener("change", () => {
  const piece = state.model.pieces[Number(state.target)], after = $("piece-name").value.trim();
  renamed(piece.name, after);
  piece.name = after;
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

// -- opening puzzles -------------------------------------------------------------------------
$("new").addEventListener("click", () => {
  change();
  state.name = "my-puzzle"; $("name").textContent = state.name;
  state.model = {title: "", notes: "", lattice: "square", board: [], optional: [], pieces: [],
                 rules: {rotate: true, reflect: true, match_colors: false, neutral: ""},
                 disassembly: {fixed: [], groups: []}};
  state.target = "board"; state.toml = ""; state.checking = null; state.broken = false;
  $("toml").value = ""; clearPuzzle(); showError(""); showHint(incomplete(state.model)); limitNote(0);
  showEditor(); editorNote(null);
});

function openCatalog() {
  // choosing an entry opens it (#25); Open opens it again. The version is taken now, so
  // that a Solve pressed while the text is fetched waits for this puzzle
  const name = $("catalog").value;
  if (!name) return null;
  const version = change();
  return whileChecking(async () => {
    const response = await fetch(`/api/catalog/${encodeURIComponent(name)}`);
    const data = await response.json();
    if (version !== state.version) return;  // something else was opened meanwhile
    if (!response.ok) { clearPuzzle(); showError(data.error); return; }
    state.target = "board";
    await openText(data.toml, name);
  });
}
$("catalog").addEventListener("change", openCatalog);
$("open-catalog").addEventListener("click", openCatalog);

$("file").addEventListener("change", () => {
  const file = $("file").files[0];
  if (!file) return;
  const version = change();
  whileChecking(() => new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      if (version !== state.version) { resolve(); return; }  // opened something else since
      const name = file.name.replace(/\.toml$/i, ""), text = String(reader.result);
      // a design file (a [design] table) is a space of puzzles: the design search opens it
      if (/^\s*\[design\]\s*$/m.test(text)) { openDesignFile(text, name); resolve(); return; }
      state.target = "board";
      openText(text, name).then(resolve, reject);
    };
    reader.onerror = () => reject(new Error(`${file.name}: cannot be read`));
    reader.readAsText(file);
  }));
  $("file").value = "";  // the same file chosen again opens again
});

$("apply-toml").addEventListener("click", () => openText($("toml").value, state.name));
$("board").addEventListener("change", () => { change(); state.board = Number($("board").value); });

$("save").addEventListener("click", () => {
  if (!state.toml) { showError("nothing to save yet"); return; }
  const link = document.createElement("a");
  link.id = "save-link";
  link.href = URL.createObjectURL(new Blob([state.toml], {type: "application/toml"}));
  link.download = `${state.name}.toml`;
  document.body.appendChild(link); link.click(); link.remove();
});

// -- solving and counting ------------------------------------------------------------------
function puzzleBody() {
  return {toml: state.toml, name: state.name, board: state.board,
          engine: $("engine").value || "auto", distinct: $("distinct").checked};
}

function follow(version) {
  // the search's progress, streamed by the server for this version of the puzzle only
  return new Promise((resolve) => {
    if (state.events) state.events.close();
    const events = state.events = new EventSource(`/api/events/${tab}?version=${version}`);
    $("stop").disabled = false;
    events.onmessage = (message) => { if (version === state.version) showProgress(JSON.parse(message.data)); };
    const end = () => {
      events.close();
      if (state.events === events) { state.events = null; state.endFollow = null; $("stop").disabled = true; }
      resolve();
    };
    state.endFollow = end;
    events.addEventListener("end", end);
    events.onerror = end;
  });
}

function showProgress(p) {
  const parts = [p.solutions_text || `${p.solutions} solutions`, `${p.nodes} nodes`, `${p.seconds} s`];
  if (p.parts) parts.push(p.resumed ? `${p.parts}, ${p.resumed} of them before this run` : p.parts);
  if (p.engine) parts.push(`${p.engine} engine`);
  if (p.share !== null && p.share !== undefined && p.state === "running") {
    parts.push(`${(100 * p.share).toFixed(2)}% of the tree`);
  }
  if (p.left) parts.push(p.left);
  // a search of solutions that stopped at the one asked for is paused, not done: Next
  // searches on from there
  const paused = p.state === "done" && p.mode === "solve" && p.result && !p.result.exhausted;
  $("progress").textContent = `${paused ? "paused (Next searches on)" : p.state}: ` + parts.join(", ");
  const bar = $("bar");
  bar.hidden = p.share === null || p.share === undefined;
  if (!bar.hidden) bar.value = p.share;
  if (p.state !== "running") $("result").textContent = p.message;
  // a count done: the browse line says "of 520", not "of 4+" (#36 fix 7)
  if (p.mode === "count" && p.state === "done" && p.result && p.result.solutions !== undefined && !p.result.reason) {
    state.counted = {solutions: p.result.solutions, distinct: p.result.distinct};
    updateBrowse();
  }
}

async function run(index) {
  // ask for solution number index of the puzzle on screen (once it is checked); the server
  // searches on (streaming progress) only when it has not been found yet, and a second
  // request with peek only reads where it stopped
  const version = await settled();
  if (!state.toml) { $("result").textContent = "nothing to solve yet: draw the board and the pieces"; return null; }
  let data = await post("/api/solve", Object.assign(puzzleBody(), {index}));
  if (data.state === "running") {
    await follow(version);
    if (version !== state.version) throw new Stale("stale");  // the puzzle changed meanwhile
    data = await post("/api/solve", Object.assign(puzzleBody(), {index, peek: true}));
  }
  return data;
}

async function showSolution(index) {
  const version = state.version;
  let data;
  try {
    data = await run(index);
    if (!data) return;
    const distinct = $("distinct").checked;
    state.found = data.found; state.exhausted = data.exhausted; state.distinct = distinct;
    // the count of those found now, whatever the last progress event of the search said
    const found = `${data.found} ${distinct ? "distinct " : ""}solution${data.found === 1 ? "" : "s"}`;
    showProgress(Object.assign({}, data, {mode: "solve", solutions_text: found, result: {exhausted: data.exhausted}}));
    if (index < data.found) {
      const response = await fetch(`/api/solution/${tab}/${index}.svg?version=${data.version}`);
      const svg = await response.text();
      if (!response.ok || data.version !== state.version) return;
      state.index = index;
      $("result").textContent = "";
      $("solution-svg").innerHTML = svg;
      fitPicture($("solution-svg"));
      if (window.page3d) page3d.solution(index, data.version);  // a solid's solution in 3-D
    } else if (data.state !== "stopped") {
      const what = distinct ? "distinct solutions" : "solutions";
      $("result").textContent = data.found ? `no more ${what}: ${data.found} in all` : (data.message || "no solution");
    }
    $("answer-for").textContent = `for ${state.name}` + (state.board ? ` (board ${Number(state.board) + 1})` : "");
    updateBrowse();
  } catch (error) {
    if (!(error instanceof Stale) && version === state.version) $("result").textContent = error.message;
  }
}

function updateBrowse() {
  const have = state.found > 0;
  $("prev").disabled = !have || state.index === 0;
  $("next").disabled = !have || (state.exhausted && state.index + 1 >= state.found);
  const what = state.distinct ? "distinct solution" : "solution";
  const counted = state.counted ? (state.distinct ? state.counted.distinct : state.counted.solutions) : null;
  const of = state.exhausted ? state.found : counted !== null && counted >= state.found ? counted : `${state.found}+`;
  $("position").textContent = have ? `${what} ${state.index + 1} of ${of}` : "";
  $("downloads").hidden = !have;
  for (const fmt of ["svg", "png", "json"]) {
    $(`dl-${fmt}`).href = `/api/solution/${tab}/${state.index}.${fmt}?download=1`;
  }
}

$("solve").addEventListener("click", () => { $("result").textContent = ""; showSolution(0); });
$("next").addEventListener("click", () => showSolution(state.index + 1));
$("prev").addEventListener("click", () => showSolution(Math.max(0, state.index - 1)));
$("count").addEventListener("click", async () => {
  const version = state.version;
  $("result").textContent = "";
  try {
    const checked = await settled();
    if (!state.toml) { $("result").textContent = "nothing to count yet: draw the board and the pieces"; return; }
    const data = await post("/api/count", Object.assign(puzzleBody(), {save: $("save-progress").checked}));
    if (data.state === "running") await follow(checked); else showProgress(data);
  } catch (error) {
    if (!(error instanceof Stale) && version === state.version) $("result").textContent = error.message;
  }
  if ($("save-progress").checked) loadSaved();  // where the saved count stands now
});

// -- saved searches (#36 item 4): counts saved as they go, listed when the page opens -------
const savedSearches = new Map();  // key -> what the server keeps of it

function standingText(s) {
  if (s.error) return `cannot resume: ${s.error}`;
  if (s.tried !== undefined) return `${s.tried} designs tried, ${s.kept} kept so far`;
  if (s.taken !== undefined) return `${s.taken} assemblies taken apart, ${s.apart} of them come apart, so far`;
  if (s.total === null) return "not split into parts yet";
  const found = `${s.solutions} solutions, ${s.distinct} distinct`;
  return s.done === s.total ? `done: ${found} (${s.total} parts)` : `${s.done} of ${s.total} parts done, ${found} so far`;
}

async function loadSaved() {
  let listing = [];
  try {
    const response = await fetch("/api/saved");
    if (response.ok) listing = (await response.json()).saved;
  } catch (error) { return; }
  savedSearches.clear();
  const items = listing.map((about) => {
    savedSearches.set(about.key, about);
    const li = document.createElement("li");
    li.dataset.key = about.key;
    const words = document.createElement("span");
    words.className = "standing";
    words.textContent = `${about.kind} of ${about.name}${about.board ? ` (board ${about.board})` : ""}, engine ${about.engine}: ${standingText(about.standing)}`;
    const resume = document.createElement("button");
    resume.className = "resume"; resume.textContent = about.standing.total && about.standing.done === about.standing.total ? "Open" : "Resume";
    resume.disabled = !!about.standing.error;
    const forget = document.createElement("button");
    forget.className = "forget"; forget.textContent = "Delete";
    li.append(words, " ", resume, " ", forget);
    return li;
  });
  $("saved-list").replaceChildren(...items);
  $("saved").hidden = !items.length;
}

$("saved-list").addEventListener("click", async (event) => {
  const button = event.target.closest("button");
  const li = event.target.closest("li");
  if (!button || !li) return;
  const about = savedSearches.get(li.dataset.key);
  if (!about) return;
  if (button.classList.contains("forget")) {
    await post("/api/saved/forget", {key: about.key}).catch(() => {});
    loadSaved();
    return;
  }
  if (about.kind === "design") {
    // its design file in the design search's pane, run again with save progress: the
    // designs its checkpoint holds come back first, the rest are tried
    openDesignFile(about.toml, about.name);
    $("designs-save").checked = true;
    $("designs-run").click();
    return;
  }
  if (about.kind === "take-apart") {
    // its puzzle opened, and every assembly taken apart again with save progress: those
    // its checkpoint holds are not taken apart again
    state.target = "board";
    await openText(about.toml, about.name);
    $("apart-save").checked = true;
    document.querySelector('.tabs button[data-pane="moves"]').click();
    $("apart-all").click();
    return;
  }
  // open its puzzle, with its board and engine, and count it again with save progress:
  // the server resumes from its checkpoint (and a finished one answers at once)
  state.target = "board";
  await openText(about.toml, about.name);
  state.board = about.board; $("board").value = about.board;
  if ([...$("engine").options].some((o) => o.value === about.engine)) $("engine").value = about.engine;
  $("save-progress").checked = true;
  document.querySelector('.tabs button[data-pane="solutions"]').click();
  $("count").click();
});
$("stop").addEventListener("click", () => post("/api/stop", {}).catch(() => {}));
// browsing all solutions or one of each symmetry class, with another engine: a new search
$("distinct").addEventListener("change", () => { resetSolutions(); state.distinct = $("distinct").checked; });
$("engine").addEventListener("change", () => {
  resetSolutions();
  const chosen = $("engine").selectedOptions[0];
  $("engine-note").textContent = chosen ? chosen.title : "";
});
// the page goes away (a closed tab, another address): its searches stop and the server's
// processes for it end (#36 item 5); a page brought back opens its puzzle again as it asks
window.addEventListener("pagehide", () => navigator.sendBeacon("/api/close", JSON.stringify({tab})));

// -- watching the search -------------------------------------------------------------------
let watchTimer = null;
const frameTimes = [];  // when the last frames were shown: the rate delivered
function stopWatch() {
  state.watching = false; clearTimeout(watchTimer); $("watch-play").textContent = "Play";
  frameTimes.length = 0;
}

function markMoves(marks) {
  // the move just made, on the board: the kind names the SVG elements that draw it
  const svg = $("watch-svg").querySelector("svg");
  if (!svg || !marks) return;
  for (const [kind, ids] of [["just-placed", marks.placed], ["just-undone", marks.undone]]) {
    for (const id of ids) {
      for (const el of svg.querySelectorAll("[id]")) {
        const bare = el.id.replace(/^p\d+-/, "");
        if (bare === id || bare.startsWith(`${id}-`)) el.classList.add(kind);
      }
    }
  }
}

async function watchFrame(restart) {
  const version = await settled();
  try {
    const frame = await post("/api/watch", Object.assign(puzzleBody(), {nodes: Number($("watch-nodes").value), restart: !!restart}));
    if (version !== state.version) return null;
    $("watch-svg").innerHTML = frame.svg;
    fitPicture($("watch-svg"));
    markMoves(frame.marks);
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
    if (!(error instanceof Stale) && version === state.version) $("watch-status").textContent = error.message;
    stopWatch();
    return null;
  }
}

function showRate() {
  // the rate asked for against the rate delivered over the last frames; when the server
  // cannot draw that fast, the control says what it can do
  const asked = Number($("speed").value);
  $("speed-text").textContent = asked;
  if (frameTimes.length < 4) { $("watch-rate").textContent = ""; return; }
  const span = (frameTimes[frameTimes.length - 1] - frameTimes[0]) / 1000;
  const delivered = (frameTimes.length - 1) / span;
  const can = Math.max(1, Math.floor(delivered));
  $("watch-rate").textContent = delivered >= 0.9 * asked
    ? `delivered: ${delivered.toFixed(1)} frames/s`
    : `delivered: ${delivered.toFixed(1)} frames/s: this puzzle's frames are drawn at most about ${can} a second here (more nodes per frame go faster)`;
}

async function watchLoop() {
  if (!state.watching) return;
  const began = performance.now();
  const frame = await watchFrame(false);
  if (!frame || !state.watching) return;
  frameTimes.push(performance.now());
  if (frameTimes.length > 12) frameTimes.shift();
  showRate();
  const wait = Math.max(0, 1000 / Number($("speed").value) - (performance.now() - began));
  if (frame.solved) frameTimes.length = 0;  // a solution holds the picture: not a slow frame
  watchTimer = setTimeout(watchLoop, frame.solved ? Math.max(wait, 1000) : wait);
}

$("watch-play").addEventListener("click", () => {
  if (state.watching) { stopWatch(); return; }
  state.watching = true; $("watch-play").textContent = "Pause"; watchLoop();
});
$("watch-step").addEventListener("click", () => { stopWatch(); watchFrame(false); });
$("watch-restart").addEventListener("click", () => { stopWatch(); watchFrame(true); });
$("speed").addEventListener("input", () => { frameTimes.length = 0; showRate(); });

// -- pictures: fitted to their pane, zoom and pan for big boards -----------------------------
const zoom = new Map();  // picture id -> its zoom (1: fitted to the pane)

function fitPicture(box) {
  const svg = box.querySelector("svg");
  if (!svg) return;
  const z = zoom.get(box.id) || 1;
  box.classList.toggle("zoomed", z > 1);
  // the server's SVG says its size in points; the viewBox keeps its shape at any width
  svg.style.width = `${100 * z}%`;
  // fitted, a small picture grows to at most three times its own size (a 2x4 board
  // drawn a pane wide is all border); a big one shrinks to the pane
  const natural = parseFloat(svg.getAttribute("width")) * (/pt$/.test(svg.getAttribute("width") || "") ? 4 / 3 : 1);
  svg.style.maxWidth = z > 1 ? "none" : (natural > 0 ? `${Math.max(480, 3 * natural)}px` : "");
  svg.style.maxHeight = z > 1 ? "none" : "";
  $(`${box.id}-zoom`).textContent = z > 1 ? `${Math.round(100 * z)}%` : "fitted";
}

for (const box of document.querySelectorAll(".picture")) {
  const bar = document.createElement("div");
  bar.className = "zoom-bar";
  const button = (text, title, z) => {
    const b = document.createElement("button");
    b.textContent = text; b.title = title; b.className = "zoom";
    b.addEventListener("click", () => { zoom.set(box.id, z()); fitPicture(box); });
    return b;
  };
  const label = document.createElement("span");
  label.id = `${box.id}-zoom`; label.className = "muted"; label.textContent = "fitted";
  bar.append(button("−", "zoom out", () => Math.max(1, (zoom.get(box.id) || 1) / 1.5)),
             button("+", "zoom in (then drag to pan)", () => Math.min(20, (zoom.get(box.id) || 1) * 1.5)),
             button("fit", "fit the picture to the pane", () => 1), label);
  const frame = document.createElement("div");  // the bar and its picture: one grid cell
  frame.className = "picture-frame";
  box.before(frame);
  frame.append(bar, box);
  bar.dataset.for = box.id;
  let dragging = null;
  box.addEventListener("mousedown", (event) => {
    if (!box.classList.contains("zoomed")) return;
    event.preventDefault();
    dragging = {x: event.clientX, y: event.clientY, left: box.scrollLeft, top: box.scrollTop};
  });
  window.addEventListener("mousemove", (event) => {
    if (!dragging) return;
    box.scrollLeft = dragging.left - (event.clientX - dragging.x);
    box.scrollTop = dragging.top - (event.clientY - dragging.y);
  });
  window.addEventListener("mouseup", () => { dragging = null; });
  box.addEventListener("wheel", (event) => {
    if (!event.ctrlKey) return;  // Ctrl + wheel zooms; the wheel alone scrolls the page
    event.preventDefault();
    const z = zoom.get(box.id) || 1;
    zoom.set(box.id, event.deltaY < 0 ? Math.min(20, z * 1.25) : Math.max(1, z / 1.25));
    fitPicture(box);
  }, {passive: false});
}

// -- the grid's size limit: the fields show what is drawn ----------------------------------
// (a capture listener: it runs before the grid editor reads the fields)
document.addEventListener("change", (event) => {
  const field = event.target;
  if (field.id !== "grid-rows" && field.id !== "grid-cols") return;
  const most = Number(field.max), least = Number(field.min) || 1;
  const asked = Math.round(Number(field.value)) || least;
  field.value = Math.max(least, Math.min(most, asked));
  limitNote(asked);
}, true);

// -- the panes -----------------------------------------------------------------------------
for (const button of document.querySelectorAll(".tabs button")) {
  button.addEventListener("click", () => {
    for (const other of document.querySelectorAll(".tabs button")) other.classList.toggle("active", other === button);
    for (const pane of document.querySelectorAll(".pane")) pane.hidden = pane.id !== `pane-${button.dataset.pane}`;
    if (button.dataset.pane !== "watch") stopWatch();
  });
}

(async () => {
  limitNote(0);
  const lattices = await (await fetch("/api/lattices")).json();
  $("lattice").replaceChildren(...lattices.map((name) => new Option(name, name)));
  const engines = await (await fetch("/api/engines")).json();
  $("engine").replaceChildren(...engines.map((e) => {
    const option = new Option(e.name, e.name);
    option.title = `${e.summary}` + (e.solve && e.count ? "" : e.solve ? " (solves only)" : " (counts only)");
    return option;
  }));
  $("engine-note").textContent = engines.length ? $("engine").selectedOptions[0].title : "";
  const response = await fetch("/api/catalog");
  const entries = await response.json();
  for (const entry of entries) $("catalog").add(new Option(`${entry.name} (${entry.kind})`, entry.name));
  $("new").click();
  loadSaved();  // listed once the page has its empty puzzle: a Resume is never undone by it
})();
