"""Deep research contracts (seed 004): task, sub-question, result, status, config.

Seed 004's field names are kept (`ResearchTask`, `ResearchSubtask`, `ResearchQuestion`,
`ResearchQuestionResult`, `ResearchTaskStatus`, `ResearchConfig`); the node types are
this service's tools. The activity argument and result models of the research steps
live here too, so the workflow builds them without importing any I/O code.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from contracts.tools import Statement, ToolMetadata

NodeType = Literal["dkg_sparql", "web_search", "document_search", "memory_search"]
NODE_TYPES: tuple[str, ...] = ("dkg_sparql", "web_search", "document_search", "memory_search")
# Node types whose sub-questions read passages (their statements feed enrichment).
SEARCH_NODES = frozenset({"web_search", "document_search"})


class ResearchTaskStatus(StrEnum):
    PENDING = "PENDING"
    PLANNING = "PLANNING"
    GATHERING = "GATHERING"
    PROCESSING = "PROCESSING"
    SYNTHESIZING = "SYNTHESIZING"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    CANCELED = "CANCELED"


class ResearchConfig(BaseModel):
    """Seed 004's user configuration, with its bounds (per request, or env defaults)."""

    model_config = ConfigDict(extra="forbid")

    max_subtasks: int = Field(default=6, ge=1, le=10)
    similarity_threshold: float = Field(default=0.8, ge=0.0, le=1.0)
    max_age_days: int = Field(default=30, ge=1, le=365)
    max_concurrent_subtasks: int = Field(default=3, ge=1, le=10)
    enable_caching: bool = True
    search_results_per_question: int = Field(default=5, ge=1, le=20)
    synthesis_max_length: int = Field(default=2000, ge=100, le=20_000)


class ResearchQuestion(BaseModel):
    id: int
    question: str
    keywords: list[str] = Field(default_factory=list)
    node_type: NodeType
    node_config: dict[str, Any] = Field(default_factory=dict)
    execution_priority: int = Field(default=1, ge=1)


class ResearchQuestionResult(BaseModel):
    id: int
    sources: list[str] = Field(default_factory=list)
    synthesized_answer: str = ""
    error_message: str | None = None


class ResearchSubtask(BaseModel):
    id: int
    task_id: str
    question: ResearchQuestion
    result: ResearchQuestionResult | None = None
    status: ResearchTaskStatus = ResearchTaskStatus.PENDING
    error_message: str | None = None
    created_at: str = ""
    updated_at: str = ""
    # When its sub-question ran, as the worker measured it (seconds since the epoch).
    started: float | None = None
    ended: float | None = None
    statements: int = 0


class ResearchTask(BaseModel):
    """One research task: the run's question, its plan and how each sub-question went.

    `id` is the run id (a workflow has no integer key); `conversation_id` the thread.
    The question's embedding stays in the research cache, not in the workspace.
    """

    id: str = ""
    user_id: str | None = None
    query: str = ""
    conversation_id: str = ""
    status: ResearchTaskStatus = ResearchTaskStatus.PENDING
    error_message: str | None = None
    plan: str = ""
    subtasks: list[ResearchSubtask] = Field(default_factory=list)
    created_at: str = ""
    updated_at: str = ""
    completed_at: str | None = None
    config: ResearchConfig = Field(default_factory=ResearchConfig)
    synthesis: str = ""
    # A cache hit: the earlier task whose evidence this run reused, and how similar.
    reusedTaskId: str | None = None
    similarity: float | None = None
    cacheHit: bool = False
    # The cache lookup's standard tool metadata (cache_hit, source_id, elapsed_ms, count).
    cacheLookup: ToolMetadata | None = None


# -- activity contracts -------------------------------------------------------------------


class PlanArgs(BaseModel):
    query: str
    domainTags: list[str] = Field(default_factory=list)
    memory: dict[str, str] = Field(default_factory=dict, description="note path -> text")
    maxSubtasks: int = Field(default=6, ge=1, le=10)
    # The run's search backend: `local-corpus` plans document_search, anything else web_search.
    search: str = "local-corpus"
    resultsPerQuestion: int = Field(default=5, ge=1, le=20)
    # Results for the question itself (the breadth discovery used before plans existed).
    primaryResults: int = Field(default=12, ge=1, le=20)


class PlanResult(BaseModel):
    plan: str
    questions: list[ResearchQuestion]


class GatherArgs(BaseModel):
    """One priority group's sub-questions, gathered concurrently in one activity."""

    runId: str
    query: str = Field(description="The run's question: statements are scored against it")
    questions: list[ResearchQuestion]
    maxConcurrent: int = Field(default=3, ge=1, le=10)
    memory: dict[str, str] = Field(default_factory=dict)
    seenPassages: list[str] = Field(
        default_factory=list, description="passages an earlier group already read"
    )
    synthesisMaxLength: int = 2000


class SubtaskOutcome(BaseModel):
    id: int
    status: ResearchTaskStatus
    error_message: str | None = None
    sources: list[str] = Field(default_factory=list)
    finding: str = ""
    statements: list[Statement] = Field(default_factory=list)
    passages: list[str] = Field(default_factory=list)
    started: float = 0.0
    ended: float = 0.0


class GatherResult(BaseModel):
    outcomes: list[SubtaskOutcome]
    maxInFlight: int = 0


class CacheLookupArgs(BaseModel):
    threadId: str
    query: str
    similarityThreshold: float = 0.8
    maxAgeDays: int = 30
    now: str = Field(description="The run's clock (ISO 8601), so age is judged at one time")


class CacheHit(BaseModel):
    taskId: str
    query: str
    similarity: float
    createdAt: str
    plan: str = ""
    questions: list[ResearchQuestion] = Field(default_factory=list)
    statements: list[Statement] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list)
    synthesis: str = ""


class CacheLookupResult(BaseModel):
    hit: CacheHit | None = None
    considered: int = 0
    metadata: ToolMetadata = Field(default_factory=ToolMetadata)


class CacheStoreArgs(BaseModel):
    taskId: str
    threadId: str
    query: str
    plan: str
    questions: list[ResearchQuestion]
    statements: list[Statement]
    sources: list[str]
    synthesis: str
    completedAt: str
