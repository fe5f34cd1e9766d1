// The review dialogs: the JSON-LD editor (checked as you type, the API's answer shown in
// the same place) and the reason asked for a rejection. Closing one puts focus back on
// the button that opened it, or, when that button is gone, on what `fallback` names.

import { jsonldProblems } from "./jsonld_check.js";
import { h, replaceChildren } from "./dom.js";

export function returnFocusOnClose(dialog) {
  const state = { opener: null, fallback: null };
  dialog.addEventListener("close", () => {
    const target = state.opener && state.opener.isConnected
      ? state.opener : state.fallback && state.fallback();
    if (target) target.focus();
  });
  return (fallback) => {
    state.opener = document.activeElement;
    state.fallback = fallback || null;
  };
}

export class EditDialog {
  constructor(dialog) {
    this.dialog = dialog;
    this.text = dialog.querySelector("#edit-jsonld");
    this.errors = dialog.querySelector("#edit-errors");
    this.send = dialog.querySelector("#edit-send");
    this.title = dialog.querySelector("#edit-title");
    this.submit = null;
    this.original = "";
    this.remember = returnFocusOnClose(dialog);
    this.text.addEventListener("input", () => this.check());
    dialog.querySelector("#edit-cancel").addEventListener("click", () => dialog.close());
    dialog.querySelector("form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.sendEdit();
    });
  }

  show(candidate, name, submit, fallback) {
    this.remember(fallback);
    this.submit = submit;
    this.title.textContent = `Edit “${name}”`;
    this.original = JSON.stringify(candidate.asset);
    this.text.value = JSON.stringify(candidate.asset, null, 2);
    this.check();
    this.dialog.showModal();
    this.text.focus();
  }

  showErrors(problems, fromApi = false) {
    const invalid = problems.length > 0;
    this.text.setAttribute("aria-invalid", invalid ? "true" : "false");
    replaceChildren(this.errors, invalid
      ? h("ul", {}, problems.map((p) => h("li", {}, fromApi ? `The API refused it: ${p}` : p)))
      : h("span", { className: "ok" }, "Valid JSON-LD: ready to send."));
    this.errors.classList.toggle("error", invalid);
  }

  unchanged() {
    try {
      return JSON.stringify(JSON.parse(this.text.value)) === this.original;
    } catch {
      return false;
    }
  }

  check() {
    const problems = jsonldProblems(this.text.value);
    const same = problems.length === 0 && this.unchanged();
    this.showErrors(problems);
    if (same) {
      this.text.setAttribute("aria-invalid", "false");
      replaceChildren(this.errors, h("span", {},
        "Unchanged: edit the JSON-LD to send an edit, or use Cancel."));
    }
    this.send.disabled = problems.length > 0 || same;
    return same ? ["unchanged"] : problems;
  }

  async sendEdit() {
    if (this.check().length || !this.submit) return;
    this.send.disabled = true;
    const error = await this.submit(JSON.parse(this.text.value));
    this.send.disabled = false;
    if (error) this.showErrors([error], true);
    else this.dialog.close();
  }
}

export class ReasonDialog {
  constructor(dialog) {
    this.dialog = dialog;
    this.reason = dialog.querySelector("#reject-reason");
    this.title = dialog.querySelector("#reject-title");
    this.errors = dialog.querySelector("#reject-errors");
    this.submit = null;
    this.remember = returnFocusOnClose(dialog);
    dialog.querySelector("#reject-cancel").addEventListener("click", () => dialog.close());
    dialog.querySelector("form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const reason = this.reason.value.trim();
      if (!reason) {
        this.errors.textContent = "Say why it is rejected: the reason is kept with the decision.";
        this.reason.setAttribute("aria-invalid", "true");
        this.reason.focus();
        return;
      }
      const error = await this.submit(reason);
      if (error) this.errors.textContent = error;
      else this.dialog.close();
    });
  }

  show(what, submit, fallback) {
    this.remember(fallback);
    this.submit = submit;
    this.title.textContent = `Reject ${what}`;
    this.reason.value = "";
    this.errors.textContent = "";
    this.reason.setAttribute("aria-invalid", "false");
    this.dialog.showModal();
    this.reason.focus();
  }
}
