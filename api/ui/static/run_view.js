// One run in the chat: the question, the answer with citations, the candidates as cards
// or as a graph, review actions and the published assets. Live from the event stream.

import { renderAnswer } from "./answer.js";
import { api } from "./api.js";
import { cardId, renderCard, ualButton } from "./cards.js";
import { clock, elapsedText, h, replaceChildren } from "./dom.js";
import { nameOf } from "./facts.js";
import { GraphView } from "./graph.js";
import { applyPatch } from "./patch.js";
import { followRun } from "./sse.js";

const TERMINAL = new Set(["COMPLETED", "FAILED", "CANCELED"]);
const CONNECTION = {
  reconnecting: "Reconnecting…",
  offline: "Offline: live updates paused.",
};
const asTime = (value) => (value === undefined || value === null ? null : new Date(value));
const OUTCOME = {
  approved: "Approved: it is published when the review ends.",
  rejected: "Rejected.",
  revalidating: "Edit sent: re-validating.",
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
    this.stream = null;
    this.view = "cards";
    this.connection = "live";
    this.problem = "";
    this.started = null; // Date the run started (its RUN_STARTED, or the runs list)
    this.ended = null;
    this.ticker = null;
    this.build(query, tags);
  }

  build(query, tags) {
    const prefix = (tags || []).map((t) => `#${t}`).join(" ");
    this.status = h("p", { className: "run-status", role: "status" }, "Starting…");
    this.clock = h("span", { className: "run-clock muted" }, "");
    this.connLine = h("p", { className: "connection", role: "status", hidden: true });
    this.retryButton = h("button", { type: "button", className: "retry",
                                     onClick: () => this.retry() }, "Retry now");
    this.cancelButton = h("button", { type: "button", className: "reject cancel-run",
                                      hidden: true, onClick: () => this.cancel() }, "Cancel run");
    this.answer = h("section", { className: "answer", "aria-label": "Answer" });
    this.published = h("section", { className: "published-list", "aria-label": "Published" });
    this.count = h("span", { className: "selection-count" }, "");
    this.cards = h("div", { className: "cards" });
    this.graphBox = h("div", { className: "graph", role: "img", hidden: true });
    this.graphExtras = h("div", { className: "graph-extras", hidden: true });
    this.graph = new GraphView(this.graphBox, this.graphExtras, {
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
      this.toolbar, this.cards, this.graphExtras, this.graphBox);
    this.el = h("article", { className: "run", id: `run-${this.runId}`, tabindex: "-1",
                             "aria-label": `Run ${this.runId}`, dataset: { runId: this.runId } },
      h("div", { className: "bubble user" },
        prefix ? h("span", { className: "tags" }, prefix) : null,
        h("p", { className: "question" }, query || ""),
        h("span", { className: "muted run-id" }, `run ${this.runId}`), " ", this.clock),
      h("div", { className: "run-head" }, this.status, this.cancelButton),
      this.connLine, this.answer, this.candidates, this.published);
  }

  setQuestion(query) {
    this.el.querySelector(".question").textContent = query;
  }

  setTimes(started, ended) {
    this.started = asTime(started) || this.started;
    this.ended = asTime(ended) || this.ended;
    this.tick();
  }

  tick() {
    if (!this.started) return;
    const end = this.ended || new Date();
    const span = elapsedText(end - this.started);
    this.clock.textContent = this.ended
      ? `· started ${clock(this.started)} · took ${span}`
      : `· started ${clock(this.started)} · ${span} elapsed`;
    if (this.ended && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = null;
    } else if (!this.ended && !this.ticker) {
      this.ticker = setInterval(() => this.tick(), 1000);
    }
  }

  start() {
    if (this.stream) return;
    let state = null;
    this.problem = "";
    this.stream = followRun(this.runId, {
      onEvent: (event) => {
        if (event.type === "STATE_SNAPSHOT") state = structuredClone(event.snapshot);
        else if (event.type === "STATE_DELTA" && state) state = applyPatch(state, event.delta);
        if (event.type === "RUN_STARTED" && !this.started) this.setTimes(event.timestamp, null);
        const final = (event.type === "RUN_FINISHED" && !(event.outcome
          && event.outcome.type === "interrupt")) || event.type === "RUN_ERROR";
        if (final) this.setTimes(null, event.timestamp || Date.now());
        if (event.type === "STATE_SNAPSHOT" || event.type === "STATE_DELTA") {
          this.setWorkspace(state);
        }
        if (event.type === "RUN_ERROR") this.showError(`The run ended: ${event.message}`);
        this.hooks.onEvent(this, event);
      },
      onError: (message) => {
        this.stream = null;
        this.setConnection("offline", {});
        this.showError(`Live updates stopped: ${message}`);
      },
      onEnd: () => {
        this.stream = null;
        this.setConnection("live", {});
      },
      onConnection: (state, detail) => this.setConnection(state, detail),
    });
  }

  setConnection(state, { attempt, inMs, reason } = {}) {
    const changed = state !== this.connection;
    this.connection = state;
    this.connLine.hidden = state === "live";
    if (state !== "live") {
      const when = state === "reconnecting" && inMs
        ? ` Next try in ${Math.round(inMs / 1000)} s (try ${attempt}).` : "";
      const why = reason ? ` (${reason})` : "";
      replaceChildren(this.connLine, `${CONNECTION[state]}${why}${when} `,
        "Review waits until the connection is back. ", this.retryButton);
    }
    this.el.classList.toggle("offline", state !== "live");
    if (changed && this.ws) this.render();
  }

  retry() {
    if (this.stream) this.stream.retry();
    else this.start();
  }

  async cancel() {
    this.cancelButton.disabled = true;
    try {
      await api(`/api/runs/${encodeURIComponent(this.runId)}/cancel`, { method: "POST" });
      this.status.textContent = "Cancel requested: the run stops at its next step.";
    } catch (err) {
      this.cancelButton.disabled = false;
      this.showError(`Could not cancel the run: ${err.message}`);
    }
  }

  close() {
    if (this.stream) this.stream.stop();
    this.stream = null;
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
  }

  showError(message) {
    this.problem = message;
    this.status.classList.add("error");
    this.status.textContent = message;
  }

  clearError() {
    this.problem = "";
    this.status.classList.remove("error");
  }

  setWorkspace(ws) {
    this.ws = structuredClone(ws);
    this.render();
    this.hooks.onWorkspace(this, this.ws);
  }

  render() {
    const ws = this.ws;
    const pending = ws.pendingApprovals || [];
    const ended = TERMINAL.has(ws.phase);
    this.cancelButton.hidden = ended || !this.hooks.canCancel();
    if (ended && !this.ended && this.started) this.setTimes(null, Date.now());
    if (!this.problem) {
      this.status.textContent = TERMINAL.has(ws.phase)
        ? `Run ${ws.phase.toLowerCase()}.`
        : ws.phase === "REVIEW"
          ? `Waiting for review: ${pending.length} candidate(s) to decide.`
          : `Mining… phase ${ws.phase}`;
    }
    renderAnswer(this.answer, ws, { onAsset: this.hooks.onAsset,
                                    question: () => this.el.querySelector(".question").textContent,
                                    onCandidate: (id) => this.focusCard(id) });
    this.renderCandidates(ws.candidates || []);
    this.renderPublished(ws.publishedAssets || []);
  }

  renderCandidates(candidates) {
    this.candidates.hidden = candidates.length === 0;
    const canReview = this.hooks.canReview();
    const offline = this.connection !== "live";
    const pendingIds = candidates.filter((c) => c.status === "pending").map((c) => c.id);
    for (const id of [...this.selected]) if (!pendingIds.includes(id)) this.selected.delete(id);
    this.toolbar.hidden = !canReview || pendingIds.length === 0;
    for (const button of this.toolbar.querySelectorAll("button")) button.disabled = offline;
    this.count.textContent = `${this.selected.size} selected`;
    const all = this.toolbar.querySelector(".select-all");
    all.checked = pendingIds.length > 0 && this.selected.size === pendingIds.length;
    const seen = new Set();
    candidates.forEach((candidate, index) => {
      seen.add(candidate.id);
      const kept = this.outcomes.get(candidate.id);
      // An outcome is about the status it answered: once the run moves the candidate on
      // (re-validation settled, published), the card's own status and note tell the rest.
      const outcome = kept && (!kept[2] || kept[2] === candidate.status) ? kept : ["", false];
      const hooks = { canReview, offline, selected: this.selected.has(candidate.id),
        outcome: outcome[0], outcomeIsError: outcome[1], onAsset: this.hooks.onAsset,
        onSelect: (id, on) => this.select(id, on), onDecide: (c, a) => this.act(c, a) };
      const key = JSON.stringify([candidate, hooks.selected, outcome, canReview, offline]);
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
    this.graphExtras.hidden = !graph;
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

  // Where focus goes when a dialog about this candidate closes and its button is gone.
  cardOf(candidateId) {
    return () => this.cards.querySelector(`#${cardId(candidateId)}`) || this.el;
  }

  act(candidate, action) {
    const name = nameOf(candidate);
    const back = this.cardOf(candidate.id);
    if (action === "approve") this.decide([{ candidateId: candidate.id, action }]);
    else if (action === "reject") {
      this.hooks.reasonDialog.show(`“${name}”`,
        (reason) => this.decide([{ candidateId: candidate.id, action, reason }]), back);
    } else {
      this.hooks.editDialog.show(candidate, name,
        (asset) => this.decide([{ candidateId: candidate.id, action: "edit", asset }]), back);
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
        (reason) => this.decide(ids.map((candidateId) => ({ candidateId, action, reason }))),
        () => this.toolbar.querySelector(".select-all"));
    }
  }

  // Sends a batch; answers with an error in words (for a dialog to show) or "".
  async decide(decisions) {
    let results;
    try {
      results = await api(`/api/runs/${encodeURIComponent(this.runId)}/decisions`,
                          { method: "POST", body: decisions });
    } catch (err) {
      for (const d of decisions) this.outcomes.set(d.candidateId, [err.message, true, null]);
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
      const edit = decided && decided.action === "edit";
      const text = edit && result.status === "approved"
        ? "Edit accepted by re-validation: approved." : OUTCOME[result.status] || "";
      // An edit re-validation refused comes back pending: its note on the card says why.
      this.outcomes.set(result.candidateId, [text, false, result.status]);
      this.selected.delete(result.candidateId);
    }
    this.ws.pendingApprovals = (this.ws.pendingApprovals || []).filter(
      (id) => !results.some((r) => r.candidateId === id && r.status !== "pending"));
    this.render();
    this.hooks.onWorkspace(this, this.ws);
    return "";
  }
}
