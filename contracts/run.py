"""The public contract of a mining run.

Every room imports these models: the workflow, its activities, the API, the CLI
and the MCP tool. Field names follow the seed design (camelCase on the wire).
Nothing here does I/O, so the workflow sandbox can import it freely.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from contracts.budget import Budget
from contracts.model_calls import DegradedStep, ModelLimits
from contracts.research import ResearchConfig, ResearchTask

TAG_PATTERN = re.compile(r"^[a-z0-9_]{1,64}$")
NOTE_NAMES = ("discovery-notes", "schema-notes", "validation-rules")
GLOBAL_THREAD = "global"
THREAD_SEPARATOR = "__"
# The memo key of who asked for a run: written by the REST API, the MCP tool, the CLI and
# a batch for its children; the worker hands it on to every activity of the run.
PRINCIPAL_MEMO = "principal"
# The memo key of the question (cut to QUERY_MEMO_CHARS): the runs list shows it.
QUERY_MEMO = "query"
QUERY_MEMO_CHARS = 300


class InvalidTagError(ValueError):
    """A domain tag that cannot name a memory folder."""


def normalize_tag(raw: str) -> str:
    """`#Supply_Chain` → `supply_chain`; anything else outside [a-z0-9_] is refused."""
    tag = raw.strip().lstrip("#").strip().lower()
    if not TAG_PATTERN.fullmatch(tag):
        raise InvalidTagError(
            f"invalid domain tag {raw!r}: after stripping '#' and lowercasing it must match "
            "^[a-z0-9_]{1,64}$ (letters, digits, underscore)"
        )
    if THREAD_SEPARATOR in tag or tag.startswith("_") or tag.endswith("_"):
        # `a__b` (or `a_` with `_b`) would name the same thread as other tags together.
        raise InvalidTagError(
            f"invalid domain tag {raw!r}: '{THREAD_SEPARATOR}' joins tags in a thread id, "
            "so a tag may neither contain it nor start or end with '_'"
        )
    return tag


def normalize_tags(raw: list[str]) -> list[str]:
    """Normalised, de-duplicated, sorted: the order a thread id is built from."""
    return sorted({normalize_tag(t) for t in raw})


def thread_id_for(tags: list[str]) -> str:
    """Runs with the same tags share memory: sorted tags joined by `__`, or `global`."""
    norm = normalize_tags(tags)
    return THREAD_SEPARATOR.join(norm) if norm else GLOBAL_THREAD


def memory_path(tag: str, note: str) -> str:
    return f"/memories/knowledge/{tag}/{note}.md"


def memory_tags(tags: list[str]) -> list[str]:
    """The folders a run reads and writes: its tags, or `global` with none."""
    return normalize_tags(tags) or [GLOBAL_THREAD]


class Phase(StrEnum):
    PLANNING = "PLANNING"
    DISCOVERY = "DISCOVERY"
    ENRICHMENT = "ENRICHMENT"
    VALIDATION = "VALIDATION"
    REVIEW = "REVIEW"
    PUBLISHING = "PUBLISHING"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    CANCELED = "CANCELED"


class MiningRequest(BaseModel):
    """What a user asks for. Tags are normalised on the way in."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1, max_length=4000)
    domainTags: list[str] = Field(default_factory=list, max_length=16)
    maxIterations: int = Field(default=4, ge=1, le=10)
    review: Literal["required", "auto"] = "required"
    reviewTimeoutSeconds: int = Field(default=7 * 24 * 3600, ge=1)
    # Deep research settings (seed 004); unset: the worker's KM_RESEARCH_* defaults.
    research: ResearchConfig | None = None
    # Limits on model calls, tokens and wall time, per run and per subagent.
    budget: Budget = Field(default_factory=Budget)
    # This run's model-call timeouts and attempts (a slow local model), field by field over
    # the worker's KM_MODEL_*; unset: the worker's.
    modelLimits: ModelLimits | None = None

    @field_validator("query")
    @classmethod
    def _query_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("query must not be blank")
        return value.strip()

    @field_validator("domainTags")
    @classmethod
    def _normalise_tags(cls, value: list[str]) -> list[str]:
        try:
            return normalize_tags(value)
        except InvalidTagError as exc:
            raise ValueError(str(exc)) from exc

    @property
    def threadId(self) -> str:
        return thread_id_for(self.domainTags)


class TrustSignals(BaseModel):
    confidence: float
    linkedToHighStakeAssets: bool
    averageLinkedStake: float
    # Evidence behind the confidence (mining/scoring.py): how relevant the claim is to
    # the question, how many independent sources state it, and whether stake was known.
    relevance: float | None = None
    independentSources: int = 0
    corroborated: bool = False
    stakeKnown: bool = True
    notes: list[str] = Field(default_factory=list)
    # How the claim is supported ("one source", "2 independent sources", "stated by a DKG
    # asset"), and whether validation proposes it to a reviewer: relevant and asserted,
    # only short of the evidence the bar asks for (mining/scoring.py).
    support: str = ""
    proposed: bool = False


class EvidenceRef(BaseModel):
    """Seed 002's EvidenceItem as the contract carries it."""

    source: str
    id: str | None = None
    snippet: str | None = None
    score: float = 0.0


class KGNodeRef(BaseModel):
    id: str
    name: str


class ContradictingFact(BaseModel):
    kg_fact_id: str
    evidence: list[EvidenceRef] = Field(default_factory=list)
    confidence: float = 0.0


ContradictionStatus = Literal["flagged", "under_review", "resolved", "deprecated"]


class ContradictionRecord(BaseModel):
    """Seed 002: a candidate fact and what contradicts it, until a reviewer resolves it."""

    id: str
    subject: KGNodeRef
    predicate: str
    object: KGNodeRef
    evidence: list[EvidenceRef] = Field(default_factory=list)
    confidence: float = 0.0
    contradiction_with: list[ContradictingFact] = Field(default_factory=list)
    status: ContradictionStatus = "flagged"
    created_at: str = ""
    resolved_at: str | None = None
    resolution_notes: str | None = None


class AnswerSentence(BaseModel):
    text: str
    candidateIds: list[str] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list)
    # A fact the DKG already states: cited by its existing assets, not proposed again.
    alreadyInDkg: bool = False
    # Reported from a claim awaiting review, worded by its support ("One source reports").
    hedged: bool = False


class Answer(BaseModel):
    """A short answer built only from accepted candidates, every sentence cited."""

    text: str = ""
    sentences: list[AnswerSentence] = Field(default_factory=list)
    evidenceFound: bool = False


class Provenance(BaseModel):
    sources: list[str]
    discoveredAt: str
    confidence: float | None = None
    evidence: list[dict[str, Any]] = Field(default_factory=list)


# Why review "auto" rejects a claim validation proposed to a reviewer: only what validation
# accepts is published unattended; the answer still reports it, hedged by its support.
AUTO_REVIEW_PROPOSED = "proposed for a reviewer: review auto publishes only accepted candidates"

ReviewStatus = Literal["pending", "revalidating", "approved", "rejected", "expired", "published"]


class Candidate(BaseModel):
    """A candidate Knowledge Asset with what the validation made of it."""

    id: str
    asset: dict[str, Any]
    kind: Literal["claim", "entity"] = "claim"
    accepted: bool = False
    reasoning: list[str] = Field(default_factory=list)
    status: ReviewStatus = "pending"
    edited: bool = False
    reviewNote: str | None = None
    publishedUal: str | None = None
    knownInDkg: list[str] = Field(default_factory=list)
    contradictions: list[ContradictionRecord] = Field(default_factory=list)



def validation_verdict(candidate: Candidate) -> Literal["accept", "proposed", "reject"]:
    """What validation said of a candidate: accepted, proposed to a reviewer (short of
    evidence only), or rejected."""
    if candidate.accepted:
        return "accept"
    signals = candidate.asset.get("trustSignals") or {}
    return "proposed" if signals.get("proposed") else "reject"


def auto_review_reason(candidate: Candidate) -> str:
    """Why review "auto" rejects a candidate validation did not accept: a claim validation
    proposed to a reviewer is rejected for publishing only, and the answer still reports
    it (mining/answer.py); anything else was not accepted."""
    proposed = validation_verdict(candidate) == "proposed"
    return AUTO_REVIEW_PROPOSED if proposed else "not accepted by validation"


class Todo(BaseModel):
    content: str
    status: str = "pending"
    agent: str = ""


class SpawnedSubagent(BaseModel):
    name: str
    task: str
    status: str


class FileInfo(BaseModel):
    path: str
    size: int


class Usage(BaseModel):
    modelCalls: int = 0
    toolCalls: int = 0
    inputTokens: int = 0
    outputTokens: int = 0
    # Estimated from the price table of workflows/budget.py; None for an unpriced model.
    costUsd: float | None = None
    # Tool calls the worker read from a reply's text, and replies refused back to the model
    # once (contracts/model_calls.py).
    toolCallsFromText: int = 0
    repliesRefused: int = 0


class Decision(BaseModel):
    """One reviewer decision. `asset` is required for `edit`."""

    model_config = ConfigDict(extra="forbid")

    candidateId: str
    action: Literal["approve", "edit", "reject"]
    asset: dict[str, Any] | None = None
    reason: str | None = None
    reviewer: str | None = None


class DecisionResult(BaseModel):
    candidateId: str
    status: ReviewStatus
    accepted: bool
    confidence: float | None = None


class PublishedAsset(BaseModel):
    candidateId: str
    ual: str


class Triplet(BaseModel):
    subject: str
    predicate: str
    object: str
    source: str | None = None
    kind: Literal["knowledge", "provenance"] = "knowledge"


class Workspace(BaseModel):
    """The live state a `workspace` query returns at any time."""

    runId: str = ""
    threadId: str = GLOBAL_THREAD
    query: str = ""
    domainTags: list[str] = Field(default_factory=list)
    phase: Phase = Phase.PLANNING
    phaseHistory: list[Phase] = Field(default_factory=lambda: [Phase.PLANNING])
    todos: list[Todo] = Field(default_factory=list)
    spawnedSubagents: list[SpawnedSubagent] = Field(default_factory=list)
    filesystemFiles: list[FileInfo] = Field(default_factory=list)
    memoryWrites: list[str] = Field(default_factory=list)
    candidates: list[Candidate] = Field(default_factory=list)
    pendingApprovals: list[str] = Field(default_factory=list)
    decisions: list[Decision] = Field(default_factory=list)
    publishedAssets: list[PublishedAsset] = Field(default_factory=list)
    triplets: list[Triplet] = Field(default_factory=list)
    synthesizedReport: str | None = None
    answer: Answer | None = None
    summary: str | None = None
    usage: Usage = Field(default_factory=Usage)
    errors: list[str] = Field(default_factory=list)
    # The discovery's research task: plan, sub-questions with statuses, cache reuse.
    research: ResearchTask | None = None
    usageBySubagent: dict[str, Usage] = Field(default_factory=dict)
    # Budgets that stopped a subagent early (its results are partial).
    budgetStops: list[str] = Field(default_factory=list)
    # Steps that went on without their model (it failed for good, or ended without doing
    # the step's work): the run completes, these say what it lacks.
    degradedSteps: list[DegradedStep] = Field(default_factory=list)
    # The run's Temporal history so far (events, bytes): payloads are capped at 2 MB each
    # and a history at 50 MB, so operators watch these (docs/operations.md).
    # Summed over the runs of a continue-as-new chain (each run's size at its last workflow
    # task); `historyRuns` counts them (1: the run never continued as new).
    historyEvents: int = 0
    historyBytes: int = 0
    historyRuns: int = 1


class KnowledgeMinerResponse(BaseModel):
    """The seed's output JSON plus what a durable run adds."""

    summary: str
    answer: Answer = Field(default_factory=Answer)
    candidateAssets: list[dict[str, Any]]
    domainTags: list[str]
    memoryWrites: list[str]
    todos: list[str]
    spawnedSubagents: list[SpawnedSubagent]
    filesystemFiles: list[FileInfo]
    synthesizedReport: str
    runId: str
    threadId: str
    phase: Phase
    decisions: list[Decision]
    publishedAssets: list[PublishedAsset]
    triplets: list[Triplet]
    usage: Usage
    usageBySubagent: dict[str, Usage] = Field(default_factory=dict)
    budgetStops: list[str] = Field(default_factory=list)
    degradedSteps: list[DegradedStep] = Field(default_factory=list)


class MiningInput(BaseModel):
    """The workflow's own input: lenient on purpose.

    A request that fails validation must fail the *run* with a clear message
    (not crash-loop the workflow task on decode), so the workflow validates it
    into a `MiningRequest` itself.
    """

    model_config = ConfigDict(extra="allow")

    query: Any = None
    domainTags: Any = None
    maxIterations: Any = None
    review: Any = None
    reviewTimeoutSeconds: Any = None
    research: Any = None
    budget: Any = None
    # Set only by the run itself when it continues as new: the next run's starting state
    # (workflows/continuation.py RunCheckpoint), never part of the request.
    continued: Any = None


class RuntimeConfig(BaseModel):
    model: str
    search: str
    dkg: str
    # The worker's research defaults (KM_RESEARCH_*), used when a request sets none.
    research: ResearchConfig | None = None
    # The task queue of the DKG / search tool activities when a worker of its own owns the
    # DKG (`kminer worker --role tools`); None: the run's own task queue.
    toolTaskQueue: str | None = None
    # Queues of the model calls and of publishing when workers of their own serve them
    # (`kminer worker --role models` / `--role publish`); None: as before they existed.
    modelTaskQueue: str | None = None
    publishTaskQueue: str | None = None
    # History bytes past which the run continues as new at its next safe point; None (runs
    # recorded before this existed): never.
    continueAsNewBytes: int | None = None
    # The worker's model-call limits (KM_MODEL_*); None (runs recorded before): the defaults.
    modelLimits: ModelLimits | None = None
