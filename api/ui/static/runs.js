// The runs list: tags, phase, status and published count; runs waiting for review
// first for a reviewer; opening one restores its workspace in the chat.

import { api } from "./api.js";
import { atLeast } from "./auth.js";
import { h, replaceChildren, shortTime } from "./dom.js";
import { TAG_PATTERN, normalizeTag } from "./tags.js";

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
    if (tag && !TAG_PATTERN.test(tag)) {
      this.message.textContent = `“${tag}” is not a tag: letters a–z, digits and underscores only.`;
      this.message.classList.add("error");
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
      this.message.textContent = `Could not list the runs: ${err.message}`;
      this.message.classList.add("error");
      return;
    }
    this.runs = cursor ? [...this.runs, ...page.runs] : page.runs;
    this.cursor = page.nextCursor;
    this.more.hidden = !this.cursor;
    this.render();
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
      : "No runs yet.";
    replaceChildren(this.list, runs.map((run) => h("li", {
        className: `run-row${run.phase === "REVIEW" ? " waiting" : ""}` },
      h("div", { className: "run-main" },
        h("strong", {}, run.runId), " ",
        h("span", { className: `status status-${(run.phase || "").toLowerCase()}` },
          run.phase || "unknown phase"),
        run.phase === "REVIEW" && run.status === "RUNNING"
          ? h("span", { className: "badge warn" }, "waiting for review") : null),
      h("div", { className: "run-meta muted" },
        `${run.domainTags.length ? run.domainTags.map((t) => `#${t}`).join(" ") : "global"}` +
        ` · ${run.status.toLowerCase()} · started ${shortTime(run.startedAt)}` +
        ` · ${run.published ?? 0} published${run.principal ? ` · by ${run.principal}` : ""}`),
      h("button", { type: "button", onClick: () => this.onOpen(run),
                    "aria-label": `Open run ${run.runId}` }, "Open"))));
  }
}
