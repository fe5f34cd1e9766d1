"""The workflow modules a run shares with its worker instead of re-importing them.

Temporal's sandbox imports a workflow's modules afresh for every run, so that one run's
module state cannot leak into another's. The modules below hold no state a run could
change: constants never mutated, pydantic models, dataclasses, and functions whose only
nondeterminism-prone calls go through `temporalio.workflow` (itself passed through, so
`workflow.now()` and the activity calls behave the same from here). None reads a clock,
the environment, a file or randomness, at import or later. Rebuilding their classes and
compiling their source again was a large part of starting a run (docs/benchmarks.md,
"Where a worker's CPU goes"). Imported first by each workflow module, they are passed
through: every run uses the worker's own modules. Each is named: a module only imported
by another passed-through one would otherwise be imported again inside the sandbox, its
classes then not the ones the passed-through modules use.

Only the workflow definitions (`workflows.mining` with the steps it inherits from
`workflows.review_and_publish` and the queries from `workflows.run_logging`,
`workflows.batch`) stay sandboxed:
the sandbox's restrictions still check their code, and replays of recorded histories
(tests/workflows/test_replay*.py) check that the shared modules decide as before.
"""

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    # Contracts (pydantic models, constants) and helpers (pure functions, constants, classes
    # of which each run builds its own instances: ledgers, guards, runners).
    import contracts.activity_names  # noqa: F401
    import contracts.budget  # noqa: F401
    import contracts.model_calls  # noqa: F401
    import contracts.research  # noqa: F401
    import contracts.run  # noqa: F401
    import contracts.run_log  # noqa: F401
    import contracts.tools  # noqa: F401
    import mining.jsonld  # noqa: F401
    import mining.report  # noqa: F401
    import workflows.agent_graphs  # noqa: F401  (its graphs are shared by every run)
    import workflows.agent_loop  # noqa: F401
    import workflows.agent_tools  # noqa: F401
    import workflows.agents.policy  # noqa: F401
    import workflows.budget  # noqa: F401
    import workflows.candidate_refs  # noqa: F401
    import workflows.continuation  # noqa: F401
    import workflows.degradation  # noqa: F401
    import workflows.local_model  # noqa: F401
    import workflows.model_limits  # noqa: F401
    import workflows.patches  # noqa: F401  (RunPatches is one class for every run)
    import workflows.prompts  # noqa: F401
    import workflows.relink  # noqa: F401
    import workflows.research  # noqa: F401
    import workflows.research_planner  # noqa: F401
    import workflows.research_synthesis  # noqa: F401
    import workflows.review  # noqa: F401
    import workflows.run_clock  # noqa: F401  (RUN_CLOCK is one context variable for every run)
    import workflows.run_log  # noqa: F401
    import workflows.run_metrics  # noqa: F401
    import workflows.search_attributes  # noqa: F401
    import workflows.subagents  # noqa: F401
    import workflows.tool_schemas  # noqa: F401
    import workflows.tool_views  # noqa: F401
    import workflows.usage  # noqa: F401
    import workflows.workspace  # noqa: F401
