// Reading a candidate's JSON-LD: its type, name, typed relation, evidence and confidence.
// Generic over schema.org shapes: a claim's `about` node carries the relation to its object.

const PLAIN_KEYS = new Set(["name", "identifier", "description", "url", "alternateName", "text"]);

export function typeOf(asset) {
  const kind = asset && asset["@type"];
  return Array.isArray(kind) ? kind.join(", ") : String(kind || "Thing");
}

export function nameOf(candidate) {
  const asset = candidate.asset || {};
  return String(asset.name || asset["@id"] || candidate.id);
}

function localName(key) {
  const cut = Math.max(key.lastIndexOf(":"), key.lastIndexOf("/"), key.lastIndexOf("#"));
  return cut >= 0 ? key.slice(cut + 1) : key;
}

function declaredPredicate(asset) {
  const props = [].concat(asset.additionalProperty || []);
  const found = props.find((p) => p && p.name === "predicate");
  return found ? String(found.value || found.propertyID || "") : "";
}

function nodeOf(value) {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  if (!value.name && !value["@id"]) return null;
  return { id: String(value["@id"] || `name:${value.name}`), name: String(value.name || value["@id"]),
           type: typeOf(value) };
}

// Every (subject, predicate, object) the asset's `about` node states.
export function relationsOf(asset) {
  const about = asset && asset.about;
  const subject = nodeOf(about);
  if (!subject) return [];
  const declared = declaredPredicate(asset);
  const out = [];
  for (const [key, value] of Object.entries(about)) {
    if (key.startsWith("@") || PLAIN_KEYS.has(key)) continue;
    for (const item of [].concat(value)) {
      const object = nodeOf(item);
      if (!object) continue;
      const own = localName(key);
      const predicate = declared && own !== declared ? `${declared} (${own})` : own;
      out.push({ subject, predicate, object });
    }
  }
  return out;
}

export function confidenceOf(candidate) {
  const signals = (candidate.asset || {}).trustSignals || {};
  return typeof signals.confidence === "number" ? signals.confidence : null;
}

export function evidenceOf(candidate) {
  const provenance = (candidate.asset || {}).provenance || {};
  const items = Array.isArray(provenance.evidence) ? provenance.evidence : [];
  if (items.length) return items;
  return (provenance.sources || []).map((source) => ({ source }));
}

export function linkedAssetsOf(candidate) {
  const linked = (candidate.asset || {}).linkedAssets;
  return Array.isArray(linked) ? linked.filter((u) => typeof u === "string") : [];
}

export function hostOf(url) {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}
