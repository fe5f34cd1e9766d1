"""docker-compose.yml and the Dockerfile: the Compose Specification's schema, and what the
topology promises (commands kminer accepts, variables kminer reads, one DKG owner)."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import jsonschema
import pytest

from kminer.cli import parser
from tests.support.compose import (
    ROOT,
    SCHEMA_FILE,
    InterpolationError,
    kminer_services,
    load_compose,
)

ENV = {"KM_JWT_SECRET": "x" * 40}


def _schema_errors(compose: dict[str, Any]) -> list[str]:
    assert SCHEMA_FILE.exists(), "run make install (npm ci --prefix tests/compose_spec)"
    schema = json.loads(SCHEMA_FILE.read_text())
    validator = jsonschema.Draft7Validator(schema)
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in validator.iter_errors(compose)
    ]


def test_the_compose_file_passes_the_compose_specification_schema() -> None:
    assert _schema_errors(load_compose(ENV)) == []


@pytest.mark.parametrize(
    "path, bad",
    [
        (("services", "worker", "deploy", "replicas"), "two"),
        (("services", "api", "healthcheck", "intervall"), "5s"),
        (("services", "tools", "depends_on", "migrate", "condition"), "service_done"),
    ],
)
def test_the_schema_check_catches_a_broken_file(path: tuple[str, ...], bad: object) -> None:
    compose = copy.deepcopy(load_compose(ENV))
    node = compose
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = bad
    assert _schema_errors(compose)


def test_a_missing_jwt_secret_stops_compose_before_anything_starts() -> None:
    with pytest.raises(InterpolationError, match="KM_JWT_SECRET"):
        load_compose({})


def test_the_topology() -> None:
    compose = load_compose(ENV)
    services = compose["services"]
    assert {
        "postgres", "temporal", "temporal-ui", "migrate", "tools", "models", "worker", "api"
    } <= set(services)  # fmt: skip
    assert set(compose["volumes"]) == {"postgres-data", "dkg-store"}
    assert "postgres-data:/var/lib/postgresql/data" in services["postgres"]["volumes"]
    # Temporal's schema on the same Postgres, set up by its admin tools (auto-setup).
    temporal = services["temporal"]
    assert temporal["image"].startswith("temporalio/auto-setup:")
    assert temporal["environment"]["DB"] == "postgres12"
    assert temporal["environment"]["POSTGRES_SEEDS"] == "postgres"
    assert services["temporal-ui"]["image"].startswith("temporalio/ui:")
    # One process owns the embedded DKG store; workflow workers scale and never mount it.
    assert services["tools"]["deploy"]["replicas"] == 1
    assert services["worker"]["deploy"]["replicas"] >= 2
    owners = [n for n, s in services.items() if "dkg-store:/data" in s.get("volumes", [])]
    assert sorted(owners) == ["api", "tools"]  # the API only opens read-only snapshots
    assert load_compose({**ENV, "KM_WORKERS": "5"})["services"]["worker"]["deploy"]["replicas"] == 5
    scaled = load_compose({**ENV, "KM_MODEL_WORKERS": "3"})["services"]["models"]
    assert scaled["deploy"]["replicas"] == 3
    # Every long-running service says whether it is healthy; the migration runs once first.
    for name, svc in services.items():
        if name != "migrate":
            assert svc.get("healthcheck", {}).get("test"), name
    for name in ("tools", "models", "worker", "api"):
        assert services[name]["depends_on"]["migrate"] == {
            "condition": "service_completed_successfully"
        }
    # Ports bind loopback unless KM_BIND says otherwise.
    assert services["api"]["ports"] == ["127.0.0.1:8000:8000"]


def test_every_kminer_service_runs_a_command_kminer_accepts() -> None:
    services = kminer_services(load_compose(ENV))
    assert set(services) == {"migrate", "tools", "models", "worker", "api"}
    commands = {name: svc["command"] for name, svc in services.items()}
    for command in commands.values():
        parser().parse_args(command)  # exits 2 on anything kminer does not accept
    assert commands["migrate"] == ["db", "upgrade"]
    # Each kind of work on its own queue; publishing writes the embedded store, so it shares
    # the one process that owns it.
    assert commands["tools"][:3] == ["worker", "--role", "tools,publish"]
    assert commands["models"][:3] == ["worker", "--role", "models"]
    assert commands["worker"][:3] == ["worker", "--role", "workflows"]
    environment = services["worker"]["environment"]
    queues = [environment[f"KM_{kind}TASK_QUEUE"] for kind in ("", "TOOL_", "MODEL_", "PUBLISH_")]
    assert len(set(queues)) == 4, queues
    assert commands["api"][0] == "api"


def test_every_variable_given_to_kminer_is_one_kminer_reads() -> None:
    source = "\n".join(
        p.read_text()
        for d in ("kminer", "api", "storage", "activities")
        for p in (ROOT / d).rglob("*.py")
    )
    for name, svc in kminer_services(load_compose(ENV)).items():
        for var in svc["environment"]:
            assert re.search(rf"[\"']{var}[\"']", source), f"{name}: nothing reads {var}"


def test_the_image_is_slim_and_runs_as_a_user() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    stages = re.findall(r"^FROM (\S+)", dockerfile, re.M)
    assert re.fullmatch(r"python:3\.11-slim(-\w+)?", stages[-1])
    final = dockerfile.rsplit("\nFROM ", 1)[1]
    user = re.findall(r"^USER (\S+)", final, re.M)
    assert user and user[-1] not in ("root", "0")
    assert "HEALTHCHECK" in final and 'ENTRYPOINT ["kminer"]' in final
    assert "VOLUME" in final and "KM_DATA_DIR=/data" in final
