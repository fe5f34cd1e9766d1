// What the editor checks before an edited asset is sent (the API checks again: its 422
// detail is shown too): valid JSON, one object, an @context, a non-empty @type.

const MAX_DEPTH = 32;

function depth(value) {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depth));
  if (value && typeof value === "object") return 1 + Math.max(0, ...Object.values(value).map(depth));
  return 0;
}

function contextProblem(context) {
  const ok = (c) => typeof c === "string" || (c && typeof c === "object" && !Array.isArray(c));
  if (Array.isArray(context) ? context.length && context.every(ok) : ok(context)) return "";
  return "@context must be a string, an object or a list of those (e.g. \"https://schema.org/\")";
}

export function jsonldProblems(text) {
  let asset;
  try {
    asset = JSON.parse(text);
  } catch (err) {
    return [`Not valid JSON: ${err.message}`];
  }
  if (!asset || typeof asset !== "object" || Array.isArray(asset)) {
    return ["The asset must be one JSON object ({ … })"];
  }
  const problems = [];
  if (!("@context" in asset)) problems.push("Missing @context (e.g. \"https://schema.org/\")");
  else {
    const problem = contextProblem(asset["@context"]);
    if (problem) problems.push(problem);
  }
  const kinds = [].concat(asset["@type"] ?? []);
  if (!kinds.length || !kinds.every((k) => typeof k === "string" && k.trim())) {
    problems.push("Missing @type: give a non-empty type such as \"Claim\" or \"Organization\"");
  }
  const levels = depth(asset);
  if (levels > MAX_DEPTH) problems.push(`The asset nests ${levels} levels: at most ${MAX_DEPTH}`);
  return problems;
}
