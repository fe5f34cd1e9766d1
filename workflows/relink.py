"""Claims that use a new entity point at its UAL once it is published (pure, deterministic)."""

from __future__ import annotations

from typing import Any


def relinked(asset: dict[str, Any], uals: dict[str, str]) -> dict[str, Any]:
    """A copy of `asset` with every node `{"@id": <new entity id>}` pointing at its UAL.

    The published UALs join `linkedAssets`. Only node references change; the same
    mapping always gives the same document, so a retried publish hashes the same.
    """
    if not uals:
        return asset

    def walk(value: Any) -> Any:
        if isinstance(value, dict):
            out = {k: walk(v) for k, v in value.items()}
            ref = out.get("@id")
            if isinstance(ref, str) and ref in uals:
                out["@id"] = uals[ref]
            return out
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value

    # The asset's own top-level @id is its identity, never a reference: values only.
    copy = {k: walk(v) if k != "@id" else v for k, v in asset.items()}
    used = [ual for ref, ual in sorted(uals.items()) if _mentions(asset, ref)]
    if used:
        linked = [u for u in copy.get("linkedAssets") or [] if isinstance(u, str)]
        copy["linkedAssets"] = linked + [u for u in used if u not in linked]
    return copy


def _mentions(value: Any, ref: str) -> bool:
    if isinstance(value, dict):
        return value.get("@id") == ref or any(_mentions(v, ref) for v in value.values())
    if isinstance(value, list):
        return any(_mentions(v, ref) for v in value)
    return False
