// The report and memory notes, rendered from their Markdown by markdown-it (installed by
// `make install` with the other browser libraries, served under /ui/vendor/markdown-it).
//
// Its defaults are what text from models and documents needs: raw HTML is escaped
// (`html: false`) and links to javascript:, vbscript:, file: and data: are refused. Images
// are turned off (a note must not make the browser fetch from anywhere), and the HTML is
// parsed into an inert document, so nothing in it runs or loads before it is shown.
// Without the library (an install that skipped npm) the text shows as written.

import { h } from "./dom.js";

let engine = null;

function parser() {
  if (!engine && typeof window.markdownit === "function") {
    engine = window.markdownit({ html: false, linkify: false, typographer: false })
      .disable("image");
  }
  return engine;
}

// `source` as block nodes; headings start at `<h{top}>`, so a note's "#" sits under the
// heading of the view that shows it.
export function markdown(source, top = 4) {
  const text = String(source || "");
  const md = parser();
  if (!md) return [h("pre", {}, text)];
  const inert = new DOMParser().parseFromString(md.render(text), "text/html").body;
  for (const heading of inert.querySelectorAll("h1, h2, h3, h4, h5, h6")) {
    const level = Math.min(6, top + Number(heading.tagName[1]) - 1);
    const moved = document.createElement(`h${level}`);
    moved.append(...heading.childNodes);
    heading.replaceWith(moved);
  }
  for (const link of inert.querySelectorAll("a[href]")) {
    link.target = "_blank";
    link.rel = "noopener noreferrer";
  }
  return [...inert.childNodes].map((node) => document.adoptNode(node));
}
