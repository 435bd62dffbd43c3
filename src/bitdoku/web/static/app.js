// The page: what the user made (givens, entries, pencil marks), what the server said about it (verdict,
// solution, hint, explanation), and the controls that connect the two. The grid itself is in grid.js.

import { ApiError, LiveQuery, onWarmingUp, post, postImage } from "./api.js";
import { GridView } from "./grid.js";
import { History } from "./history.js";
import {
  ALPHABET,
  VARIANTS,
  boxMap,
  cageOf,
  cageSymbol,
  cagesFromParam,
  cagesToParam,
  cellName,
  cellOfName,
  conflictingCells,
  fromLine,
  isKillerLine,
  killerLine,
  shapeForCells,
  shapeOf,
  shapeOfText,
  toLine,
  unitCells,
  sortedCages,
  valuesOfText,
  variantClasses,
  variantOf,
} from "./model.js";
import { stateBefore } from "./replay.js";

const $ = (id) => document.getElementById(id);
const LIVE_DELAY_MS = 150;

const state = {
  shape: shapeOf("3x3"),
  givens: new Uint8Array(81), // the puzzle
  entries: new Uint8Array(81), // the player's values (Play mode)
  marks: [], // the player's pencil marks: a Set of digits a cell
  mode: "edit", // "edit": typing sets givens; "play": givens are locked, typing sets entries
  candidates: null, // the server's candidates of the current grid, when "Show candidates" is on
  overlay: null, // shown over the user's grid: {type: "solution" | "hint" | "replay", ...}
  explanation: null, // the last /api/explain answer, while it still describes the grid
  errorCells: new Set(), // cells an API error named
  wrongCells: new Set(), // entries that Check found wrong
  revision: 0, // counts changes, so that an answer about an older grid is dropped
  variantName: "classic", // the rules: "classic", "x", ..., "jigsaw" (the server's names)
  regionMap: "", // a jigsaw's region map, as typed (one symbol a cell)
  variant: null, // what the rules add to the shape (model.js variantOf): regions, diagonals, windows, units
  cages: [], // a Killer's cages, [{cells, sum}] in reading order of first cells (model.js sortedCages)
  trueCandidates: null, // the server's true candidates of the givens, when "True candidates" is on
  doubtful: new Map(), // cells of a puzzle read from a photo that a person should check: cell -> confidence (0-1)
};

const undoHistory = new History(); // not window.history, which holds the permalink
const grid = new GridView($("grid"), {
  enter: (cell, value) => enter(cell, value),
  mark: (cell, digit) => toggleMark(cell, digit),
  clear: (cell) => enter(cell, 0),
  refuse: (cell, key) => say(`'${key}' is no value of a ${state.shape.size} grid; ${valuesHint()}.`, "error"),
  select: () => {
    showCagePanel();
    render();
  },
  leave: () => (state.overlay ? dismissOverlay() : $("solve").focus()),
  cageKey: (key) => typeCageSum(key),
  confirm: () => confirmCage(),
});
const verdictQuery = new LiveQuery("count", LIVE_DELAY_MS, showVerdict, showVerdictError);
const candidatesQuery = new LiveQuery("candidates", LIVE_DELAY_MS, (answer) => {
  state.candidates = answer.candidates;
  render();
}, () => {});
const trueCandidatesQuery = new LiveQuery("true-candidates", LIVE_DELAY_MS, (answer) => {
  state.trueCandidates = answer;
  render();
}, () => {
  state.trueCandidates = null;
  render();
});

// ---- the grids the page talks about -------------------------------------------------------------------

/** The grid as the player sees it: the givens, plus the entries while playing. */
function currentValues() {
  if (state.mode === "edit") return state.givens;
  return state.givens.map((given, cell) => given || state.entries[cell]);
}

/** The shape and the rules the grid is under, as every request names them. */
function gridRules() {
  const rules = { shape: state.shape.name };
  if (state.variantName !== "classic") rules.variant = state.variantName;
  if (state.variantName === "jigsaw") rules.regions = state.regionMap;
  if (isKiller()) {
    rules.cages = state.cages.map((cage) => ({ sum: cage.sum, cells: cage.cells.map((cell) => cellName(state.shape, cell)) }));
  }
  return rules;
}

function isKiller() {
  return state.variantName === "killer";
}

function request(values, extra = {}) {
  return { puzzle: toLine(values), ...gridRules(), ...extra };
}

function valuesHint() {
  const n = state.shape.n;
  return n <= 9 ? `type 1-${n}` : `type 1-9 and A-${ALPHABET[n - 1]} (or two digits quickly)`;
}

function snapshot() {
  return {
    shape: state.shape.name,
    givens: toLine(state.givens),
    entries: toLine(state.entries),
    marks: state.marks.map((marks) => [...marks]),
    cages: state.cages.map((cage) => ({ cells: [...cage.cells], sum: cage.sum })),
  };
}

function restore(saved) {
  setShape(shapeOf(saved.shape));
  state.givens = fromLine(saved.givens, state.shape);
  state.entries = fromLine(saved.entries, state.shape);
  state.marks = saved.marks.map((marks) => new Set(marks));
  state.cages = sortedCages(saved.cages || []);
  state.doubtful = new Map(); // they were about the grid as it was read
  drawVariant();
  showCagePanel();
}

function setShape(shape) {
  if (state.shape === shape && grid.shape === shape) return;
  state.shape = shape;
  state.givens = new Uint8Array(shape.cells);
  state.entries = new Uint8Array(shape.cells);
  state.marks = Array.from({ length: shape.cells }, () => new Set());
  state.candidates = null;
  state.trueCandidates = null;
  state.cages = []; // their cells belong to the old shape
  grid.setShape(shape);
  $("shape").value = shape.name;
  setVariant(state.variantName, state.regionMap);
  // The rater's techniques stall on grids above 9x9 (it calls nearly all of them "beyond logic"), so a
  // difficulty could not be met there: the choice is offered where it means something.
  $("difficulty").disabled = shape.n > 9;
  $("difficulty").title = shape.n > 9 ? "Difficulty levels are for grids up to 9x9" : "";
  buildKeypad();
}

/**
 * Put the grid under a variant's rules and draw them. A jigsaw keeps its region map while it fits the shape and
 * otherwise starts from the boxes (a map the user then edits).
 */
function setVariant(name, map = state.regionMap) {
  state.variantName = VARIANTS.includes(name) ? name : "classic";
  const jigsaw = state.variantName === "jigsaw";
  if (jigsaw && map.replace(/\s/g, "").length !== state.shape.cells) map = boxMap(state.shape);
  state.regionMap = jigsaw ? map : "";
  $("variant").value = state.variantName;
  $("regions-field").hidden = !jigsaw;
  if ($("regions").value !== state.regionMap) $("regions").value = state.regionMap;
  $("cage-form").hidden = !isKiller();
  if ($("keypad-cage")) $("keypad-cage").hidden = !isKiller();
  $("symmetry").disabled = isKiller(); // a Killer has no givens to place symmetrically
  $("symmetry").title = isKiller() ? "Killer puzzles are made of cages, without symmetric givens" : "";
  grid.setMulti(isKiller() && state.mode === "edit");
  drawVariant();
  showCagePanel();
}

/** Draw the rules on the grid: a jigsaw's regions once its map fits, X diagonals, Windoku windows, cages. */
function drawVariant() {
  state.variant = variantOf(state.shape, state.variantName, state.regionMap, state.cages);
  grid.decorate(variantClasses(state.shape, state.variant), { regions: Boolean(state.variant.regions) });
  grid.drawCages(isKiller() ? state.cages : []);
}

// ---- Killer cages ------------------------------------------------------------------------------------------

/** The cage that holds every selected cell, or -1 (none, or the selection spans cells outside one cage). */
function selectedCage() {
  const cells = grid.selectedCells();
  const index = cageOf(state.cages, cells[0]);
  return index >= 0 && cells.every((cell) => state.cages[index].cells.includes(cell)) ? index : -1;
}

/** The cage panel follows the selection: a cage's sum to edit, or a new cage's sum to type. */
function showCagePanel() {
  if (!isKiller()) return;
  const index = selectedCage();
  const cells = grid.selectedCells();
  const names = cells.map((cell) => cellName(state.shape, cell)).join(", ");
  $("cage-sum").value = index >= 0 && state.cages[index].sum != null ? String(state.cages[index].sum) : "";
  delete $("cage-sum").dataset.typed;
  $("make-cage").textContent = index >= 0 ? "Set sum" : "Make cage";
  $("delete-cage").disabled = !grid.selectedCells().some((cell) => cageOf(state.cages, cell) >= 0);
  $("cage-status").textContent = index >= 0
    ? `Cage ${cageSymbol(index)} (${state.cages[index].cells.length} cells): edit its sum, or delete it.`
    : `Selected: ${names}. Type the sum, then Enter (or Make cage).`;
}

/** A key typed on a selection of several cells: a digit of the cage's sum, or Backspace (then: delete cages). */
function typeCageSum(key) {
  const field = $("cage-sum");
  if (key === "Backspace") {
    if (field.value) field.value = field.value.slice(0, -1);
    else deleteCages(grid.selectedCells());
    return;
  }
  if (field.dataset.typed !== "true") field.value = ""; // the first digit replaces the sum shown
  field.dataset.typed = "true";
  if (field.value.length < 4) field.value += key;
  say(`Cage sum ${field.value}: Enter makes the cage of ${grid.selection.size} cells.`);
}

/** Enter on the grid: make the selection a cage with the typed sum, set a cage's sum, or go edit it. */
function confirmCage() {
  const typed = $("cage-sum").dataset.typed === "true";
  if (selectedCage() >= 0 && !typed) {
    $("cage-sum").focus();
    $("cage-sum").select();
    say("Type the cage's new sum, then Enter (empty: no sum).");
    return;
  }
  if (grid.selection.size > 1 || typed) saveCage();
}

/** Make the selected cells a cage with the sum in the field, or give the selected cage that sum. */
function saveCage() {
  const field = $("cage-sum");
  delete field.dataset.typed;
  const text = field.value.trim();
  if (text && !/^\d+$/.test(text)) {
    say(`'${text}' is no cage sum: type a whole number, or nothing for a cage without a sum.`, "error");
    return;
  }
  const sum = text ? Number(text) : null;
  const index = selectedCage();
  const cells = grid.selectedCells();
  if (index >= 0) {
    change(() => {
      state.cages[index] = { ...state.cages[index], sum };
      drawVariant();
    }, { puzzle: true });
    say(`Cage ${cageSymbol(index)}: ${sum === null ? "no sum" : `sum ${sum}`}.`);
    return;
  }
  const taken = cells.filter((cell) => cageOf(state.cages, cell) >= 0);
  if (taken.length) {
    const names = taken.map((cell) => cellName(state.shape, cell)).join(", ");
    say(`${names} ${taken.length === 1 ? "is" : "are"} in a cage already; delete that cage first.`, "error");
    return;
  }
  change(() => {
    state.cages = sortedCages([...state.cages, { cells, sum }]);
    drawVariant();
  }, { puzzle: true });
  const made = cageOf(state.cages, cells[0]);
  say(`Cage ${cageSymbol(made)} of ${plural(cells.length, "cell")}${sum === null ? ", no sum" : `, sum ${sum}`}.`, "success");
  showCagePanel();
}

/** Delete the cages holding any of `cells`. */
function deleteCages(cells) {
  const doomed = new Set(cells.map((cell) => cageOf(state.cages, cell)).filter((index) => index >= 0));
  if (!doomed.size) {
    say("No cage here to delete.");
    return;
  }
  change(() => {
    state.cages = state.cages.filter((_, index) => !doomed.has(index));
    drawVariant();
  }, { puzzle: true });
  say(`Deleted ${plural(doomed.size, "cage")}; Undo brings ${doomed.size === 1 ? "it" : "them"} back.`);
  showCagePanel();
}

// ---- changes ----------------------------------------------------------------------------------------------

/**
 * Change what the user made: remember the old state for Undo, apply `mutate`, then forget every answer about
 * the old grid and ask again. `puzzle` says the givens changed (the verdict and the link follow them).
 */
function change(mutate, { puzzle = false, cell = null, record = true } = {}) {
  if (record) undoHistory.record(snapshot());
  mutate();
  afterChange({ puzzle, cell });
}

function afterChange({ puzzle = true, cell = null } = {}) {
  state.revision++;
  state.overlay = null;
  state.errorCells.clear();
  if (cell === null) state.wrongCells.clear();
  else state.wrongCells.delete(cell);
  closeExplanation();
  if (puzzle) {
    updateLink();
    askVerdict();
    askTrueCandidates();
  }
  askCandidates();
  render();
  if (state.mode === "play") sayIfComplete();
}

function enter(cell, value) {
  if (isKiller() && state.mode === "edit") {
    if (grid.selection.size > 1) { // the keypad on a selection: the cage's sum
      typeCageSum(value ? String(value) : "Backspace");
      return;
    }
    if (!value && !state.givens[cell] && cageOf(state.cages, cell) >= 0) { // Delete on an empty cage cell
      deleteCages([cell]);
      return;
    }
  }
  if (state.mode === "edit") {
    if (state.givens[cell] === value) return;
    change(() => {
      state.givens[cell] = value;
      state.entries[cell] = 0;
      state.marks[cell].clear();
      state.doubtful.delete(cell); // checked: the user typed what the photo shows
    }, { puzzle: true, cell });
    return;
  }
  if (state.givens[cell]) {
    say(`${cellName(state.shape, cell)} is a given; choose "Edit givens" to change it.`);
    return;
  }
  if (value && $("pencil").checked) {
    toggleMark(cell, value);
    return;
  }
  if (state.entries[cell] === value) return;
  change(() => {
    state.entries[cell] = value;
    if (value) state.marks[cell].clear();
  }, { cell });
}

function toggleMark(cell, digit) {
  if (state.mode !== "play") {
    say('Pencil marks are for playing: choose "Play" first.');
    return;
  }
  if (state.givens[cell] || state.entries[cell]) return;
  change(() => {
    const marks = state.marks[cell];
    if (marks.has(digit)) marks.delete(digit);
    else marks.add(digit);
  }, { cell });
}

/** Replace the puzzle (paste, link, Generate): a new grid of `shape`, no entries, no marks. */
function loadPuzzle(shape, givens, { record = true } = {}) {
  change(() => {
    keepingFocus(() => setShape(shape));
    state.givens = Uint8Array.from(givens);
    state.entries = new Uint8Array(shape.cells);
    state.marks = Array.from({ length: shape.cells }, () => new Set());
    state.doubtful = new Map();
  }, { puzzle: true, record });
}

function undo(forward = false) {
  const saved = forward ? undoHistory.redo(snapshot()) : undoHistory.undo(snapshot());
  if (!saved) return;
  keepingFocus(() => restore(saved));
  afterChange({ puzzle: true });
  say(forward ? "Redone." : "Undone.");
}

/** Run `rebuild` (which may draw a new grid) and give the focus back to the grid if it was there. */
function keepingFocus(rebuild) {
  const inGrid = $("grid").contains(document.activeElement);
  rebuild();
  if (inGrid && !$("grid").contains(document.activeElement)) grid.focus();
}

function setMode(mode) {
  state.mode = mode;
  grid.setMulti(isKiller() && mode === "edit");
  for (const radio of document.querySelectorAll("input[name=mode]")) radio.checked = radio.value === mode;
  $("pencil").disabled = mode !== "play";
  $("clear").textContent = mode === "play" ? "Clear my entries" : "Clear grid";
  state.overlay = null;
  state.candidates = null;
  closeExplanation();
  askCandidates();
  render();
}

function sayIfComplete() {
  const values = currentValues();
  if (values.every(Boolean) && conflictingCells(values, state.shape, state.variant.units).size === 0) {
    say("Complete: every row, column and box holds each value once. Well done!", "success");
  }
}

// ---- drawing ----------------------------------------------------------------------------------------------

function render() {
  grid.render(cellViews());
  $("undo").disabled = !undoHistory.canUndo;
  $("redo").disabled = !undoHistory.canRedo;
  for (const button of $("keypad").querySelectorAll("[data-pencil]")) {
    button.setAttribute("aria-pressed", String($("pencil").checked && state.mode === "play"));
  }
}

/** What each cell shows (see GridView): the user's grid, or the solution, a hint or a replayed step over it. */
function cellViews() {
  const { shape, overlay } = state;
  const values = overlay && overlay.values ? overlay.values : currentValues();
  const conflicts = conflictingCells(values, shape, state.variant.units);
  const step = overlay && overlay.step;
  const marked = stepMarks(step);
  const selected = grid.selected;
  const peers = step ? new Set() : peersOf(selected); // a step's own colours need the whole grid
  return Array.from(values, (value, cell) => {
    const flags = new Set();
    if (conflicts.has(cell)) flags.add("conflict");
    if (state.errorCells.has(cell)) flags.add("error");
    if (state.wrongCells.has(cell) && !overlay) flags.add("wrong");
    if (step && step.cells.includes(cell)) flags.add("focus");
    if (marked.targets.has(cell)) flags.add("target");
    if (marked.units.has(cell)) flags.add("unit");
    if (peers.has(cell)) flags.add("peer");
    if (!step && value && value === values[selected]) flags.add("same");
    const doubt = doubtNote(cell);
    if (doubt) flags.add("doubtful");
    return {
      value,
      kind: kindOf(cell, value),
      marks: value ? [] : marksOf(cell),
      markStyles: marked.styles.get(cell),
      flags,
      locked: state.mode === "play" && Boolean(state.givens[cell]),
      note: [cageNote(cell), doubt].filter(Boolean).join(", "),
      title: doubt,
    };
  });
}

/** How a screen reader hears a Killer cell's cage: "cage B, sum 15" (and "first cell" where the sum is printed). */
function cageNote(cell) {
  if (!isKiller()) return "";
  const index = cageOf(state.cages, cell);
  if (index < 0) return "";
  const cage = state.cages[index];
  const sum = cage.sum == null ? "no sum" : `sum ${cage.sum}`;
  return `cage ${cageSymbol(index)}, ${sum}, ${plural(cage.cells.length, "cell")}`;
}

/** A doubtful cell of a photo's reading, as its title and a screen reader say it ("" for any other cell). */
function doubtNote(cell) {
  if (!state.doubtful.has(cell)) return "";
  const confidence = state.doubtful.get(cell);
  const what = state.givens[cell] ? "read" : "read as empty";
  return confidence === null ? `${what} after a correction by the solver: check it`
    : `${what} with ${Math.round(confidence * 100)} % confidence: check it`;
}

/** The cells that share a unit with `cell` under the current rules (a jigsaw's regions, not its boxes). */
function peersOf(cell) {
  if (state.variantName === "classic") return new Set(state.shape.peers[cell]);
  const peers = new Set(state.variant.units.filter((unit) => unit.includes(cell)).flat());
  peers.delete(cell);
  return peers;
}

function kindOf(cell, value) {
  if (!value) return null;
  if (state.givens[cell]) return "given";
  const overlay = state.overlay;
  if (overlay && overlay.type === "solution") return "solution";
  if (overlay && overlay.type === "replay") return overlay.start[cell] ? "entry" : "replayed";
  return "entry";
}

function marksOf(cell) {
  const overlay = state.overlay;
  if (overlay && overlay.candidates) return [...overlay.candidates[cell]].sort((a, b) => a - b);
  if ($("true-candidates").checked && state.trueCandidates) return state.trueCandidates.candidates[cell];
  if ($("show-candidates").checked && state.candidates) return state.candidates[cell];
  if (state.mode === "play") return [...state.marks[cell]].sort((a, b) => a - b);
  return [];
}

/** The cells a step changes, the units it looks at, and how each candidate it touches is drawn. */
function stepMarks(step) {
  const found = { targets: new Set(), units: new Set(), styles: new Map() };
  if (!step) return found;
  const style = (cell, digit, how) => {
    if (!found.styles.has(cell)) found.styles.set(cell, new Map());
    found.styles.get(cell).set(digit, how);
    found.targets.add(cell);
  };
  for (const { cell, digit } of step.placements) style(cell, digit, "place");
  for (const { cell, digit } of step.eliminations) style(cell, digit, "remove");
  for (const unit of step.units) for (const cell of unitCells(state.shape, unit)) found.units.add(cell);
  return found;
}

function buildKeypad() {
  const keypad = $("keypad");
  keypad.replaceChildren();
  const add = (text, label, onPress, attributes = {}) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = text;
    button.tabIndex = -1; // the grid takes the same keys; the keypad is for touch and mouse
    button.setAttribute("aria-label", label);
    for (const [name, value] of Object.entries(attributes)) button.setAttribute(name, value);
    button.addEventListener("mousedown", (event) => event.preventDefault()); // keep the focus in the grid
    button.addEventListener("click", onPress);
    keypad.append(button);
  };
  for (let value = 1; value <= state.shape.n; value++) {
    add(ALPHABET[value - 1], `Enter ${value}`, () => enter(grid.selected, value));
  }
  add("⌫", "Clear the cell", () => enter(grid.selected, 0));
  add("✎", "Pencil marks", () => {
    if (state.mode !== "play") setMode("play");
    $("pencil").checked = !$("pencil").checked;
    render();
  }, { "data-pencil": "", "aria-pressed": "false" });
  add("⬚", "Make the selected cells a cage with the sum typed", () => saveCage(), { id: "keypad-cage" });
  $("keypad-cage").hidden = !isKiller();
}

// ---- messages -----------------------------------------------------------------------------------------------

function say(text, tone = "info") {
  const message = $("message");
  message.textContent = text;
  message.dataset.tone = tone;
}

/** An API error as a message, with the cells it names highlighted (unless they are not in the grid shown). */
function showError(error, { highlight = true } = {}) {
  if (!(error instanceof ApiError)) throw error;
  say(error.message, "error");
  const named = cellOfName(state.shape, error.cellName);
  const cells = error.cells.length ? error.cells : named === null ? [] : [named];
  state.errorCells = new Set(highlight ? cells : []);
  render();
}

const VERDICTS = {
  unique: "Unique: exactly one solution",
  multiple: "Several solutions",
  "no-solution": "No solution",
  invalid: "Invalid",
  limit: "Undecided: search budget reached",
};

function setVerdict(status, title, detail) {
  const verdict = $("verdict");
  verdict.dataset.status = status;
  verdict.removeAttribute("aria-busy");
  verdict.querySelector(".verdict-title").textContent = title;
  verdict.querySelector(".verdict-detail").textContent = detail;
}

function askVerdict() {
  if (conflictingCells(state.givens, state.shape, state.variant.units).size) setVerdict("invalid", VERDICTS.invalid, "a value repeats in a unit");
  $("verdict").setAttribute("aria-busy", "true"); // until the server's answer about this very grid
  verdictQuery.ask(request(state.givens, { limit: 2 }));
}

function showVerdict(answer) {
  const ms = formatSeconds(answer.seconds);
  const details = {
    unique: `proved in ${ms} (${plural(answer.nodes, "search node")})`,
    multiple: state.givens.some(Boolean) || (isKiller() && state.cages.length) ? `found 2 in ${ms}`
      : isKiller() ? "no cages yet: select cells, type a sum, Enter" : "the grid is empty: type givens, paste or generate",
    "no-solution": `no grid completes these givens (${ms})`,
    invalid: answer.reason || "a value repeats in a unit",
    limit: "the live check stops early; Solve searches longer",
  };
  setVerdict(answer.status, VERDICTS[answer.status] || answer.status, details[answer.status] || "");
}

function showVerdictError(error) {
  setVerdict("error", "No verdict", error.message);
  if (error.kind === "regions" && error.cell !== null) { // the cell where the region map goes wrong
    state.errorCells = new Set([error.cell]);
    render();
  }
  if (error.kind === "cages") { // the cage no digits can fill
    state.errorCells = new Set(error.cells);
    render();
  }
}

function plural(count, noun, nouns = `${noun}s`) {
  return `${count.toLocaleString()} ${count === 1 ? noun : nouns}`;
}

function formatSeconds(seconds) {
  return seconds < 1 ? `${(seconds * 1000).toFixed(seconds < 0.01 ? 2 : 0)} ms` : `${seconds.toFixed(2)} s`;
}

// ---- the server's answers -------------------------------------------------------------------------------

function askCandidates() {
  if ($("show-candidates").checked) candidatesQuery.ask(request(currentValues()));
  else candidatesQuery.cancel();
}

/** True candidates are about the puzzle (the givens and the rules), so they follow its changes only. */
function askTrueCandidates() {
  if ($("true-candidates").checked) trueCandidatesQuery.ask(request(state.givens));
  else trueCandidatesQuery.cancel();
}

/** The button whose request is under way: it says so while the server prepares its feature. */
let askingButton = null;

// After a cold start the server compiles in the background: a request waits, and the page says what for.
onWarmingUp((message, path) => {
  const sentence = message.charAt(0).toUpperCase() + message.slice(1);
  if (path === "count") {
    setVerdict("pending", "Preparing", message);
  } else {
    if (askingButton) askingButton.dataset.preparing = sentence;
    say(`${sentence}.`);
  }
});

/** Ask the server for something; the answer, or null when it failed (shown) or the grid changed meanwhile. */
async function ask(button, pending, send, { keepIfChanged = false } = {}) {
  const revision = state.revision;
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  askingButton = button;
  say(pending);
  try {
    const answer = await send();
    if (keepIfChanged || state.revision === revision) return answer;
    say("The grid changed before the answer came; ask again.");
    return null;
  } catch (error) {
    if (keepIfChanged || state.revision === revision) showError(error);
    return null;
  } finally {
    button.disabled = false;
    button.removeAttribute("aria-busy");
    delete button.dataset.preparing;
    if (askingButton === button) askingButton = null;
  }
}

async function solve() {
  const answer = await ask($("solve"), "Solving…", () => post("solve", request(state.givens)));
  if (!answer) return;
  showVerdict(answer);
  const stats = `${formatSeconds(answer.seconds)}: ${plural(answer.nodes, "search node")}, ` +
    `${plural(answer.guesses, "guess", "guesses")}, ${plural(answer.backtracks, "backtrack")}`;
  if (answer.solution) {
    state.overlay = { type: "solution", values: fromLine(answer.solution, state.shape) };
    const which = answer.status === "unique" ? "the only solution" : "one of several solutions";
    say(`Solved (${which}) in ${stats}. Escape or any change hides it.`, "success");
  } else if (answer.status === "invalid") {
    state.errorCells = new Set(answer.conflicts.flatMap((conflict) => conflict.cells));
    say(`Cannot solve: ${answer.reason}.`, "error");
  } else if (answer.status === "no-solution") {
    say(`No solution: no grid completes these givens (${stats}).`, "error");
  } else {
    say(`The search stopped before an answer (${stats}): the server's budget for one request is spent.`, "error");
  }
  render();
}

async function showHint() {
  const values = currentValues();
  const answer = await ask($("hint"), "Looking for the next step…", () =>
    Promise.all([post("hint", request(values)), post("candidates", request(values))]));
  if (!answer) return;
  const [hint, candidates] = answer;
  if (!hint.step) {
    say("Nothing to hint: the grid is complete.");
    return;
  }
  state.overlay = { type: "hint", step: hint.step, candidates: candidates.candidates.map((digits) => new Set(digits)) };
  say(`Hint (${hint.step.technique}): ${hint.step.text}`, "hint");
  render();
}

async function explain() {
  const values = currentValues();
  const answer = await ask($("explain"), "Explaining…", () => post("explain", request(values, { guess: true })));
  if (!answer) return;
  state.explanation = { answer, start: fromLine(answer.start.values, state.shape) };
  const steps = answer.steps;
  const ending = answer.truncated ? "; the list stops early (the server's time budget)" :
    answer.solved ? "" : "; the techniques stall before the end";
  $("explanation-summary").textContent =
    `${steps.length} step${steps.length === 1 ? "" : "s"}${ending}. Choose a step to see the grid just before it.`;
  const list = $("steps");
  list.replaceChildren(...steps.map((step, index) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "step";
    button.dataset.index = String(index);
    const technique = document.createElement("span");
    technique.className = "technique";
    technique.textContent = step.technique;
    button.append(technique, document.createTextNode(step.text));
    button.addEventListener("click", () => replay(index));
    item.append(button);
    return item;
  }));
  $("explanation").hidden = false;
  $("leave-replay").hidden = true;
  say(`Explained in ${steps.length} steps.`, "success");
  render();
}

/** Show the grid as it was just before step `index` of the explanation, with that step highlighted. */
function replay(index) {
  const { answer, start } = state.explanation;
  const before = stateBefore(answer, index, state.shape);
  const step = answer.steps[index];
  state.overlay = { type: "replay", index, step, start, values: before.values, candidates: before.candidates };
  for (const button of $("steps").querySelectorAll("button")) {
    if (Number(button.dataset.index) === index) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
  $("leave-replay").hidden = false;
  say(`Before step ${index + 1} of ${answer.steps.length} (${step.technique}): ${step.text}`, "hint");
  render();
}

/** Back to the user's grid from a solution, a hint or a replayed step (the explanation stays open). */
function dismissOverlay() {
  state.overlay = null;
  for (const button of $("steps").querySelectorAll("[aria-current]")) button.removeAttribute("aria-current");
  $("leave-replay").hidden = true;
  say("");
  render();
}

function closeExplanation() {
  state.explanation = null;
  $("explanation").hidden = true;
  $("steps").replaceChildren();
}

async function rate() {
  const answer = await ask($("rate"), "Rating…", () => post("rate", request(state.givens)));
  if (!answer) return;
  say(`Rating: ${answer.level} (score ${answer.score.toFixed(1)}); the hardest technique is ${answer.hardest}, ` +
    `in ${answer.steps} steps.`, "success");
}

async function check() {
  const filled = state.entries.filter((value, cell) => value && !state.givens[cell]).length;
  if (state.mode !== "play" || !filled) {
    say('Nothing to check yet: choose "Play", fill in some cells, then Check compares them with the solution.');
    return;
  }
  const answer = await ask($("check"), "Checking your entries…", () => post("solve", request(state.givens)));
  if (!answer) return;
  if (!answer.solution) {
    say(`The puzzle itself has no single answer to compare with: ${VERDICTS[answer.status] || answer.status}.`, "error");
    return;
  }
  const solution = fromLine(answer.solution, state.shape);
  state.wrongCells = new Set();
  state.entries.forEach((value, cell) => {
    if (value && !state.givens[cell] && value !== solution[cell]) state.wrongCells.add(cell);
  });
  const wrong = state.wrongCells.size;
  const compared = answer.status === "unique" ? "" : " (the puzzle has several solutions; compared with one)";
  if (wrong) say(`${wrong} of ${filled} entries ${wrong === 1 ? "is" : "are"} wrong (marked)${compared}.`, "error");
  else say(`All ${filled} entries are right${compared}.`, "success");
  render();
}

async function generate(event) {
  event.preventDefault();
  const graded = !$("difficulty").disabled && $("difficulty").value;
  const body = { ...gridRules(), difficulty: graded || null, symmetry: isKiller() ? "none" : $("symmetry").value };
  delete body.cages; // a new Killer brings its own
  const kind = state.variantName === "classic" ? "" : ` ${state.variantName}`;
  const made = await ask($("generate"), `Generating a ${state.shape.size}${kind} puzzle…`,
    () => post("generate", body), { keepIfChanged: true });
  if (!made) return;
  const shape = shapeOf(made.shape);
  setVariant(made.variant, made.regions || "");
  loadPuzzle(shape, fromLine(made.puzzle, shape));
  if (made.cages) {
    state.cages = sortedCages(made.cages.map((cage) => ({
      sum: cage.sum ?? null, cells: cage.cells.map((name) => cellOfName(shape, name)),
    })));
    drawVariant();
    afterChange({ puzzle: true });
  }
  setMode("play");
  const level = made.level && made.rating != null ? `, ${made.level} (score ${made.rating.toFixed(1)})` : "";
  const madeKind = made.variant === "classic" ? "" : ` ${made.variant}`;
  const layout = made.cages ? `${plural(made.cages.length, "cage")}, ${made.clues} givens${made.level ? `, ${made.level}` : ""}`
    : `${made.clues} givens${level}, ${made.symmetry} symmetry`;
  say(`New ${shape.size}${madeKind} puzzle: ${layout}, made in ` +
    `${formatSeconds(made.seconds)} (seed ${made.seed}). Playing: the givens are locked.`, "success");
}

/**
 * Load a puzzle from text (a paste, the Load box, a link). The server reads it (shape null: it infers the
 * shape) and names any bad character; a bad line is still drawn so the named cell can be seen.
 */
async function loadText(text, shapeName = null, { record = true } = {}) {
  const trimmed = text.trim();
  if (!trimmed) {
    say("Nothing to load: the text is empty.");
    return false;
  }
  try {
    const killerText = isKillerLine(trimmed) ? { variant: "killer" } : {}; // MAP SUMS [GIVENS]
    const answer = await post("candidates", { puzzle: trimmed, shape: shapeName, ...killerText });
    const shape = shapeOf(answer.shape);
    if (!shape) {
      say(`This is a grid with ${answer.shape} boxes; the page edits 4x4 to 25x25 grids.`, "error");
      return false;
    }
    loadAnswer(answer, { record });
    return true;
  } catch (error) {
    const shape = shapeOf(shapeName) || shapeOfText(trimmed);
    const values = shape && valuesOfText(trimmed, shape);
    if (values) loadPuzzle(shape, values, { record });
    showError(error, { highlight: Boolean(values) });
    return false;
  }
}

/** Show a grid the server read (``/api/candidates`` or ``/api/import``): its values, rules and cages. */
function loadAnswer(answer, { record = true } = {}) {
  const shape = shapeOf(answer.shape);
  const values = fromLine(answer.values, shape); // the grid as the server read it, in any format
  loadPuzzle(shape, values, { record });
  const read = answer.cages; // null for rules without cages
  if (answer.variant !== "classic" || read) { // pasted JSON and links name their rules
    state.cages = read ? sortedCages(read.map((cage) => ({
      sum: cage.sum ?? null,
      cells: (cage.cells || []).map((name) => (typeof name === "number" ? name : cellOfName(shape, name))),
    })).filter((cage) => cage.cells.length && cage.cells.every((cell) => cell !== null))) : [];
    setVariant(answer.variant === "classic" && read ? "killer" : answer.variant, answer.regions || "");
    afterChange({ puzzle: true });
  }
  const cageWords = isKiller() ? ` and ${plural(state.cages.length, "cage")}` : "";
  say(`Loaded a ${shape.size}${answer.variant === "classic" ? "" : ` ${answer.variant}`} puzzle with ` +
    `${values.filter(Boolean).length} givens${cageWords}.`);
}

/** Read an f-puzzles or SudokuPad link on the server and show its grid (its error, when it cannot). */
async function importLink(event) {
  event.preventDefault();
  const link = $("import-link").value.trim();
  if (!link) {
    say("Paste an f-puzzles or SudokuPad link first.");
    return;
  }
  const answer = await ask($("import"), "Reading the link…", () => post("import", { link }), { keepIfChanged: true });
  if (!answer) return;
  if (!shapeOf(answer.shape)) {
    say(`This is a grid with ${answer.shape} boxes; the page edits 4x4 to 25x25 grids.`, "error");
    return;
  }
  loadAnswer(answer);
  grid.focus();
}

/** Copy the puzzle as an f-puzzles link, which the server writes (its error, when it cannot). */
async function copyFpuzzles() {
  const answer = await ask($("copy-fpuzzles"), "Writing the f-puzzles link…", () => post("link", request(state.givens)),
    { keepIfChanged: true });
  if (answer) copy(answer.link, "an f-puzzles link");
}

// ---- photos ------------------------------------------------------------------------------------------------

/** Images larger than this are shrunk in the browser before they are sent: the reader works at about 1000 px,
 * and a phone's 5 MB photo would take seconds to send on a slow connection. */
const SHRINK_ABOVE_BYTES = 1.5 * 1024 * 1024;
const SHRINK_TO_SIDE = 2000;

/** The image of a paste or a drop: its first image file (a screenshot pasted from the clipboard is one). */
function imageOf(transfer) {
  if (!transfer) return null;
  for (const item of transfer.items || []) {
    if (item.kind === "file" && item.type.startsWith("image/")) return item.getAsFile();
  }
  return [...(transfer.files || [])].find((file) => file.type.startsWith("image/")) || null;
}

/** The image as sent: large ones redrawn at SHRINK_TO_SIDE on their long side as a JPEG; any file the browser
 * cannot draw goes as it is, so the server names what is wrong with it. */
async function shrunk(file) {
  if (file.size <= SHRINK_ABOVE_BYTES || typeof createImageBitmap !== "function") return file;
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, SHRINK_TO_SIDE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.92));
    return blob && blob.size < file.size ? blob : file;
  } catch {
    return file;
  }
}

/**
 * Read a Sudoku from a photo or a screenshot on the server and load it as the puzzle's givens, under classic
 * rules and in the size read; the cells the reader is unsure of (or the solver corrected) are outlined until
 * they are edited. The image is sent once and kept nowhere.
 */
async function readPhoto(file) {
  if (!file) return;
  const answer = await ask($("photo"), "Reading the photo…", async () => postImage("photo", await shrunk(file)),
    { keepIfChanged: true });
  if (!answer) return;
  const shape = shapeOf(answer.shape);
  if (!shape) {
    say(`The photo holds a grid with ${answer.shape} boxes; the page edits 4x4 to 25x25 grids.`, "error");
    return;
  }
  loadPuzzle(shape, fromLine(answer.puzzle, shape));
  if (state.variantName !== "classic") { // a photo's grid has the classic rules: no cages, regions, diagonals
    state.cages = [];
    setVariant("classic", "");
  }
  const corrected = new Set(answer.corrected);
  state.doubtful = new Map(answer.doubtful.map((cell) => [cell, corrected.has(cell) ? null : answer.confidence[cell]]));
  afterChange({ puzzle: true });
  say(photoSummary(answer, shape), answer.doubtful.length || answer.status !== "unique" ? "hint" : "success");
}

/** What the page says after a photo was read: the size, the givens, the cells to check and the solver's word. */
function photoSummary(answer, shape) {
  const givens = [...answer.puzzle].filter((symbol) => symbol !== ".").length;
  const parts = [`Read a ${shape.size} puzzle with ${plural(givens, "given")} from the photo`];
  if (answer.doubtful.length) {
    const names = answer.doubtful_names.slice(0, 8).join(", ") + (answer.doubtful.length > 8 ? ", …" : "");
    parts.push(`${plural(answer.doubtful.length, "cell")} to check (outlined: ${names})`);
  } else {
    parts.push("every cell read with confidence");
  }
  if (answer.corrected.length) {
    parts.push(`${plural(answer.corrected.length, "cell")} corrected by the solver (${answer.corrected_names.join(", ")})`);
  }
  const verdict = { unique: "", multiple: "; as read it has several solutions: a digit may be missing",
    "no-solution": "; as read it has no solution: a digit may be misread",
    invalid: "; as read a digit repeats in a unit: a digit is misread" }[answer.status] ?? "";
  const edit = answer.doubtful.length ? " Compare them with the photo: editing a cell clears its outline." : "";
  return `${parts.join("; ")}${verdict}.${edit}`;
}

// ---- sharing -----------------------------------------------------------------------------------------------

function updateLink() {
  const params = new URLSearchParams({ shape: state.shape.name });
  if (state.variantName !== "classic") params.set("variant", state.variantName);
  if (state.variantName === "jigsaw") params.set("regions", state.regionMap.replace(/\s/g, ""));
  if (isKiller() && state.cages.length) params.set("cages", cagesToParam(state.cages));
  if (state.givens.some(Boolean)) params.set("p", toLine(state.givens));
  window.history.replaceState(null, "", `${location.pathname}?${params}`);
}

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = Object.assign(document.createElement("textarea"), { value: text });
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
  say(`Copied ${what}: ${text}`, "success");
}

// ---- wiring -------------------------------------------------------------------------------------------------

function isTextField(target) {
  return target instanceof HTMLTextAreaElement || (target instanceof HTMLInputElement && ["text", "url"].includes(target.type));
}

function wire() {
  $("solve").addEventListener("click", solve);
  $("hint").addEventListener("click", showHint);
  $("explain").addEventListener("click", explain);
  $("rate").addEventListener("click", rate);
  $("check").addEventListener("click", check);
  $("undo").addEventListener("click", () => undo());
  $("redo").addEventListener("click", () => undo(true));
  $("leave-replay").addEventListener("click", dismissOverlay);
  $("generate-form").addEventListener("submit", generate);
  $("clear").addEventListener("click", () => {
    if (state.mode === "play") change(() => {
      state.entries.fill(0);
      state.marks.forEach((marks) => marks.clear());
    });
    else change(() => {
      state.givens.fill(0);
      state.entries.fill(0);
      state.marks.forEach((marks) => marks.clear());
    }, { puzzle: true });
    say("Cleared; Undo brings it back.");
  });
  $("shape").addEventListener("change", () => {
    const shape = shapeOf($("shape").value);
    loadPuzzle(shape, new Uint8Array(shape.cells));
    say(`A new empty ${shape.size} grid; ${valuesHint()}. Undo brings the old grid back.`);
  });
  for (const radio of document.querySelectorAll("input[name=mode]")) {
    radio.addEventListener("change", () => setMode(radio.value));
  }
  $("variant").addEventListener("change", () => {
    setVariant($("variant").value);
    afterChange({ puzzle: true });
    const jigsaw = state.variantName === "jigsaw" ? ": edit the region map below the size, one letter a cell" : "";
    say(`Rules: ${$("variant").selectedOptions[0].textContent}${jigsaw}.`);
  });
  $("regions").addEventListener("input", () => {
    state.regionMap = $("regions").value; // kept as typed: a map being edited may not fit yet
    drawVariant();
    afterChange({ puzzle: true });
  });
  $("pencil").addEventListener("change", render);
  $("show-candidates").addEventListener("change", () => {
    state.candidates = null;
    askCandidates();
    render();
  });
  $("true-candidates").addEventListener("change", () => {
    state.trueCandidates = null;
    askTrueCandidates();
    render();
  });
  $("cage-form").addEventListener("submit", (event) => {
    event.preventDefault();
    saveCage();
    grid.focus();
  });
  $("cage-sum").addEventListener("input", () => {
    $("cage-sum").dataset.typed = "true";
  });
  $("delete-cage").addEventListener("click", () => deleteCages(grid.selectedCells()));
  $("import-form").addEventListener("submit", importLink);
  $("copy-fpuzzles").addEventListener("click", copyFpuzzles);
  $("copy-line").addEventListener("click", () => {
    if (isKiller() && state.cages.length) copy(killerLine(state.givens, state.cages, state.shape), "the Killer as one line");
    else copy(toLine(state.givens), "the puzzle as one line");
  });
  $("copy-link").addEventListener("click", () => copy(location.href, "a link to this puzzle"));
  $("print").addEventListener("click", () => window.print());
  $("load-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (await loadText($("load-text").value)) grid.focus();
  });
  $("photo").addEventListener("click", () => $("photo-file").click());
  $("photo-file").addEventListener("change", () => {
    const file = $("photo-file").files[0];
    $("photo-file").value = ""; // the same file chosen again is a new change
    readPhoto(file);
  });
  document.addEventListener("paste", (event) => {
    const text = event.clipboardData ? event.clipboardData.getData("text") : "";
    const image = text.trim() ? null : imageOf(event.clipboardData); // a spreadsheet's cells come with a picture too
    if (isTextField(event.target) && !image) return;
    event.preventDefault();
    if (image) readPhoto(image);
    else loadText(text);
  });
  // An image dropped anywhere on the page is read (the browser would otherwise open it in place of the page).
  document.addEventListener("dragover", (event) => {
    if (!event.dataTransfer || !event.dataTransfer.types.includes("Files")) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    $("grid").dataset.dropping = "";
  });
  document.addEventListener("dragleave", (event) => {
    if (event.relatedTarget === null) delete $("grid").dataset.dropping; // left the window
  });
  document.addEventListener("drop", (event) => {
    delete $("grid").dataset.dropping;
    const files = event.dataTransfer ? event.dataTransfer.files : [];
    if (!files.length) return;
    event.preventDefault();
    readPhoto(imageOf(event.dataTransfer) || files[0]); // not an image: the server says what it is not
  });
  document.addEventListener("keydown", (event) => {
    if (!(event.ctrlKey || event.metaKey) || isTextField(event.target)) return;
    const key = event.key.toLowerCase();
    if (key === "z" || key === "y") {
      event.preventDefault();
      undo(key === "y" || event.shiftKey);
    }
  });
}

function start() {
  wire();
  const params = new URLSearchParams(location.search);
  const shape = shapeOf(params.get("shape")) || (params.get("p") && shapeForCells(params.get("p").length));
  state.variantName = params.get("variant") || "classic";
  state.regionMap = params.get("regions") || "";
  setShape(shape || shapeOf("3x3"));
  if (isKiller()) {
    state.cages = cagesFromParam(params.get("cages"), state.shape);
    drawVariant();
  }
  setMode("edit");
  if (params.get("p")) {
    loadText(params.get("p"), shape ? shape.name : null, { record: false });
  } else {
    afterChange({ puzzle: true });
  }
}

start();
