"""Worker bootstrap: build the activities' dependencies from settings and poll."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import timedelta
from functools import partial
from typing import Any

from temporalio.client import Client
from temporalio.worker import UnsandboxedWorkflowRunner, Worker, WorkflowRunner
from temporalio.worker.workflow_sandbox import SandboxedWorkflowRunner

from activities.answer import compose_answer_activity
from activities.audit import AuditActivities
from activities.common import Auditor
from activities.dkg import DkgActivities
from activities.embeddings import OpenAiEmbedder, shared_minilm
from activities.enrichment import EnrichmentActivities
from activities.memory import MemoryActivities
from activities.research_cache import ResearchCacheActivities
from activities.research_gather import ResearchGatherActivities
from activities.research_plan import ResearchPlanActivities
from activities.runtime import RuntimeActivities
from activities.search import CorpusSearch, SearchActivities, TavilySearch
from activities.statements import StatementActivities
from activities.validation import ValidationActivities
from contracts.activity_names import (
    DKG_FIND_DUPLICATES,
    DKG_FIND_RELATED_ASSETS,
    DKG_GET_ASSET,
    DKG_GET_ASSET_METADATA,
    DKG_PUBLISH_ASSET,
    DKG_SPARQL,
    EXTRACT_STATEMENTS,
    PLAN_RESEARCH,
    PROPOSE_KNOWLEDGE_ASSETS,
    RESEARCH_GATHER,
    SCORE_CANDIDATES,
    WEB_SEARCH,
)
from contracts.run import RuntimeConfig
from kminer.config import Settings
from kminer.model_provider import build_model_provider
from kminer.payload_converter import data_converter
from kminer.principal_propagation import PrincipalInterceptor
from kminer.tracing import tracing_interceptors
from mining.relevance import Embedder
from storage.corpus.index import CorpusIndex
from storage.dkg.embedded import EmbeddedDkg
from storage.dkg.factory import open_dkg
from storage.dkg.interface import DkgError, DkgValidationError
from storage.sql.audit_log import AuditLog
from storage.sql.db import make_engine
from storage.sql.memory_repo import MemoryRepository
from temporal_client.telemetry import telemetry_runtime
from workflows.batch import BatchWorkflow
from workflows.mining import MiningWorkflow

# temporalio-deepagents' serde warns on every message it loads; only that one is noise.
warnings.filterwarnings("ignore", message=".*allowed_objects.*")
warnings.filterwarnings("ignore", message="The function `load` is in beta")
# Our agent tools dispatch to activities themselves (workflows/agent_tools.py), which
# the plugin cannot see; its "unwrapped tool" warning does not apply to them.
warnings.filterwarnings("ignore", message="Tool '.*' is passed to create_deep_agent unwrapped")


def deepagents_plugin(settings: Settings, engine: Any = None, model_provider: Any = None) -> Any:
    """The plugin: model provider, and with a database the `/memories/` backend factory."""
    from temporalio.deepagents import DeepAgentsPlugin

    backends = {}
    if engine is not None:
        from storage.sql.memory_backend import SqlMemoryBackend

        repo = MemoryRepository(engine)
        backends["memory"] = lambda scope: SqlMemoryBackend(repo, scope["runId"], scope["tags"])
    return DeepAgentsPlugin(
        model_provider=model_provider or build_model_provider(settings.openai_base_url),
        backends=backends,
        data_converter=data_converter(),
    )


def warm_up(services: Services) -> None:
    """Load what the first run would otherwise wait for: deepagents' version scan, the
    DKG's label index and a SPARQL evaluator process, the parser and the offline
    embedding model (about 1 to 2 s here, once per process)."""
    from workflows.agent_graphs import warm_graph_builds

    warm_graph_builds()
    if services.dkg is None:
        return
    from mining.parsing import parse

    services.dkg.gazetteer()
    if isinstance(services.dkg, EmbeddedDkg) and services.dkg.path is not None:
        services.dkg.query("ASK { ?s ?p ?o }")  # starts an evaluator (~0.2 s)
    parse("Tianqi Lithium supplies lithium carbonate to CATL.")
    embedder = services.embedder
    if embedder is not None and not isinstance(embedder, OpenAiEmbedder):
        embedder.embed(["warm-up"])  # no network call is made to warm a model


def build_embedder(settings: Settings) -> Embedder:
    """OpenAI embeddings when configured (OPENAI_API_KEY), the offline MiniLM otherwise."""
    if settings.embeddings.startswith("openai:"):
        return OpenAiEmbedder(settings.embeddings.removeprefix("openai:"), settings.openai_base_url)
    return shared_minilm()


# The activities that need the DKG or the search index: on KM_TOOL_TASK_QUEUE when set.
TOOL_ACTIVITIES = frozenset(
    {
        DKG_GET_ASSET,
        DKG_SPARQL,
        DKG_GET_ASSET_METADATA,
        DKG_FIND_RELATED_ASSETS,
        DKG_FIND_DUPLICATES,
        DKG_PUBLISH_ASSET,
        WEB_SEARCH,
        EXTRACT_STATEMENTS,
        PROPOSE_KNOWLEDGE_ASSETS,
        SCORE_CANDIDATES,
        # The research task's plan reads the DKG; gathering searches and extracts.
        PLAN_RESEARCH,
        RESEARCH_GATHER,
    }
)


@dataclass
class Services:
    """The long-lived things activities share inside one worker process."""

    dkg: Any  # EmbeddedDkg or RemoteDkg: the `Dkg` protocol of activities/dkg.py; None: none
    engine: Any
    search: Any
    embedder: Any = None

    def close(self) -> None:
        try:
            if self.dkg is not None:
                self.dkg.close()
        finally:
            self.engine.dispose()


def open_services(settings: Settings, with_dkg: bool = True) -> Services:
    """The database (migrated to head), and unless `with_dkg` is False the DKG and search."""
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    engine = make_engine(settings.database_url)
    if not with_dkg:
        return Services(dkg=None, engine=engine, search=None)
    try:
        dkg = open_dkg(settings.dkg_node_url, settings.data_dir, settings.seed_dir)
    except BaseException:
        engine.dispose()
        raise
    embedder = build_embedder(settings)
    try:
        if settings.tavily_api_key:
            search: Any = TavilySearch(settings.tavily_api_key, settings.tavily_base_url)
        else:
            index = CorpusIndex(settings.data_dir / "corpus.db", settings.corpus_dir)
            search = CorpusSearch(index, embedder)
    except BaseException:
        Services(dkg=dkg, engine=engine, search=None).close()
        raise
    return Services(dkg=dkg, engine=engine, search=search, embedder=embedder)


def search_name(settings: Settings) -> str:
    return "tavily" if settings.tavily_api_key else "local-corpus"


def activities_for(settings: Settings, services: Services) -> list[Any]:
    """Every activity; the DKG / search ones only when this process holds the DKG."""
    audit_log = AuditLog(services.engine) if services.engine is not None else None
    runtime = RuntimeActivities(
        RuntimeConfig(
            model=settings.model_name,
            search=search_name(settings),
            dkg="remote" if settings.dkg_node_url else "embedded",
            research=settings.research,
            toolTaskQueue=settings.tool_task_queue,
            modelTaskQueue=settings.model_task_queue,
            publishTaskQueue=settings.publish_task_queue,
            continueAsNewBytes=settings.continue_as_new_bytes,
            modelLimits=settings.model_limits,
        )
    )
    memory = MemoryActivities(
        MemoryRepository(services.engine), audit_log, settings.memory_note_chars
    )
    audit = AuditActivities(audit_log)
    # The research cache needs only the database and the embeddings: every worker has it,
    # since it runs as a local activity beside the workflow.
    embedder = services.embedder or build_embedder(settings)
    cache = ResearchCacheActivities(services.engine, embedder, settings.research_cache_shared)
    cheap = [
        runtime.get_runtime_config,
        memory.load_memory_notes,
        memory.append_memory_notes,
        audit.audit_decisions,
        compose_answer_activity,
        cache.research_cache_lookup,
        cache.research_cache_store,
    ]
    if services.dkg is None:
        return cheap
    auditor = Auditor(services.engine)
    dkg = DkgActivities(services.dkg, services.engine, (DkgError,), (DkgValidationError,))
    search = SearchActivities(services.search, services.dkg, auditor)
    statements = StatementActivities(services.dkg, embedder, auditor)
    enrichment = EnrichmentActivities(services.dkg, embedder, auditor)
    validation = ValidationActivities(services.dkg, auditor)
    # document_search reads the local corpus; with Tavily as the web, a worker has none.
    documents = services.search if isinstance(services.search, CorpusSearch) else None
    plan = ResearchPlanActivities(services.dkg)
    gather = ResearchGatherActivities(services.search, documents, services.dkg, statements, auditor)
    return cheap + [
        dkg.dkg_get_asset,
        dkg.dkg_sparql,
        dkg.dkg_get_asset_metadata,
        dkg.dkg_find_related_assets,
        dkg.dkg_find_duplicates,
        dkg.dkg_publish_asset,
        search.web_search,
        statements.extract_statements,
        enrichment.propose_knowledge_assets,
        validation.score_candidates,
        plan.plan_research,
        gather.research_gather,
    ]


# Publishing on KM_PUBLISH_TASK_QUEUE when set (else with the tools); it writes the DKG too.
PUBLISH_ACTIVITIES = frozenset({DKG_PUBLISH_ASSET})
# The plugin's model-call activities: every worker registers them (DeepAgentsPlugin), and a
# run sends them to KM_MODEL_TASK_QUEUE when set.
MODEL_ACTIVITIES = frozenset({"deepagents.invoke_model", "deepagents.invoke_model_streaming"})
HEARTBEAT_THROTTLE = timedelta(seconds=1)
# Roles whose activities open the DKG (and the search index).
DKG_ROLES = frozenset({"all", "tools", "publish"})


class RoleError(ValueError):
    """A worker role this configuration cannot run (one line for the CLI)."""


def role_queues(settings: Settings, roles: list[str]) -> dict[str, str]:
    """The queue each role of this process polls; `all` means every configured queue."""
    configured = {
        "workflows": settings.task_queue,
        "models": settings.model_task_queue,
        "tools": settings.tool_task_queue,
        "publish": settings.publish_task_queue,
    }
    if roles == ["all"]:
        everything = {role: queue for role, queue in configured.items() if queue}
        if len(set(everything.values())) < len(everything):
            raise RoleError("KM_TASK_QUEUE and the KM_*_TASK_QUEUE variables must differ")
        return everything
    needs = {
        # Without a tool queue the tools run on the main queue, which this role leaves alone.
        "workflows": "KM_TOOL_TASK_QUEUE",
        "models": "KM_MODEL_TASK_QUEUE",
        "tools": "KM_TOOL_TASK_QUEUE",
        "publish": "KM_PUBLISH_TASK_QUEUE",
    }
    for role in roles:
        variable = needs[role]
        if not (settings.tool_task_queue if role == "workflows" else configured[role]):
            raise RoleError(f"--role {role} needs {variable} (its task queue)")
    chosen = {role: configured[role] or "" for role in roles}
    if len(set(chosen.values())) < len(chosen):
        raise RoleError(f"roles {', '.join(roles)} would poll the same task queue twice")
    return chosen


def workflow_runner(settings: Settings) -> WorkflowRunner:
    """Temporal's sandbox when KM_WORKFLOW_SANDBOX is on, else workflow code runs as is."""
    return SandboxedWorkflowRunner() if settings.workflow_sandbox else UnsandboxedWorkflowRunner()


def _worker(
    client: Client,
    settings: Settings,
    queue: str,
    activities: list[Any],
    workflows: bool,
    role: str = "all",
) -> Worker:
    return Worker(
        client,
        task_queue=queue,
        workflows=[MiningWorkflow, BatchWorkflow] if workflows else [],
        workflow_runner=workflow_runner(settings),
        activities=activities,
        max_concurrent_activities=settings.worker_concurrency,
        # Local activities (the cheap steps) run beside the workflow tasks.
        max_concurrent_local_activities=settings.worker_concurrency,
        # Server-side, per queue: a model queue kept under the provider's rate limit.
        max_task_queue_activities_per_second=settings.queue_rate_limit,
        graceful_shutdown_timeout=timedelta(seconds=settings.shutdown_grace_seconds),
        # Heartbeats reach the server up to every second (not only every 0.8 x an activity's
        # heartbeat timeout): a slow model call beats each second (activities/chat_model.py).
        max_heartbeat_throttle_interval=HEARTBEAT_THROTTLE,
        interceptors=[PrincipalInterceptor()],
        # pid@host/role: a history shows which process, and which of its workers, ran a task.
        identity=f"{client.identity}/{role}",
    )


def build_workers(
    client: Client, settings: Settings, services: Services, roles: list[str] | None = None
) -> list[Worker]:
    """The Temporal workers of one process, one per queue its `roles` poll
    (kminer.config.WORKER_ROLES; default `all`)."""
    return [build() for build in worker_builders(client, settings, services, roles)]


def worker_builders(
    client: Client, settings: Settings, services: Services, roles: list[str] | None = None
) -> list[Callable[[], Worker]]:
    """How to build each worker of `build_workers`, again whenever one is needed (a
    supervisor replaces a worker that stopped: kminer/supervisor.py)."""
    queues = role_queues(settings, roles or ["all"])
    activities = activities_for(settings, services)

    def named(names: frozenset[str]) -> list[Any]:
        return [a for a in activities if a.__temporal_activity_definition.name in names]

    tools, publish = named(TOOL_ACTIVITIES), named(PUBLISH_ACTIVITIES)
    others = [a for a in activities if a not in tools]
    # Without a queue of its own a kind of activity stays where it ran before: publishing
    # with the tools, the tools (and the model calls, registered by the plugin) on the main
    # queue; so the main queue's worker takes what has no queue of its own.
    main = activities if not settings.tool_task_queue else others
    served = {
        "workflows": (main, True),
        "models": ([], False),  # the plugin adds its model activities to every worker
        "tools": (tools, False),
        "publish": (publish, False),
    }
    return [
        partial(_worker, client, settings, queue, served[role][0], served[role][1], role)
        for role, queue in queues.items()
    ]


def build_worker(client: Client, settings: Settings, services: Services) -> Worker:
    """One worker with everything on the main queue (the tests' workers)."""
    settings = replace(
        settings, tool_task_queue=None, model_task_queue=None, publish_task_queue=None
    )
    return _worker(client, settings, settings.task_queue, activities_for(settings, services), True)


async def connect(settings: Settings, address: str, engine: Any = None) -> Client:
    """A client with the plugin (its data converter); pass the engine on worker processes."""
    return await Client.connect(
        address,
        namespace=settings.temporal_namespace,
        plugins=[deepagents_plugin(settings, engine)],
        interceptors=tracing_interceptors(settings),
        runtime=telemetry_runtime(),
    )
