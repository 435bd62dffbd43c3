// The grid editor: draws the cells of a shape, keeps one selected (or, where the app allows it, a set of cells:
// a Killer cage being drawn), and turns keys, clicks, drags and taps into intents (enter a value, toggle a pencil
// mark, clear, move, type a cage's sum). What an intent does is the app's business.

import { ALPHABET, cageOutline, symbol } from "./model.js";

const SVG = "http://www.w3.org/2000/svg";
const CAGE_INSET = 0.1; // a cage's dashed outline runs this fraction of a cell inside its cells

const TWO_DIGIT_MS = 900; // "1" then "2" within this time is 12 on grids with more than 9 digits

/**
 * One cell as the app wants it shown:
 *   value     0 or a digit;  kind  "given" | "entry" | "solution" | "replayed" | null
 *   marks     digits shown small (pencil marks or candidates); markStyles  Map digit -> "place" | "remove"
 *   flags     Set of "conflict" | "error" | "wrong" | "focus" (a step's cell) | "target" | "unit"
 *   locked    true when typing cannot change it (a given while playing)
 *   note      words a screen reader adds (a Killer cell's cage: "cage B, sum 15")
 *   title     the tooltip a pointer shows (a doubtful cell of a photo: "read with 72 % confidence: check it")
 *
 * With `multi` on (the app sets it), drags, Shift+click and Shift+arrows select several cells (`selection`);
 * then digits and Backspace go to `intents.cageKey` and Enter to `intents.confirm` (a cage's sum).
 */
export class GridView {
  constructor(root, intents) {
    this.root = root;
    this.intents = intents;
    this.shape = null;
    this.cells = [];
    this.drawn = [];
    this.decor = []; // a variant's classes for each cell (see decorate)
    this.selected = 0;
    this.selection = new Set([0]);
    this.multi = false;
    this.drag = null; // {from, moved} while the pointer is down on a cell
    this.shiftPressed = false;
    this.pending = null;
    root.addEventListener("keydown", (event) => this.onKey(event));
    root.addEventListener("click", (event) => this.onClick(event));
    root.addEventListener("focusin", (event) => this.onFocus(event));
    root.addEventListener("pointerdown", (event) => this.onPointerDown(event));
    root.addEventListener("pointermove", (event) => this.onPointerMove(event));
    root.addEventListener("pointerup", () => this.onPointerUp());
    root.addEventListener("pointercancel", () => this.onPointerUp());
  }

  /** Allow (or stop) selecting several cells; stopping keeps only the cursor's cell. */
  setMulti(on) {
    this.multi = on;
    if (on) this.root.dataset.multi = "";
    else delete this.root.dataset.multi;
    this.root.setAttribute("aria-multiselectable", String(on));
    if (!on) this.selection = new Set([this.selected]);
  }

  /** Build the cells of a new shape (the selection goes to the first cell). */
  setShape(shape) {
    this.shape = shape;
    this.root.replaceChildren();
    this.root.style.setProperty("--n", shape.n);
    this.root.style.setProperty("--box-rows", shape.boxRows);
    this.root.style.setProperty("--box-cols", shape.boxCols);
    this.root.dataset.size = shape.size;
    this.root.setAttribute("aria-label", `Sudoku grid, ${shape.n} by ${shape.n}`);
    this.root.setAttribute("aria-rowcount", shape.n);
    this.root.setAttribute("aria-colcount", shape.n);
    this.cells = [];
    for (let row = 0; row < shape.n; row++) {
      const line = document.createElement("div");
      line.setAttribute("role", "row");
      line.className = "row";
      if ((row + 1) % shape.boxRows === 0 && row + 1 < shape.n) line.classList.add("box-bottom");
      for (let col = 0; col < shape.n; col++) line.append(this.makeCell(row, col));
      this.root.append(line);
    }
    this.drawn = new Array(shape.cells).fill(null);
    this.decor = [];
    delete this.root.dataset.regions;
    this.selected = 0;
    this.selection = new Set([0]);
    this.pending = null;
    this.cells[0].tabIndex = 0;
    this.cageLayer = document.createElementNS(SVG, "svg");
    this.cageLayer.classList.add("cages");
    this.cageLayer.setAttribute("viewBox", `0 0 ${shape.n} ${shape.n}`);
    this.cageLayer.setAttribute("preserveAspectRatio", "none");
    this.cageLayer.setAttribute("aria-hidden", "true");
    this.root.append(this.cageLayer);
  }

  /**
   * Draw Killer cages ([{cells, sum}], in reading order) as newspapers print them: a dashed outline inset in
   * the cage's cells, and its sum small at the top left of its first cell.
   */
  drawCages(cages) {
    if (!this.cageLayer) return;
    const n = this.shape.n;
    this.cageLayer.replaceChildren(...cages.map((cage, index) => {
      const group = document.createElementNS(SVG, "g");
      group.classList.add("cage");
      group.dataset.cage = String(index);
      group.dataset.cells = cage.cells.join(" ");
      if (cage.sum != null) group.dataset.sum = String(cage.sum);
      const outline = document.createElementNS(SVG, "path");
      outline.classList.add("cage-outline");
      outline.setAttribute("d", cageOutline(this.shape, cage.cells, CAGE_INSET));
      group.append(outline);
      if (cage.sum != null) {
        const first = Math.min(...cage.cells);
        const label = document.createElementNS(SVG, "text");
        label.classList.add("cage-sum");
        label.setAttribute("x", String((first % n) + CAGE_INSET * 0.6));
        label.setAttribute("y", String(Math.floor(first / n) + 0.3));
        label.textContent = String(cage.sum);
        group.append(label);
      }
      return group;
    }));
  }

  makeCell(row, col) {
    const cell = document.createElement("div");
    cell.setAttribute("role", "gridcell");
    cell.className = "cell";
    if ((col + 1) % this.shape.boxCols === 0 && col + 1 < this.shape.n) cell.classList.add("box-right");
    cell.tabIndex = -1;
    cell.dataset.cell = String(this.cells.length);
    this.cells.push(cell);
    return cell;
  }

  /**
   * Draw a variant on the cells: `classes[cell]` lists a cell's extra CSS classes (region colours and borders,
   * diagonals, windows). With `regions`, the regions are not the boxes, so the box lines give way to theirs.
   */
  decorate(classes, { regions = false } = {}) {
    this.decor = classes;
    if (regions) this.root.dataset.regions = "";
    else delete this.root.dataset.regions;
    this.drawn.fill(null); // every cell is drawn again with its new classes
  }

  /** Show every cell as described (see the class comment); only cells that changed are redrawn. */
  render(views) {
    views.forEach((view, index) => {
      const key = JSON.stringify([view.value, view.kind, view.marks, [...(view.markStyles || [])],
        [...view.flags].sort(), view.locked, view.note || "", view.title || ""]);
      if (this.drawn[index] !== key) {
        this.drawCell(index, view);
        this.drawn[index] = key;
      }
    });
    this.cells.forEach((cell, index) => cell.setAttribute("aria-selected", String(this.selection.has(index))));
  }

  drawCell(index, view) {
    const cell = this.cells[index];
    const kept = cell.className.split(" ").filter((name) => name === "cell" || name === "box-right");
    cell.className = [...kept, ...(this.decor[index] || [])].join(" ");
    if (view.kind) cell.classList.add(view.kind);
    for (const flag of view.flags) cell.classList.add(flag);
    cell.replaceChildren();
    if (view.value) {
      const value = document.createElement("span");
      value.className = "value";
      value.textContent = symbol(view.value);
      value.setAttribute("aria-hidden", "true");
      cell.append(value);
    } else if (view.marks.length) {
      cell.append(this.drawMarks(view));
    }
    const invalid = view.flags.has("conflict") || view.flags.has("error") || view.flags.has("wrong");
    cell.setAttribute("aria-invalid", String(invalid));
    cell.setAttribute("aria-readonly", String(Boolean(view.locked)));
    cell.setAttribute("aria-label", this.describe(index, view));
    if (view.title) cell.title = view.title;
    else cell.removeAttribute("title");
  }

  drawMarks(view) {
    const marks = document.createElement("span");
    marks.className = "marks";
    marks.setAttribute("aria-hidden", "true");
    for (const digit of view.marks) {
      const mark = document.createElement("span");
      mark.className = "mark";
      const style = view.markStyles && view.markStyles.get(digit);
      if (style) mark.classList.add(style);
      mark.textContent = symbol(digit);
      mark.style.gridRow = String(Math.floor((digit - 1) / this.shape.boxCols) + 1);
      mark.style.gridColumn = String(((digit - 1) % this.shape.boxCols) + 1);
      marks.append(mark);
    }
    return marks;
  }

  /** What a screen reader says for a cell: "row 3, column 5, 7, given" or "row 1, column 2, empty". */
  describe(index, view) {
    const parts = [`row ${this.shape.rowOf(index) + 1}`, `column ${this.shape.colOf(index) + 1}`];
    if (view.value) {
      parts.push(view.value > 9 ? `${symbol(view.value)} (${view.value})` : String(view.value));
      if (view.kind) parts.push(view.kind === "replayed" ? "placed" : view.kind);
    } else {
      parts.push("empty");
      if (view.marks.length) parts.push(`candidates ${view.marks.map(symbol).join(" ")}`);
    }
    const words = { conflict: "conflict", error: "error", wrong: "wrong", focus: "highlighted", target: "changed" };
    for (const [flag, word] of Object.entries(words)) if (view.flags.has(flag)) parts.push(word);
    if (view.note) parts.push(view.note);
    return parts.join(", ");
  }

  /** Select a cell; `focus` moves the keyboard focus there too; `extend` adds it to the selection (multi). */
  select(index, { focus = true, extend = false } = {}) {
    if (!this.shape) return;
    index = Math.max(0, Math.min(this.shape.cells - 1, index));
    if (index !== this.selected) this.pending = null;
    this.cells[this.selected].tabIndex = -1;
    this.selected = index;
    if (extend && this.multi) this.selection.add(index);
    else this.selection = new Set([index]);
    this.cells.forEach((cell, at) => cell.setAttribute("aria-selected", String(this.selection.has(at))));
    const cell = this.cells[index];
    cell.tabIndex = 0;
    if (focus) cell.focus();
    this.intents.select(index);
  }

  /** The selected cells, in reading order. */
  selectedCells() {
    return [...this.selection].sort((a, b) => a - b);
  }

  focus() {
    this.cells[this.selected].focus();
  }

  onClick(event) {
    if (this.drag && this.drag.moved) return; // the end of a drag, which selected its cells already
    const cell = event.target.closest("[role=gridcell]");
    if (cell) this.select(Number(cell.dataset.cell), { extend: event.shiftKey });
  }

  /** The cell under a pointer (a finger moves over cells without entering them as a mouse does). */
  cellAt(event) {
    const target = document.elementFromPoint(event.clientX, event.clientY);
    const cell = target && target.closest("[role=gridcell]");
    return cell && this.root.contains(cell) ? Number(cell.dataset.cell) : null;
  }

  onPointerDown(event) {
    this.shiftPressed = event.shiftKey; // the focus moves to the cell before its click: Shift extends there too
    if (!this.multi || event.button !== 0 || event.shiftKey) return;
    const cell = this.cellAt(event);
    if (cell === null) return;
    this.drag = { from: cell, moved: false }; // a finger stays captured by this cell: cellAt looks where it is
  }

  onPointerMove(event) {
    if (!this.drag) return;
    const cell = this.cellAt(event);
    if (cell === null || (cell === this.selected && this.drag.moved)) return;
    if (!this.drag.moved) {
      if (cell === this.drag.from) return;
      this.drag.moved = true;
      this.select(this.drag.from);
    }
    this.select(cell, { extend: true });
  }

  onPointerUp() {
    const drag = this.drag;
    if (!drag) return;
    if (drag.moved) setTimeout(() => { if (this.drag === drag) this.drag = null; }, 0); // after its click
    else this.drag = null;
  }

  onFocus(event) {
    const cell = event.target.closest("[role=gridcell]");
    if (cell && Number(cell.dataset.cell) !== this.selected) {
      this.select(Number(cell.dataset.cell), { focus: false, extend: this.shiftPressed });
    }
  }

  onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) {
      this.onModifiedKey(event);
      return;
    }
    if (this.onMove(event) || this.onEdit(event)) event.preventDefault();
  }

  /** Ctrl+Home and Ctrl+End jump to the first and last cell; other shortcuts belong to the page. */
  onModifiedKey(event) {
    if (event.ctrlKey && (event.key === "Home" || event.key === "End")) {
      this.select(event.key === "Home" ? 0 : this.shape.cells - 1);
      event.preventDefault();
    }
  }

  /** Arrows, Home, End, Tab and Shift+Tab (which leave the grid at its ends), Escape (which leaves at once). */
  onMove(event) {
    const { n, cells } = this.shape;
    const at = this.selected;
    const row = Math.floor(at / n);
    const col = at % n;
    const targets = {
      ArrowUp: row > 0 ? at - n : at,
      ArrowDown: row < n - 1 ? at + n : at,
      ArrowLeft: col > 0 ? at - 1 : at,
      ArrowRight: col < n - 1 ? at + 1 : at,
      Home: row * n,
      End: row * n + n - 1,
    };
    if (event.key in targets) {
      this.select(targets[event.key], { extend: event.shiftKey && event.key.startsWith("Arrow") });
      return true;
    }
    if (event.key === "Tab") {
      const next = event.shiftKey ? at - 1 : at + 1;
      if (next < 0 || next >= cells) return false; // let the browser move on to the page around the grid
      this.select(next);
      return true;
    }
    if (event.key === "Escape") {
      this.intents.leave();
      return true;
    }
    return false;
  }

  /** Digits, letters, Shift for pencil marks, and the keys that clear a cell. */
  onEdit(event) {
    const { n } = this.shape;
    const at = this.selected;
    if (this.multi && event.key === "Enter") {
      this.intents.confirm();
      return true;
    }
    if (this.multi && this.selection.size > 1) { // typing a cage's sum
      if (/^[0-9]$/.test(event.key)) this.intents.cageKey(event.key);
      else if (["Delete", "Backspace"].includes(event.key)) this.intents.cageKey("Backspace");
      else return false;
      return true;
    }
    if (["Delete", "Backspace", " ", "."].includes(event.key)) {
      this.pending = null;
      this.intents.clear(at);
      return true;
    }
    const digit = digitOf(event);
    if (digit !== null) {
      if (event.shiftKey) {
        if (digit >= 1 && digit <= n) this.intents.mark(at, digit);
        return true;
      }
      this.typeDigit(at, digit);
      return true;
    }
    if (event.key.length === 1 && /[a-z]/i.test(event.key)) {
      this.pending = null;
      const value = ALPHABET.indexOf(event.key.toUpperCase()) + 1;
      if (value > 9 && value <= n) {
        if (event.shiftKey) this.intents.mark(at, value);
        else this.intents.enter(at, value);
      } else {
        this.intents.refuse(at, event.key);
      }
      return true;
    }
    return false;
  }

  /** A digit key: the value itself, or with the digit just typed in this cell a two-digit value (1 then 6: 16). */
  typeDigit(at, digit) {
    const { n } = this.shape;
    const recent = this.pending && this.pending.cell === at && performance.now() - this.pending.time < TWO_DIGIT_MS;
    if (recent && this.pending.first * 10 + digit <= n) {
      const value = this.pending.first * 10 + digit;
      this.pending = null;
      this.intents.enter(at, value);
      return;
    }
    this.pending = digit >= 1 && digit * 10 <= n ? { cell: at, first: digit, time: performance.now() } : null;
    if (digit === 0) this.intents.clear(at);
    else if (digit <= n) this.intents.enter(at, digit);
    else this.intents.refuse(at, String(digit));
  }
}

/** The digit of a key press, Shift or not (Shift+1 is "!" as a key but still "Digit1" as a code). */
function digitOf(event) {
  if (/^[0-9]$/.test(event.key)) return Number(event.key);
  const match = /^(?:Digit|Numpad)([0-9])$/.exec(event.code || "");
  return match && event.shiftKey ? Number(match[1]) : null;
}
