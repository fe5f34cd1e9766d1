// One candidate as a readable card: type, name, typed relation, confidence with its
// reasons, evidence with sources, linked UALs, contradictions, review status and actions.

import { h, isUal, isWebUrl } from "./dom.js";
import { exportButtons, fileStem } from "./export.js";
import {
  confidenceOf, evidenceOf, hostOf, linkedAssetsOf, nameOf, relationsOf, typeOf,
} from "./facts.js";

export function cardId(candidateId) {
  return `card-${candidateId.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

export function ualButton(ual, onAsset, label) {
  return h("button", { type: "button", className: "link ual", onClick: () => onAsset(ual),
                       title: `Open ${ual} in the asset view` }, label || ual);
}

export function sourceLink(source, onAsset, label) {
  if (isUal(source)) return ualButton(source, onAsset, label);
  if (isWebUrl(source)) {
    return h("a", { href: source, target: "_blank", rel: "noopener noreferrer" },
             label || hostOf(source));
  }
  return h("span", { className: "source" }, label || source);
}

function confidenceBlock(candidate, id) {
  const value = confidenceOf(candidate);
  const reasons = candidate.reasoning || [];
  const label = value === null ? "Confidence unknown" : `Confidence ${value.toFixed(2)}`;
  return h("div", { className: "confidence" },
    h("label", { for: `${id}-meter` }, label),
    h("meter", { id: `${id}-meter`, min: 0, max: 1, low: 0.5, high: 0.7, optimum: 1,
                 value: value ?? 0 }, label),
    reasons.length
      ? h("details", { className: "reasons" },
          h("summary", {}, `Why: ${reasons.length} reason${reasons.length === 1 ? "" : "s"}`),
          h("ul", {}, reasons.map((r) => h("li", {}, r))))
      : null);
}

function relationBlock(candidate) {
  const relations = relationsOf(candidate.asset || {});
  if (!relations.length) return null;
  return h("ul", { className: "relations", "aria-label": "Typed relations" },
    relations.map((r) => h("li", {},
      h("span", { className: "node" }, r.subject.name),
      h("span", { className: "predicate" }, ` —${r.predicate}→ `),
      h("span", { className: "node" }, r.object.name))));
}

function evidenceBlock(candidate, onAsset) {
  const items = evidenceOf(candidate);
  if (!items.length) return null;
  return h("section", { className: "evidence" },
    h("h5", {}, `Evidence (${items.length})`),
    h("ul", {}, items.map((item) => h("li", {},
      item.snippet ? h("blockquote", {}, item.snippet) : null,
      h("span", { className: "cite" }, "— ",
        sourceLink(String(item.source || ""), onAsset, item.title || undefined),
        item.published ? ` (${item.published})` : "")))));
}

function ualList(title, uals, onAsset) {
  if (!uals.length) return null;
  return h("div", { className: "uals" }, h("span", { className: "muted" }, `${title}: `),
    uals.map((u) => ualButton(u, onAsset)));
}

function contradictionBlock(candidate, onAsset) {
  const records = candidate.contradictions || [];
  if (!records.length) return null;
  return h("section", { className: "contradictions" },
    h("h5", {}, `Contradictions (${records.length})`),
    h("ul", {}, records.map((rec) => h("li", {},
      h("span", { className: `status status-${rec.status}` }, rec.status), " ",
      `${rec.subject.name} —${rec.predicate}→ ${rec.object.name} is contradicted by `,
      (rec.contradiction_with || []).map((c) => h("span", { className: "against" },
        sourceLink(c.kg_fact_id, onAsset), ` (confidence ${Number(c.confidence).toFixed(2)})`,
        (c.evidence || []).filter((e) => e.snippet).map((e) => h("q", {}, e.snippet)))),
      rec.resolution_notes ? h("p", { className: "muted" }, rec.resolution_notes) : null))));
}

function actions(candidate, hooks) {
  if (candidate.status !== "pending" || !hooks.canReview) return null;
  const name = nameOf(candidate);
  const act = (action) => () => hooks.onDecide(candidate, action);
  const off = hooks.offline ? { disabled: true, title: "Offline: review waits for the connection" } : {};
  return h("div", { className: "actions", role: "group", "aria-label": `Review ${name}` },
    h("button", { type: "button", className: "approve", dataset: { action: "approve" },
                  onClick: act("approve"), ...off }, "Approve"),
    h("button", { type: "button", dataset: { action: "edit" }, onClick: act("edit"), ...off },
      "Edit"),
    h("button", { type: "button", className: "reject", dataset: { action: "reject" },
                  onClick: act("reject"), ...off }, "Reject"));
}

export function renderCard(candidate, hooks) {
  const id = cardId(candidate.id);
  const name = nameOf(candidate);
  const pending = candidate.status === "pending";
  const select = pending && hooks.canReview
    ? h("input", { type: "checkbox", className: "select", "aria-label": `Select ${name}`,
                   checked: hooks.selected, onChange: (e) => hooks.onSelect(candidate.id,
                                                                             e.target.checked) })
    : null;
  const published = candidate.publishedUal
    ? h("p", { className: "published" }, "Published as ",
        ualButton(candidate.publishedUal, hooks.onAsset))
    : null;
  return h("article", { className: `card card-${candidate.status}`, id, tabindex: "-1",
                        "aria-labelledby": `${id}-title`, dataset: { candidateId: candidate.id } },
    h("header", {},
      select,
      h("span", { className: "type" }, `${candidate.kind === "entity" ? "New entity · " : ""}${
        typeOf(candidate.asset)}`),
      h("h4", { id: `${id}-title` }, name),
      h("span", { className: `status status-${candidate.status}` }, candidate.status),
      h("span", { className: candidate.accepted ? "badge ok" : "badge no" },
        candidate.accepted ? "validation accepted" : "validation rejected"),
      candidate.edited ? h("span", { className: "badge" }, "edited") : null),
    relationBlock(candidate),
    confidenceBlock(candidate, id),
    evidenceBlock(candidate, hooks.onAsset),
    ualList("Links", linkedAssetsOf(candidate), hooks.onAsset),
    ualList("Already in the DKG", candidate.knownInDkg || [], hooks.onAsset),
    contradictionBlock(candidate, hooks.onAsset),
    // On a candidate still pending, the note is why an edit was not applied or accepted.
    candidate.reviewNote
      ? h("p", { className: pending ? "note error" : "note" }, candidate.reviewNote) : null,
    published,
    exportButtons("JSON-LD", name, `${fileStem(candidate.id)}.jsonld`,
                  "application/ld+json", () => `${JSON.stringify(candidate.asset, null, 2)}\n`),
    actions(candidate, hooks),
    h("p", { className: `outcome${hooks.outcomeIsError ? " error" : ""}`, role: "status" },
      hooks.outcome || ""));
}
