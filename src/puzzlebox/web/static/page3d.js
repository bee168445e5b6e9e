// puzzlebox's page in 3-D and taking apart by hand (#36 items 2 and 3). Loaded after
// app.js, designer.js and designs.js, sharing their globals (state, $, post, tab, cellsOf,
// isCube, cubeWindow, drawCube, remember, edited, colourOf, queued, designError, moves,
// showMovesData, stopMoves, CUBE_LIMITS); the 3-D view itself is static/view3d.js (an ES
// module, window.view3d). Here:
// * the 3-D views: the cube editor's (click a face to add a cube beyond it, shift-click or
//   the tool erase to remove one; on rhombic, sphere and tetra-octa the cell across the
//   face, asked of the server), a solid's solution, the take-apart animation; where the
//   browser has no WebGL, one line says so and the isometric pictures are drawn instead;
// * the take-apart table: every assembly taken apart (the count says how many come apart),
//   the rows sortable by level and by moves, each opening its animation;
// * the movement browser: a piece or a group slid one unit along an axis or taken out,
//   asked of the server (web/design.py's browse: the library's disassembly/browse.py), which
//   refuses a move that collides and gives the level of what is left from there.
"use strict";

window.page3d = (() => {
  const views = {};  // a container's id -> its View3D, or null where none can be made

  function unavailable() {
    if (window.view3d) return window.view3d.reason;
    // the module runs once the page is parsed: before the page has loaded, wait for it
    return document.readyState === "complete" ? "the 3-D view's script did not load" : undefined;
  }

  function view(id, options) {
    if (views[id] !== undefined) return views[id];
    const why = unavailable();
    if (why === undefined) return null;  // not loaded yet: view3d-ready draws again
    if (why) {
      const line = document.createElement("p");
      line.className = "muted view3d-none";
      line.textContent = `No 3-D view here (${why}): the isometric picture is shown instead.`;
      $(id).replaceChildren(line);
      $(id).hidden = false;
      views[id] = null;
      return null;
    }
    views[id] = window.view3d.create($(id), options);
    return views[id];
  }

  function pieceColours(names) {
    // as the isometric take-apart colours them (designer.js's piecesAt)
    const sorted = [...new Set(names)].sort();
    return names.map((name) => `hsl(${(sorted.indexOf(name) * 137) % 360} 60% 55%)`);
  }

  // -- prisms, tetrahedra, balls (#37 item 4): meshes the server computed (web/solids.py) --
  function solidPieces(mesh, keyed) {
    // keyed: [{key, fill, faded}] a group of mesh.groups each
    return keyed.map((piece, k) => Object.assign({mesh: mesh.groups[k], radius: mesh.radius}, piece));
  }

  function meshBox(group, radius) {
    // the [min, max] corners of a group's cells in space
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (const cell of group) {
      for (const p of cell.centre ? [cell.centre] : cell.faces.flat()) {
        for (let i = 0; i < 3; i++) { lo[i] = Math.min(lo[i], p[i] - (radius || 0)); hi[i] = Math.max(hi[i], p[i] + (radius || 0)); }
      }
    }
    return [lo, hi];
  }

  function shifted(group, by) {
    // a group's mesh moved by `by` in space (the pieces laid out beside the board)
    const move = (p) => p.map((v, i) => v + by[i]);
    return group.map((cell) => (cell.centre ? Object.assign({}, cell, {centre: move(cell.centre)})
      : Object.assign({}, cell, {faces: cell.faces.map((face) => face.map(move))})));
  }

  let meshAsked = 0;
  async function solidEditor(v) {
    // the prisms being edited, asked of the server as meshes (they are edited in layers)
    const asked = ++meshAsked;
    const cells = cellsOf();
    if (!cells.length) { v.setPieces([]); return; }
    let data;
    try {
      data = await askGeometry("/api/design/mesh", {lattice: state.model.lattice, cells});
    } catch (error) { return; }  // the check of the puzzle says what is wrong
    if (asked !== meshAsked) return;
    v.setPieces(solidPieces(data, data.colours.map((ch) => ({key: ch, fill: colourOf(ch) || "#8a9bb0"}))));
  }

  // -- the cube editor -----------------------------------------------------------------------
  let editorOwner = null;

  function editor() {
    if (!isCube()) return false;
    const v = view("iso3d", {label: "the cubes in 3-D", onCell: editCell, onFloor: (cell) => editAt(cell, false),
      onSolid: editSolid, onEmpty: startSolid});
    if (!v) return false;
    $("iso3d").hidden = false;
    const owned = `${state.name}|${state.target}`;
    if (state.model.lattice !== "cube") {
      if (owned !== editorOwner) { editorOwner = owned; v.fitted = false; }
      solidEditor(v);
      return true;
    }
    const [, rows, cols] = cubeWindow();
    const byColour = new Map();
    for (const [l, r, c, ch] of cellsOf()) {
      if (!byColour.has(ch)) byColour.set(ch, []);
      byColour.get(ch).push([c, r, l]);
    }
    // another puzzle or another piece: the camera fits it anew; an edit keeps the view
    const owner = `${state.name}|${state.target}`;
    if (owner !== editorOwner) { editorOwner = owner; v.fitted = false; }
    v.setPieces([...byColour].map(([ch, cells]) => ({key: ch, fill: colourOf(ch) || "#8a9bb0", cells})), {floor: [cols, rows]});
    return true;
  }

  function editCell({cell, beyond, shift}) {
    const erase = shift || $("tool").value === "erase";
    editAt(erase ? cell : beyond, erase);
  }

  function editAt([x, y, z], erase) {
    // a cube added at, or removed from, column x, row y, layer z: one step of undo
    queued(() => {
      if (!state.model || !isCube()) return;
      const cells = cellsOf();
      const i = cells.findIndex((c) => c[0] === z && c[1] === y && c[2] === x);
      if (erase) {
        if (i < 0) return;
        cells.splice(i, 1);
      } else {
        if (i >= 0) return;
        if (x < 0 || y < 0 || z < 0) { designError("a cube goes at layer, row and column 0 or more: move the cells first (the arrows)"); return; }
        if (z >= CUBE_LIMITS[0] || y >= CUBE_LIMITS[1] || x >= CUBE_LIMITS[2]) {
          designError(`the cube editor shows ${CUBE_LIMITS[0]} layers of ${CUBE_LIMITS[1]} x ${CUBE_LIMITS[2]} at most`);
          return;
        }
        cells.push([z, y, x, $("colour").value || "#"]);
        // the layers shown grow to hold the new cube (the fields say what is shown)
        for (const [id, v] of [["grid-layers", z], ["grid-rows", y], ["grid-cols", x]]) {
          if (Number($(id).value) <= v) $(id).value = v + 1;
        }
      }
      designError("");
      drawCube();
      remember();
      edited();
    });
  }

  // -- rhombic, sphere, tetra-octa: cells added across a clicked face (#37 item 4) ----------
  // which cell is across the face is the server's answer (web/solids.py's across), with the
  // shift that keeps every coordinate at 0 or more (a lattice's own translation)
  function editSolid({cell, point, shift}) {
    const erase = shift || $("tool").value === "erase";
    queued(async () => {
      if (!state.model || !isSolid()) return;
      const cells = cellsOf();
      const i = cells.findIndex((c) => c[0] === cell[0] && c[1] === cell[1] && c[2] === cell[2]);
      if (i < 0) return;  // the picture was older than the cells (an edit came between)
      if (erase) {
        cells.splice(i, 1);
        solidEdited();
        return;
      }
      let data;
      try {
        data = await askGeometry("/api/design/across", {lattice: state.model.lattice, cells, cell, point});
      } catch (error) { designError(error.message); return; }
      addSolid(data);
    });
  }

  function startSolid() {
    // an empty board or piece starts from the lattice's first cell (the server's)
    if (!state.model || !isSolid() || cellsOf().length) return false;
    queued(async () => {
      if (!state.model || !isSolid() || cellsOf().length) return;
      try {
        addSolid(await askGeometry("/api/design/across", {lattice: state.model.lattice, cells: []}));
      } catch (error) { designError(error.message); }
    });
    return true;
  }

  function addSolid({cell, shift}) {
    const cells = cellsOf();
    const [a, b, c] = shift;
    if (a || b || c) {  // the cells (and the board's optional ones) moved as a whole
      for (const x of cells) { x[0] += a; x[1] += b; x[2] += c; }
      if (state.target === "board") state.model.optional = (state.model.optional || []).map((o) => [o[0] + a, o[1] + b, o[2] + c]);
    }
    const at = [cell[0] + a, cell[1] + b, cell[2] + c];
    if (!cells.some((x) => x[0] === at[0] && x[1] === at[1] && x[2] === at[2])) cells.push([...at, $("colour").value || "#"]);
    // the layers shown grow to hold it, within the layer editor's limits
    for (const [id, v, most] of [["grid-layers", at[0], CUBE_LIMITS[0]], ["grid-rows", at[1], CUBE_LIMITS[1]], ["grid-cols", at[2], CUBE_LIMITS[2]]]) {
      if (Number($(id).value) <= v) $(id).value = Math.min(most, v + 1);
    }
    solidEdited();
  }

  function solidEdited() {
    designError("");
    drawCube();
    remember();
    edited();
  }

  // -- a solid's board and pieces (the Puzzle pane) -----------------------------------------
  let puzzleAsked = 0;
  let puzzleOwner = null;

  async function puzzle(gone) {
    // after each check of the puzzle on screen: a solid's board (optional cells faded) and
    // its pieces in a row in front of it, asked of the server (web/design.py's solid_of)
    const asked = ++puzzleAsked;
    const version = state.version;
    if (gone === null || !state.toml) { $("puzzle-3d").hidden = true; return; }
    let data;
    try {
      data = await post("/api/design/solid", {toml: state.toml, name: state.name});
    } catch (error) {
      if (asked === puzzleAsked) $("puzzle-3d").hidden = true;  // the check says what is wrong
      return;
    }
    if (asked !== puzzleAsked || version !== state.version) return;
    if (!data.solid) { $("puzzle-3d").hidden = true; return; }
    const v = view("puzzle-3d", {label: "the board and the pieces in 3-D: drag to turn, wheel to zoom"});
    $("puzzle-3d").hidden = false;
    if (!v) return;
    if (data.kind) { solidPuzzle(v, data); return; }
    const groups = new Map();
    for (const [x, y, z, ch, optional] of data.board) {
      const key = `board ${ch}${optional ? " optional" : ""}`;
      if (!groups.has(key)) groups.set(key, {key, fill: (ch !== "#" && colourOf(ch)) || "#c3c8cf", faded: optional, cells: []});
      groups.get(key).cells.push([x, y, z]);
    }
    // the pieces to the right of the board, a cell apart, in rows about as wide as the
    // board (at least 8 cells)
    const right = Math.max(0, ...data.board.map((c) => c[0])) + 3;
    const wide = Math.max(8, ...data.board.map((c) => c[0] + 1));
    let front = 0;
    const fills = pieceColours(data.pieces.map((p) => p.name));
    let across = 0, deepest = 0;
    const pieces = data.pieces.map((piece, k) => {
      const lo = [0, 1, 2].map((i) => Math.min(...piece.cells.map((c) => c[i])));
      const size = [0, 1].map((i) => Math.max(...piece.cells.map((c) => c[i])) - lo[i] + 1);
      if (across > 0 && across + size[0] > wide) { front += deepest + 1; across = 0; deepest = 0; }
      const cells = piece.cells.map(([x, y, z]) => [x - lo[0] + right + across, y - lo[1] + front, z - lo[2]]);
      across += size[0] + 1;
      deepest = Math.max(deepest, size[1]);
      return {key: `piece ${k}`, fill: fills[k], cells};
    });
    if (puzzleOwner !== state.name) { puzzleOwner = state.name; v.fitted = false; }
    v.setPieces([...groups.values(), ...pieces]);
  }

  function solidPuzzle(v, data) {
    // prisms, tetrahedra or balls: the board's groups (optional cells faded), the pieces to
    // its right a cell apart in rows about as wide as the board, laid out by their extent
    const board = data.board.map((b, k) => ({key: `board ${k}`, fill: (b.colour !== "#" && colourOf(b.colour)) || "#c3c8cf", faded: b.optional, mesh: b.mesh, radius: data.radius}));
    const boxes = data.board.map((b) => meshBox(b.mesh, data.radius));
    const right = Math.max(0, ...boxes.map((b) => b[1][0])) + 1;
    const wide = Math.max(8, ...boxes.map((b) => 1.5 * (b[1][0] - b[0][0])));
    const fills = pieceColours(data.pieces.map((p) => p.name));
    let across = 0, front = 0, deepest = 0;
    const pieces = data.pieces.map((piece, k) => {
      const [lo, hi] = meshBox(piece.mesh, data.radius);
      const size = [hi[0] - lo[0], hi[1] - lo[1]];
      if (across > 0 && across + size[0] > wide) { front += deepest + 0.5; across = 0; deepest = 0; }
      const mesh = shifted(piece.mesh, [right + across - lo[0], front - lo[1], -lo[2]]);
      across += size[0] + 0.5;
      deepest = Math.max(deepest, size[1]);
      return {key: `piece ${k}`, fill: fills[k], mesh, radius: data.radius};
    });
    if (puzzleOwner !== state.name) { puzzleOwner = state.name; v.fitted = false; }
    v.setPieces([...board, ...pieces]);
  }

  // -- a solid's solution ----------------------------------------------------------------------
  let solutionAsked = 0;

  async function solution(index, version) {
    const asked = ++solutionAsked;
    if (index === null) { $("solution-3d").hidden = true; return; }
    const response = await fetch(`/api/solution/${tab}/${index}.json?version=${version}&mesh=1`);
    if (!response.ok || asked !== solutionAsked || version !== state.version) return;
    const data = await response.json();
    if (asked !== solutionAsked) return;
    if ((data.lattice !== "cube" && !data.solid) || !data.placements) { $("solution-3d").hidden = true; return; }
    const v = view("solution-3d", {label: "the solution in 3-D: drag to turn, wheel to zoom"});
    $("solution-3d").hidden = false;
    if (!v) return;
    const fills = pieceColours(data.placements.map((p) => p.piece));
    v.fitted = false;
    if (data.solid) { v.setPieces(solidPieces(data.solid, fills.map((fill, k) => ({key: k, fill})))); return; }
    v.setPieces(data.placements.map((p, k) => ({key: k, fill: fills[k], cells: p.cells.map(([l, r, c]) => [c, r, l])})));
  }

  // -- the take-apart animation and the movement browser's view ------------------------------
  let movesOwner = null;
  let shownFor = 0;

  function movesView() {
    return view("moves-3d", {label: "the assembly in 3-D: drag to turn; click a piece to choose it", onCell: pick});
  }

  function drawPieces(data, offsets, shown, selected) {
    // the assembly's pieces at offsets (fractions while sliding); only those in `shown`
    // (all when null); `selected` outlined. False where there is no 3-D view.
    const v = movesView();
    if (!v) return false;
    $("moves-3d").hidden = false;
    const space = data.solid && data.solid.space;  // cells -> space, for prisms and the like
    const inSpace = (o) => (space ? space.map((row) => row[0] * o[0] + row[1] * o[1] + row[2] * o[2]) : o);
    if (movesOwner !== data && data.solid) {
      movesOwner = data;
      const fills = pieceColours(data.pieces.map((p) => p.name));
      const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
      data.solid.groups.forEach((group, k) => {
        const [a, b] = meshBox(group, data.solid.radius);
        const o = inSpace(data.positions[0][k]);
        for (let i = 0; i < 3; i++) { lo[i] = Math.min(lo[i], a[i] + o[i]); hi[i] = Math.max(hi[i], b[i] + o[i]); }
      });
      v.fitted = false;
      v.setPieces(solidPieces(data.solid, fills.map((fill, k) => ({key: k, fill}))), {bounds: [lo, hi]});
    } else if (movesOwner !== data) {
      movesOwner = data;
      const fills = pieceColours(data.pieces.map((p) => p.name));
      const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
      // the camera fits the assembly: a piece taken out flies out of the view
      for (const position of [data.positions ? data.positions[0] : offsets]) {
        data.pieces.forEach((piece, k) => {
          for (const cell of piece.cells) {
            for (let i = 0; i < 3; i++) {
              lo[i] = Math.min(lo[i], cell[i] + position[k][i]);
              hi[i] = Math.max(hi[i], cell[i] + position[k][i] + 1);
            }
          }
        });
      }
      v.fitted = false;
      v.setPieces(data.pieces.map((p, k) => ({key: k, fill: fills[k], cells: p.cells})), {bounds: [lo, hi]});
    }
    const at = {};
    offsets.forEach((o, k) => { if (!shown || shown.includes(k)) at[k] = inSpace(o); });
    data.pieces.forEach((_, k) => v.mark(k, {selected: !!selected && selected.has(k)}));
    v.moveTo(at);
    return true;
  }

  function moves3d(data, offsets) { return drawPieces(data, offsets, null, null); }

  function movesShown() {
    // a new animation (Take it apart, or a row of the table), or none (a refusal): the
    // browser starts from it
    // the browser moves cubes and squares one cell along an axis: not prisms and the like
    $("browse-start").disabled = !moves.data || !!moves.data.solid;
    $("browse-start").title = moves.data && moves.data.solid ? "the movement browser moves cubes and squares; puzzlebox moves FILE --after gives these moves" : "";
    if (!moves.data) $("moves-3d").hidden = true;
    shownFor = state.version;  // the version of the puzzle whose assembly is shown
    closeBrowser();
  }

  // -- the take-apart table ------------------------------------------------------------------
  const table = {rows: [], key: "solution", descending: false, opened: null, asked: 0};
  const levelKey = (level) => level.split(".").map(Number);
  function compareLevels(a, b) {
    const x = levelKey(a), y = levelKey(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
  }

  function sortTable() {
    const {key, descending} = table;
    const by = key === "level" ? (a, b) => compareLevels(a.level, b.level) : (a, b) => a[key] - b[key];
    table.rows.sort((a, b) => (descending ? -by(a, b) : by(a, b)) || a.solution - b.solution);
    for (const th of $("apart-table").querySelectorAll("th")) {
      const on = th.dataset.key === key;
      th.setAttribute("aria-sort", on ? (descending ? "descending" : "ascending") : "none");
      th.classList.toggle("sorted", on);
    }
    $("apart-table").tBodies[0].replaceChildren(...table.rows.map((row) => {
      const tr = document.createElement("tr");
      tr.dataset.solution = row.solution;
      tr.classList.toggle("opened", row.solution === table.opened);
      for (const k of ["solution", "assembly", "level", "moves"]) {
        const td = document.createElement("td"); td.textContent = row[k]; tr.appendChild(td);
      }
      return tr;
    }));
  }

  $("apart-table").tHead.addEventListener("click", (event) => {
    const th = event.target.closest("th");
    if (!th) return;
    const key = th.dataset.key;
    // a column clicked again turns its order round; level and moves start hardest first
    if (table.key === key) table.descending = !table.descending;
    else { table.key = key; table.descending = key === "level" || key === "moves"; }
    sortTable();
  });

  $("apart-table").tBodies[0].addEventListener("click", (event) => {
    const tr = event.target.closest("tr");
    if (!tr) return;
    const row = table.rows.find((r) => r.solution === Number(tr.dataset.solution));
    if (!row) return;
    table.opened = row.solution;
    for (const other of $("apart-table").tBodies[0].rows) other.classList.toggle("opened", other === tr);
    $("moves-solution").value = row.solution;
    showMovesData(row);
  });

  $("apart-all").addEventListener("click", async () => {
    stopMoves();
    if (state.checking) await state.checking;
    const asked = ++table.asked;
    moves.asked++;  // an older Take it apart's answer is not shown over the table's
    $("apart-count").textContent = "taking every assembly apart…";
    $("apart-table").hidden = true;
    $("moves-stop").disabled = false;
    let data;
    try {
      // in a process of the server's, within the page's limit (as Take it apart); Stop ends it
      data = await post("/api/design/table", {toml: state.toml, name: state.name, save: $("apart-save").checked});
    } catch (error) {
      if (asked !== table.asked) return;
      $("moves-stop").disabled = true;
      $("apart-count").textContent = error.message;
      return;
    }
    if (asked !== table.asked) return;
    $("moves-stop").disabled = true;
    if ($("apart-save").checked) loadSaved();  // where the saved take-apart stands now
    const apart = data.come_apart;
    const ranked = data.levels.slice(0, 12).map((l) => (l.assemblies === 1 ? l.level : `${l.level} (x${l.assemblies})`)).join(", ");
    const more = data.levels.length > 12 ? `, and ${data.levels.length - 12} more` : "";
    // the words of puzzlebox count FILE --disassemble
    $("apart-count").textContent = `${data.puzzle}: ${data.assemblies} assemblies (up to symmetry), ${apart} come${apart === 1 ? "s" : ""} apart` +
      (data.levels.length ? `; levels ${ranked}${more}` : "") +
      (data.shown < apart ? ` (the table shows the first ${data.shown})` : "");
    table.rows = data.rows; table.opened = null;
    table.key = "solution"; table.descending = false;
    $("apart-table").hidden = !data.rows.length;
    sortTable();
  });

  // -- the movement browser ------------------------------------------------------------------
  const browser = {data: null, offsets: [], parts: [], active: 0, selected: new Set(), history: [], steps: [], busy: false, version: 0};

  function closeBrowser() {
    browser.data = null;
    $("browse").hidden = true;
  }

  function names() { return browser.data.pieces.map((p) => p.name); }

  function outlookText(part) {
    const n = names();
    const who = part.part.map((k) => n[k]).join(" ");
    if (part.done) return `${who}: ${part.part.length === 1 ? "one piece" : "nothing more to take apart"}, done`;
    if (!part.level) return `${who}: does not come apart from here`;
    const count = part.moves.length;
    return `${who}: comes apart from here at level ${part.level} in ${count} move${count === 1 ? "" : "s"} (next: ${part.moves[0]})`;
  }

  function showBrowser() {
    const data = browser.data;
    const part = browser.parts[browser.active];
    const n = names();
    for (const k of [...browser.selected]) if (!part.part.includes(k)) browser.selected.delete(k);
    $("browse-pieces").replaceChildren(...part.part.map((k) => {
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox"; box.dataset.piece = k; box.checked = browser.selected.has(k);
      label.append(box, ` ${n[k]}`);
      return label;
    }));
    for (const el of document.querySelectorAll("#browse .z-only")) el.hidden = data.dims === 2;
    $("browse-status").textContent = `What is left: ${outlookText(part)}`;
    // the same question asked of the command line
    const moved = browser.steps.map((s) => `${s.who} ${s.direction} ${s.distance}`).join("; ");
    $("browse-command").textContent = moved ? `The same from the command line: puzzlebox moves ${state.name} --solution ${data.solution} --after '${moved}'` : "";
    // the parts, once a take-out has made more than one (a click goes on with another)
    $("browse-parts").replaceChildren(...(browser.parts.length < 2 ? [] : browser.parts).map((p, i) => {
      const li = document.createElement("li");
      li.textContent = `part ${i + 1}: ${outlookText(p)}`;
      li.dataset.part = i;
      li.classList.toggle("now", i === browser.active);
      return li;
    }));
    $("browse-undo").disabled = !browser.history.length || browser.busy;
    for (const button of document.querySelectorAll("#browse button[data-direction]")) button.disabled = browser.busy;
    if (!drawPieces(data, browser.offsets, part.part, browser.selected)) {
      // no 3-D view: the isometric picture of the part, chosen pieces drawn darker
      const fills = pieceColours(n);
      const cubes = [];
      for (const k of part.part) {
        const [dx, dy, dz] = browser.offsets[k];
        const fill = browser.selected.has(k) ? `color-mix(in srgb, ${fills[k]}, black 30%)` : fills[k];
        for (const [x, y, z] of data.pieces[k].cells) cubes.push({x: x + dx, y: y + dy, z: z + dz, fill});
      }
      $("moves-svg").toggleAttribute("hidden", false);
      drawIso($("moves-svg"), cubes, 16, moves.box);
    }
  }

  async function ask(action, extra) {
    // one step asked of the server; the page waits for it (no second step meanwhile)
    if (browser.busy || !browser.data) return;
    if (browser.version !== state.version) {
      // the pieces are those of a puzzle no longer on screen
      $("browse-error").textContent = "the puzzle changed since it was taken apart: take it apart again";
      return;
    }
    browser.busy = true;
    showBrowser();
    const before = {offsets: browser.offsets, parts: browser.parts, active: browser.active, steps: browser.steps};
    try {
      const answer = await post("/api/design/browse", Object.assign({
        toml: state.toml, name: state.name, pieces: browser.data.pieces, offsets: browser.offsets,
        part: browser.parts[browser.active].part, step: action}, extra));
      $("browse-error").textContent = "";
      if (action !== "look") {
        browser.history.push(before);
        // the moves so far, as puzzlebox moves --after takes them (unit slides of one
        // group one way joined into one move)
        const who = extra.group.map((k) => names()[k]).join(" ");
        const last = browser.steps[browser.steps.length - 1];
        if (action === "slide" && last && last.who === who && last.direction === extra.direction && last.distance !== "out") {
          browser.steps = [...browser.steps.slice(0, -1), Object.assign({}, last, {distance: last.distance + 1})];
        } else {
          browser.steps = [...browser.steps, {who, direction: extra.direction, distance: action === "out" ? "out" : 1}];
        }
      }
      browser.offsets = answer.offsets;
      browser.parts = [...browser.parts];
      browser.parts.splice(browser.active, 1, ...answer.parts);
      if (action === "out") browser.selected.clear();
    } catch (error) {
      if (!(error instanceof Stale)) $("browse-error").textContent = error.message;
    } finally {
      browser.busy = false;
      if (browser.data) showBrowser();
    }
  }

  function startBrowser() {
    if (!moves.data) return;
    stopMoves();
    browser.data = moves.data;
    browser.offsets = moves.data.pieces.map(() => [0, 0, 0]);
    browser.parts = [{part: moves.data.pieces.map((_, k) => k), done: false, level: moves.data.level, moves: moves.data.captions.slice(1)}];
    browser.active = 0; browser.selected = new Set(); browser.history = []; browser.steps = [];
    browser.version = shownFor;
    $("browse").hidden = false;
    $("browse-error").textContent = "";
    $("moves-status").textContent = `moving the pieces of assembly ${moves.data.solution} by hand (level ${moves.data.level} as assembled)`;
    ask("look", {});
  }

  function pick({piece}) {
    // a piece clicked in the 3-D view: chosen or no longer chosen for the next move
    if (!browser.data || !browser.parts[browser.active].part.includes(piece)) return;
    if (browser.selected.has(piece)) browser.selected.delete(piece); else browser.selected.add(piece);
    showBrowser();
  }

  $("browse-start").addEventListener("click", startBrowser);
  $("browse-reset").addEventListener("click", startBrowser);
  $("browse-close").addEventListener("click", () => { closeBrowser(); if (moves.data) showStep(moves.step, 0); });
  $("browse-pieces").addEventListener("change", (event) => {
    const k = Number(event.target.dataset.piece);
    if (event.target.checked) browser.selected.add(k); else browser.selected.delete(k);
    showBrowser();
  });
  for (const [id, action] of [["browse-moves", "slide"], ["browse-outs", "out"]]) {
    $(id).addEventListener("click", (event) => {
      const button = event.target.closest("button[data-direction]");
      if (!button || !browser.data) return;
      if (!browser.selected.size) { $("browse-error").textContent = "choose a piece or a group to move (tick it, or click it in the view)"; return; }
      ask(action, {group: [...browser.selected].sort((a, b) => a - b), direction: button.dataset.direction});
    });
  }
  $("browse-undo").addEventListener("click", () => {
    const last = browser.history.pop();
    if (!last || browser.busy) return;
    Object.assign(browser, last);
    $("browse-error").textContent = "";
    showBrowser();
  });
  $("browse-parts").addEventListener("click", (event) => {
    const li = event.target.closest("li");
    if (!li || !browser.data) return;
    browser.active = Number(li.dataset.part);
    browser.selected.clear();
    showBrowser();
  });

  // the module loads after the classic scripts: what was drawn flat meanwhile is drawn again
  function redraw() {
    if (isCube()) cubePreview();
    if (browser.data) showBrowser();
    else if (moves.data) showStep(moves.step, 0);
  }
  window.addEventListener("view3d-ready", redraw);
  window.addEventListener("load", () => { if (!window.view3d) redraw(); });

  return {editor, puzzle, solution, moves: moves3d, movesShown, views};
})();
