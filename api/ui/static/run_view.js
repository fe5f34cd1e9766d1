// One run in the chat: the question, the answer with citations, the candidates as cards
// or as a graph, review actions and the published assets. Live from the event stream.

import { api } from "./api.js";
import { cardId, renderCard, sourceLink, ualButton } from "./cards.js";
import { h, replaceChildren } from "./dom.js";
import { nameOf } from "./facts.js";
import { GraphView } from "./graph.js";
import { applyPatch } from "./patch.js";
import { followRun } from "./sse.js";

const TERMINAL = new Set(["COMPLETED", "FAILED", "CANCELED"]);
const OUTCOME = {
  approved: "Approved: it is published when the review ends.",
  rejected: "Rejected.",
  revalidating: "Edit sent: re-validating.",
  pending: "Edit sent: re-validation did not accept it; approve it to publish anyway, or edit again.",
  published: "Published.",
};

export class RunView {
  constructor(runId, { query, tags }, hooks) {
    this.runId = runId;
    this.hooks = hooks; // onWorkspace, onEvent, onAsset, canReview, editDialog, reasonDialog
    this.ws = null;
    this.selected = new Set();
    this.outcomes = new Map(); // candidateId → [text, isError]
    this.cardKeys = new Map();
    this.stop = null;
    this.view = "cards";
    this.build(query, tags);
  }

  build(query, tags) {
    const prefix = (tags || []).map((t) => `#${t}`).join(" ");
    this.status = h("p", { className: "run-status", role: "status" }, "Starting…");
    this.answer = h("section", { className: "answer", "aria-label": "Answer" });
    this.published = h("section", { className: "published-list", "aria-label": "Published" });
    this.count = h("span", { className: "selection-count" }, "");
    this.cards = h("div", { className: "cards" });
    this.graphBox = h("div", { className: "graph", role: "img", hidden: true });
    this.graph = new GraphView(this.graphBox, {
      onAsset: this.hooks.onAsset, onCandidate: (id) => this.focusCard(id) });
    this.toggleView = h("button", { type: "button", className: "view-toggle",
                                    "aria-pressed": "false", onClick: () => this.switchView() },
                        "Show graph");
    this.toolbar = h("div", { className: "toolbar", role: "group",
                              "aria-label": "Review the selected candidates" },
      h("label", {}, h("input", { type: "checkbox", className: "select-all",
                                  onChange: (e) => this.selectAll(e.target.checked) }),
        " Select all pending"),
      h("button", { type: "button", className: "approve approve-selected",
                    onClick: () => this.decideSelected("approve") }, "Approve selected"),
      h("button", { type: "button", className: "reject reject-selected",
                    onClick: () => this.decideSelected("reject") }, "Reject selected"),
      this.count);
    this.candidates = h("section", { className: "candidates", hidden: true },
      h("div", { className: "candidates-head" },
        h("h3", {}, "Candidates"), this.toggleView),
      this.toolbar, this.cards, this.graphBox);
    this.el = h("article", { className: "run", id: `run-${this.runId}`,
                             "aria-label": `Run ${this.runId}`, dataset: { runId: this.runId } },
      h("div", { className: "bubble user" },
        prefix ? h("span", { className: "tags" }, prefix) : null,
        h("p", { className: "question" }, query || ""),
        h("span", { className: "muted run-id" }, `run ${this.runId}`)),
      this.status, this.answer, this.candidates, this.published);
  }

  start() {
    if (this.stop) return;
    let state = null;
    this.stop = followRun(this.runId, {
      onEvent: (event) => {
        if (event.type === "STATE_SNAPSHOT") state = structuredClone(event.snapshot);
        else if (event.type === "STATE_DELTA" && state) state = applyPatch(state, event.delta);
        if (event.type === "STATE_SNAPSHOT" || event.type === "STATE_DELTA") {
          this.setWorkspace(state);
        }
        if (event.type === "RUN_ERROR") this.showError(`The run ended: ${event.message}`);
        this.hooks.onEvent(this, event);
      },
      onError: (message) => this.showError(`Live updates stopped: ${message}`),
      onEnd: () => { this.stop = null; },
    });
  }

  close() {
    if (this.stop) this.stop();
    this.stop = null;
  }

  showError(message) {
    this.status.classList.add("error");
    this.status.textContent = message;
  }

  setWorkspace(ws) {
    this.ws = structuredClone(ws);
    this.render();
    this.hooks.onWorkspace(this, this.ws);
  }

  render() {
    const ws = this.ws;
    const pending = ws.pendingApprovals || [];
    if (!this.status.classList.contains("error")) {
      this.status.textContent = TERMINAL.has(ws.phase)
        ? `Run ${ws.phase.toLowerCase()}.`
        : ws.phase === "REVIEW"
          ? `Waiting for review: ${pending.length} candidate(s) to decide.`
          : `Mining… phase ${ws.phase}`;
    }
    this.renderAnswer(ws.answer);
    this.renderCandidates(ws.candidates || []);
    this.renderPublished(ws.publishedAssets || []);
  }

  renderAnswer(answer) {
    if (!answer) {
      replaceChildren(this.answer);
      return;
    }
    const sentences = (answer.sentences || []).map((s) => h("li", {},
      s.text.replace(/\s*\[[^[\]]*\](\.?)\s*$/, "$1"), " ",
      h("span", { className: "citations" },
        (s.candidateIds || []).map((id) => h("button", { type: "button", className: "cite-chip",
          onClick: () => this.focusCard(id) }, id)),
        (s.sources || []).map((src) => sourceLink(src, this.hooks.onAsset))),
      s.alreadyInDkg ? h("span", { className: "badge" }, "already in the DKG") : null));
    replaceChildren(this.answer, h("h3", {}, "Answer"),
      sentences.length ? h("ul", { className: "sentences" }, sentences)
                       : h("p", {}, answer.text || "No answer."));
  }

  renderCandidates(candidates) {
    this.candidates.hidden = candidates.length === 0;
    const canReview = this.hooks.canReview();
    const pendingIds = candidates.filter((c) => c.status === "pending").map((c) => c.id);
    for (const id of [...this.selected]) if (!pendingIds.includes(id)) this.selected.delete(id);
    this.toolbar.hidden = !canReview || pendingIds.length === 0;
    this.count.textContent = `${this.selected.size} selected`;
    const all = this.toolbar.querySelector(".select-all");
    all.checked = pendingIds.length > 0 && this.selected.size === pendingIds.length;
    const seen = new Set();
    candidates.forEach((candidate, index) => {
      seen.add(candidate.id);
      const outcome = this.outcomes.get(candidate.id) || ["", false];
      const hooks = { canReview, selected: this.selected.has(candidate.id),
        outcome: outcome[0], outcomeIsError: outcome[1], onAsset: this.hooks.onAsset,
        onSelect: (id, on) => this.select(id, on), onDecide: (c, a) => this.act(c, a) };
      const key = JSON.stringify([candidate, hooks.selected, outcome, canReview]);
      const existing = this.cards.querySelector(`#${cardId(candidate.id)}`);
      if (existing && this.cardKeys.get(candidate.id) === key) return;
      this.cardKeys.set(candidate.id, key);
      const focused = existing && existing.contains(document.activeElement)
        ? document.activeElement.dataset.action || "select" : null;
      const card = renderCard(candidate, hooks);
      if (existing) existing.replaceWith(card);
      else this.cards.insertBefore(card, this.cards.children[index] || null);
      if (focused) (card.querySelector(`[data-action="${focused}"]`) || card).focus();
    });
    for (const card of [...this.cards.children]) {
      if (!seen.has(card.dataset.candidateId)) card.remove();
    }
    if (this.view === "graph") this.graph.render(candidates);
  }

  renderPublished(published) {
    if (!published.length) {
      replaceChildren(this.published);
      return;
    }
    const names = new Map((this.ws.candidates || []).map((c) => [c.id, nameOf(c)]));
    replaceChildren(this.published, h("h3", {}, `Published to the DKG (${published.length})`),
      h("ul", {}, published.map((p) => h("li", {},
        h("span", {}, `${names.get(p.candidateId) || p.candidateId}: `),
        ualButton(p.ual, this.hooks.onAsset)))));
  }

  switchView() {
    this.view = this.view === "cards" ? "graph" : "cards";
    const graph = this.view === "graph";
    this.graphBox.hidden = !graph;
    this.cards.hidden = graph;
    this.toggleView.textContent = graph ? "Show cards" : "Show graph";
    this.toggleView.setAttribute("aria-pressed", graph ? "true" : "false");
    if (graph && this.ws) {
      this.graph.render(this.ws.candidates || []);
      this.graph.resize();
    }
  }

  focusCard(candidateId) {
    if (this.view === "graph") this.switchView();
    const card = this.cards.querySelector(`#${cardId(candidateId)}`);
    if (card) {
      card.scrollIntoView({ block: "center" });
      card.focus();
    }
  }

  select(id, on) {
    if (on) this.selected.add(id);
    else this.selected.delete(id);
    this.render();
  }

  selectAll(on) {
    const pending = (this.ws.candidates || []).filter((c) => c.status === "pending");
    this.selected = new Set(on ? pending.map((c) => c.id) : []);
    this.render();
  }

  act(candidate, action) {
    const name = nameOf(candidate);
    if (action === "approve") this.decide([{ candidateId: candidate.id, action }]);
    else if (action === "reject") {
      this.hooks.reasonDialog.show(`“${name}”`,
        (reason) => this.decide([{ candidateId: candidate.id, action, reason }]));
    } else {
      this.hooks.editDialog.show(candidate, name,
        (asset) => this.decide([{ candidateId: candidate.id, action: "edit", asset }]));
    }
  }

  decideSelected(action) {
    const ids = [...this.selected];
    if (!ids.length) {
      this.count.textContent = "Select at least one candidate first.";
      return;
    }
    if (action === "approve") {
      this.decide(ids.map((candidateId) => ({ candidateId, action })));
    } else {
      this.hooks.reasonDialog.show(`${ids.length} selected candidate(s)`,
        (reason) => this.decide(ids.map((candidateId) => ({ candidateId, action, reason }))));
    }
  }

  // Sends a batch; answers with an error in words (for a dialog to show) or "".
  async decide(decisions) {
    let results;
    try {
      results = await api(`/api/runs/${encodeURIComponent(this.runId)}/decisions`,
                          { method: "POST", body: decisions });
    } catch (err) {
      for (const d of decisions) this.outcomes.set(d.candidateId, [err.message, true]);
      if (this.ws) this.render();
      return err.message;
    }
    for (const result of results) {
      const candidate = (this.ws.candidates || []).find((c) => c.id === result.candidateId);
      if (candidate) {
        candidate.status = result.status;
        candidate.accepted = result.accepted;
      }
      const decided = decisions.find((d) => d.candidateId === result.candidateId);
      const text = decided && decided.action === "edit" && result.status === "approved"
        ? "Edit accepted by re-validation: approved." : OUTCOME[result.status] || result.status;
      this.outcomes.set(result.candidateId, [text, false]);
      this.selected.delete(result.candidateId);
    }
    this.ws.pendingApprovals = (this.ws.pendingApprovals || []).filter(
      (id) => !results.some((r) => r.candidateId === id && r.status !== "pending"));
    this.render();
    this.hooks.onWorkspace(this, this.ws);
    return "";
  }
}
