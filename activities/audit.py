"""Review decisions into the audit trail (the workflow decides; this records)."""

from __future__ import annotations

import asyncio

from temporalio import activity

from contracts.activity_names import AUDIT_DECISIONS
from contracts.tools import DecisionAuditArgs
from storage.sql.audit_log import AuditLog, args_hash


class AuditActivities:
    def __init__(self, audit: AuditLog | None) -> None:
        self._audit = audit

    @activity.defn(name=AUDIT_DECISIONS)
    async def audit_decisions(self, args: DecisionAuditArgs) -> int:
        """Write each decision once, keyed by its place in the run; returns how many were new."""
        if self._audit is None:
            return 0
        audit = self._audit

        def body() -> int:
            events = [
                audit.event(
                    run_id=args.runId,
                    kind="decision",
                    tool="decide",
                    principal=decision.get("reviewer"),
                    detail={
                        "candidateId": decision.get("candidateId"),
                        "action": decision.get("action"),
                        "reason": decision.get("reason"),
                        "editedAssetHash": args_hash(decision["asset"])
                        if decision.get("asset") is not None
                        else None,
                        "decidedAt": args.decidedAt,
                    },
                    event_key=f"decision:{args.first + offset}",
                )
                for offset, decision in enumerate(args.decisions)
            ]
            return audit.record_many(events)

        return await asyncio.to_thread(body)
