// Undo and redo: a stack of snapshots of what the user made (shape, givens, entries, pencil marks).

export class History {
  constructor(limit = 500) {
    this.limit = limit;
    this.past = [];
    this.future = [];
  }

  /** Remember `snapshot` as the state before a change; a new change forgets what was undone. */
  record(snapshot) {
    this.past.push(snapshot);
    if (this.past.length > this.limit) this.past.shift();
    this.future = [];
  }

  /** The snapshot to go back to from `current`, or null. */
  undo(current) {
    if (!this.past.length) return null;
    this.future.push(current);
    return this.past.pop();
  }

  /** The snapshot to go forward to from `current`, or null. */
  redo(current) {
    if (!this.future.length) return null;
    this.past.push(current);
    return this.future.pop();
  }

  get canUndo() {
    return this.past.length > 0;
  }

  get canRedo() {
    return this.future.length > 0;
  }
}
