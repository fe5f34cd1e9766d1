// The review dialogs: the JSON-LD editor (checked as you type, the API's answer shown in
// the same place) and the reason asked for a rejection.

import { jsonldProblems } from "./jsonld_check.js";
import { h, replaceChildren } from "./dom.js";

export class EditDialog {
  constructor(dialog) {
    this.dialog = dialog;
    this.text = dialog.querySelector("#edit-jsonld");
    this.errors = dialog.querySelector("#edit-errors");
    this.send = dialog.querySelector("#edit-send");
    this.title = dialog.querySelector("#edit-title");
    this.submit = null;
    this.text.addEventListener("input", () => this.check());
    dialog.querySelector("#edit-cancel").addEventListener("click", () => dialog.close());
    dialog.querySelector("form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.sendEdit();
    });
  }

  show(candidate, name, submit) {
    this.submit = submit;
    this.title.textContent = `Edit “${name}”`;
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

  check() {
    const problems = jsonldProblems(this.text.value);
    this.showErrors(problems);
    this.send.disabled = problems.length > 0;
    return problems;
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

  show(what, submit) {
    this.submit = submit;
    this.title.textContent = `Reject ${what}`;
    this.reason.value = "";
    this.errors.textContent = "";
    this.reason.setAttribute("aria-invalid", "false");
    this.dialog.showModal();
    this.reason.focus();
  }
}
