// While runs of this chat wait for a review the reader may give, a notice in every view
// and a count in the tab's title: a reviewer looking at the runs list, the memory or
// another tab learns that a run has stopped for them, and one button takes them to it.

import { h, replaceChildren } from "./dom.js";

const TITLE = document.title;

function pendingOf(view) {
  if (view.ws?.phase !== "REVIEW") return 0;
  return (view.ws.candidates || []).filter((c) => c.status === "pending").length;
}

export class ReviewNotice {
  constructor(box, { canReview, onReview }) {
    this.box = box;
    this.canReview = canReview;
    this.onReview = onReview;
    this.shown = ""; // what the notice says now: redrawn (and announced) only on change
  }

  update(views) {
    const waiting = this.canReview()
      ? [...views].map((view) => [view, pendingOf(view)]).filter(([, n]) => n > 0) : [];
    const total = waiting.reduce((sum, [, n]) => sum + n, 0);
    document.title = total ? `(${total} to review) ${TITLE}` : TITLE;
    if (!waiting.length) {
      this.box.hidden = true;
      replaceChildren(this.box);
      this.shown = "";
      return;
    }
    const [first, count] = waiting[0];
    const question = first.ws.query || first.runId;
    const more = waiting.length > 1 ? ` and ${waiting.length - 1} more run(s)` : "";
    const text = `Waiting for your review: “${question}”, ${count} candidate(s)${more}.`;
    if (text === this.shown) return;
    this.shown = text;
    replaceChildren(this.box, h("span", {}, text), " ",
      h("button", { type: "button", className: "primary",
                    onClick: () => this.onReview(first) }, "Review now"));
    this.box.hidden = false;
  }
}

