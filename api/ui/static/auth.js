// The bearer token: handed over in the URL fragment (#token=…) by `kminer up`, or pasted
// on the sign-in form. It is checked against the API (GET /api/me) before the app opens,
// kept in sessionStorage for this tab only, and stripped from the address bar at once.

const KEY = "kminer.token";
let who = null; // { sub, role } as the API answered for the stored token

// The token a `#token=` fragment carries (now removed from the address bar), or "".
export function takeTokenFromUrl() {
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  const found = (params.get("token") || "").trim();
  if (params.has("token")) {
    params.delete("token");
    const rest = params.toString();
    const url = window.location.pathname + window.location.search + (rest ? `#${rest}` : "");
    history.replaceState(null, "", url);
  }
  return found;
}

export function token() {
  return sessionStorage.getItem(KEY) || "";
}

export function signOut() {
  sessionStorage.removeItem(KEY);
  who = null;
}

async function refusal(response) {
  let detail = "";
  try {
    const body = await response.json();
    detail = typeof body.detail === "string" ? body.detail : "";
  } catch {
    detail = "";
  }
  if (response.status === 401) {
    const why = detail || "not a token of this server";
    return `The API refused this token (${why}). Get a fresh one with kminer token, ` +
      "or open the link kminer up prints.";
  }
  return `The API could not check the token: ${response.status} ${detail || response.statusText}`;
}

// Asks the API who `value` stands for; keeps it only if the API accepts it.
// Answers "" when signed in, else the reason in words.
export async function signIn(value) {
  const candidate = value.trim();
  if (!candidate) return "Paste a token first.";
  let response;
  try {
    response = await fetch("/api/me", {
      headers: { Authorization: `Bearer ${candidate}`, Accept: "application/json" } });
  } catch (err) {
    return `The API did not answer (${err.message}); is kminer up still running?`;
  }
  if (!response.ok) return refusal(response);
  const body = await response.json();
  sessionStorage.setItem(KEY, candidate);
  who = { sub: String(body.sub), role: String(body.role) };
  return "";
}

export function claims() {
  return who;
}

const ORDER = ["miner", "reviewer", "admin"];

export function atLeast(role) {
  return Boolean(who) && ORDER.indexOf(who.role) >= ORDER.indexOf(role);
}
