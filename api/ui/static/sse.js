// A run's AG-UI events over Server-Sent Events, read with fetch so the bearer token goes
// in the Authorization header (EventSource cannot send one). Reconnects with
// Last-Event-ID while the run has not ended; the server then sends the state as of that
// event (a snapshot without an id) and the events after it.

import { authHeaders, problemText } from "./api.js";

const TERMINAL = new Set(["RUN_FINISHED", "RUN_ERROR"]);
// A RUN_FINISHED with an interrupt outcome (the run waits for review) is not the end:
// the reviewers' decisions resume it with a new RUN_STARTED on the same stream.
const ends = (event) =>
  TERMINAL.has(event.type) && !(event.outcome && event.outcome.type === "interrupt");
const RETRY_MS = 1500;
const MAX_RETRIES = 20;

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

export function followRun(runId, { onEvent, onError, onEnd }) {
  const controller = new AbortController();
  let lastId = null;
  let ended = false;
  let retries = 0;

  async function readOnce() {
    const headers = authHeaders({ Accept: "text/event-stream" });
    if (lastId) headers["Last-Event-ID"] = lastId;
    const response = await fetch(`/api/runs/${encodeURIComponent(runId)}/events`, {
      headers,
      signal: controller.signal,
    });
    if (!response.ok) {
      const error = new Error(await problemText(response));
      error.fatal = response.status < 500;
      throw error;
    }
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
        retries = 0;
        const event = JSON.parse(data);
        onEvent(event);
        if (ends(event)) ended = true;
      }
    }
  }

  (async () => {
    while (!ended && !controller.signal.aborted) {
      try {
        await readOnce();
      } catch (err) {
        if (controller.signal.aborted) return;
        if (err.fatal || retries >= MAX_RETRIES) {
          onError(err.message);
          return;
        }
      }
      if (ended || controller.signal.aborted) break;
      retries += 1;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
    if (ended && onEnd) onEnd();
  })();

  return () => controller.abort();
}
