"""Settings from the environment, in one place."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import ValidationError

from contracts.model_calls import AGENT_CALL_SECONDS, ModelLimits
from contracts.research import ResearchConfig
from storage.sql.note_view import DEFAULT_NOTE_CHARS, MIN_NOTE_CHARS

TASK_QUEUE = "knowledge-miner"
RESEARCH_ENV = "KM_RESEARCH_"
# `kminer worker --role`: "all" polls every configured queue in one process. Split, each role
# polls one queue: "workflows" the main queue (workflows, the cheap steps, and the model calls
# unless KM_MODEL_TASK_QUEUE is set) without opening the DKG; "models" the model queue;
# "tools" the DKG / search tool queue; "publish" the publish queue. "tools" and "publish" open
# the DKG, so with the embedded store they share the one process that owns it
# (`--role tools,publish`).
WORKER_ROLES = ("all", "workflows", "models", "tools", "publish")
# A run checks its history size between its stages; past this many bytes it continues as new.
CONTINUE_AS_NEW_BYTES = 4 * 1024 * 1024
PACKAGE_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Settings:
    data_dir: Path
    database_url: str
    temporal_address: str | None
    temporal_namespace: str = "default"
    task_queue: str = TASK_QUEUE
    # DKG / search tool activities on a queue of their own, polled by the one worker that
    # owns the DKG (`kminer worker --role tools`); None: everything on `task_queue`.
    tool_task_queue: str | None = None
    # Model calls (`deepagents.invoke_model`) and publishing (`dkg_publish_asset`) on queues
    # of their own, each scaled and rate-limited apart; None: the main queue for the model
    # calls, the tool queue (or the main one) for publishing.
    model_task_queue: str | None = None
    publish_task_queue: str | None = None
    # History bytes past which a run continues as new at its next safe point
    # (KM_CONTINUE_AS_NEW_BYTES).
    continue_as_new_bytes: int = CONTINUE_AS_NEW_BYTES
    worker_concurrency: int = 16  # activities one worker runs at once (KM_WORKER_CONCURRENCY)
    # Characters of each memory note a run reads (KM_MEMORY_NOTE_CHARS): its head and latest
    # run sections (storage/sql/note_view.py); the notes themselves are kept whole.
    memory_note_chars: int = DEFAULT_NOTE_CHARS
    # Run workflow code inside Temporal's sandbox (KM_WORKFLOW_SANDBOX). Off by default:
    # the sandbox re-checks every call and payload at run time, a quarter of a worker's
    # CPU (docs/benchmarks.md); the tests replay every recorded history inside it, so its
    # restrictions still guard the workflow code (tests/workflows/test_replay*.py).
    workflow_sandbox: bool = False
    # Activities per second the server hands out from each queue this worker polls, for
    # all of that queue's workers together (KM_QUEUE_RATE_LIMIT; None: no limit).
    queue_rate_limit: float | None = None
    # On SIGTERM a worker stops polling and gives running activities this long to finish;
    # what is still running then is cancelled and retried by another worker.
    shutdown_grace_seconds: float = 30.0
    model_name: str = "rules"
    openai_base_url: str | None = None
    # Each model call's start-to-close, heartbeat timeout and attempts (KM_MODEL_CALL_
    # TIMEOUT_SECONDS, KM_MODEL_HEARTBEAT_SECONDS, KM_MODEL_MAX_ATTEMPTS); None: the
    # defaults (an agent's call 300 s, 10 s, 5; the research planner's 120 s, none, 3).
    model_limits: ModelLimits = field(default_factory=ModelLimits)
    tavily_api_key: str | None = None
    tavily_base_url: str | None = None
    dkg_node_url: str | None = None
    # "minilm" (offline ONNX) or "openai:<model>" (needs OPENAI_API_KEY).
    embeddings: str = "minilm"
    max_body_bytes: int = 1_048_576  # API request bodies (KM_MAX_BODY_BYTES)
    # The API's base URL as its clients reach it, e.g. behind a TLS proxy (KM_PUBLIC_URL);
    # empty: the scheme and host of each request. The MCP endpoint's protected-resource
    # metadata names it, with the OAuth authorization servers whose tokens the API takes
    # (KM_OAUTH_AUTHORIZATION_SERVERS, space-separated; none: `kminer token`'s).
    public_url: str = ""
    oauth_authorization_servers: tuple[str, ...] = ()
    runs_per_minute: int = 30  # runs one principal may start per minute (KM_RUNS_PER_MINUTE)
    # OpenTelemetry traces go here (OTLP over HTTP) when set; empty means no tracing.
    otlp_endpoint: str = ""
    seed_dir: Path = field(default_factory=lambda: PACKAGE_ROOT / "storage" / "dkg" / "seed")
    corpus_dir: Path = field(
        default_factory=lambda: PACKAGE_ROOT / "storage" / "corpus" / "shipped"
    )
    # Deep research defaults (KM_RESEARCH_<FIELD>, e.g. KM_RESEARCH_MAX_SUBTASKS=4).
    research: ResearchConfig = field(default_factory=ResearchConfig)
    # A run reuses the research of its own principal's runs only; `on` shares the cache
    # among every principal (KM_RESEARCH_CACHE_SHARED): one's evidence and run ids show
    # in the others' workspaces.
    research_cache_shared: bool = False

    @property
    def dkg_dir(self) -> Path:
        return self.data_dir / "dkg"

    @property
    def stack_file(self) -> Path:
        """Where a running `kminer up` records its addresses for other commands."""
        return self.data_dir / "stack.json"

    @property
    def uses_llm(self) -> bool:
        return self.model_name != "rules"


class ConfigError(ValueError):
    """An environment variable holds a value the service cannot use."""


def research_from_env(environ: dict[str, str] | None = None) -> ResearchConfig:
    """Seed 004's ResearchConfig from KM_RESEARCH_* variables, validated (bounds included)."""
    env = os.environ if environ is None else environ
    values = {
        name: env[RESEARCH_ENV + name.upper()]
        for name in ResearchConfig.model_fields
        if env.get(RESEARCH_ENV + name.upper())
    }
    try:
        return ResearchConfig.model_validate(values)
    except ValidationError as exc:
        problems = "; ".join(
            f"{RESEARCH_ENV}{'.'.join(str(p) for p in e['loc']).upper()}: {e['msg']}"
            for e in exc.errors()
        )
        raise ConfigError(f"invalid research configuration: {problems}") from None


def _positive_int(name: str, default: int) -> int:
    raw = os.environ.get(name) or ""
    if not raw:
        return default
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"{name} must be a positive integer, not {raw!r}")
    return int(raw)


def _note_chars() -> int:
    chars = _positive_int("KM_MEMORY_NOTE_CHARS", DEFAULT_NOTE_CHARS)
    if chars < MIN_NOTE_CHARS:
        raise ValueError(f"KM_MEMORY_NOTE_CHARS must be at least {MIN_NOTE_CHARS}, not {chars}")
    return chars


def _switch(name: str, default: bool) -> bool:
    raw = (os.environ.get(name) or "").strip().lower()
    if not raw:
        return default
    if raw in ("1", "on", "true", "yes"):
        return True
    if raw in ("0", "off", "false", "no"):
        return False
    raise ValueError(f"{name} must be on or off, not {raw!r}")


def _positive_int_or_none(name: str) -> int | None:
    return _positive_int(name, 0) or None


def _model_limits() -> ModelLimits:
    values = {
        "callSeconds": _positive_int_or_none("KM_MODEL_CALL_TIMEOUT_SECONDS"),
        "heartbeatSeconds": _positive_int_or_none("KM_MODEL_HEARTBEAT_SECONDS"),
        "attempts": _positive_int_or_none("KM_MODEL_MAX_ATTEMPTS"),
    }
    call = values["callSeconds"] or AGENT_CALL_SECONDS
    heartbeat = values["heartbeatSeconds"]
    if heartbeat is not None and heartbeat >= call:
        raise ValueError(
            f"KM_MODEL_HEARTBEAT_SECONDS ({heartbeat}) must be less than the "
            f"model call's start-to-close timeout ({call} s, KM_MODEL_CALL_TIMEOUT_SECONDS)"
        )
    try:
        return ModelLimits(**values)
    except ValidationError as exc:  # a bound of the contract (contracts/model_calls.py)
        error = exc.errors()[0]
        field_name = str(error["loc"][0]) if error["loc"] else ""
        # The variable of the field, as the reads above name it.
        variables = {
            "callSeconds": "KM_MODEL_CALL_TIMEOUT_SECONDS",
            "heartbeatSeconds": "KM_MODEL_HEARTBEAT_SECONDS",
            "attempts": "KM_MODEL_MAX_ATTEMPTS",
        }
        name = variables.get(field_name, "KM_MODEL_*")
        raise ValueError(f"{name}: {error['msg']}") from None


def _positive_float(name: str) -> float | None:
    raw = os.environ.get(name) or ""
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise ValueError(f"{name} must be a positive number, not {raw!r}")
    return value


def _http_urls(name: str) -> tuple[str, ...]:
    """Absolute http(s) URLs without query or fragment, space- or comma-separated."""
    urls = tuple(u for u in (os.environ.get(name) or "").replace(",", " ").split() if u)
    for url in urls:
        parts = urlsplit(url)
        usable = parts.scheme in ("http", "https") and parts.netloc
        if not usable or parts.query or parts.fragment:
            raise ValueError(f"{name} must hold http(s) URLs without query or fragment: {url!r}")
    return urls


def _http_url(name: str) -> str:
    urls = _http_urls(name)
    if len(urls) > 1:
        raise ValueError(f"{name} must be one URL, not {len(urls)}")
    return urls[0].rstrip("/") if urls else ""


def load_settings(data_dir: str | Path | None = None) -> Settings:
    root = Path(data_dir or os.environ.get("KM_DATA_DIR") or ".kminer").resolve()
    # An OpenAI key switches the policy to a real model; without one the
    # deterministic rules policy drives the same tools.
    model = "rules"
    embeddings = "minilm"
    if os.environ.get("OPENAI_API_KEY"):
        model = os.environ.get("DEEPAGENTS_MODEL") or "gpt-4o-mini"
        embeddings = "openai:" + (os.environ.get("KM_EMBEDDINGS_MODEL") or "text-embedding-3-small")
    if (os.environ.get("KM_EMBEDDINGS") or "").lower() == "minilm":
        embeddings = "minilm"
    return Settings(
        data_dir=root,
        database_url=os.environ.get("DATABASE_URL") or f"sqlite:///{root / 'kminer.db'}",
        temporal_address=os.environ.get("TEMPORAL_ADDRESS") or None,
        temporal_namespace=os.environ.get("TEMPORAL_NAMESPACE") or "default",
        task_queue=os.environ.get("KM_TASK_QUEUE") or TASK_QUEUE,
        tool_task_queue=os.environ.get("KM_TOOL_TASK_QUEUE") or None,
        model_task_queue=os.environ.get("KM_MODEL_TASK_QUEUE") or None,
        publish_task_queue=os.environ.get("KM_PUBLISH_TASK_QUEUE") or None,
        continue_as_new_bytes=_positive_int("KM_CONTINUE_AS_NEW_BYTES", CONTINUE_AS_NEW_BYTES),
        worker_concurrency=_positive_int("KM_WORKER_CONCURRENCY", 16),
        memory_note_chars=_note_chars(),
        workflow_sandbox=_switch("KM_WORKFLOW_SANDBOX", False),
        queue_rate_limit=_positive_float("KM_QUEUE_RATE_LIMIT"),
        shutdown_grace_seconds=float(os.environ.get("KM_SHUTDOWN_GRACE_SECONDS") or 30),
        model_name=model,
        openai_base_url=os.environ.get("OPENAI_BASE_URL") or None,
        model_limits=_model_limits(),
        tavily_api_key=os.environ.get("TAVILY_API_KEY") or None,
        tavily_base_url=os.environ.get("TAVILY_BASE_URL") or None,
        dkg_node_url=os.environ.get("DKG_NODE_URL") or None,
        embeddings=embeddings,
        max_body_bytes=int(os.environ.get("KM_MAX_BODY_BYTES") or 1_048_576),
        runs_per_minute=int(os.environ.get("KM_RUNS_PER_MINUTE") or 30),
        public_url=_http_url("KM_PUBLIC_URL"),
        oauth_authorization_servers=_http_urls("KM_OAUTH_AUTHORIZATION_SERVERS"),
        otlp_endpoint=(
            os.environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
            or os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT")
            or ""
        ),
        research=research_from_env(),
        research_cache_shared=_switch("KM_RESEARCH_CACHE_SHARED", False),
    )
