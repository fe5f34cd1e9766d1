// The Agent Workspace panel: phase and progress, todos, subagents, research files,
// memory writes, the synthesized report and the live event log of the active run.
// Beside the chat on a wide screen; on a phone a drawer over it, opened from a compact
// progress strip that stays at the top of the screen.

import { formatBytes, h, pathText, replaceChildren } from "./dom.js";
import { markdown } from "./markdown.js";

const PHASES = ["PLANNING", "DISCOVERY", "ENRICHMENT", "VALIDATION", "REVIEW", "PUBLISHING",
                "COMPLETED"];
const STATUS_MARK = { completed: "✓", in_progress: "▶", pending: "○", running: "▶" };
const LOG_SIZE = 40;
const narrow = () => window.matchMedia("(max-width: 760px)").matches;

function section(title, count, body) {
  return h("section", { className: "ws-section" },
    h("h3", {}, count === null ? title : `${title} (${count})`), body);
}

function empty(text) {
  return h("p", { className: "muted" }, text);
}

export class WorkspacePanel {
  constructor(aside, toggle, strip, { onFile, onMemory }) {
    this.aside = aside;
    this.toggle = toggle;
    this.strip = strip;
    this.body = aside.querySelector("#ws-body");
    this.logList = aside.querySelector("#ws-log");
    this.heading = aside.querySelector("#ws-title");
    this.onFile = onFile;
    this.onMemory = onMemory;
    this.hiddenByUser = false;
    this.runId = null;
    toggle.addEventListener("click", () => {
      if (!this.aside.hidden) {
        this.hide(true);
        return;
      }
      this.open();
    });
    strip.addEventListener("click", () => this.open());
    aside.querySelector("#ws-close").addEventListener("click", () => {
      this.hide(true);
      (narrow() ? this.strip : this.toggle).focus();
    });
    aside.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && narrow()) {
        this.hide(true);
        this.strip.focus();
      }
    });
  }

  // Shown on request; on a phone the drawer takes the reader there.
  open() {
    this.show();
    if (narrow()) this.heading.focus();
  }

  show() {
    this.aside.hidden = false;
    this.hiddenByUser = false;
    this.toggle.setAttribute("aria-expanded", "true");
    this.toggle.textContent = "Hide Workspace";
    document.body.classList.add("with-workspace");
    document.body.classList.toggle("drawer-open", narrow());
  }

  hide(byUser = false) {
    this.aside.hidden = true;
    this.hiddenByUser = byUser;
    this.toggle.setAttribute("aria-expanded", "false");
    this.toggle.textContent = "Show Workspace";
    document.body.classList.remove("with-workspace", "drawer-open");
  }

  follow(runId) {
    if (runId !== this.runId) {
      this.runId = runId;
      this.hiddenByUser = false;
      replaceChildren(this.logList);
    }
  }

  log(runId, event) {
    if (runId !== this.runId) return;
    const text = describe(event);
    if (!text) return;
    const time = new Date(event.timestamp || Date.now()).toLocaleTimeString();
    this.logList.prepend(h("li", {}, h("span", { className: "muted" }, time), ` ${text}`));
    while (this.logList.children.length > LOG_SIZE) this.logList.lastChild.remove();
  }

  update(runId, ws) {
    if (runId !== this.runId) return;
    // A phone keeps the chat in view: the strip says how the run goes.
    if (this.aside.hidden && !this.hiddenByUser && !narrow()) this.show();
    const index = PHASES.indexOf(ws.phase);
    const progress = index < 0 ? 0 : index + 1;
    const todos = ws.todos || [];
    const done = todos.filter((t) => t.status === "completed").length;
    this.strip.hidden = false;
    replaceChildren(this.strip,
      h("span", { className: "strip-phase" }, `${ws.phase} ${progress}/${PHASES.length}`),
      h("progress", { max: PHASES.length, value: progress, "aria-hidden": "true" }),
      h("span", {}, `todos ${done}/${todos.length}`),
      h("span", { className: "strip-open" }, "Workspace",
        h("span", { "aria-hidden": "true" }, " ›")));
    replaceChildren(this.body,
      h("p", { className: "ws-run" }, `Run ${ws.runId} · thread ${ws.threadId}`),
      h("div", { className: "phase" },
        h("label", { for: "ws-progress" }, `Phase: ${ws.phase} (${progress} of ${PHASES.length})`),
        h("progress", { id: "ws-progress", max: PHASES.length, value: progress },
          `${progress} of ${PHASES.length}`),
        h("ol", { className: "phases" }, (ws.phaseHistory || []).map((p) => h("li", {}, p)))),
      section("Todos", `${done}/${todos.length} done`, todos.length
        ? h("ul", { className: "todos" }, todos.map((t) => h("li", {
            className: `todo todo-${t.status}` },
            h("span", { "aria-hidden": "true" }, `${STATUS_MARK[t.status] || "·"} `),
            t.agent ? h("span", { className: "agent" }, `${t.agent}: `) : null,
            t.content, h("span", { className: "visually-hidden" }, ` (${t.status})`))))
        : empty("No todos yet.")),
      section("Subagents", (ws.spawnedSubagents || []).length,
        (ws.spawnedSubagents || []).length
          ? h("ul", {}, ws.spawnedSubagents.map((s) => h("li", {},
              h("strong", {}, s.name), ` — ${s.task} `,
              h("span", { className: `status status-${s.status}` }, s.status))))
          : empty("No subagents spawned yet.")),
      section("Files", (ws.filesystemFiles || []).length,
        (ws.filesystemFiles || []).length
          ? h("ul", { className: "files" }, ws.filesystemFiles.map((f) => h("li", {},
              h("button", { type: "button", className: "link",
                            onClick: () => this.onFile(ws.runId, f.path) }, pathText(f.path)),
              h("span", { className: "muted" }, ` ${formatBytes(f.size)}`))))
          : empty("No research files yet.")),
      section("Memory writes", (ws.memoryWrites || []).length,
        (ws.memoryWrites || []).length
          ? h("ul", {}, ws.memoryWrites.map((path) => h("li", {},
              h("button", { type: "button", className: "link",
                            onClick: () => this.onMemory(path) }, pathText(path)))))
          : empty("No memory written yet.")),
      section("Report", null, ws.synthesizedReport
        ? h("div", { className: "report markdown", tabindex: "0" }, markdown(ws.synthesizedReport))
        : empty("The report comes with validation.")),
      section("Usage", null, h("p", {},
        `${ws.usage.modelCalls} model calls, ${ws.usage.toolCalls} tool calls, ` +
        `${ws.usage.inputTokens + ws.usage.outputTokens} tokens`)),
      (ws.errors || []).length
        ? section("Errors", ws.errors.length,
            h("ul", { className: "error" }, ws.errors.map((e) => h("li", {}, e))))
        : null);
  }
}

function describe(event) {
  switch (event.type) {
    case "RUN_STARTED": return "run started";
    case "STEP_STARTED": return `step ${event.stepName} started`;
    case "STEP_FINISHED": return `step ${event.stepName} finished`;
    case "TOOL_CALL_START": return `tool call ${event.toolCallName}`;
    case "CUSTOM": return `${event.name.replace(/_/g, " ")}`;
    case "RUN_FINISHED":
      return event.outcome && event.outcome.type === "interrupt" ? "waiting for review" : "run finished";
    case "RUN_ERROR": return `run error: ${event.message}`;
    default: return "";
  }
}
