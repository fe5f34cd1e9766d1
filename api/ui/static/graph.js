// The candidates and the DKG assets they link, drawn with Cytoscape.js (installed by
// `make install`): nodes by type (new entities dashed), edges by typed predicate, width
// by confidence. Clicking a DKG node opens the asset view; any other node or an edge
// opens the candidate card that states it.

import { h, isUal, replaceChildren } from "./dom.js";
import { confidenceOf, nameOf, relationsOf, typeOf } from "./facts.js";

const TYPE_COLOURS = [
  [/organi[sz]ation|corporation|company/i, "#1f5fa8"],
  [/place|country|city|administrativearea/i, "#2e7d32"],
  [/product|material/i, "#8a4b08"],
  [/event|action|policy/i, "#7b1fa2"],
];

function colourOf(type) {
  const hit = TYPE_COLOURS.find(([pattern]) => pattern.test(type));
  return hit ? hit[1] : "#455a64";
}

export function graphElements(candidates) {
  const nodes = new Map();
  const edges = [];
  const addNode = (node, candidateId) => {
    const known = nodes.get(node.id);
    if (known) {
      known.data.candidateId = known.data.candidateId || candidateId;
      return;
    }
    const inDkg = isUal(node.id);
    nodes.set(node.id, { data: {
      id: node.id, label: inDkg ? node.name : `${node.name} (new)`, type: node.type,
      colour: colourOf(node.type), border: inDkg ? "solid" : "dashed", candidateId,
      ual: inDkg ? node.id : "",
    } });
  };
  for (const candidate of candidates) {
    const asset = candidate.asset || {};
    if (candidate.kind === "entity") {
      const id = String(asset["@id"] || `name:${asset.name}`);
      addNode({ id, name: nameOf(candidate), type: typeOf(asset) }, candidate.id);
      continue;
    }
    const confidence = confidenceOf(candidate) ?? 0;
    relationsOf(asset).forEach((rel, index) => {
      addNode(rel.subject, "");
      addNode(rel.object, "");
      edges.push({ data: {
        id: `${candidate.id}#${index}`, source: rel.subject.id, target: rel.object.id,
        label: rel.predicate, weight: 1 + 5 * confidence, candidateId: candidate.id,
        status: candidate.status,
      } });
    });
  }
  return { nodes: [...nodes.values()], edges };
}

const STYLE = [
  { selector: "node", style: {
    label: "data(label)", "background-color": "data(colour)", "border-width": 2,
    "border-color": "#102a43", "border-style": "data(border)", color: "#102a43",
    "font-size": 11, "text-wrap": "wrap", "text-max-width": 120, "text-valign": "bottom",
    "text-margin-y": 4, width: 22, height: 22 } },
  { selector: "edge", style: {
    label: "data(label)", width: "data(weight)", "curve-style": "bezier",
    "target-arrow-shape": "triangle", "line-color": "#7a8ca3", "target-arrow-color": "#7a8ca3",
    "font-size": 10, color: "#243b53", "text-rotation": "autorotate",
    "text-background-color": "#ffffff", "text-background-opacity": 0.85 } },
  { selector: "edge[status = 'approved'], edge[status = 'published']", style: {
    "line-color": "#2e7d32", "target-arrow-color": "#2e7d32" } },
  { selector: "edge[status = 'rejected']", style: {
    "line-style": "dashed", "line-color": "#b0b8c4", "target-arrow-color": "#b0b8c4" } },
];

export class GraphView {
  constructor(container, { onAsset, onCandidate }) {
    this.container = container;
    this.onAsset = onAsset;
    this.onCandidate = onCandidate;
    this.cy = null;
    this.key = "";
  }

  render(candidates) {
    const elements = graphElements(candidates);
    const key = JSON.stringify(elements);
    if (key === this.key && this.cy) return;
    this.key = key;
    const summary = `${elements.nodes.length} nodes and ${elements.edges.length} relations; ` +
      "the same facts are listed as cards.";
    this.container.setAttribute("aria-label", `Graph of the candidates: ${summary}`);
    if (typeof window.cytoscape !== "function") {
      replaceChildren(this.container, h("p", { className: "error" },
        "The graph library (Cytoscape.js) is not installed: run `make install`."));
      return;
    }
    if (!elements.nodes.length) {
      if (this.cy) this.cy.destroy();
      this.cy = null;
      replaceChildren(this.container, h("p", { className: "muted" }, "No candidates yet."));
      return;
    }
    if (this.cy) this.cy.destroy();
    replaceChildren(this.container);
    this.cy = window.cytoscape({
      container: this.container,
      elements: [...elements.nodes, ...elements.edges],
      style: STYLE,
      layout: { name: "cose", animate: false, randomize: false, nodeRepulsion: 9000 },
    });
    this.cy.on("tap", "node", (event) => {
      const data = event.target.data();
      if (data.ual) this.onAsset(data.ual);
      else if (data.candidateId) this.onCandidate(data.candidateId);
    });
    this.cy.on("tap", "edge", (event) => this.onCandidate(event.target.data("candidateId")));
  }

  resize() {
    if (this.cy) {
      this.cy.resize();
      this.cy.fit(undefined, 20);
    }
  }
}
