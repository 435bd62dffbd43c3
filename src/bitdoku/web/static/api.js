// Requests to /api: JSON in, JSON out, and the server's errors as ApiError values the page can show.

/** An answer that is an error: the server's body ({kind, message, cell, cells, ...}) and the HTTP status. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body.message);
    this.status = status;
    this.kind = body.kind;
    this.cell = body.cell ?? null;
    this.cells = body.cells || (body.cell != null ? [body.cell] : []);
    this.cellName = body.name ?? null; // "r4c7", also when the server could not number the cell
  }
}

/** POST a JSON body to /api/<path>; resolves to the answer, rejects with an ApiError (or an AbortError). */
export async function post(path, body, { signal } = {}) {
  let response;
  try {
    response = await fetch(`/api/${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, { kind: "network", message: "the server cannot be reached; is bitdoku serve running?" });
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok) {
    const body = answer && answer.error ? answer.error : { kind: "server", message: `the server answered ${response.status}` };
    throw new ApiError(response.status, body);
  }
  return answer;
}

/**
 * A question asked again after every change, answered only for the latest one: each ask waits `delay` ms
 * for quiet, then aborts the request still in flight, and an answer that arrives for an older ask is dropped.
 */
export class LiveQuery {
  constructor(path, delay, onAnswer, onError) {
    this.path = path;
    this.delay = delay;
    this.onAnswer = onAnswer;
    this.onError = onError;
    this.sequence = 0;
    this.timer = null;
    this.controller = null;
  }

  /** Ask about `body` once the typing pauses. */
  ask(body) {
    const ticket = ++this.sequence;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.send(body, ticket), this.delay);
  }

  /** Forget any pending question (its answer will not be shown). */
  cancel() {
    this.sequence++;
    clearTimeout(this.timer);
    if (this.controller) this.controller.abort();
  }

  async send(body, ticket) {
    if (this.controller) this.controller.abort();
    const controller = new AbortController();
    this.controller = controller;
    try {
      const answer = await post(this.path, body, { signal: controller.signal });
      if (ticket === this.sequence) this.onAnswer(answer);
    } catch (error) {
      if (error.name !== "AbortError" && ticket === this.sequence) this.onError(error);
    }
  }
}
