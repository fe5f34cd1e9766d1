// The answer of a run: its sentences with citations by name (the UAL one click away in
// the asset view), and one sentence saying what this run has published so far. The
// answer is written before review, so its own words about publishing are left out here.

import { sourceLink, ualButton } from "./cards.js";
import { h, isUal, isWebUrl, replaceChildren } from "./dom.js";
import { exportButtons, fileStem } from "./export.js";
import { nameOf, relationsOf } from "./facts.js";

const TERMINAL = new Set(["COMPLETED", "FAILED", "CANCELED"]);
const BEFORE_REVIEW = [
  /\s*\(not published unless a reviewer approves (?:them|it)\)/g,
  /[;,]\s*nothing is published unless a reviewer approves it(?=\.)/g,
];

export function withoutPublishingClaims(text) {
  return BEFORE_REVIEW.reduce((out, pattern) => out.replace(pattern, ""), text || "");
}

// What the run has published, in one sentence, from its workspace as it is now.
export function publicationSentence(ws) {
  const published = (ws.publishedAssets || []).length;
  const waiting = (ws.candidates || []).filter(
    (c) => c.status === "pending" || c.status === "revalidating").length;
  if (published) {
    const more = waiting ? `; ${waiting} candidate(s) still wait for a reviewer` : "";
    return `${published} asset(s) of this answer are published to the DKG${more}.`;
  }
  if (waiting) return `Nothing is published yet: ${waiting} candidate(s) wait for a reviewer.`;
  if (TERMINAL.has(ws.phase)) return "Nothing from this run was published.";
  return "Nothing is published before validation and review.";
}

// Names of the DKG assets the candidates mention, by UAL.
export function assetNames(candidates) {
  const names = new Map();
  for (const candidate of candidates) {
    const asset = candidate.asset || {};
    if (isUal(String(asset["@id"] || ""))) names.set(asset["@id"], nameOf(candidate));
    for (const rel of relationsOf(asset)) {
      for (const node of [rel.subject, rel.object]) if (isUal(node.id)) names.set(node.id, node.name);
    }
  }
  return names;
}

// A cited candidate by the entities it is about: "Subject → Object" for a relation.
export function citedName(candidate) {
  const [relation] = relationsOf(candidate.asset || {});
  return relation ? `${relation.subject.name} → ${relation.object.name}` : nameOf(candidate);
}

function citation(source, names, onAsset) {
  if (!isUal(source)) return sourceLink(source, onAsset, isWebUrl(source) ? undefined : source);
  const name = names.get(source) || `DKG asset ${source.split("/").pop()}`;
  const chip = ualButton(source, onAsset, name);
  chip.classList.add("cite-chip");
  chip.setAttribute("aria-label", `${name}: open ${source} in the asset view`);
  return chip;
}

const CITE_MARK = /\s*\[[^[\]]*\](\.?)\s*$/; // "[c1, c2]." the answer's text ends with

// The answer as Markdown: the question, each sentence with what it cites (a candidate by
// its entities, a DKG asset by its name and UAL, a web source by its address), and what
// the run has published.
export function answerMarkdown(ws, question) {
  const candidates = ws.candidates || [];
  const byId = new Map(candidates.map((c) => [c.id, c]));
  const names = assetNames(candidates);
  const sentences = ws.answer?.sentences || [];
  const lines = [`# ${question || "Answer"}`, ""];
  if (!sentences.length) lines.push(withoutPublishingClaims(ws.answer?.text) || "No answer.");
  for (const s of sentences) {
    const cited = (s.candidateIds || []).map((id) => (byId.has(id) ? citedName(byId.get(id)) : id));
    const sources = (s.sources || []).map((src) => {
      const link = src.includes(":") ? `<${src}>` : src;
      return names.has(src) ? `${names.get(src)} ${link}` : link;
    });
    const cites = [...cited, ...sources];
    lines.push(`- ${s.text.replace(CITE_MARK, "$1")}${cites.length ? ` (${cites.join("; ")})` : ""}`);
  }
  lines.push("", publicationSentence(ws), "");
  return lines.join("\n");
}

export function renderAnswer(box, ws, { onAsset, onCandidate, question }) {
  const answer = ws.answer;
  if (!answer) {
    replaceChildren(box);
    return;
  }
  const candidates = ws.candidates || [];
  const byId = new Map(candidates.map((c) => [c.id, c]));
  const names = assetNames(candidates);
  const sentences = (answer.sentences || []).map((s) => h("li", {},
    s.text.replace(CITE_MARK, "$1"), " ",
    h("span", { className: "citations" },
      (s.candidateIds || []).map((id) => {
        const name = byId.has(id) ? citedName(byId.get(id)) : id;
        return h("button", { type: "button", className: "cite-chip",
          "aria-label": `Show the candidate “${name}”`, onClick: () => onCandidate(id) }, name);
      }),
      (s.sources || []).map((src) => citation(src, names, onAsset))),
    s.alreadyInDkg ? h("span", { className: "badge" }, "already in the DKG") : null));
  replaceChildren(box, h("h3", {}, "Answer"),
    sentences.length ? h("ul", { className: "sentences" }, sentences)
                     : h("p", {}, withoutPublishingClaims(answer.text) || "No answer."),
    h("p", { className: "publication" }, publicationSentence(ws)),
    exportButtons("answer", "", `answer-${fileStem(ws.runId)}.md`, "text/markdown",
                  () => answerMarkdown(ws, question?.())));
}
