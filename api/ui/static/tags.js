// The tag bar: preset toggles and custom tags (each removable), checked live with the
// API's own rule (contracts/run.py normalize_tag): strip '#', lowercase,
// ^[a-z0-9_]{1,64}$, and no '__' (it joins tags in a thread id) nor a leading or
// trailing '_'.

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
  if (tag.includes("__")) return `“${tag}” holds “__”, which joins tags in a thread id`;
  if (tag.startsWith("_") || tag.endsWith("_")) {
    return `“${tag}” may not start or end with “_”`;
  }
  return "";
}

export class TagBar {
  constructor({ chips, input, addButton, help, toggle }) {
    this.toggleButton = toggle;
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
    // On a phone the tag bar folds away behind this button, to keep the composer small.
    toggle.addEventListener("click", () => {
      const open = toggle.getAttribute("aria-expanded") !== "true";
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
      document.body.classList.toggle("tags-open", open);
    });
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

  remove(tag) {
    this.known = this.known.filter((t) => t !== tag);
    this.selected.delete(tag);
    this.render();
    this.input.focus();
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
      const toggle = h(
        "button",
        {
          type: "button",
          className: on ? "chip on" : "chip",
          "aria-pressed": on ? "true" : "false",
          dataset: { tag },
          onClick: () => this.toggle(tag),
        },
        on ? h("span", { "aria-hidden": "true" }, "✓ ") : "",
        `#${tag}`,
      );
      if (PRESETS.includes(tag)) return toggle;
      return h("span", { className: "custom-chip" }, toggle,
        h("button", { type: "button", className: "chip-remove", "aria-label": `Remove tag #${tag}`,
                      title: `Remove #${tag}`, onClick: () => this.remove(tag) }, "×"));
    });
    const summary = this.selected.size
      ? `Selected: ${this.tags().map((t) => `#${t}`).join(" ")}`
      : "No tags selected: the question goes to the global thread";
    replaceChildren(this.chips, ...buttons, h("span", { className: "tag-summary" }, summary));
    this.toggleButton.textContent = `Tags: ${this.selected.size || "none"}`;
  }
}
