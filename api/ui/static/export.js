// Copy and download: the answer as Markdown (each sentence with what it cites, by name
// and by source), a candidate's JSON-LD as it would be published. What happened is said
// in the `status` element beside the buttons.

import { h } from "./dom.js";

export async function copyText(text, status, what) {
  try {
    // The Clipboard API needs a secure context (https, or the loopback address).
    if (!navigator.clipboard) throw new Error("this page is not a secure context");
    await navigator.clipboard.writeText(text);
    say(status, `Copied ${what}.`, false);
  } catch (err) {
    say(status, `Could not copy ${what} (${err.message}): use Download.`, true);
  }
}

export function download(filename, text, type, status, what) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h("a", { href: url, download: filename, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  say(status, `Downloaded ${what} as ${filename}.`, false);
}

function say(status, message, isError) {
  if (!status) return;
  status.textContent = message;
  status.classList.toggle("error", isError);
}

// A file name from a run id or a candidate id: letters, digits, "-" and "_" only.
export function fileStem(id) {
  return String(id || "export").replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 80);
}

// Buttons that copy and download `text()` (read when clicked, so they export what the
// view shows then), with their own status line. `of` names what the label is of, where
// a page shows many ("JSON-LD" of each candidate); accessible names start with the
// visible words.
export function exportButtons(label, of, filename, type, text) {
  const status = h("span", { className: "export-status muted", role: "status" });
  const what = of ? `${label} of ${of}` : label;
  return h("div", { className: "export", role: "group", "aria-label": `Export ${what}` },
    h("button", { type: "button", "aria-label": `Copy ${what}`,
                  onClick: () => copyText(text(), status, what) }, `Copy ${label}`),
    h("button", { type: "button", "aria-label": `Download ${what}`,
                  onClick: () => download(filename, text(), type, status, what) },
      `Download ${label}`),
    status);
}
