"""Contracts of the agents' tools: argument models, the standard response, names.

The workflow advertises these to the model and dispatches each call to the
activity of the same name; `activities/` implements them. Keeping the models
here lets the workflow build tools without importing any I/O code.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from contracts.activity_names import (
    DKG_FIND_DUPLICATES,
    DKG_FIND_RELATED_ASSETS,
    DKG_GET_ASSET,
    DKG_GET_ASSET_METADATA,
    DKG_SPARQL,
    EXTRACT_STATEMENTS,
    PROPOSE_KNOWLEDGE_ASSETS,
    SCORE_CANDIDATES,
    WEB_SEARCH,
)

# Tool results travel through workflow history; anything bigger is truncated or
# stored as a blob so one run's history stays a few MB.
MAX_TOOL_RESULT_CHARS = 24_000
# Proposals are the run's candidates: they must arrive whole (an asset cut off is a
# candidate lost), so they get a larger cap, still far below Temporal's 2 MB per payload.
MAX_PROPOSAL_CHARS = 240_000


class ToolMetadata(BaseModel):
    elapsed_ms: int = 0
    # Answered from a cache (the research cache), and what it reused (a research task id).
    cache_hit: bool = False
    source_id: str | None = None
    truncated: bool = False
    count: int = 0
    blobRef: str | None = None
    # extract_statements: statements left out below the relevance floor, and that floor.
    filtered: int = 0
    relevanceFloor: float | None = None
    bestRelevance: float | None = None
    # extract_statements: texts not read, over their reading budget (source#passage).
    skipped: list[str] = Field(default_factory=list)


class ProvenanceItem(BaseModel):
    source: str
    source_id: str | None = None
    evidence_snippet: str | None = None
    evidence_score: float | None = None


class ToolResponse(BaseModel):
    """Seed 002's standard tool response: every tool answers in this shape."""

    success: bool
    results: list[dict[str, Any]] = Field(default_factory=list)
    metadata: ToolMetadata = Field(default_factory=ToolMetadata)
    provenance: list[ProvenanceItem] = Field(default_factory=list)
    error: str | None = None


class SparqlArgs(BaseModel):
    query: str = Field(
        description="A read-only SPARQL 1.1 query (SELECT, ASK, CONSTRUCT, DESCRIBE)"
    )
    limit: int = Field(default=100, ge=1, le=1000, description="Row cap")


class UalArgs(BaseModel):
    ual: str = Field(description="Universal Asset Locator, did:dkg:<chain>/<contract>/<tokenId>")


class MetadataArgs(BaseModel):
    ual: str | None = Field(default=None, description="One UAL")
    uals: list[str] = Field(default_factory=list, description="Several UALs at once")


class FindRelatedArgs(BaseModel):
    text: str = Field(description="An entity name, identifier or free text")
    limit: int = Field(default=5, ge=1, le=50)


class FindDuplicatesArgs(BaseModel):
    assets: list[dict[str, Any]] = Field(description="Candidate JSON-LD assets")


class SearchArgs(BaseModel):
    query: str
    maxResults: int = Field(default=5, ge=1, le=20)


class SourceDocument(BaseModel):
    """A text to read: a search hit's passage or a DKG asset's description."""

    text: str = Field(max_length=20_000)
    source: str = Field(description="URL of the page, file:// URI, or UAL of a DKG asset")
    title: str | None = None
    published: str | None = Field(default=None, description="YYYY-MM-DD when known")
    passageId: str | None = Field(default=None, description="Corpus passage id, if any")
    start: int | None = Field(default=None, description="Offset of `text` in its document")
    tier: str | None = Field(default=None, description="Declared reliability: high/medium/low")
    subject: str | None = Field(
        default=None, description="The entity a DKG description is about (its label)"
    )
    names: list[str] = Field(
        default_factory=list,
        max_length=40,
        description="Full names the whole document uses, for short forms in this passage",
    )
    context: str = Field(
        default="",
        max_length=1_000,
        description="The sentences just before the passage in its document, read only for "
        "what the passage's 'the outbreak' or 'the company' refers to",
    )


class ExtractArgs(BaseModel):
    documents: list[SourceDocument] = Field(
        description="Texts with their source URL or UAL", max_length=60
    )
    query: str = Field(
        default="",
        description="The user's question: statements are scored "
        "for relevance to it and those below the relevance floor are left out",
    )


class EvidenceItem(BaseModel):
    """Seed 002's EvidenceItem, with what scoring needs to weigh it."""

    source: str
    id: str | None = Field(default=None, description="Passage id or source#char=start,end")
    snippet: str | None = None
    score: float = Field(default=0.0, description="Relevance of the snippet to the question")
    published: str | None = None
    title: str | None = None
    tier: str | None = None
    kind: str = Field(default="text", description="text | dkg-text | dkg-structure")


class Statement(BaseModel):
    """A relation found in a source, as `extract_statements` returns it."""

    subject: str
    subjectUal: str | None = None
    subjectType: str | None = None
    # Another name the source uses for the entity: its words here, where the DKG knows it
    # by another label ("HSE" for "Feidhmeannacht na Seirbhise Slainte"), or the
    # abbreviation the text gave it ("EDF"): kept as the claim's alternateName.
    subjectText: str | None = None
    predicate: str
    object: str
    objectUal: str | None = None
    objectText: str | None = None
    objectType: str | None = None
    goods: str | None = Field(
        default=None,
        description="What a supply supplies or a contract is for (\"lithium hydroxide\")",
    )
    goodsUal: str | None = None
    goodsType: str | None = None
    sentence: str = ""
    source: str = ""
    sourceTitle: str | None = None
    passageId: str | None = None
    start: int | None = Field(default=None, description="Sentence offset in its document")
    end: int | None = None
    published: str | None = None
    tier: str | None = None
    negated: bool = False
    hedged: bool = False
    method: str = "dependency"
    relevance: float = 0.0


class ProposeArgs(BaseModel):
    statements: list[Statement]
    links: dict[str, str] = Field(
        default_factory=dict, description="Entity name -> UAL of the existing DKG asset"
    )
    domainTags: list[str] = Field(default_factory=list)
    query: str = ""
    maxCandidates: int = Field(default=8, ge=1, le=50)


class ProposeToolArgs(ProposeArgs):
    """`propose_knowledge_assets` as the model calls it: the discovery statements by reference.

    The workflow resolves the reference (workflows/statement_refs.py) and the activity
    receives plain `ProposeArgs`, so the model never has to repeat every statement's
    sentence and provenance.
    """

    statements: list[Statement] = Field(
        default_factory=list,
        description="Statements of your own, each quoting its source sentence (the "
        "discovery statements travel by statementsRef)",
    )
    statementsRef: str | None = Field(
        default=None,
        description="'/research/statements.json': every statement discovery found",
    )


def unknown_reference(field: str, given: str | None, known: str) -> str | None:
    """Why a model's reference (`statementsRef`, `candidatesRef`) is refused, naming the one
    to use; None when it gives that one, or none."""
    return None if given in (None, known) else f"unknown {field} {given!r}: use {known}"


class ScoreArgs(BaseModel):
    candidates: list[dict[str, Any]] = Field(description="Candidate JSON-LD assets with ids")
    threshold: float | None = Field(default=None, ge=0, le=1)
    validationRules: str = Field(default="", description="validation-rules.md text")


class ScoreToolArgs(ScoreArgs):
    """`score_candidates` as the model calls it: the run's candidates by reference.

    The workflow resolves the reference (workflows/candidate_refs.py) and the activity
    receives plain `ScoreArgs`, so the model never has to repeat the candidates' JSON-LD.
    """

    candidates: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Candidates to score: {candidateId} alone stands for the run's candidate "
        "as proposed; an entry with its own `asset` is scored as given",
    )
    candidatesRef: str | None = Field(
        default=None,
        description="'/research/candidates.jsonld': score every candidate of the run",
    )


class PublishArgs(BaseModel):
    runId: str
    candidateId: str
    asset: dict[str, Any]
    domain: str | None = None


class PublishResult(BaseModel):
    candidateId: str
    ual: str
    created: bool


class AnswerArgs(BaseModel):
    """What `compose_answer` builds the answer from: the run's candidates as they stand."""

    query: str
    candidates: list[dict[str, Any]] = Field(default_factory=list)
    statementsFound: int = 0
    sourcesSearched: int = 0


class LoadNotesInput(BaseModel):
    tags: list[str]


class AppendNotesInput(BaseModel):
    runId: str
    step: str
    tags: list[str]
    note: str
    lines: list[str]


class AppendNotesOutput(BaseModel):
    paths: list[str]
    appended: int


class DecisionAuditArgs(BaseModel):
    """A batch of review decisions to audit; `first` is the first one's index in the run."""

    runId: str
    first: int
    decidedAt: str
    decisions: list[dict[str, Any]]


TOOL_DESCRIPTIONS: dict[str, str] = {
    DKG_GET_ASSET: "Fetch a Knowledge Asset from the OriginTrail DKG by its UAL.",
    DKG_SPARQL: (
        "Run a read-only SPARQL query against the OriginTrail DKG graph. Each asset is a named "
        "graph named by its UAL; metadata (dkg:stakeAmount, dkg:publisher, dkg:publishTime, "
        "dkg:updateCount, rdfs:label) is in graph <did:dkg:metadata>."
    ),
    DKG_GET_ASSET_METADATA: (
        "Get ERC-721 metadata for Knowledge Assets: stake amount (TRAC), publisher, publish "
        "time, update count."
    ),
    DKG_FIND_RELATED_ASSETS: (
        "Find existing DKG assets whose label or identifier matches a name; returns UALs ranked."
    ),
    DKG_FIND_DUPLICATES: "Find existing DKG assets that duplicate candidate assets.",
    WEB_SEARCH: "Search the web (or the local document corpus) for real-time information.",
    EXTRACT_STATEMENTS: (
        "Extract typed relation statements (supplies, produces, restrictsExportsOf, "
        "affectedBy, ...) between named entities from texts, known to the DKG or new, each "
        "with its sentence, passage and character offsets as provenance. Give the user's "
        "question as `query`: statements are scored for relevance to it and those below "
        "the relevance floor are left out."
    ),
    PROPOSE_KNOWLEDGE_ASSETS: (
        "Turn relevant statements into candidate JSON-LD Knowledge Assets: one claim per "
        "fact carrying every evidence item, both ends resolved against the DKG and linked "
        "by UAL, new entities proposed beside them, DKG corroboration and contradiction "
        "records attached, with knowledge and provenance triplets. Pass statementsRef "
        "'/research/statements.json' for every statement discovery found."
    ),
    SCORE_CANDIDATES: (
        "Validate candidates: required fields, duplicates, contradictions with existing assets, "
        "stake of linked assets; returns trustSignals, accept/reject with reasoning and a report. "
        "Pass candidatesRef '/research/candidates.jsonld' for all of the run's candidates."
    ),
}

TOOL_ARGS: dict[str, type[BaseModel]] = {
    DKG_GET_ASSET: UalArgs,
    DKG_SPARQL: SparqlArgs,
    DKG_GET_ASSET_METADATA: MetadataArgs,
    DKG_FIND_RELATED_ASSETS: FindRelatedArgs,
    DKG_FIND_DUPLICATES: FindDuplicatesArgs,
    WEB_SEARCH: SearchArgs,
    EXTRACT_STATEMENTS: ExtractArgs,
    PROPOSE_KNOWLEDGE_ASSETS: ProposeToolArgs,
    SCORE_CANDIDATES: ScoreToolArgs,
}

DISCOVERY_TOOLS = [
    DKG_GET_ASSET,
    DKG_SPARQL,
    DKG_FIND_RELATED_ASSETS,
    WEB_SEARCH,
    EXTRACT_STATEMENTS,
]
ENRICHMENT_TOOLS = [
    DKG_GET_ASSET,
    DKG_SPARQL,
    DKG_FIND_RELATED_ASSETS,
    PROPOSE_KNOWLEDGE_ASSETS,
]
VALIDATION_TOOLS = [
    DKG_GET_ASSET,
    DKG_SPARQL,
    DKG_GET_ASSET_METADATA,
    DKG_FIND_DUPLICATES,
    SCORE_CANDIDATES,
]


# What of a search hit an extracted statement keeps as its provenance.
PASSAGE_FIELDS = {"title": "title", "published": "published", "passageId": "passageId",
                  "start": "start", "tier": "tier", "names": "names",
                  "context": "context"}  # fmt: skip


def search_hit_documents(hits: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """web_search hits as extract_statements documents, passage provenance kept."""
    docs = []
    for h in hits:
        doc = {"text": h.get("content", ""), "source": h.get("url", "")}
        doc.update({k: h[f] for k, f in PASSAGE_FIELDS.items() if h.get(f) is not None})
        docs.append(doc)
    return docs
