// A run's AG-UI events over Server-Sent Events, read with fetch so the bearer token goes
// in the Authorization header (EventSource cannot send one). Reconnects with
// Last-Event-ID while the run has not ended; the server then sends the state as of that
// event (a snapshot without an id) and the events after it. A dropped connection is
// retried at once, then with a growing wait (1 s, 2 s, 4 s … at most 15 s); each try
// is announced through onConnection ("live", "reconnecting", "offline"), and after
// MAX_TRIES failed tries, or while the browser is offline, it waits for retry().

import { authHeaders, problemText } from "./api.js";

const TERMINAL = new Set(["RUN_FINISHED", "RUN_ERROR"]);
// A RUN_FINISHED with an interrupt outcome (the run waits for review) is not the end:
// the reviewers' decisions resume it with a new RUN_STARTED on the same stream.
const ends = (event) =>
  TERMINAL.has(event.type) && !(event.outcome && event.outcome.type === "interrupt");
const FIRST_WAIT_MS = 1000;
const LONGEST_WAIT_MS = 15000;
const MAX_TRIES = 8;

export function backoffMs(failures) {
  return Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.max(0, failures - 1));
}

function parseBlock(block) {
  let id = null;
  const data = [];
  for (const line of block.split("\n")) {
    if (!line || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") id = value;
    else if (field === "data") data.push(value);
  }
  return { id, data: data.join("\n") };
}

export function followRun(runId, { onEvent, onError, onEnd, onConnection = () => {} }) {
  const controller = new AbortController();
  let attempt = null; // aborts the current try alone (offline, retry)
  let lastId = null;
  let ended = false;
  let failures = 0;
  let wake = null; // ends the current wait early

  async function readOnce() {
    attempt = new AbortController();
    const stopAttempt = () => attempt.abort();
    controller.signal.addEventListener("abort", stopAttempt);
    try {
      const headers = authHeaders({ Accept: "text/event-stream" });
      if (lastId) headers["Last-Event-ID"] = lastId;
      const response = await fetch(`/api/runs/${encodeURIComponent(runId)}/events`, {
        headers,
        signal: attempt.signal,
      });
      if (!response.ok) {
        const error = new Error(await problemText(response));
        error.fatal = response.status < 500;
        throw error;
      }
      failures = 0;
      onConnection("live", {});
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value.replace(/\r\n?/g, "\n");
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const { id, data } = parseBlock(block);
          if (!data) continue;
          if (id) lastId = id;
          const event = JSON.parse(data);
          onEvent(event);
          if (ends(event)) ended = true;
        }
      }
    } finally {
      controller.signal.removeEventListener("abort", stopAttempt);
    }
  }

  function wait(ms) {
    return new Promise((resolve) => {
      const timer = ms === null ? null : setTimeout(resolve, ms);
      wake = () => {
        if (timer !== null) clearTimeout(timer);
        resolve();
      };
    }).finally(() => { wake = null; });
  }

  const goneOffline = () => {
    if (attempt) attempt.abort();
    if (wake) wake();
  };
  const backOnline = () => retry();
  window.addEventListener("offline", goneOffline);
  window.addEventListener("online", backOnline);

  function retry() {
    failures = 0;
    if (wake) wake();
  }

  (async () => {
    while (!ended && !controller.signal.aborted) {
      try {
        await readOnce();
      } catch (err) {
        if (controller.signal.aborted) break;
        if (err.fatal) {
          onError(err.message);
          break;
        }
      }
      if (ended || controller.signal.aborted) break;
      failures += 1;
      if (!navigator.onLine) {
        onConnection("offline", { reason: "this browser is offline" });
        await wait(null);
      } else if (failures > MAX_TRIES) {
        onConnection("offline", { reason: `${MAX_TRIES} tries failed` });
        await wait(null);
      } else {
        const inMs = failures === 1 ? 0 : backoffMs(failures - 1);
        onConnection("reconnecting", { attempt: failures, inMs });
        await wait(inMs);
      }
    }
    window.removeEventListener("offline", goneOffline);
    window.removeEventListener("online", backOnline);
    if (ended && onEnd) onEnd();
  })();

  return {
    stop: () => {
      controller.abort();
      if (wake) wake();
    },
    retry,
  };
}
