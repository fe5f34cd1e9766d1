// RFC 6902 JSON Patch (add, remove, replace: what the event stream sends) on plain JSON.

function unescape(token) {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

function parentOf(root, path) {
  const tokens = path.split("/").slice(1).map(unescape);
  const last = tokens.pop();
  let node = root;
  for (const t of tokens) {
    node = Array.isArray(node) ? node[Number(t)] : node[t];
    if (node === undefined || node === null) throw new Error(`patch path ${path} not found`);
  }
  return [node, last];
}

export function applyPatch(state, ops) {
  let root = state;
  for (const op of ops) {
    if (op.path === "") {
      if (op.op === "remove") root = null;
      else root = structuredClone(op.value);
      continue;
    }
    const [parent, key] = parentOf(root, op.path);
    if (Array.isArray(parent)) {
      const index = key === "-" ? parent.length : Number(key);
      if (op.op === "add") parent.splice(index, 0, structuredClone(op.value));
      else if (op.op === "remove") parent.splice(index, 1);
      else if (op.op === "replace") parent[index] = structuredClone(op.value);
    } else if (op.op === "remove") {
      delete parent[key];
    } else if (op.op === "add" || op.op === "replace") {
      parent[key] = structuredClone(op.value);
    }
  }
  return root;
}
