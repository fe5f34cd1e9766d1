// The bearer token: handed over in the URL fragment (#token=…) by `kminer up`, kept in
// sessionStorage for this tab only, and stripped from the address bar at once.

const KEY = "kminer.token";

export function takeTokenFromUrl() {
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  const token = params.get("token");
  if (token) {
    sessionStorage.setItem(KEY, token.trim());
    params.delete("token");
    const rest = params.toString();
    const url = window.location.pathname + window.location.search + (rest ? `#${rest}` : "");
    history.replaceState(null, "", url);
  }
}

export function token() {
  return sessionStorage.getItem(KEY) || "";
}

export function setToken(value) {
  sessionStorage.setItem(KEY, value.trim());
}

export function signOut() {
  sessionStorage.removeItem(KEY);
}

// What the token says about its holder (display only: the API checks every call).
export function claims() {
  const raw = token();
  const parts = raw.split(".");
  if (parts.length !== 3) return null;
  try {
    const json = atob(parts[1].replace(/-/g, "+").replace(/_/g, "/"));
    const body = JSON.parse(json);
    return { sub: String(body.sub || ""), role: String(body.role || ""), exp: Number(body.exp) };
  } catch {
    return null;
  }
}

const ORDER = ["miner", "reviewer", "admin"];

export function atLeast(role) {
  const who = claims();
  return Boolean(who) && ORDER.indexOf(who.role) >= ORDER.indexOf(role);
}
