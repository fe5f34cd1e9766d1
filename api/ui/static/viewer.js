// The asset view (a DKG Knowledge Asset by UAL, with its metadata) and the research file
// view, in one dialog.

import { api, assetPath } from "./api.js";
import { h, replaceChildren } from "./dom.js";

export class Viewer {
  constructor(dialog) {
    this.dialog = dialog;
    this.title = dialog.querySelector("#viewer-title");
    this.body = dialog.querySelector("#viewer-body");
    dialog.querySelector("#viewer-close").addEventListener("click", () => dialog.close());
  }

  async open(title, load) {
    this.title.textContent = title;
    replaceChildren(this.body, h("p", { role: "status" }, "Loading…"));
    if (!this.dialog.open) this.dialog.showModal();
    try {
      replaceChildren(this.body, ...(await load()));
    } catch (err) {
      replaceChildren(this.body, h("p", { className: "error", role: "alert" }, err.message));
    }
  }

  asset(ual) {
    return this.open(`Knowledge Asset ${ual}`, async () => {
      const found = await api(assetPath(ual));
      const meta = found.metadata || {};
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
    return this.open(`Research file ${path}`, async () => {
      const found = await api(`/api/runs/${encodeURIComponent(runId)}/files?path=${
        encodeURIComponent(path)}`);
      return [
        h("p", { className: "muted" }, `${found.size} bytes`),
        h("pre", { className: "file-content", tabindex: "0" }, found.content),
      ];
    });
  }
}
