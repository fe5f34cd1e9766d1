"""DKG tools as activities: get, sparql, metadata, related, duplicates, publish.

One `Dkg` interface, chosen by config: the embedded pyoxigraph node by default.
Each read tool answers with the standard ToolResponse; publishing is only ever
called by the workflow after a reviewer approved the candidate.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select
from temporalio import activity
from temporalio.exceptions import ApplicationError

from activities import metrics
from activities.common import Auditor, heartbeating, run_tool
from activities.run_context import current_principal
from contracts.activity_names import (
    DKG_FIND_DUPLICATES,
    DKG_FIND_RELATED_ASSETS,
    DKG_GET_ASSET,
    DKG_GET_ASSET_METADATA,
    DKG_PUBLISH_ASSET,
    DKG_SPARQL,
)
from contracts.tools import (
    FindDuplicatesArgs,
    FindRelatedArgs,
    MetadataArgs,
    PublishArgs,
    PublishResult,
    SparqlArgs,
    ToolResponse,
    UalArgs,
)
from mining.jsonld import content_hash
from storage.sql.audit_log import AuditLog
from storage.sql.tables import PublishRecord

PUBLISHER_ADDRESS = "0x7e1a5b2c9d04f3e8a6b1c2d3e4f5a6b7c8d9e0f1"


class Dkg(Protocol):
    """What the miner needs from a DKG node, embedded or remote."""

    def get_asset(self, ual: str) -> dict[str, Any] | None: ...
    def query(self, sparql: str, *, row_limit: int = 500, timeout_s: float = 5.0) -> Any: ...
    def get_metadata(self, ual: str) -> Any: ...
    def publish(self, asset: dict[str, Any], **kwargs: Any) -> Any: ...
    def find_related(self, text: str, *, limit: int = 10) -> list[Any]: ...
    def find_duplicates(self, asset: dict[str, Any]) -> list[Any]: ...
    def gazetteer(self) -> list[tuple[str, str, str]]: ...


def _dump(obj: Any) -> dict[str, Any]:
    """Both DKG implementations answer with pydantic models."""
    return obj.model_dump()


class DkgActivities:
    def __init__(
        self,
        dkg: Dkg,
        engine: Engine | None,
        dkg_errors: tuple[type[Exception], ...],
        refusals: tuple[type[Exception], ...] = (),
    ):
        self._dkg = dkg
        self._engine = engine
        self._audit = Auditor(engine)
        self._errors = dkg_errors
        # Errors that say "this asset will never be accepted": retrying is pointless.
        self._refusals = refusals

    @activity.defn(name=DKG_GET_ASSET)
    async def dkg_get_asset(self, args: UalArgs) -> ToolResponse:
        def body() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
            asset = self._dkg.get_asset(args.ual)
            if asset is None:
                raise LookupError(f"no Knowledge Asset with UAL {args.ual}")
            return [{"ual": args.ual, "asset": asset}], [{"source": args.ual}]

        return await asyncio.to_thread(
            run_tool,
            self._audit,
            DKG_GET_ASSET,
            args.model_dump(),
            body,
            (*self._errors, LookupError),
        )

    @activity.defn(name=DKG_SPARQL)
    async def dkg_sparql(self, args: SparqlArgs) -> ToolResponse:
        def body() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
            result = self._dkg.query(args.query, row_limit=args.limit)
            rows = list(result.rows)
            if result.boolean is not None:
                rows = [{"boolean": result.boolean}]
            if result.truncated:
                rows.append({"truncated": True, "rowLimit": args.limit})
            return rows, []

        return await asyncio.to_thread(
            run_tool, self._audit, DKG_SPARQL, args.model_dump(), body, self._errors
        )

    @activity.defn(name=DKG_GET_ASSET_METADATA)
    async def dkg_get_asset_metadata(self, args: MetadataArgs) -> ToolResponse:
        uals = list(dict.fromkeys(([args.ual] if args.ual else []) + args.uals))

        def body() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
            rows = []
            for ual in uals:
                meta = self._dkg.get_metadata(ual)
                rows.append(_dump(meta) if meta is not None else {"ual": ual, "missing": True})
            return rows, [{"source": ual} for ual in uals]

        return await asyncio.to_thread(
            run_tool, self._audit, DKG_GET_ASSET_METADATA, args.model_dump(), body, self._errors
        )

    @activity.defn(name=DKG_FIND_RELATED_ASSETS)
    async def dkg_find_related_assets(self, args: FindRelatedArgs) -> ToolResponse:
        def body() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
            found = [_dump(r) for r in self._dkg.find_related(args.text, limit=args.limit)]
            return found, [{"source": r["ual"]} for r in found]

        return await asyncio.to_thread(
            run_tool, self._audit, DKG_FIND_RELATED_ASSETS, args.model_dump(), body, self._errors
        )

    @activity.defn(name=DKG_FIND_DUPLICATES)
    async def dkg_find_duplicates(self, args: FindDuplicatesArgs) -> ToolResponse:
        def body() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
            rows = []
            for asset in args.assets:
                matches = [_dump(m) for m in self._dkg.find_duplicates(asset)]
                rows.append(
                    {"candidate": asset.get("@id") or asset.get("name"), "matches": matches}
                )
            return rows, []

        return await asyncio.to_thread(
            run_tool, self._audit, DKG_FIND_DUPLICATES, args.model_dump(), body, self._errors
        )

    @activity.defn(name=DKG_PUBLISH_ASSET)
    async def dkg_publish_asset(self, args: PublishArgs) -> PublishResult:
        """Publish one approved candidate exactly once.

        A PublishRecord per (run, candidate) is reserved *before* minting and
        completed after, so a retry (or a second worker after a crash) finds
        either the UAL or an unfinished reservation, which it resolves by the
        content hash instead of minting again. Heartbeats let Temporal notice a
        dead worker quickly even while a remote publish takes minutes.
        """
        return await heartbeating(self._publish_audited, args)

    def _publish_audited(self, args: PublishArgs) -> PublishResult:
        result = self._publish(args)
        if self._engine is not None:
            # Keyed by candidate: a retry that found the UAL audits nothing new.
            AuditLog(self._engine).record(
                run_id=args.runId,
                kind="publication",
                tool=DKG_PUBLISH_ASSET,
                principal=current_principal(),
                detail={
                    "candidateId": args.candidateId,
                    "ual": result.ual,
                    "contentHash": content_hash(args.asset),
                },
                event_key=f"publish:{args.candidateId}",
            )
        return result

    def _publish(self, args: PublishArgs) -> PublishResult:
        digest = content_hash(args.asset)
        record = self._reserve(args, digest)
        if record is not None and record.ual:
            return PublishResult(candidateId=args.candidateId, ual=record.ual, created=False)
        if record is not None:
            # An earlier attempt reserved but did not finish: did it mint?
            find = getattr(self._dkg, "find_by_content_hash", None)
            earlier = find(digest) if find is not None else None
            if earlier:
                self._complete(args, earlier)
                return PublishResult(candidateId=args.candidateId, ual=earlier, created=False)
        try:
            outcome = self._dkg.publish(
                args.asset, publisher=PUBLISHER_ADDRESS, stake_amount=0.0, domain=args.domain
            )
        except self._refusals as exc:
            raise ApplicationError(
                f"DKG refused the asset: {exc}", type="DkgPublishRefused", non_retryable=True
            ) from exc
        # Any other DkgError (node unreachable, timeout) propagates and Temporal retries.
        ual = self._complete(args, outcome.ual)
        metrics.PUBLISHED.labels(created=str(bool(outcome.created)).lower()).inc()
        return PublishResult(candidateId=args.candidateId, ual=ual, created=outcome.created)

    def _reserve(self, args: PublishArgs, digest: str) -> PublishRecord | None:
        """Reserve (run, candidate); returns the existing record if there is one."""
        if self._engine is None:
            return None
        with Session(self._engine) as session:
            session.add(
                PublishRecord(
                    run_id=args.runId, candidate_id=args.candidateId, ual="", content_hash=digest
                )
            )
            try:
                session.commit()
                return None
            except IntegrityError:
                session.rollback()
            return session.exec(
                select(PublishRecord).where(
                    PublishRecord.run_id == args.runId,
                    PublishRecord.candidate_id == args.candidateId,
                )
            ).one()

    def _complete(self, args: PublishArgs, ual: str) -> str:
        """Record the UAL; if another attempt recorded one first, that one stands."""
        if self._engine is None:
            return ual
        with Session(self._engine) as session:
            record = session.exec(
                select(PublishRecord).where(
                    PublishRecord.run_id == args.runId,
                    PublishRecord.candidate_id == args.candidateId,
                )
            ).one()
            if record.ual:
                return record.ual
            record.ual = ual
            session.add(record)
            session.commit()
            return ual
