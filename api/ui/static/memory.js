// Memory notes of a tag with their versions, or the one note a run wrote; admins edit a
// note's head, the text above its run sections, which runs write (a stale version is a
// 409, shown in words with a way to reload).

import { api } from "./api.js";
import { atLeast } from "./auth.js";
import { h, pathText, replaceChildren, shortTime } from "./dom.js";
import { markdown } from "./markdown.js";
import { normalizeTag, tagProblem } from "./tags.js";

export class MemoryView {
  constructor(root) {
    this.root = root;
    this.tag = root.querySelector("#memory-tag");
    this.list = root.querySelector("#memory-list");
    this.message = root.querySelector("#memory-message");
    this.only = "";
    root.querySelector("#memory-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.only = "";
      this.load();
    });
  }

  say(text, error = false) {
    this.message.textContent = text;
    this.message.classList.toggle("error", error);
  }

  // The notes of `tag`, or only the note `name` of it (a run's memory write).
  async open(tag, name = "") {
    this.tag.value = tag;
    this.only = name;
    await this.load();
  }

  async load() {
    const problem = tagProblem(this.tag.value);
    if (problem) {
      this.say(problem, true);
      return;
    }
    const tag = normalizeTag(this.tag.value);
    this.say(`Loading the notes of #${tag}…`);
    let notes;
    try {
      notes = await api(`/api/memory?tag=${encodeURIComponent(tag)}`);
    } catch (err) {
      this.say(`Could not read the notes: ${err.message}`, true);
      return;
    }
    const shown = this.only ? notes.filter((n) => n.name === this.only) : notes;
    if (this.only) {
      this.say(shown.length ? `Note ${this.only} of #${tag} (${notes.length} note(s) in all).`
                            : `#${tag} has no note ${this.only} (any more).`, !shown.length);
    } else {
      this.say(notes.length ? `${notes.length} note(s) for #${tag}.`
                            : `No notes for #${tag} yet: a run with this tag writes them.`);
    }
    const all = this.only
      ? h("button", { type: "button", className: "show-all",
                      onClick: () => this.open(tag) }, `Show all notes of #${tag}`)
      : null;
    replaceChildren(this.list, shown.map((note) => this.noteCard(tag, note)), all);
  }

  noteCard(tag, note) {
    const id = `note-${tag}-${note.name}`;
    const body = h("div", { className: "note-content markdown", tabindex: "0" },
      markdown(note.content));
    const status = h("p", { className: "outcome", role: "status" });
    const card = h("article", { className: "note-card", id, "aria-labelledby": `${id}-title` },
      h("h3", { id: `${id}-title` }, pathText(`/memories/knowledge/${tag}/${note.name}.md`)),
      h("p", { className: "muted" }, `version ${note.version} · ${note.sections} run section${
        note.sections === 1 ? "" : "s"} · updated ${
        shortTime(note.updated_at)}${note.updated_by_run ? ` by run ${note.updated_by_run}` : ""}`),
      body, status);
    if (atLeast("admin")) {
      card.append(h("button", { type: "button", "aria-label": `Edit note ${note.name}`,
        onClick: () => this.edit(card, tag, note, status) }, "Edit note"));
    }
    return card;
  }

  edit(card, tag, note, status) {
    const areaId = `edit-${tag}-${note.name}`;
    const area = h("textarea", { id: areaId, rows: 14, className: "note-editor" });
    area.value = note.head;
    const save = async () => {
      try {
        const saved = await api(`/api/memory/${tag}/${note.name}`, {
          method: "PUT", body: { content: area.value, version: note.version } });
        status.classList.remove("error");
        card.replaceWith(this.noteCard(tag, { ...note, content: saved.content, head: saved.head,
          version: saved.version, sections: saved.sections, updated_at: saved.updatedAt,
          updated_by_run: saved.updatedByRun }));
        this.say(`Saved ${saved.path} as version ${saved.version}.`);
      } catch (err) {
        status.classList.add("error");
        status.textContent = err.status === 409
          ? `${err.message}. Reload the notes to edit the latest version.` : err.message;
      }
    };
    const form = h("div", { className: "note-edit" },
      h("label", { for: areaId },
        `Head of the note, above its run sections (based on version ${note.version})`), area,
      h("div", { className: "actions" },
        h("button", { type: "button", className: "approve", onClick: save }, "Save note"),
        h("button", { type: "button", onClick: () => this.load() }, "Cancel")));
    card.querySelector(".note-content").replaceWith(form);
    card.querySelector("button:not(.approve)")?.remove();
    area.focus();
  }
}
