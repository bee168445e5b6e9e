// puzzlebox's designer tools (#25 items 3 and 4, #24 item 3): undo/redo, the cube editor
// with its isometric preview, turn/mirror/move/duplicate, rectangle and fill, "add the set",
// BurrTools import, piece sheet and STL export, and the take-apart animation. Loaded after
// app.js and sharing its globals (state, $, post, edited, showEditor, drawGrid, cellsOf,
// openText). The lattice's geometry (turns, mirrors, neighbours, the polyforms)
// is asked of the server (web/design.py): this file only draws and edits.
"use strict";

// a tool's refusal, on its own line (the check's line is rewritten by every check)
function designError(text) { $("design-error").textContent = text || ""; }
// a file's refusal (import, piece sheet, STL), under the file buttons: seen whether or not
// the grid editor is shown (a text-only puzzle hides it with its line, #36 fix 2)
function fileError(text) { $("file-error").textContent = text || ""; }

// -- one edit at a time --------------------------------------------------------------------
// a tool that asks the server edits the cells it had when asked: edits queue behind it, so
// that two quick clicks (move down, move right) or an undo right after make two steps
let designQueue = Promise.resolve();
function queued(edit) {
  designQueue = designQueue.then(edit, edit);
  return designQueue;
}

// -- undo and redo -------------------------------------------------------------------------
// with each state, the piece the editor showed before and after the edit that made it:
// undo shows the piece the edit began on, redo the one it ended on (#36 fix 3: undo of
// Duplicate shows the piece duplicated, not the one after it)
const undoStack = {owner: null, states: [], targets: [], at: 0};
const HISTORY_LIMIT = 200;

function historyFor(model) {
  // a model opened or made anew starts its own history
  if (undoStack.owner === model) return;
  undoStack.owner = model;
  undoStack.states = model ? [JSON.stringify(model)] : [];
  undoStack.targets = model ? [{before: state.target, after: state.target}] : [];
  undoStack.at = 0;
  historyButtons();
}

function remember(before) {
  // called after every edit of the model: one step of undo; before: the piece shown when
  // the edit began, where it is not the one shown now (add, remove, duplicate a piece)
  if (!state.model) return;
  historyFor(state.model);
  const now = JSON.stringify(state.model);
  if (now === undoStack.states[undoStack.at]) return;
  undoStack.states.splice(undoStack.at + 1);
  undoStack.targets.splice(undoStack.at + 1);
  undoStack.states.push(now);
  undoStack.targets.push({before: before === undefined ? state.target : String(before), after: state.target});
  if (undoStack.states.length > HISTORY_LIMIT) { undoStack.states.shift(); undoStack.targets.shift(); }
  undoStack.at = undoStack.states.length - 1;
  historyButtons();
}

function historyButtons() {
  $("undo").disabled = undoStack.at <= 0;
  $("redo").disabled = undoStack.at >= undoStack.states.length - 1;
}

function travel(step) {
  const at = undoStack.at + step;
  if (!state.model || at < 0 || at >= undoStack.states.length) return;
  const shown = step < 0 ? undoStack.targets[undoStack.at] : undoStack.targets[at];
  if (shown) state.target = step < 0 ? shown.before : shown.after;
  undoStack.at = at;
  state.model = JSON.parse(undoStack.states[at]);
  undoStack.owner = state.model;
  historyButtons();
  showEditor();
  edited();
}

$("undo").addEventListener("click", () => queued(() => travel(-1)));
$("redo").addEventListener("click", () => queued(() => travel(1)));
document.addEventListener("keydown", (event) => {
  if (!(event.ctrlKey || event.metaKey) || !state.model) return;
  // a text field keeps its own undo; a menu (Editing, Tool, Layers) has none, and drawing
  // leaves the focus on the menu last used (#36 fix 1): Ctrl-Z there undoes the drawing
  const inField = event.target.closest && event.target.closest("input, textarea");
  if (inField && event.target.type !== "checkbox") return;
  const key = event.key.toLowerCase();
  if (key === "z" && !event.shiftKey) { event.preventDefault(); queued(() => travel(-1)); }
  else if (key === "y" || (key === "z" && event.shiftKey)) { event.preventDefault(); queued(() => travel(1)); }
});

// -- the lattice menu: the flat lattices and cube ------------------------------------------
let designLattices = null;
let designLayers = {cube: "square"};  // a lattice in layers -> the flat lattice of a layer
let designSolids = [];  // the lattices whose cells are added by clicking faces in 3-D
(async () => {
  const response = await fetch("/api/design/lattices");
  if (response.ok) ({lattices: designLattices, layers: designLayers, solids: designSolids} = await response.json());
  latticeOptions();
  if (state.model && isCube()) showEditor();  // a prism opened before the answer came
})();

function latticeOptions() {
  const menu = $("lattice");
  if (!designLattices) return;
  const have = new Set([...menu.options].map((o) => o.value));
  for (const name of designLattices) if (!have.has(name)) menu.add(new Option(name, name));
  if (state.model) menu.value = state.model.lattice || "square";
}

// the lattices in layers (cube, prism: #37 item 4) are edited as layers side by side
const layerOf = (lattice) => designLayers[lattice || "square"];
const isCube = () => !!state.model && !!layerOf(state.model.lattice);
// rhombic, sphere, tetra-octa (#37 item 4): edited by clicking faces in the 3-D view (the
// server says which cell is across), and drawn in layers of the file's grid positions, of
// which only some are cells (the server says which: the others are drawn greyed, unclickable)
const isSolidLattice = (lattice) => designSolids.includes(lattice || "square");
const isSolid = () => !!state.model && isSolidLattice(state.model.lattice);
const placesCache = new Map();  // "lattice layers rows cols" -> the positions' rows per layer

async function askGeometry(path, body) {
  // a question about the lattice (which positions are cells, a mesh, the cell across a
  // face): its answer holds whatever puzzle is on screen, so unlike post() it is not
  // dropped when the puzzle's version moves on (an edit right after asking)
  const response = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

// called at the end of app.js's showEditor: the controls of the lattice drawn
function designerShow() {
  historyFor(state.model);
  historyButtons();
  latticeOptions();
  const cube = isCube();
  $("cube-editor").hidden = !cube;
  $("grid").toggleAttribute("hidden", cube);  // an SVG element has no .hidden
  $("layers-field").hidden = !cube;
  for (const el of document.querySelectorAll(".cube-only")) el.hidden = !cube;
  $("duplicate").disabled = state.target === "board";
  $("set-size").max = cube ? 6 : 8;
  // the grid fields' maxima are those of the editor shown, and the note beside them says so
  $("grid-rows").max = cube ? CUBE_LIMITS[1] : FLAT_MOST;
  $("grid-cols").max = cube ? CUBE_LIMITS[2] : FLAT_MOST;
  $("grid-layers").max = CUBE_LIMITS[0];
  limitNote(0);
  if (cube) {
    const cells = cellsOf();
    const layers = Math.max(0, ...cells.map((c) => c[0] + 1));
    $("grid-layers").value = Math.max(layers, state.target === "board" ? 3 : 2);
  }
}

// -- the cube editor: layers of squares and an isometric preview ---------------------------
let cubeLayer = 0;  // the layer shown when one layer is shown at a time
const SQUARE_PX = 22;

const CUBE_LIMITS = [20, 30, 30];  // layers, rows, columns the cube editor shows at most
const FLAT_MOST = Number($("grid-rows").max);  // the flat editor's (the page's EDITOR_SIZE)

function cubeWindow() {
  // the window of cells shown; a field past its limit is set back to what is drawn (no
  // silent cap: the fields always say what the layers show)
  const ids = ["grid-layers", "grid-rows", "grid-cols"];
  return ids.map((id, i) => {
    const value = Math.max(1, Math.min(CUBE_LIMITS[i], Number($(id).value) || 1));
    if (Number($(id).value) > CUBE_LIMITS[i]) $(id).value = value;  // an empty field is being typed in
    $(id).title = `1 to ${CUBE_LIMITS[i]} on cube`;
    return value;
  });
}

function drawCube() {
  // each layer a grid of squares (bottom layer first), the cubes drawn filled; on another
  // lattice in layers (prism) each layer is drawn with its flat lattice's outlines, asked of
  // the server as the flat editor asks them (app.js's cellOutlines)
  const [layers, rows, cols] = cubeWindow();
  const flat = layerOf(state.model.lattice);
  const square = [[0, 0], [1, 0], [1, 1], [0, 1]];
  let outline = null;
  if (flat !== "square") {
    if (!outlines.has(`${flat} ${rows} ${cols}`)) { cellOutlines(flat, rows, cols).then(() => { if (isCube()) drawCube(); }); return; }
    outline = outlines.get(`${flat} ${rows} ${cols}`);
  }
  const cellsShown = outline || Array.from({length: rows * cols}, (_, k) => {
    const r = Math.floor(k / cols), c = k % cols;
    return [r, c, square.map(([x, y]) => [c + x, r + y])];
  });
  const width = Math.max(1, ...cellsShown.flatMap(([, , points]) => points.map((p) => p[0])));
  const height = Math.max(1, ...cellsShown.flatMap(([, , points]) => points.map((p) => p[1])));
  let holds = null;  // on a solid lattice: whether a position is a cell
  if (isSolid()) {
    const key = `${state.model.lattice} ${layers} ${rows} ${cols}`;
    if (!placesCache.has(key)) {
      askGeometry("/api/design/places", {lattice: state.model.lattice, window: [layers, rows, cols]})
        .then((data) => { placesCache.set(key, data.layers.map((layer) => layer.split("/"))); if (isCube()) drawCube(); })
        .catch((error) => designError(error.message));
      return;
    }
    const grid = placesCache.get(key);
    holds = (l, r, c) => grid[l][r][c] === "#";
  }
  cubeLayer = Math.min(cubeLayer, layers - 1);
  const at = new Map(cellsOf().map((c) => [`${c[0]},${c[1]},${c[2]}`, c[3]]));
  const optional = state.target === "board" ? optionalSet() : new Set();
  const one = $("layer-view").value === "one";
  $("layer-nav").hidden = !one;
  // numbered from 0 at the bottom, as the server's pictures of solids number them
  const layerName = (l) => `layer ${l}${l === 0 ? " (bottom)" : l === layers - 1 ? " (top)" : ""}`;
  $("layer-name").textContent = layerName(cubeLayer);
  $("layer-down").disabled = cubeLayer === 0;
  $("layer-up").disabled = cubeLayer >= layers - 1;
  const figures = [];
  for (let l = 0; l < layers; l++) {
    if (one && l !== cubeLayer) continue;
    const figure = document.createElement("figure");
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "grid layer");
    svg.dataset.l = l;
    svg.setAttribute("width", Math.ceil(width * SQUARE_PX + 2));
    svg.setAttribute("height", Math.ceil(height * SQUARE_PX + 2));
    for (const [r, c, points] of cellsShown) {
      const rect = document.createElementNS(SVG, "polygon");
      rect.setAttribute("points", points.map(([x, y]) => `${x * SQUARE_PX + 1},${y * SQUARE_PX + 1}`).join(" "));
      rect.dataset.l = l; rect.dataset.r = r; rect.dataset.c = c;
      if (holds && !holds(l, r, c)) {  // a position of the grid that is no cell ('.' in the file)
        rect.setAttribute("class", "no-cell");
        rect.appendChild(document.createElementNS(SVG, "title")).textContent = `${l},${r},${c}: no cell of the ${state.model.lattice} lattice`;
        svg.appendChild(rect);
        continue;
      }
      rect.setAttribute("class", "cell");
      rect.appendChild(document.createElementNS(SVG, "title")).textContent = `${l},${r},${c}`;
      fillCell(rect, at.get(`${l},${r},${c}`));
      markOptional(rect, optional.has(`${l},${r},${c}`));
      svg.appendChild(rect);
    }
    const caption = document.createElement("figcaption");
    caption.textContent = layerName(l);
    figure.append(svg, caption);
    figures.push(figure);
  }
  $("layers").replaceChildren(...figures);
  cubePreview();
}

function cubePreview() {
  // the 3-D view (static/page3d.js) where the browser has WebGL, else the isometric picture
  // (drawn either way, shown only without the 3-D view)
  drawIso($("iso"), cellsOf().map((c) => ({x: c[2], y: c[1], z: c[0], fill: colourOf(c[3]) || "#8a9bb0"})), 26);
  $("iso").toggleAttribute("hidden", !!(window.page3d && page3d.editor()));
}

function cubePaint(el) {
  const l = Number(el.dataset.l), r = Number(el.dataset.r), c = Number(el.dataset.c);
  if (painting === "mark" || painting === "unmark") { optionalPaint(el, [l, r, c]); return; }
  const cells = cellsOf();
  const i = cells.findIndex((x) => x[0] === l && x[1] === r && x[2] === c);
  if (i >= 0) cells.splice(i, 1);
  const ch = $("colour").value || "#";
  if (painting === "on") cells.push([l, r, c, ch]);
  fillCell(el, painting === "on" ? ch : undefined);
}

$("layers").addEventListener("mousedown", (event) => {
  const cell = event.target.closest(".cell");
  if (!cell) return;
  event.preventDefault();
  const tool = $("tool").value;
  if (tool === "rectangle" || tool === "fill") { queued(() => shapeTool(cell, tool)); return; }
  if (startPaint(cell, [Number(cell.dataset.l), Number(cell.dataset.r), Number(cell.dataset.c)])) cubePaint(cell);
});
$("layers").addEventListener("mouseover", (event) => {
  const cell = event.target.closest(".cell");
  if (painting && cell) cubePaint(cell);
});
window.addEventListener("mouseup", () => { if (isCube()) cubePreview(); });
$("layer-view").addEventListener("change", drawCube);
$("layer-up").addEventListener("click", () => { cubeLayer++; drawCube(); });
$("layer-down").addEventListener("click", () => { cubeLayer = Math.max(0, cubeLayer - 1); drawCube(); });
$("grid-layers").addEventListener("change", () => { if (isCube()) drawCube(); });

// -- isometric drawing (the cube editor's preview and the take-apart view) ------------------
const COS30 = Math.cos(Math.PI / 6), SIN30 = 0.5;
function shade(colour, amount) {
  // a face's shade: the colour mixed with black (amount < 0) or white (amount > 0)
  return amount === 0 ? colour : `color-mix(in srgb, ${colour}, ${amount < 0 ? "black" : "white"} ${Math.abs(amount)}%)`;
}

function drawIso(svg, cubes, unit, box) {
  // unit cubes at (x column, y row, z layer; fractions allowed while moving), seen from the
  // front right above: painter's order by x + y + z, three faces each
  const project = (x, y, z) => [(x - y) * COS30 * unit, (x + y) * SIN30 * unit - z * unit];
  const sorted = [...cubes].sort((a, b) => (a.x + a.y + a.z) - (b.x + b.y + b.z) || a.z - b.z);
  const faces = [];
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const {x, y, z, fill} of sorted) {
    const corner = (dx, dy, dz) => project(x + dx, y + dy, z + dz);
    const quads = [
      [[corner(0, 0, 1), corner(1, 0, 1), corner(1, 1, 1), corner(0, 1, 1)], shade(fill, 25), "top"],
      [[corner(0, 1, 0), corner(1, 1, 0), corner(1, 1, 1), corner(0, 1, 1)], fill, "front"],
      [[corner(1, 0, 0), corner(1, 1, 0), corner(1, 1, 1), corner(1, 0, 1)], shade(fill, -25), "right"],
    ];
    for (const [points, colour, side] of quads) {
      for (const [px, py] of points) { minX = Math.min(minX, px); maxX = Math.max(maxX, px); minY = Math.min(minY, py); maxY = Math.max(maxY, py); }
      const polygon = document.createElementNS(SVG, "polygon");
      polygon.setAttribute("points", points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" "));
      polygon.setAttribute("fill", colour);
      polygon.setAttribute("stroke", "#333");
      polygon.setAttribute("stroke-width", "0.6");
      polygon.setAttribute("class", `face ${side}`);
      faces.push(polygon);
    }
  }
  if (!faces.length) { minX = minY = 0; maxX = maxY = unit; }
  if (box) [minX, minY, maxX, maxY] = box;  // one frame for every moment of an animation
  svg.setAttribute("viewBox", `${(minX - 4).toFixed(1)} ${(minY - 4).toFixed(1)} ${(maxX - minX + 8).toFixed(1)} ${(maxY - minY + 8).toFixed(1)}`);
  if (!svg.classList.contains("moves")) {
    svg.setAttribute("width", Math.ceil(maxX - minX + 8));
    svg.setAttribute("height", Math.ceil(maxY - minY + 8));
  }
  svg.replaceChildren(...faces);
  return [minX, minY, maxX, maxY];
}

// -- rectangle and fill --------------------------------------------------------------------
let corner = null;  // the first corner of a rectangle being drawn

function clearRectPreview() {
  for (const el of document.querySelectorAll(".cell.in-rect")) el.classList.remove("in-rect");
  for (const el of document.querySelectorAll(".rect-outline")) el.remove();
}

function rectPreview(el) {
  // between the first corner and the second, the rectangle the second click would fill:
  // its cells marked and its outline drawn (dashed) around them, under the pointer
  clearRectPreview();
  if (!corner || !el || $("tool").value !== "rectangle") return;
  const cube = isCube();
  const here = cube ? [Number(el.dataset.l), Number(el.dataset.r), Number(el.dataset.c)]
    : [Number(el.dataset.r), Number(el.dataset.c)];
  if (corner.cube !== cube || (cube && corner.at[0] !== here[0])) return;
  const k = cube ? 1 : 0;
  const lo = (i) => Math.min(corner.at[i], here[i]), hi = (i) => Math.max(corner.at[i], here[i]);
  const svg = el.ownerSVGElement;
  let box = null;
  for (const cell of svg.querySelectorAll(".cell")) {
    const r = Number(cell.dataset.r), c = Number(cell.dataset.c);
    if (r < lo(k) || r > hi(k) || c < lo(k + 1) || c > hi(k + 1)) continue;
    cell.classList.add("in-rect");
    const b = cell.getBBox();
    box = box ? [Math.min(box[0], b.x), Math.min(box[1], b.y), Math.max(box[2], b.x + b.width), Math.max(box[3], b.y + b.height)]
      : [b.x, b.y, b.x + b.width, b.y + b.height];
  }
  if (!box) return;
  const outline = document.createElementNS(SVG, "rect");
  outline.setAttribute("class", "rect-outline");
  outline.setAttribute("x", box[0]); outline.setAttribute("y", box[1]);
  outline.setAttribute("width", box[2] - box[0]); outline.setAttribute("height", box[3] - box[1]);
  svg.appendChild(outline);
}

for (const id of ["grid", "layers"]) {
  $(id).addEventListener("mouseover", (event) => { if (corner) rectPreview(event.target.closest(".cell")); });
}
$("tool").addEventListener("change", () => {
  // another tool: the rectangle begun is given up
  if (corner) corner.el.classList.remove("corner");
  corner = null;
  clearRectPreview();
});

async function shapeTool(el, tool) {
  // rectangle: two clicks, the corners; fill: the region around a cell (server: neighbours)
  const cube = isCube();
  const here = cube ? [Number(el.dataset.l), Number(el.dataset.r), Number(el.dataset.c)]
    : [Number(el.dataset.r), Number(el.dataset.c)];
  const ch = $("colour").value || "#";
  const lattice = state.model.lattice || "square";
  if (tool === "fill") {
    const frame = cube ? cubeWindow() : [Math.min(60, Number($("grid-rows").value) || 1), Math.min(60, Number($("grid-cols").value) || 1)];
    try {
      const data = await post("/api/design/fill", {lattice, cells: cellsOf(), start: here, window: frame, colour: ch});
      designError("");
      setCells(data.cells);
    } catch (error) { designError(error.message); }
    return;
  }
  if (!corner || corner.cube !== cube || (cube && corner.at[0] !== here[0])) {
    if (corner) corner.el.classList.remove("corner");
    corner = {at: here, cube, el};
    el.classList.add("corner");
    rectPreview(el);
    return;
  }
  const [a, b] = [corner.at, here];
  corner.el.classList.remove("corner");
  corner = null;
  clearRectPreview();
  const lo = (i) => Math.min(a[i], b[i]), hi = (i) => Math.max(a[i], b[i]);
  const k = cube ? 1 : 0;  // the index of the row
  const cells = cellsOf().filter((c) => !(c[k] >= lo(k) && c[k] <= hi(k) && c[k + 1] >= lo(k + 1) && c[k + 1] <= hi(k + 1) && (!cube || c[0] === a[0])));
  // the cells drawn (a rhombic, sphere or tetra-octa layer draws only some positions so)
  const drawn = new Set([...(cube ? el.ownerSVGElement : $("grid")).querySelectorAll(".cell")].map((p) => `${p.dataset.r},${p.dataset.c}`));
  for (let r = lo(k); r <= hi(k); r++) {
    for (let c = lo(k + 1); c <= hi(k + 1); c++) {
      if (cube && (!isSolid() || drawn.has(`${r},${c}`))) cells.push([a[0], r, c, ch]);
      else if (!cube && drawn.has(`${r},${c}`)) cells.push([r, c, ch]);
    }
  }
  setCells(cells);
}

function setCells(cells) {
  // the target's cells replaced (a tool's result): drawn, remembered, checked
  const list = cellsOf();
  list.splice(0, list.length, ...cells);
  drawGrid();
  remember();
  edited();
}

// -- turn, mirror, move, duplicate ---------------------------------------------------------
async function transform(operation) {
  // the board's optional cells go with it (the server turns them with the same map)
  if (!state.model) return;
  const board = state.target === "board";
  try {
    const data = await post("/api/design/transform", {lattice: state.model.lattice || "square", cells: cellsOf(), operation,
                                                      marked: board ? state.model.optional || [] : []});
    designError("");
    if (board) state.model.optional = data.marked;
    setCells(data.cells);
  } catch (error) { designError(error.message); }
}
for (const op of ["turn", "turn-row", "turn-col", "mirror", "move-left", "move-up", "move-down", "move-right", "move-above", "move-below"]) {
  $(op).addEventListener("click", () => queued(() => transform(op)));
}
$("duplicate").addEventListener("click", () => {
  if (!state.model || state.target === "board") return;
  const duplicated = state.target;
  const piece = state.model.pieces[Number(state.target)];
  const names = new Set(state.model.pieces.map((p) => p.name));
  let n = 2; while (names.has(`${piece.name}-${n}`)) n++;
  state.model.pieces.splice(Number(state.target) + 1, 0, JSON.parse(JSON.stringify(Object.assign({}, piece, {name: `${piece.name}-${n}`}))));
  state.target = String(Number(state.target) + 1);
  remember(duplicated); showEditor(); edited();
});

// -- add the set ---------------------------------------------------------------------------
$("add-set").addEventListener("click", () => queued(async () => {
  if (!state.model) return;
  try {
    const data = await post("/api/design/set", {lattice: state.model.lattice || "square", size: Number($("set-size").value),
      free: $("set-free").value === "free", taken: state.model.pieces.map((p) => p.name)});
    state.model.pieces.push(...data.pieces);
    designError("");
    remember(); showEditor(); edited();
  } catch (error) { designError(error.message); }
}));

// -- BurrTools import, piece sheet and STL export ------------------------------------------
const BURRTOOLS_BYTES = 1500000;  // web/design.py's MAX_UPLOAD
$("bt-file").addEventListener("change", () => {
  const file = $("bt-file").files[0];
  if (!file) return;
  if (file.size > BURRTOOLS_BYTES) {
    fileError(`${file.name}: ${file.size} bytes; the page imports BurrTools files of up to ${BURRTOOLS_BYTES} bytes (puzzlebox import FILE takes larger ones)`);
    $("bt-file").value = "";
    return;
  }
  const reader = new FileReader();
  reader.onload = async () => {
    const bytes = new Uint8Array(reader.result);
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    try {
      const data = await post("/api/design/import", {name: file.name, data: btoa(binary)});
      fileError("");
      state.target = "board";
      await openText(data.toml, data.name);
    } catch (error) { fileError(error.message); }
    $("bt-file").value = "";
  };
  reader.readAsArrayBuffer(file);
});

async function download(action) {
  if (state.checking) await state.checking;
  if (!state.toml) { fileError("nothing to export yet"); return; }
  const response = await fetch(`/api/design/${action}`, {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({tab, toml: state.toml, name: state.name})});
  if (!response.ok) { fileError((await response.json()).error); return; }
  const disposition = response.headers.get("Content-Disposition") || "";
  const match = /filename="([^"]+)"/.exec(disposition);
  const link = document.createElement("a");
  link.id = `${action}-link`;
  link.href = URL.createObjectURL(await response.blob());
  link.download = match ? match[1] : action;
  document.body.appendChild(link); link.click(); link.remove();
  fileError("");
}
$("export-sheet").addEventListener("click", () => download("sheet"));
$("export-stl").addEventListener("click", () => download("stl"));

// -- taking an assembly apart, animated ----------------------------------------------------
const moves = {data: null, step: 0, timer: null, playing: false, box: null, asked: 0};
const MOVE_MS = 700;

function piecesAt(position) {
  // the cubes of every piece at the (possibly fractional) offsets of one moment
  const names = [...new Set(moves.data.pieces.map((p) => p.name))].sort();
  const cubes = [];
  moves.data.pieces.forEach((piece, k) => {
    const [dx, dy, dz] = position[k];
    const fill = `hsl(${(names.indexOf(piece.name) * 137) % 360} 60% 55%)`;
    for (const [x, y, z] of piece.cells) cubes.push({x: x + dx, y: y + dy, z: z + dz, fill});
  });
  return cubes;
}

function showStep(step, fraction) {
  // step k (k moves made), or between k and k + 1 while playing
  const all = moves.data.positions;
  const from = all[step], to = all[Math.min(step + 1, all.length - 1)];
  const t = fraction || 0;
  const at = from.map((p, k) => p.map((v, i) => v + (to[k][i] - v) * t));
  // the 3-D view (static/page3d.js) where the browser has WebGL, else the isometric picture
  // (drawn either way, shown only without the 3-D view)
  drawIso($("moves-svg"), piecesAt(at), 16, moves.box);
  $("moves-svg").toggleAttribute("hidden", !!(window.page3d && page3d.moves(moves.data, at)));
  $("moves-step").value = step;
  $("moves-status").textContent = `level ${moves.data.level}: step ${step} of ${all.length - 1}` +
    (step ? ` (${moves.data.captions[step]})` : " (assembled)");
  const list = $("moves-list");
  [...list.children].forEach((li, i) => li.classList.toggle("now", i === step - 1));
  // the move made kept in sight in the list's own scroll (the page itself stays put)
  const now = list.children[step - 1];
  if (now) list.scrollTop = Math.max(0, now.offsetTop - list.clientHeight / 2);
  $("moves-back").disabled = step === 0;
  $("moves-forward").disabled = step >= all.length - 1;
}

function stopMoves() {
  moves.playing = false;
  cancelAnimationFrame(moves.timer);
  $("moves-play").textContent = "Play";
}

function playMoves() {
  const last = moves.data.positions.length - 1;
  if (moves.step >= last) moves.step = 0;
  moves.playing = true;
  $("moves-play").textContent = "Pause";
  let began = performance.now();
  const frame = (now) => {
    if (!moves.playing) return;
    const t = (now - began) / MOVE_MS;
    if (t >= 1) {
      moves.step += 1;
      began = now;
      if (moves.step >= last) { showStep(last, 0); stopMoves(); return; }
      showStep(moves.step, 0);
    } else showStep(moves.step, t);
    moves.timer = requestAnimationFrame(frame);
  };
  moves.timer = requestAnimationFrame(frame);
}

$("moves-find").addEventListener("click", async () => {
  stopMoves();
  if (state.checking) await state.checking;
  const asked = ++moves.asked;  // only the newest take-apart's answer is shown
  $("moves-status").textContent = "taking the assemblies apart…";
  for (const id of ["moves-play", "moves-back", "moves-forward", "moves-step"]) $(id).disabled = true;
  $("moves-stop").disabled = false;
  let data;
  try {
    // in a process of the server's, within the page's limit; Stop ends it
    data = await post("/api/design/moves", {toml: state.toml, name: state.name, solution: Number($("moves-solution").value) || 1});
  } catch (error) {
    if (asked !== moves.asked) return;
    $("moves-stop").disabled = true;
    moves.data = null;
    $("moves-status").textContent = error.message;
    $("moves-list").replaceChildren(); $("moves-svg").replaceChildren();
    if (window.page3d) page3d.movesShown();
    return;
  }
  if (asked !== moves.asked) return;
  $("moves-stop").disabled = true;
  showMovesData(data);
});

function showMovesData(data) {
  // an assembly's take-apart (the moves action's answer, or a row of the table) animated
  stopMoves();
  moves.data = data;
  $("moves-list").replaceChildren(...moves.data.captions.slice(1).map((text) => {
    const li = document.createElement("li"); li.textContent = text; return li;
  }));
  $("moves-step").max = moves.data.positions.length - 1;
  for (const id of ["moves-play", "moves-step"]) $(id).disabled = false;
  moves.step = 0;
  // the frame that holds every position, so that the view stays still while pieces move
  moves.box = null;
  const boxes = moves.data.positions.map((position) => drawIso($("moves-svg"), piecesAt(position), 16));
  moves.box = [Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1])),
               Math.max(...boxes.map((b) => b[2])), Math.max(...boxes.map((b) => b[3]))];
  showStep(0, 0);
  if (window.page3d) page3d.movesShown();
}
$("moves-stop").addEventListener("click", () => {
  $("moves-stop").disabled = true;
  post("/api/design/moves-stop", {}).catch((error) => { $("moves-status").textContent = error.message; });
});
$("moves-play").addEventListener("click", () => { if (moves.playing) stopMoves(); else if (moves.data) playMoves(); });
$("moves-back").addEventListener("click", () => { stopMoves(); moves.step = Math.max(0, moves.step - 1); showStep(moves.step, 0); });
$("moves-forward").addEventListener("click", () => { stopMoves(); moves.step = Math.min(moves.data.positions.length - 1, moves.step + 1); showStep(moves.step, 0); });
$("moves-step").addEventListener("input", () => { stopMoves(); moves.step = Number($("moves-step").value); showStep(moves.step, 0); });

if (state.model) designerShow();
