"""The registered names of the activities: what a workflow schedules, what a worker
registers, what a model calls as a tool, and what the audit log records.

They are part of recorded histories (tests/fixtures/histories/): replaying a history needs the
same name for the same activity, so a value here never changes; a new activity gets a
new name.
"""

from __future__ import annotations

# Agent tools (contracts/tools.py describes their arguments).
DKG_GET_ASSET = "dkg_get_asset"
DKG_SPARQL = "dkg_sparql"
DKG_GET_ASSET_METADATA = "dkg_get_asset_metadata"
DKG_FIND_RELATED_ASSETS = "dkg_find_related_assets"
DKG_FIND_DUPLICATES = "dkg_find_duplicates"
WEB_SEARCH = "web_search"
EXTRACT_STATEMENTS = "extract_statements"
PROPOSE_KNOWLEDGE_ASSETS = "propose_knowledge_assets"
SCORE_CANDIDATES = "score_candidates"

# Steps the workflows schedule themselves.
DKG_PUBLISH_ASSET = "dkg_publish_asset"
GET_RUNTIME_CONFIG = "get_runtime_config"
LOAD_MEMORY_NOTES = "load_memory_notes"
APPEND_MEMORY_NOTES = "append_memory_notes"
COMPOSE_ANSWER = "compose_answer"
AUDIT_DECISIONS = "audit_decisions"
PLAN_RESEARCH = "plan_research"
RESEARCH_GATHER = "research_gather"
RESEARCH_CACHE_LOOKUP = "research_cache_lookup"
RESEARCH_CACHE_STORE = "research_cache_store"
