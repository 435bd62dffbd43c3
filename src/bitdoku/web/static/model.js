// The page's vocabulary, as in the library: a shape, its cells and units, digits and how they are written.
// Bookkeeping only: nothing here solves. The server answers every question about solutions.

/** Value v is written as the v-th character of this alphabet (the one-line format). */
export const ALPHABET = "123456789ABCDEFGHIJKLMNOP";

/** The box shapes the page edits, smallest first (the server's PAGE_SHAPES). */
export const PAGE_SHAPES = ["2x2", "2x3", "3x3", "3x4", "4x4", "5x5"];

const shapes = new Map();

/** The shape of "3x3" (box rows x box columns) with its unit and peer tables, built once per shape. */
export function shapeOf(name) {
  if (!shapes.has(name)) {
    const match = /^(\d+)x(\d+)$/.exec(name || "");
    if (!match || !PAGE_SHAPES.includes(name)) return null;
    shapes.set(name, buildShape(name, Number(match[1]), Number(match[2])));
  }
  return shapes.get(name);
}

/** The page shape whose grid has this many cells, or null (6x6 reads as 2x3 boxes, as on the server). */
export function shapeForCells(count) {
  return PAGE_SHAPES.map(shapeOf).find((shape) => shape.cells === count) || null;
}

function buildShape(name, boxRows, boxCols) {
  const n = boxRows * boxCols;
  const rowOf = (cell) => Math.floor(cell / n);
  const colOf = (cell) => cell % n;
  const boxOf = (cell) => Math.floor(rowOf(cell) / boxRows) * boxRows + Math.floor(colOf(cell) / boxCols);
  const units = { row: [], column: [], box: [] };
  for (let i = 0; i < n; i++) {
    units.row.push([]);
    units.column.push([]);
    units.box.push([]);
  }
  for (let cell = 0; cell < n * n; cell++) {
    units.row[rowOf(cell)].push(cell);
    units.column[colOf(cell)].push(cell);
    units.box[boxOf(cell)].push(cell);
  }
  const peers = [];
  for (let cell = 0; cell < n * n; cell++) {
    const near = new Set([...units.row[rowOf(cell)], ...units.column[colOf(cell)], ...units.box[boxOf(cell)]]);
    near.delete(cell);
    peers.push([...near]);
  }
  return { name, boxRows, boxCols, n, cells: n * n, size: `${n}x${n}`, rowOf, colOf, boxOf, units, peers };
}

/** The cells of a unit named as the server names it: "row 3", "column 5" or "box 2" (1-based). */
export function unitCells(shape, unitName) {
  const match = /^(row|column|box) (\d+)$/.exec(unitName);
  if (!match) return [];
  return shape.units[match[1]][Number(match[2]) - 1] || [];
}

/** "r4c7": a cell's name for people, 1-based. */
export function cellName(shape, cell) {
  return `r${shape.rowOf(cell) + 1}c${shape.colOf(cell) + 1}`;
}

/** The cell a name such as "r4c7" stands for in this shape, or null. */
export function cellOfName(shape, name) {
  const match = /^r(\d+)c(\d+)$/.exec(name || "");
  if (!match) return null;
  const [row, col] = [Number(match[1]) - 1, Number(match[2]) - 1];
  return row < shape.n && col < shape.n ? row * shape.n + col : null;
}

/** The character of a value (0 is "."). */
export function symbol(value) {
  return value ? ALPHABET[value - 1] : ".";
}

/** The value of one typed or pasted character in an N x N grid: 0 for a blank, null for anything else. */
export function valueOfChar(ch, n) {
  if (".0-_*".includes(ch)) return 0;
  const value = ALPHABET.indexOf(ch.toUpperCase()) + 1;
  return value >= 1 && value <= n ? value : null;
}

/** The one-line format of a grid's values. */
export function toLine(values) {
  return Array.from(values, symbol).join("");
}

/** The values of a one-line puzzle (unreadable characters become empty: the server names them). */
export function fromLine(line, shape) {
  const values = new Uint8Array(shape.cells);
  for (let cell = 0; cell < shape.cells && cell < line.length; cell++) {
    values[cell] = valueOfChar(line[cell], shape.n) || 0;
  }
  return values;
}

/** The page shape that text seems to be drawn in: a line by its length, a picture by its count of rows. */
export function shapeOfText(text) {
  const rows = cellRows(text);
  if (rows.length === 1) return shapeForCells(rows[0].replace(/\s/g, "").length);
  return shapeForCells(rows.length * rows.length);
}

/** The rows of a puzzle's text that hold cells (a picture's box rules and blank lines left out). */
function cellRows(text) {
  return text.trim().split(/\r?\n/).filter((row) => !/^[\s|+\-=]*$/.test(row));
}

/**
 * The values of pasted text that the server has already read as a grid of this shape: a line, a block
 * picture (box rules dropped) or rows of integers. Null when the text is laid out some other way.
 */
export function valuesOfText(text, shape) {
  const rows = cellRows(text);
  const chars = rows.join("").replace(/[\s|+=]/g, "");
  if (chars.length === shape.cells) return fromLine(chars, shape);
  const tokens = rows.join(" ").split(/\s+/).filter((token) => token && !/^[|+=]+$/.test(token));
  if (tokens.length === shape.cells && tokens.every((token) => /^(\d+|\.)$/.test(token))) {
    return Uint8Array.from(tokens, (token) => (token === "." ? 0 : Number(token)));
  }
  return null;
}

/**
 * The cells whose value repeats in one of the units: a grid's conflicts, seen without any search. `units`
 * defaults to the shape's rows, columns and boxes (a variant's come from `variantOf`).
 */
export function conflictingCells(values, shape, units = [...shape.units.row, ...shape.units.column, ...shape.units.box]) {
  const found = new Set();
  for (const unit of units) {
    const seen = new Map();
    for (const cell of unit) {
      const value = values[cell];
      if (!value) continue;
      if (seen.has(value)) {
        found.add(cell);
        found.add(seen.get(value));
      } else {
        seen.set(value, cell);
      }
    }
  }
  return found;
}

// ---- variants (the server's bitdoku.geometry): what the page draws; the server checks and solves ----------

/** The variants the page offers, as the server names them. */
export const VARIANTS = ["classic", "x", "windoku", "anti-knight", "anti-king", "nonconsecutive", "jigsaw", "killer"];

const REGION_SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** The boxes of a shape as a region map (one letter a cell): where a new jigsaw starts. */
export function boxMap(shape) {
  return Array.from({ length: shape.cells }, (_, cell) => REGION_SYMBOLS[shape.boxOf(cell)]).join("");
}

/**
 * The region (0..N-1) of each cell of a region map, symbols numbered in order of first appearance, or null
 * when the map does not fit the shape (wrong length, more than N symbols, more than N cells a symbol): the
 * server names the cell where it goes wrong.
 */
export function regionsOf(map, shape) {
  const symbols = (map || "").replace(/\s/g, "");
  if (symbols.length !== shape.cells) return null;
  const index = new Map();
  const sizes = [];
  const regions = [];
  for (const symbol of symbols) {
    if (!index.has(symbol)) {
      index.set(symbol, index.size);
      sizes.push(0);
    }
    const region = index.get(symbol);
    if (region >= shape.n || ++sizes[region] > shape.n) return null;
    regions.push(region);
  }
  return regions;
}

/**
 * What a variant adds to a shape: `regions` (each cell's region, for a jigsaw, else null), `diagonals` and
 * `windows` (lists of cells), and `units`, every unit whose cells must differ (for the conflicts shown at once;
 * a Killer's `cages` are such units too). Anti-knight, anti-king and nonconsecutive rules are not units: the
 * server's verdict reports those clashes, and a cage's sum too.
 */
export function variantOf(shape, name, map, cages = []) {
  const rules = (name || "classic").split("+");
  const regions = rules.includes("jigsaw") ? regionsOf(map, shape) : null;
  const n = shape.n;
  const diagonals = rules.includes("x")
    ? [Array.from({ length: n }, (_, i) => i * (n + 1)), Array.from({ length: n }, (_, i) => (i + 1) * (n - 1))]
    : [];
  const windows = rules.includes("windoku") ? windowsOf(shape) : [];
  let boxes = shape.units.box;
  if (regions) {
    boxes = Array.from({ length: n }, () => []);
    regions.forEach((region, cell) => boxes[region].push(cell));
  } else if (rules.includes("jigsaw")) {
    boxes = []; // no map yet: no regions to check
  }
  const cageUnits = rules.includes("killer") ? cages.map((cage) => cage.cells) : [];
  const units = [...shape.units.row, ...shape.units.column, ...boxes, ...diagonals, ...windows, ...cageUnits];
  return { name: name || "classic", regions, diagonals, windows, units };
}

/** Windoku windows: box-sized, one cell in from the top and left edges, one cell apart. */
function windowsOf(shape) {
  const { n, boxRows, boxCols } = shape;
  const windows = [];
  for (let top = 1; top < n - boxRows; top += boxRows + 1) {
    for (let left = 1; left < n - boxCols; left += boxCols + 1) {
      const cells = [];
      for (let row = top; row < top + boxRows; row++) {
        for (let col = left; col < left + boxCols; col++) cells.push(row * n + col);
      }
      windows.push(cells);
    }
  }
  return windows;
}

/** The CSS classes that draw a variant on each cell: region colours and borders, diagonals, windows. */
export function variantClasses(shape, variant) {
  const classes = Array.from({ length: shape.cells }, () => []);
  const { regions } = variant;
  if (regions) {
    regions.forEach((region, cell) => {
      classes[cell].push(`region-${region}`);
      if (shape.colOf(cell) < shape.n - 1 && regions[cell + 1] !== region) classes[cell].push("region-right");
      if (shape.rowOf(cell) < shape.n - 1 && regions[cell + shape.n] !== region) classes[cell].push("region-bottom");
    });
  }
  for (const cell of variant.diagonals.flat()) classes[cell].push("diagonal");
  for (const cell of variant.windows.flat()) classes[cell].push("window");
  return classes;
}

// ---- Killer cages (the server's bitdoku.constraints.Cage): cells in reading order and an optional sum ------

/** Cages in the reading order of their first cells, each with its cells sorted: how the server names them. */
export function sortedCages(cages) {
  return cages
    .map((cage) => ({ cells: [...cage.cells].sort((a, b) => a - b), sum: cage.sum ?? null }))
    .sort((a, b) => a.cells[0] - b.cells[0]);
}

/** The index of the cage holding `cell`, or -1. */
export function cageOf(cages, cell) {
  return cages.findIndex((cage) => cage.cells.includes(cell));
}

/** A cage's name as errors and steps write it: A, B, ... in reading order of first cells (formats/killer.py). */
export function cageSymbol(index) {
  const symbols = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  return index < symbols.length ? symbols[index] : String(index + 1);
}

/** A Killer as the line format of the public lists, `MAP SUMS [GIVENS]` (formats/killer.py), for copying. */
export function killerLine(values, cages, shape) {
  const map = Array.from({ length: shape.cells }, () => ".");
  cages.forEach((cage, index) => cage.cells.forEach((cell) => { map[cell] = cageSymbol(index); }));
  const sums = cages.map((cage) => (cage.sum == null ? "-" : String(cage.sum))).join(",");
  return `${map.join("")} ${sums}${values.some(Boolean) ? ` ${toLine(values)}` : ""}`;
}

/**
 * Whether pasted text is a Killer line (`MAP SUMS [GIVENS]`): a map of a whole grid (16 cells or more, which
 * rows of integers never start with), then sums separated by commas.
 */
export function isKillerLine(text) {
  return /^\S{16,}\s+(\d+|-)(,(\d+|-))*(\s+\S+)*$/.test(text.trim());
}

/** Cages in a permalink: `15.0.1.9_n.2.3`, each its sum (n: none) and its cells, cages joined by "_". */
export function cagesToParam(cages) {
  return cages.map((cage) => [cage.sum ?? "n", ...cage.cells].join(".")).join("_");
}

/** The cages of a permalink's parameter that fit the shape (a cage with a cell outside it is dropped). */
export function cagesFromParam(text, shape) {
  if (!text) return [];
  const cages = [];
  for (const part of text.split("_")) {
    const [sum, ...cells] = part.split(".");
    const numbers = cells.map(Number);
    if (!numbers.length || !numbers.every((cell) => Number.isInteger(cell) && cell >= 0 && cell < shape.cells)) continue;
    cages.push({ cells: numbers, sum: /^\d+$/.test(sum) ? Number(sum) : null });
  }
  return sortedCages(cages);
}

/**
 * A cage's outline inset by `inset` (a fraction of a cell) inside its cells, as SVG path data in cell units
 * (x: column, y: row): one segment for each cell side that faces out of the cage, lengthened or shortened at
 * its ends so that the segments of neighbouring cells meet at convex and concave corners alike.
 */
export function cageOutline(shape, cells, inset = 0.1) {
  const n = shape.n;
  const members = new Set(cells);
  const has = (row, col) => row >= 0 && col >= 0 && row < n && col < n && members.has(row * n + col);
  const d = inset;
  const end = (side, diagonal, base, inward) => {
    if (!side) return base + inward; // the outline turns here
    return diagonal ? base - inward : base; // a concave corner reaches past the cell, a straight side meets the next
  };
  const parts = [];
  const line = (x0, y0, x1, y1) => parts.push(`M${round(x0)} ${round(y0)}L${round(x1)} ${round(y1)}`);
  for (const cell of cells) {
    const row = Math.floor(cell / n);
    const col = cell % n;
    if (!has(row - 1, col)) {
      line(end(has(row, col - 1), has(row - 1, col - 1), col, d), row + d,
        end(has(row, col + 1), has(row - 1, col + 1), col + 1, -d), row + d);
    }
    if (!has(row + 1, col)) {
      line(end(has(row, col - 1), has(row + 1, col - 1), col, d), row + 1 - d,
        end(has(row, col + 1), has(row + 1, col + 1), col + 1, -d), row + 1 - d);
    }
    if (!has(row, col - 1)) {
      line(col + d, end(has(row - 1, col), has(row - 1, col - 1), row, d),
        col + d, end(has(row + 1, col), has(row + 1, col - 1), row + 1, -d));
    }
    if (!has(row, col + 1)) {
      line(col + 1 - d, end(has(row - 1, col), has(row - 1, col + 1), row, d),
        col + 1 - d, end(has(row + 1, col), has(row + 1, col + 1), row + 1, -d));
    }
  }
  return parts.join("");
}

function round(value) {
  return Math.round(value * 1000) / 1000;
}
