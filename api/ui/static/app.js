// The chat UI, assembled: sign-in, views, the tag bar and composer, runs, memory.

import { api } from "./api.js";
import { atLeast, claims, setToken, signOut, takeTokenFromUrl, token } from "./auth.js";
import { EditDialog, ReasonDialog } from "./dialogs.js";
import { MemoryView } from "./memory.js";
import { RunView } from "./run_view.js";
import { RunsList } from "./runs.js";
import { TagBar } from "./tags.js";
import { Viewer } from "./viewer.js";
import { WorkspacePanel } from "./workspace.js";

const $ = (selector) => document.querySelector(selector);
const runs = new Map();

function alertText(text) {
  const box = $("#alert");
  box.textContent = text;
  box.hidden = !text;
}

function showView(name) {
  for (const view of ["chat", "runs", "memory"]) {
    $(`#${view}-view`).hidden = view !== name;
    const tab = $(`nav [data-view="${view}"]`);
    if (view === name) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
}

function showSignedIn() {
  const who = claims();
  const signedIn = Boolean(token());
  $("#signin-view").hidden = signedIn;
  $("#app").hidden = !signedIn;
  $("#who").textContent = who ? `Signed in as ${who.sub} (${who.role})` : "";
  if (who && who.exp && who.exp * 1000 < Date.now()) {
    alertText("Your token has expired: sign in again with a fresh one (kminer token).");
  }
}

const viewer = new Viewer($("#viewer"));
const editDialog = new EditDialog($("#edit-dialog"));
const reasonDialog = new ReasonDialog($("#reject-dialog"));
const memory = new MemoryView($("#memory-view"));
const panel = new WorkspacePanel($("#workspace"), $("#toggle-workspace"), {
  onFile: (runId, path) => viewer.file(runId, path),
  onMemory: (path) => {
    const tag = path.split("/")[3] || "";
    showView("memory");
    memory.open(tag);
  },
});

const hooks = {
  onWorkspace: (view, ws) => panel.update(view.runId, ws),
  onEvent: (view, event) => panel.log(view.runId, event),
  onAsset: (ual) => viewer.asset(ual),
  canReview: () => atLeast("reviewer"),
  editDialog,
  reasonDialog,
};

function activate(view) {
  panel.follow(view.runId);
  if (view.ws) panel.update(view.runId, view.ws);
}

function addRun(runId, request) {
  let view = runs.get(runId);
  if (!view) {
    view = new RunView(runId, request, hooks);
    runs.set(runId, view);
    $("#messages").append(view.el);
  }
  activate(view);
  return view;
}

async function openRun(summary) {
  showView("chat");
  const existing = runs.get(summary.runId);
  const view = addRun(summary.runId, { query: "", tags: summary.domainTags });
  view.el.scrollIntoView({ block: "start" });
  if (existing && existing.ws) return;
  try {
    const ws = await api(`/api/runs/${encodeURIComponent(summary.runId)}`);
    view.el.querySelector(".question").textContent = ws.query;
    view.setWorkspace(ws);
    if (!["COMPLETED", "FAILED", "CANCELED"].includes(ws.phase)) view.start();
  } catch (err) {
    view.showError(`Could not open the run: ${err.message}`);
  }
}

const tagBar = new TagBar({ chips: $("#tag-chips"), input: $("#custom-tag"),
                            addButton: $("#add-tag"), help: $("#custom-tag-help") });

$("#composer").addEventListener("submit", async (event) => {
  event.preventDefault();
  const query = $("#question").value.trim();
  const problem = $("#composer-problem");
  if (!query) {
    problem.textContent = "Type a question first.";
    $("#question").focus();
    return;
  }
  const tags = tagBar.tags();
  const review = $("#review-required").checked ? "required" : "auto";
  const send = $("#send");
  send.disabled = true;
  problem.textContent = "";
  try {
    const started = await api("/api/runs", { method: "POST",
                                             body: { query, domainTags: tags, review } });
    $("#question").value = "";
    const view = addRun(started.runId, { query, tags: started.domainTags });
    view.el.scrollIntoView({ block: "start" });
    view.start();
  } catch (err) {
    problem.textContent = `The run did not start: ${err.message}`;
  } finally {
    send.disabled = false;
  }
});

const runsList = new RunsList($("#runs-view"), { onOpen: openRun });

for (const tab of document.querySelectorAll("nav [data-view]")) {
  tab.addEventListener("click", () => {
    showView(tab.dataset.view);
    if (tab.dataset.view === "runs") runsList.load();
  });
}

$("#signin-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const value = $("#signin-token").value.trim();
  if (!value) return;
  setToken(value);
  $("#signin-token").value = "";
  alertText("");
  showSignedIn();
});

$("#sign-out").addEventListener("click", () => {
  for (const view of runs.values()) view.close();
  signOut();
  showSignedIn();
});

takeTokenFromUrl();
showSignedIn();
showView("chat");
