// The chat UI, assembled: sign-in (the token checked by the API first), views with an
// address each (#chat, #runs, #memory, #run=<id>) so Back and reload work, the tag bar
// and composer, runs, memory. The runs of this tab's chat are restored on reload.

import { api } from "./api.js";
import { atLeast, claims, signIn, signOut, takeTokenFromUrl, token } from "./auth.js";
import { EditDialog, ReasonDialog } from "./dialogs.js";
import { MemoryView } from "./memory.js";
import { ReviewNotice } from "./review_notice.js";
import { RunView } from "./run_view.js";
import { RunsList } from "./runs.js";
import { TagBar } from "./tags.js";
import { Viewer } from "./viewer.js";
import { WorkspacePanel } from "./workspace.js";

const $ = (selector) => document.querySelector(selector);
const runs = new Map();
const CHAT_KEY = "kminer.chat"; // this tab's chat: its run ids, in order
const TERMINAL = ["COMPLETED", "FAILED", "CANCELED"];

function showView(name) {
  for (const view of ["chat", "runs", "memory"]) {
    $(`#${view}-view`).hidden = view !== name;
    const tab = $(`nav [data-view="${view}"]`);
    if (view === name) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
}

// Goes to an address of the app: a new history entry, so Back comes back here.
function navigate(hash) {
  if (window.location.hash === hash) route();
  else window.location.hash = hash;
}

function showSignedIn() {
  const who = claims();
  $("#signin-view").hidden = Boolean(who);
  $("#app").hidden = !who;
  $("#who").textContent = who ? `Signed in as ${who.sub} (${who.role})` : "";
}

const viewer = new Viewer($("#viewer"));
const editDialog = new EditDialog($("#edit-dialog"));
const reasonDialog = new ReasonDialog($("#reject-dialog"));
const memory = new MemoryView($("#memory-view"));
const panel = new WorkspacePanel($("#workspace"), $("#toggle-workspace"), $("#ws-strip"), {
  onFile: (runId, path) => viewer.file(runId, path),
  onMemory: (path) => {
    const [, , , tag = "", file = ""] = path.split("/");
    navigate(`#memory=${encodeURIComponent(tag)}/${encodeURIComponent(file.replace(/\.md$/, ""))}`);
  },
});

const notice = new ReviewNotice($("#review-notice"), {
  canReview: () => atLeast("reviewer"),
  onReview: (view) => {
    showView("chat");
    history.pushState(null, "", `#run=${encodeURIComponent(view.runId)}`);
    activate(view);
    const first = (view.ws.candidates || []).find((c) => c.status === "pending");
    if (first) view.focusCard(first.id);
  },
});

const hooks = {
  onWorkspace: (view, ws) => {
    panel.update(view.runId, ws);
    notice.update(runs.values());
  },
  onEvent: (view, event) => panel.log(view.runId, event),
  onAsset: (ual) => viewer.asset(ual),
  canReview: () => atLeast("reviewer"),
  canCancel: () => atLeast("miner"),
  editDialog,
  reasonDialog,
};

function remember() {
  sessionStorage.setItem(CHAT_KEY, JSON.stringify([...runs.keys()]));
}

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
    remember();
  }
  activate(view);
  return view;
}

// Shows a run from the API as it is now (also one already in the chat, whose stream may
// have stopped while the server was away), and follows it live until it ends.
async function loadRun(runId, summary = null) {
  const view = addRun(runId, { query: summary?.query || "", tags: summary?.domainTags });
  if (summary) view.setTimes(summary.startedAt, summary.closedAt);
  try {
    const ws = await api(`/api/runs/${encodeURIComponent(runId)}`);
    view.setQuestion(ws.query);
    view.clearError();
    view.setWorkspace(ws);
    if (TERMINAL.includes(ws.phase)) {
      view.close();
      view.setConnection("live", {});
    } else {
      view.close();
      view.start();
    }
  } catch (err) {
    view.showError(`Could not open the run: ${err.message}`);
  }
  return view;
}

// The run takes focus at once, before the API answers: a slow answer (a finished run's
// history replayed on a busy worker) must not leave focus on the hidden Runs view.
async function openRun(runId, summary = null) {
  showView("chat");
  const view = addRun(runId, { query: summary?.query || "", tags: summary?.domainTags });
  view.el.scrollIntoView({ block: "start" });
  view.el.focus({ preventScroll: true });
  await loadRun(runId, summary);
  activate(view);
}

const tagBar = new TagBar({ chips: $("#tag-chips"), input: $("#custom-tag"),
                            addButton: $("#add-tag"), help: $("#custom-tag-help"),
                            toggle: $("#tags-toggle") });

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
    view.start();
    history.pushState(null, "", `#run=${encodeURIComponent(started.runId)}`);
    view.el.scrollIntoView({ block: "start" });
  } catch (err) {
    problem.textContent = `The run did not start: ${err.message}`;
  } finally {
    send.disabled = false;
  }
});

const runsList = new RunsList($("#runs-view"), {
  onOpen: (summary) => {
    openRun(summary.runId, summary);
    history.pushState(null, "", `#run=${encodeURIComponent(summary.runId)}`);
  },
});

for (const tab of document.querySelectorAll("nav [data-view]")) {
  tab.addEventListener("click", () => navigate(`#${tab.dataset.view}`));
}

// Shows what the address names.
async function route() {
  if (!claims()) return;
  const hash = window.location.hash.replace(/^#/, "");
  const [name, value = ""] = hash.split("=");
  if (name === "run" && value) {
    await openRun(decodeURIComponent(value));
  } else if (name === "runs") {
    showView("runs");
    runsList.load();
  } else if (name === "memory") {
    showView("memory");
    const [tag = "", note = ""] = value.split("/").map(decodeURIComponent);
    if (tag) memory.open(tag, note);
  } else {
    showView("chat");
  }
}

async function restoreChat() {
  let ids = [];
  try {
    ids = JSON.parse(sessionStorage.getItem(CHAT_KEY) || "[]");
  } catch {
    ids = [];
  }
  await Promise.all(ids.filter((id) => typeof id === "string").map((id) => loadRun(id)));
}

async function start(value) {
  $("#signin-checking").hidden = false;
  $("#signin-view").hidden = true;
  const problem = await signIn(value);
  $("#signin-checking").hidden = true;
  $("#signin-problem").textContent = problem;
  showSignedIn();
  if (problem) {
    signOut();
    $("#signin-view").hidden = false;
    $("#signin-token").focus();
    return;
  }
  await restoreChat();
  await route();
}

$("#signin-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const value = $("#signin-token").value.trim();
  $("#signin-token").value = "";
  start(value);
});

$("#sign-out").addEventListener("click", () => {
  for (const view of runs.values()) view.close();
  runs.clear();
  notice.update(runs.values());
  $("#messages").replaceChildren();
  sessionStorage.removeItem(CHAT_KEY);
  signOut();
  showSignedIn();
  $("#signin-token").focus();
});

window.addEventListener("hashchange", () => {
  const pasted = takeTokenFromUrl();
  if (pasted) start(pasted);
  else route();
});

const handed = takeTokenFromUrl();
if (handed || token()) start(handed || token());
else showSignedIn();
