// Undo and redo over whole documents: every change pushes a new document; the page
// never edits one in place. Documents are small (a scenario), so snapshots are cheap.

export class History {
  constructor(doc, limit = 200) {
    this.past = [];
    this.future = [];
    this.present = structuredClone(doc);
    this.limit = limit;
  }

  /** Record a change: `doc` becomes the present; redo is forgotten. */
  push(doc) {
    const next = structuredClone(doc);
    if (JSON.stringify(next) === JSON.stringify(this.present)) return false;
    this.past.push(this.present);
    if (this.past.length > this.limit) this.past.shift();
    this.present = next;
    this.future = [];
    return true;
  }

  get canUndo() { return this.past.length > 0; }
  get canRedo() { return this.future.length > 0; }

  undo() {
    if (!this.canUndo) return false;
    this.future.push(this.present);
    this.present = this.past.pop();
    return true;
  }

  redo() {
    if (!this.canRedo) return false;
    this.past.push(this.present);
    this.present = this.future.pop();
    return true;
  }
}
