// The candidates and the DKG assets they link, drawn with Cytoscape.js (installed by
// `make install`): nodes by type (new entities dashed), edges by typed predicate, width
// by confidence. Clicking a DKG node opens the asset view; any other node or an edge
// opens the candidate card that states it. Beside the drawing: a legend, zoom and fit
// buttons, and every node as a button, so the graph is usable with the keyboard alone.

import { h, isUal, replaceChildren } from "./dom.js";
import { confidenceOf, nameOf, relationsOf, typeOf } from "./facts.js";

const TYPE_COLOURS = [
  [/organi[sz]ation|corporation|company/i, "#1f5fa8", "Organization"],
  [/place|country|city|administrativearea/i, "#2e7d32", "Place"],
  [/product|material/i, "#8a4b08", "Product or material"],
  [/event|action|policy/i, "#7b1fa2", "Event or policy"],
];
const OTHER_COLOUR = "#455a64";

function colourOf(type) {
  const hit = TYPE_COLOURS.find(([pattern]) => pattern.test(type));
  return hit ? hit[1] : OTHER_COLOUR;
}

function legend() {
  const swatch = (colour, dashed) => h("span", { className: `swatch${dashed ? " dashed" : ""}`,
    style: `background:${colour}`, "aria-hidden": "true" });
  return h("ul", { className: "legend", "aria-label": "Legend" },
    TYPE_COLOURS.map(([, colour, name]) => h("li", {}, swatch(colour), name)),
    h("li", {}, swatch(OTHER_COLOUR), "Other"),
    h("li", {}, swatch("#fff", true), "New entity (dashed border)"),
    h("li", {}, h("span", { className: "line", "aria-hidden": "true" }),
      "Relation: wider = more confident, green = approved"));
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
    "font-size": 12, "text-wrap": "wrap", "text-max-width": 150, "text-valign": "bottom",
    "text-margin-y": 4, width: 22, height: 22, "text-background-color": "#ffffff",
    "text-background-opacity": 0.85, "text-background-padding": 2 } },
  { selector: "node:selected", style: { "border-width": 5, "border-color": "#0a3d91" } },
  { selector: "edge", style: {
    width: "data(weight)", "curve-style": "bezier",
    "target-arrow-shape": "triangle", "line-color": "#7a8ca3", "target-arrow-color": "#7a8ca3",
    "font-size": 10, color: "#243b53", "text-rotation": "autorotate",
    "text-background-color": "#ffffff", "text-background-opacity": 0.85 } },
  { selector: "edge[status = 'approved'], edge[status = 'published']", style: {
    "line-color": "#2e7d32", "target-arrow-color": "#2e7d32" } },
  // A label that would cover another gives way (`declutter`), until its node is in focus.
  { selector: "node.quiet", style: { "text-opacity": 0, "text-background-opacity": 0 } },
  { selector: "node.quiet:selected, node.quiet.near, node.quiet.hover", style: {
    "text-opacity": 1, "text-background-opacity": 0.85, "z-index": 10 } },
  // Predicates are named on the relation in focus only: all at once they overlap.
  { selector: "edge:selected, edge.near", style: { label: "data(label)" } },
  { selector: "edge[status = 'rejected']", style: {
    "line-style": "dashed", "line-color": "#b0b8c4", "target-arrow-color": "#b0b8c4" } },
];

export class GraphView {
  constructor(container, extras, { onAsset, onCandidate }) {
    this.container = container;
    this.extras = extras;
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
      minZoom: 0.2,
      maxZoom: 4,
      layout: { name: "cose", animate: false, randomize: false, nodeRepulsion: 40000,
                idealEdgeLength: 140, nodeDimensionsIncludeLabels: true },
    });
    this.cy.on("tap", "node", (event) => this.activate(event.target.data()));
    this.cy.on("tap", "edge", (event) => this.onCandidate(event.target.data("candidateId")));
    this.cy.on("zoom", () => this.keepLabelsReadable());
    this.cy.on("mouseover", "node", (event) => event.target.addClass("hover"));
    this.cy.on("mouseout", "node", (event) => event.target.removeClass("hover"));
    this.keepLabelsReadable(); // the layout's fit zooms without a zoom event
    this.renderExtras(elements.nodes);
  }

  activate(data) {
    if (data.ual) this.onAsset(data.ual);
    else if (data.candidateId) this.onCandidate(data.candidateId);
  }

  // Labels stay 12 px on screen and wrap at 150 px, however far the graph is zoomed out.
  keepLabelsReadable() {
    const zoom = this.cy.zoom();
    this.cy.style().selector("node")
      .style({ "font-size": Math.min(36, Math.max(12, 12 / zoom)), "text-max-width": 150 / zoom })
      .update();
    this.declutter();
  }

  // Where two labels would overlap, the less connected node's label gives way (shown again
  // on hover or focus): every label drawn can be read. Its name stays in the node list.
  declutter() {
    const labelBox = (node) => node.boundingBox({ includeNodes: false, includeEdges: false,
                                                  includeLabels: true });
    const covers = (a, b) => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
    const nodes = this.cy.nodes();
    nodes.removeClass("quiet");
    const drawn = [];
    nodes.sort((a, b) => b.degree() - a.degree() || (a.id() < b.id() ? -1 : 1)).forEach((node) => {
      const box = labelBox(node);
      if (drawn.some((other) => covers(box, other))) node.addClass("quiet");
      else drawn.push(box);
    });
  }

  focusNode(id) {
    const node = this.cy && this.cy.getElementById(id);
    if (!node || node.empty()) return;
    this.cy.elements().unselect().removeClass("near");
    node.select();
    node.connectedEdges().addClass("near");
    this.cy.animate({ center: { eles: node } }, { duration: 150 });
  }

  renderExtras(nodes) {
    const zoom = (factor) => () => {
      const level = this.cy.zoom() * factor;
      this.cy.zoom({ level, renderedPosition: { x: this.cy.width() / 2, y: this.cy.height() / 2 } });
    };
    const controls = h("div", { className: "graph-controls", role: "group", "aria-label": "Zoom" },
      h("button", { type: "button", onClick: zoom(1.25) }, "Zoom in"),
      h("button", { type: "button", onClick: zoom(0.8) }, "Zoom out"),
      h("button", { type: "button", onClick: () => this.resize() }, "Fit"));
    const list = h("details", { className: "graph-nodes" },
      h("summary", {}, `Nodes (${nodes.length}): open one with the keyboard`),
      h("ul", {}, nodes.map(({ data }) => h("li", {},
        h("button", { type: "button", className: "link", onFocus: () => this.focusNode(data.id),
          onClick: () => this.activate(data),
          "aria-label": `${data.label}, ${data.type}: ${data.ual ? "open the asset" : "show its card"}` },
          data.label)))));
    replaceChildren(this.extras, controls, legend(), list);
  }

  resize() {
    if (this.cy) {
      this.cy.resize();
      this.cy.fit(undefined, 24);
      this.keepLabelsReadable();
    }
  }
}
