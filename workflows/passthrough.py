"""The contract modules a workflow shares with its worker instead of re-importing them.

Temporal's sandbox imports a workflow's modules afresh for every run, so that one run's
module state cannot leak into another's. The contract modules hold only pydantic models
and constants (no state, no I/O, no clock), and building their ~60 model classes again
was the largest part of starting a run (see docs/benchmarks.md, "Where a worker's CPU
goes"). Imported first by each workflow module, they are passed through: every run uses
the worker's own classes. Each is named: a module only imported by another passed-through
one would otherwise be imported again inside the sandbox, its classes then not the ones
the contracts use.
"""

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    import workflows.budget_contracts  # noqa: F401
    import workflows.contracts  # noqa: F401
    import workflows.research_contracts  # noqa: F401
    import workflows.tool_contracts  # noqa: F401
