// Calls to the REST API with the bearer token; every failure becomes an ApiError in words.

import { token } from "./auth.js";

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function problemText(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  const detail = body && body.detail;
  let text = "";
  if (typeof detail === "string") text = detail;
  else if (Array.isArray(detail)) text = detail.map((d) => d.msg || JSON.stringify(d)).join("; ");
  else if (detail && typeof detail === "object") {
    text = Object.entries(detail).map(([k, v]) => `${k}: ${v}`).join("; ");
  }
  const title = (body && body.title) || response.statusText || "error";
  const hint = response.status === 401 ? " — sign in again with a fresh token" : "";
  return `${response.status} ${title}${text ? `: ${text}` : ""}${hint}`;
}

export function authHeaders(extra = {}) {
  return { Authorization: `Bearer ${token()}`, ...extra };
}

export async function api(path, { method = "GET", body, signal } = {}) {
  const headers = authHeaders({ Accept: "application/json" });
  const init = { method, headers, signal };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    if (err.name === "AbortError") throw err;
    throw new ApiError(0, `the API did not answer (${err.message}); is kminer up still running?`);
  }
  if (!response.ok) throw new ApiError(response.status, await problemText(response));
  if (response.status === 204) return null;
  return response.json();
}

export { problemText };

export function assetPath(ual) {
  return `/api/dkg/assets/${ual.split("/").map(encodeURIComponent).join("/")}`;
}
