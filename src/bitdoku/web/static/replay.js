// Replaying an explanation: the grid and its candidates before step k, from the server's start state.
// Bookkeeping only: each step already says what it places and removes.

import { fromLine } from "./model.js";

/** A replay state: values (Uint8Array) and the candidates of each cell (an array of Sets). */
export function startState(explanation, shape) {
  return {
    values: fromLine(explanation.start.values, shape),
    candidates: explanation.start.candidates.map((digits) => new Set(digits)),
  };
}

/** Apply one step to a state: a placement fills its cell and removes its digit from the peers' candidates. */
export function applyStep(state, step, shape) {
  for (const { cell, digit } of step.placements) {
    state.values[cell] = digit;
    state.candidates[cell].clear();
    for (const peer of shape.peers[cell]) state.candidates[peer].delete(digit);
  }
  for (const { cell, digit } of step.eliminations) state.candidates[cell].delete(digit);
  return state;
}

/** The state before step `index` (0-based): the start with every earlier step applied. */
export function stateBefore(explanation, index, shape) {
  const state = startState(explanation, shape);
  for (const step of explanation.steps.slice(0, index)) applyStep(state, step, shape);
  return state;
}
