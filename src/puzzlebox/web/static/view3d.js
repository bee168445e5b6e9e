// puzzlebox's 3-D view (#36 item 2): unit cubes in their pieces' colours, turned with the
// mouse or a finger (three.js's OrbitControls: drag to orbit, wheel or pinch to zoom, right
// drag or two fingers to pan), with a layer cut (only the layers up to one are drawn) and,
// where the caller asks, a click on a cube's face that says which cell it is and which
// cell lies beyond that face (the cube editor adds a cube there or removes the one hit);
// on a solid's cell, which cell and the point hit (the server finds the cell across).
// An ES module: three.js is served from static/vendor/three/ (the import map of index.html
// names it), nothing is fetched from elsewhere and nothing is built. The classic scripts
// use it through window.view3d, which says why where WebGL cannot be had (they then draw
// the isometric picture instead). Coordinates are the page's: x the column, y the row,
// z the layer (three.js's y is up: x, z, y).
// Cells that are not unit cubes (prisms, tetrahedra, octahedra, balls: #37 item 4) come as
// meshes the server computed from the lattice (web/solids.py): a piece given `mesh` (each
// cell its layer and its faces' corners, or its ball's centre) is drawn from them, its faces
// that two of its cells share left out, and the layer cut closes it where it cuts.
import * as THREE from "three";
import {OrbitControls} from "three/addons/controls/OrbitControls.js";

const BOX = new THREE.BoxGeometry(1, 1, 1);
const EDGES = new THREE.EdgesGeometry(BOX);
const LINE = new THREE.LineBasicMaterial({color: 0x333333});
const LINE_FADED = new THREE.LineBasicMaterial({color: 0x999999, transparent: true, opacity: 0.35});
const LINE_CHOSEN = new THREE.LineBasicMaterial({color: 0xe8001c});
const BALLS = new Map();  // a radius -> its sphere geometry, shared by every ball
function ballGeometry(radius) {
  if (!BALLS.has(radius)) BALLS.set(radius, new THREE.SphereGeometry(radius, 24, 16));
  return BALLS.get(radius);
}

// a CSS colour (hsl with spaces, color-mix, names) as three.js's: asked of a 2-D canvas
const colourCanvas = document.createElement("canvas").getContext("2d", {willReadFrequently: true});
const colours = new Map();
function colourOf(css) {
  if (!colours.has(css)) {
    colourCanvas.clearRect(0, 0, 1, 1);
    colourCanvas.fillStyle = "#8a9bb0";
    colourCanvas.fillStyle = css;
    colourCanvas.fillRect(0, 0, 1, 1);
    const [r, g, b] = colourCanvas.getImageData(0, 0, 1, 1).data;
    colours.set(css, new THREE.Color(r / 255, g / 255, b / 255).convertSRGBToLinear());
  }
  return colours.get(css);
}

function webglReason() {
  // null where a WebGL context can be made, else why not (one line for the page)
  try {
    const canvas = document.createElement("canvas");
    const gl = canvas.getContext("webgl2") || canvas.getContext("webgl");
    if (!gl) return "this browser gives the page no WebGL";
    const lose = gl.getExtension("WEBGL_lose_context");
    if (lose) lose.loseContext();
    return null;
  } catch (error) {
    return `WebGL failed (${error.message})`;
  }
}

class View3D {
  // a canvas in `container`, with a layer cut under it; options: onCell({cell, beyond,
  // shift, piece}) for a click (not a drag) on a cube, onFloor([x, y, 0]) for a click on
  // the floor's grid where there is no cube, onSolid({cell, point, shift}) for a click on
  // a cell drawn from a mesh (the lattice's cell and the point hit, x, y, z: the server
  // says which cell is across that face), onEmpty() for a click where nothing is drawn
  // (true where it did something)
  constructor(container, options = {}) {
    this.container = container;
    this.options = options;
    this.renderer = new THREE.WebGLRenderer({antialias: true, preserveDrawingBuffer: true});
    this.renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
    this.renderer.setClearColor(0xfafafa);
    this.canvas = this.renderer.domElement;
    this.canvas.className = "view3d-canvas";
    this.canvas.setAttribute("aria-label", options.label || "the cubes in 3-D: drag to turn, wheel to zoom");
    this.scene = new THREE.Scene();
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x8090a0, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.6);
    sun.position.set(4, 10, 7);
    this.scene.add(sun);
    this.camera = new THREE.PerspectiveCamera(35, 1, 0.1, 2000);
    this.controls = new OrbitControls(this.camera, this.canvas);
    this.controls.addEventListener("change", () => this.render());
    this.world = new THREE.Group();
    this.scene.add(this.world);
    this.floor = null;
    this.pieces = new Map();  // key -> {group, cubes: [{mesh, cell}], faded, selected}
    this.cut = Infinity;
    this.top = 0;  // the highest layer drawn
    this.fitted = false;
    // the layer cut: the layers from the bottom up to the one chosen are drawn
    const bar = document.createElement("div");
    bar.className = "row view3d-bar";
    const label = document.createElement("label");
    label.textContent = "Layers shown up to ";
    this.cutInput = document.createElement("input");
    this.cutInput.type = "range"; this.cutInput.min = "0"; this.cutInput.max = "0"; this.cutInput.value = "0";
    this.cutInput.className = "view3d-cut";
    this.cutText = document.createElement("span");
    label.append(this.cutInput, " ", this.cutText);
    const fit = document.createElement("button");
    fit.textContent = "fit"; fit.title = "the whole of it in view, seen from the front right above";
    fit.className = "view3d-fit";
    fit.addEventListener("click", () => { this.fitted = false; this.fit(); });
    bar.append(label, fit);
    this.cutInput.addEventListener("input", () => {
      const v = Number(this.cutInput.value);
      this.setCut(v >= Number(this.cutInput.max) ? Infinity : v);
    });
    container.replaceChildren(this.canvas, bar);
    this.bounds = null;
    // a click, not a drag: the pointer went down and up within a few pixels
    let down = null;
    this.canvas.addEventListener("pointerdown", (event) => { down = [event.clientX, event.clientY]; });
    this.canvas.addEventListener("pointerup", (event) => {
      if (!down || Math.hypot(event.clientX - down[0], event.clientY - down[1]) > 4 || event.button !== 0) { down = null; return; }
      down = null;
      this.click(event);
    });
    this.resize();
    new ResizeObserver(() => this.resize()).observe(container);
  }

  resize() {
    const width = Math.max(200, this.container.clientWidth || 400);
    const height = Math.round(Math.min(420, Math.max(220, width * 0.7)));
    this.renderer.setSize(width, height);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    this.render();
  }

  render() { this.renderer.render(this.scene, this.camera); }

  setPieces(pieces, {bounds = null, floor = null} = {}) {
    // pieces: [{key, fill (CSS), cells: [[x, y, z], ...], faded, selected}], or instead of
    // cells a mesh ({mesh: [{level, faces, inner} or {level, centre}], radius}); bounds: the
    // [min, max] corners the camera fits (every moment of an animation: the view stays put)
    for (const entry of this.pieces.values()) { this.world.remove(entry.group); entry.material.dispose(); this.clearSolid(entry); }
    this.pieces.clear();
    let top = 0;
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (const piece of pieces) {
      const group = new THREE.Group();
      const material = new THREE.MeshLambertMaterial({color: colourOf(piece.fill), side: piece.mesh ? THREE.DoubleSide : THREE.FrontSide});
      if (piece.mesh) {
        const entry = {group, cubes: [], material, faded: false, selected: false, key: piece.key,
          solid: {mesh: piece.mesh, radius: piece.radius || null}, lines: [], shapes: []};
        for (const cell of piece.mesh) {
          top = Math.max(top, cell.level);
          const r = piece.radius || 0;
          const points = cell.centre ? [cell.centre] : cell.faces.flat();
          for (const p of points) for (let i = 0; i < 3; i++) { lo[i] = Math.min(lo[i], p[i] - r); hi[i] = Math.max(hi[i], p[i] + r); }
        }
        this.world.add(group);
        this.pieces.set(piece.key, entry);
        this.style(entry, !!piece.faded, !!piece.selected);
        continue;
      }
      const cubes = [];
      for (const cell of piece.cells) {
        const [x, y, z] = cell;
        const mesh = new THREE.Mesh(BOX, material);
        mesh.position.set(x + 0.5, z + 0.5, y + 0.5);
        mesh.userData = {cell, piece: piece.key};
        mesh.add(new THREE.LineSegments(EDGES, LINE));
        group.add(mesh);
        cubes.push({mesh, cell});
        top = Math.max(top, z);
        for (let i = 0; i < 3; i++) { lo[i] = Math.min(lo[i], cell[i]); hi[i] = Math.max(hi[i], cell[i] + 1); }
      }
      this.world.add(group);
      const entry = {group, cubes, material, faded: false, selected: false};
      this.pieces.set(piece.key, entry);
      this.style(entry, !!piece.faded, !!piece.selected);
    }
    this.setFloor(floor);
    if (floor) { lo[0] = Math.min(lo[0], 0); lo[1] = Math.min(lo[1], 0); lo[2] = Math.min(lo[2], 0); hi[0] = Math.max(hi[0], floor[0]); hi[1] = Math.max(hi[1], floor[1]); hi[2] = Math.max(hi[2], 1); }
    this.bounds = bounds || (Number.isFinite(lo[0]) ? [lo, hi] : [[0, 0, 0], [1, 1, 1]]);
    const solids = [...this.pieces.values()].some((entry) => entry.solid);
    this.top = solids ? top : Math.max(top, this.bounds[1][2] - 1);
    this.cutInput.max = String(this.top + 1);
    if (this.cut === Infinity || this.cut > this.top) this.cutInput.value = this.cutInput.max;
    this.cutText.textContent = this.cut === Infinity || this.cut > this.top ? "all" : `layer ${this.cut}`;
    this.applyCut();
    this.fit();
  }

  style(entry, faded, selected) {
    entry.faded = faded; entry.selected = selected;
    entry.material.transparent = faded;
    entry.material.opacity = faded ? 0.25 : 1;
    // a chosen piece glows and is outlined in red (WebGL draws lines one pixel wide)
    entry.material.emissive = new THREE.Color(selected ? 0x4a4a4a : 0x000000);
    for (const {mesh} of entry.cubes) mesh.children[0].material = faded ? LINE_FADED : selected ? LINE_CHOSEN : LINE;
    for (const line of entry.lines || []) line.material = faded ? LINE_FADED : selected ? LINE_CHOSEN : LINE;
  }

  clearSolid(entry) {
    // a solid piece's meshes of the last cut, thrown away (the balls' geometry is shared)
    if (!entry.solid) return;
    for (const child of [...entry.group.children]) {
      entry.group.remove(child);
      if (child.geometry && !child.userData.shared) child.geometry.dispose();
    }
    entry.lines = []; entry.shapes = [];
  }

  buildSolid(entry) {
    // the cells of a solid piece in the layers up to the cut: balls, or one mesh of the
    // faces drawn (a face inside the piece only where the cell beyond it is cut away) with
    // its edges where faces meet at an angle (not the seams of faces in one plane)
    this.clearSolid(entry);
    const {mesh, radius} = entry.solid;
    const shown = (level) => level <= this.cut + 1e-6;
    if (radius) {
      for (const cell of mesh) {
        if (!shown(cell.level)) continue;
        const ball = new THREE.Mesh(ballGeometry(radius), entry.material);
        const [x, y, z] = cell.centre;
        ball.position.set(x, z, y);
        ball.userData = {cell: null, solidCell: cell.cell, piece: entry.key, shared: true};
        entry.group.add(ball);
        entry.shapes.push(ball);
      }
      return;
    }
    const corners = [];
    const owners = [];  // each triangle's cell (the lattice's coordinates): what a click hit
    for (const cell of mesh) {
      if (!shown(cell.level)) continue;
      cell.faces.forEach((face, i) => {
        const beyond = cell.inner[i];
        if (beyond !== null && shown(beyond)) return;  // inside the piece as drawn
        for (let k = 1; k + 1 < face.length; k++) {
          for (const [x, y, z] of [face[0], face[k], face[k + 1]]) corners.push(x, z, y);
          owners.push(cell.cell);
        }
      });
    }
    if (!corners.length) return;
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.Float32BufferAttribute(corners, 3));
    geometry.computeVertexNormals();
    const shape = new THREE.Mesh(geometry, entry.material);
    shape.userData = {cell: null, piece: entry.key, owners};
    const lines = new THREE.LineSegments(new THREE.EdgesGeometry(geometry, 1), LINE);
    entry.group.add(shape, lines);
    entry.shapes.push(shape);
    entry.lines.push(lines);
    this.style(entry, entry.faded, entry.selected);
  }

  mark(key, {faded, selected}) {
    const entry = this.pieces.get(key);
    if (entry) { this.style(entry, faded ?? entry.faded, selected ?? entry.selected); this.render(); }
  }

  moveTo(offsets) {
    // each piece's offset from where setPieces put it ({key: [dx, dy, dz]}, fractions
    // while it slides); a key missing hides its piece
    for (const [key, entry] of this.pieces) {
      const at = offsets[key];
      entry.group.visible = !!at;
      if (at) entry.group.position.set(at[0], at[2], at[1]);
    }
    this.applyCut();
  }

  setFloor(floor) {
    // the editor's window as a grid on the floor ([columns, rows]), clicked to add a cube
    if (this.floor) { this.scene.remove(this.floor); this.floor = null; }
    this.floorSize = floor;
    if (!floor) return;
    const [cols, rows] = floor;
    const points = [];
    for (let c = 0; c <= cols; c++) points.push(c, 0, 0, c, 0, rows);
    for (let r = 0; r <= rows; r++) points.push(0, 0, r, cols, 0, r);
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.Float32BufferAttribute(points, 3));
    this.floor = new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({color: 0xbbbbbb}));
    this.scene.add(this.floor);
  }

  setCut(layer) {
    this.cut = layer;
    this.cutText.textContent = layer === Infinity ? "all" : `layer ${layer}`;
    this.applyCut();
  }

  applyCut() {
    for (const entry of this.pieces.values()) {
      // a solid's cells are cut by their layer as assembled (a piece slid up keeps its own)
      if (entry.solid) { this.buildSolid(entry); continue; }
      const dz = entry.group.position.y;
      for (const {mesh, cell} of entry.cubes) mesh.visible = cell[2] + dz <= this.cut + 1e-6;
    }
    this.render();
  }

  fit() {
    // the camera looks at the middle of the bounds from the front right above (the
    // isometric picture's side), far enough for all of it; kept while the user turns it
    if (this.fitted) { this.render(); return; }
    this.fitted = true;
    const [lo, hi] = this.bounds;
    const centre = new THREE.Vector3((lo[0] + hi[0]) / 2, (lo[2] + hi[2]) / 2, (lo[1] + hi[1]) / 2);
    const size = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], 1);
    const distance = size * 1.8 + 1.5;
    this.controls.target.copy(centre);
    this.camera.position.set(centre.x + distance * 0.62, centre.y + distance * 0.6, centre.z + distance * 0.75);
    this.camera.lookAt(centre);
    this.controls.update();
    this.render();
  }

  click(event) {
    const box = this.canvas.getBoundingClientRect();
    const pointer = new THREE.Vector2(((event.clientX - box.left) / box.width) * 2 - 1, -((event.clientY - box.top) / box.height) * 2 + 1);
    const ray = new THREE.Raycaster();
    ray.setFromCamera(pointer, this.camera);
    const meshes = [];
    for (const entry of this.pieces.values()) {
      if (!entry.group.visible) continue;
      for (const {mesh} of entry.cubes) if (mesh.visible) meshes.push(mesh);
      meshes.push(...(entry.shapes || []));
    }
    const hit = ray.intersectObjects(meshes, false)[0];
    if (hit) {
      const {cell, piece} = hit.object.userData;
      if (!cell) {  // a solid's cell: which cell (the triangle's owner, or the ball) and where
        const {solidCell, owners} = hit.object.userData;
        const hitCell = solidCell || (owners && hit.faceIndex !== undefined ? owners[hit.faceIndex] : null);
        if (this.options.onSolid && hitCell) {
          // in the piece's own place (the editor's pieces are not moved), the page's x, y, z
          const p = hit.object.parent.worldToLocal(hit.point.clone());
          this.lastHit = {cell: hitCell, point: [p.x, p.z, p.y], shift: event.shiftKey};
          this.options.onSolid(this.lastHit);
          return;
        }
        if (this.options.onPiece) this.options.onPiece({piece, shift: event.shiftKey});
        return;
      }
      const n = hit.face.normal;  // the box is not turned: its normals are the axes
      const beyond = [cell[0] + Math.round(n.x), cell[1] + Math.round(n.z), cell[2] + Math.round(n.y)];
      if (this.options.onCell) this.options.onCell({cell, beyond, piece, shift: event.shiftKey});
      return;
    }
    // nothing drawn yet: the caller may start from a cell (it answers whether it did)
    const drawn = [...this.pieces.values()].some((entry) => entry.group.children.length);
    if (this.options.onEmpty && !drawn && this.options.onEmpty()) return;
    if (this.options.onFloor && this.floorSize) {
      const point = new THREE.Vector3();
      if (ray.ray.intersectPlane(new THREE.Plane(new THREE.Vector3(0, 1, 0), 0), point)) {
        const x = Math.floor(point.x), y = Math.floor(point.z);
        if (x >= 0 && y >= 0 && x < this.floorSize[0] && y < this.floorSize[1]) this.options.onFloor([x, y, 0]);
      }
    }
  }
}

const reason = webglReason();
window.view3d = {
  reason,  // null, or why the page draws the isometric picture instead
  create(container, options) { return reason ? null : new View3D(container, options); },
};
window.dispatchEvent(new Event("view3d-ready"));
