// The asset view (a DKG Knowledge Asset by UAL, with its metadata) and the research file
// view, in one dialog.

import { api, assetPath } from "./api.js";
import { returnFocusOnClose } from "./dialogs.js";
import { h, pathText, replaceChildren } from "./dom.js";

export class Viewer {
  constructor(dialog) {
    this.dialog = dialog;
    this.title = dialog.querySelector("#viewer-title");
    this.body = dialog.querySelector("#viewer-body");
    this.remember = returnFocusOnClose(dialog);
    dialog.querySelector("#viewer-close").addEventListener("click", () => dialog.close());
  }

  async open(title, load) {
    if (!this.dialog.open) this.remember(null);
    replaceChildren(this.title, title);
    replaceChildren(this.body, h("p", { role: "status" }, "Loading…"));
    if (!this.dialog.open) this.dialog.showModal();
    try {
      replaceChildren(this.body, ...(await load()));
    } catch (err) {
      replaceChildren(this.body, h("p", { className: "error", role: "alert" }, err.message));
    }
  }

  asset(ual) {
    // The title is the asset's name; its UAL, which can be long, wraps on its own line.
    return this.open("Knowledge Asset", async () => {
      const found = await api(assetPath(ual));
      const meta = found.metadata || {};
      if (meta.label) this.title.textContent = `Knowledge Asset: ${meta.label}`;
      const facts = Object.entries(meta).filter(([, v]) => v !== null && v !== "");
      return [
        h("p", { className: "ual-line" }, h("code", {}, found.ual)),
        facts.length ? h("dl", { className: "meta" }, facts.map(([k, v]) => [
          h("dt", {}, k), h("dd", {}, typeof v === "object" ? JSON.stringify(v) : String(v))]))
          : null,
        h("h3", {}, "JSON-LD"),
        h("pre", { className: "jsonld", tabindex: "0" }, JSON.stringify(found.asset, null, 2)),
      ];
    });
  }

  file(runId, path) {
    return this.open(["Research file ", pathText(path)], async () => {
      const found = await api(`/api/runs/${encodeURIComponent(runId)}/files?path=${
        encodeURIComponent(path)}`);
      return [
        h("p", { className: "muted" }, `${found.size} bytes`),
        h("pre", { className: "file-content", tabindex: "0" }, found.content),
      ];
    });
  }
}
