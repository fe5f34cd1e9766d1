// The runs list: tags, phase, status and published count; runs waiting for review
// first for a reviewer; opening one restores its workspace in the chat.

import { api } from "./api.js";
import { atLeast } from "./auth.js";
import { h, replaceChildren, shortTime } from "./dom.js";
import { normalizeTag, tagProblem } from "./tags.js";

export class RunsList {
  constructor(root, { onOpen }) {
    this.root = root;
    this.onOpen = onOpen;
    this.list = root.querySelector("#runs-list");
    this.message = root.querySelector("#runs-message");
    this.tag = root.querySelector("#runs-tag");
    this.phase = root.querySelector("#runs-phase");
    this.more = root.querySelector("#runs-more");
    this.cursor = null;
    this.runs = [];
    root.querySelector("#runs-filter").addEventListener("submit", (event) => {
      event.preventDefault();
      this.load();
    });
    this.more.addEventListener("click", () => this.load(this.cursor));
  }

  async load(cursor = null) {
    const params = new URLSearchParams({ limit: "50" });
    const tag = normalizeTag(this.tag.value);
    const problem = this.tag.value.trim() ? tagProblem(this.tag.value) : "";
    this.tag.setAttribute("aria-invalid", problem ? "true" : "false");
    if (problem) {
      this.fail(`Not a tag filter: ${problem}.`);
      this.tag.focus();
      return;
    }
    if (tag) params.set("tag", tag);
    if (this.phase.value) params.set("phase", this.phase.value);
    if (cursor) params.set("cursor", cursor);
    this.message.classList.remove("error");
    this.message.textContent = "Loading runs…";
    let page;
    try {
      page = await api(`/api/runs?${params}`);
    } catch (err) {
      this.fail(`Could not list the runs: ${err.message}`);
      return;
    }
    this.runs = cursor ? [...this.runs, ...page.runs] : page.runs;
    this.cursor = page.nextCursor;
    this.more.hidden = !this.cursor;
    this.render();
  }

  // A failed load leaves no list behind that would look like its answer.
  fail(text) {
    this.runs = [];
    this.cursor = null;
    this.more.hidden = true;
    replaceChildren(this.list);
    this.message.textContent = text;
    this.message.classList.add("error");
  }

  filtered() {
    return Boolean(this.tag.value.trim() || this.phase.value);
  }

  ordered() {
    if (!atLeast("reviewer")) return this.runs;
    const waiting = (r) => (r.phase === "REVIEW" && r.status === "RUNNING" ? 0 : 1);
    return [...this.runs].sort((a, b) => waiting(a) - waiting(b));
  }

  render() {
    const runs = this.ordered();
    const waiting = runs.filter((r) => r.phase === "REVIEW" && r.status === "RUNNING").length;
    this.message.textContent = runs.length
      ? `${runs.length} run(s)${waiting ? `, ${waiting} waiting for review (listed first)` : ""}.`
      : this.filtered() ? "No runs match these filters." : "No runs yet.";
    replaceChildren(this.list, runs.map((run) => h("li", {
        className: `run-row${run.phase === "REVIEW" ? " waiting" : ""}` },
      h("div", { className: "run-main" },
        h("strong", { className: "run-question" }, run.query || "(question not recorded)"), " ",
        h("span", { className: `status status-${(run.phase || "").toLowerCase()}` },
          run.phase || "unknown phase"),
        run.phase === "REVIEW" && run.status === "RUNNING"
          ? h("span", { className: "badge warn" }, "waiting for review") : null),
      h("div", { className: "run-meta muted" },
        `${run.domainTags.length ? run.domainTags.map((t) => `#${t}`).join(" ") : "global"}` +
        ` · ${run.status.toLowerCase()} · started ${shortTime(run.startedAt)}` +
        ` · ${run.published ?? 0} published${run.principal ? ` · by ${run.principal}` : ""}` +
        ` · ${run.runId}`),
      h("button", { type: "button", onClick: () => this.onOpen(run),
                    "aria-label": run.query ? `Open run ${run.runId}: ${run.query}`
                                           : `Open run ${run.runId}` }, "Open"))));
  }
}
