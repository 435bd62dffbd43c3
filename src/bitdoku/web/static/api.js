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

/** Seconds a request waits in all for a feature the server is still compiling, before it gives up. */
const WARMING_UP_SECONDS = 180;

/** Who is told that the server is preparing a feature: `(message, path)`, set by the page (`onWarmingUp`). */
let warmingUpListener = null;

/** Be told, while a request waits for the server to compile its feature, what it prepares ("preparing hints, ..."). */
export function onWarmingUp(listener) {
  warmingUpListener = listener;
}

function pause(seconds, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, seconds * 1000);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new DOMException("aborted", "AbortError"));
    }, { once: true });
  });
}

/**
 * POST a JSON body to /api/<path>; resolves to the answer, rejects with an ApiError (or an AbortError). While the
 * server answers 503 "warming_up" (a feature still compiling after a cold start), it waits Retry-After and asks
 * again, telling the `onWarmingUp` listener what is being prepared.
 */
export function post(path, body, { signal } = {}) {
  return exchange(path, { "Content-Type": "application/json" }, JSON.stringify(body), signal);
}

/**
 * POST an image (a File or a Blob) to /api/<path> as the raw body, typed as the browser typed it: the server
 * reads the bytes themselves, so a file of unknown type goes as application/octet-stream. Answers as `post`.
 */
export function postImage(path, image, { signal } = {}) {
  return exchange(path, { "Content-Type": image.type || "application/octet-stream" }, image, signal);
}

async function exchange(path, headers, body, signal) {
  let waited = 0;
  for (;;) {
    const { response, answer } = await send(path, headers, body, signal);
    if (response.ok) return answer;
    const error = answer && answer.error ? answer.error : { kind: "server", message: `the server answered ${response.status}` };
    if (response.status === 503 && error.kind === "warming_up" && waited < WARMING_UP_SECONDS) {
      const seconds = Math.max(0.5, Number(response.headers.get("Retry-After")) || 2);
      if (warmingUpListener) warmingUpListener(error.message, path);
      await pause(seconds, signal);
      waited += seconds;
      continue;
    }
    throw new ApiError(response.status, error);
  }
}

async function send(path, headers, body, signal) {
  let response;
  try {
    response = await fetch(`/api/${path}`, { method: "POST", headers, body, signal });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, { kind: "network", message: "the server cannot be reached; is bitdoku serve running?" });
  }
  return { response, answer: await response.json().catch(() => null) };
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
