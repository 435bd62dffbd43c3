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

/** The cells whose value repeats in one of their units: a grid's conflicts, seen without any search. */
export function conflictingCells(values, shape) {
  const found = new Set();
  for (const kind of ["row", "column", "box"]) {
    for (const unit of shape.units[kind]) {
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
  }
  return found;
}
