// The tag bar: preset toggles and custom tags, checked live with the API's own rule
// (strip '#', lowercase, ^[a-z0-9_]{1,64}$; contracts/run.py normalize_tag).

import { h, replaceChildren } from "./dom.js";

export const TAG_PATTERN = /^[a-z0-9_]{1,64}$/;
const PRESETS = ["supply_chain", "general_risk"];

export function normalizeTag(raw) {
  return raw.trim().replace(/^#+/, "").trim().toLowerCase();
}

export function tagProblem(raw) {
  const tag = normalizeTag(raw);
  if (!tag) return "type a tag";
  if (tag.length > 64) return `“${tag}” is ${tag.length} characters long: at most 64`;
  if (!TAG_PATTERN.test(tag)) {
    return `“${tag}” may hold only letters a–z, digits and underscores`;
  }
  return "";
}

export class TagBar {
  constructor({ chips, input, addButton, help }) {
    this.chips = chips;
    this.input = input;
    this.addButton = addButton;
    this.help = help;
    this.known = [...PRESETS];
    this.selected = new Set();
    this.defaultHelp = help.textContent;
    input.addEventListener("input", () => this.check());
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        this.addCustom();
      }
    });
    addButton.addEventListener("click", () => this.addCustom());
    this.render();
  }

  check() {
    const raw = this.input.value;
    const problem = raw.trim() ? tagProblem(raw) : "";
    this.input.setAttribute("aria-invalid", problem ? "true" : "false");
    this.addButton.disabled = !raw.trim() || Boolean(problem);
    this.help.textContent = problem || this.defaultHelp;
    this.help.classList.toggle("error", Boolean(problem));
    return problem;
  }

  addCustom() {
    if (this.check() || !this.input.value.trim()) return;
    const tag = normalizeTag(this.input.value);
    if (!this.known.includes(tag)) this.known.push(tag);
    this.selected.add(tag);
    this.input.value = "";
    this.check();
    this.render();
  }

  toggle(tag) {
    if (this.selected.has(tag)) this.selected.delete(tag);
    else this.selected.add(tag);
    this.render();
  }

  tags() {
    return [...this.selected].sort();
  }

  render() {
    const buttons = this.known.map((tag) => {
      const on = this.selected.has(tag);
      return h(
        "button",
        {
          type: "button",
          className: on ? "chip on" : "chip",
          "aria-pressed": on ? "true" : "false",
          dataset: { tag },
          onClick: () => this.toggle(tag),
        },
        on ? "✓ " : "",
        `#${tag}`,
      );
    });
    const summary = this.selected.size
      ? `Selected: ${this.tags().map((t) => `#${t}`).join(" ")}`
      : "No tags selected: the question goes to the global thread";
    replaceChildren(this.chips, ...buttons, h("span", { className: "tag-summary" }, summary));
  }
}
