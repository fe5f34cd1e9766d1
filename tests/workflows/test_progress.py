"""What `kminer mine` and `kminer demo` print while a run waits for review: each pending
candidate with validation's verdict, the claims proposed to a reviewer told apart from
the rejected ones (temporal_client.runs.Progress)."""

from __future__ import annotations

import io

from contracts.run import Candidate, Phase, Workspace
from temporal_client.runs import Progress


def candidate(cid: str, accepted: bool, proposed: bool) -> Candidate:
    signals = {"confidence": 0.5, "proposed": proposed}
    asset = {"name": f"claim {cid}", "trustSignals": signals}
    return Candidate(id=cid, asset=asset, accepted=accepted)


def test_pending_candidates_are_listed_with_validations_verdict() -> None:
    out = io.StringIO()
    ws = Workspace(
        runId="mine-1",
        phase=Phase.REVIEW,
        candidates=[
            candidate("c1", accepted=True, proposed=False),
            candidate("c2", accepted=False, proposed=True),
            candidate("c3", accepted=False, proposed=False),
        ],
        pendingApprovals=["c1", "c2", "c3"],
    )
    Progress(out).show(ws)
    lines = out.getvalue().splitlines()
    assert "  awaiting review of 3 candidates:" in lines
    assert "    c1 0.5 accept: claim c1" in lines
    assert "    c2 0.5 proposed: claim c2" in lines
    assert "    c3 0.5 reject: claim c3" in lines
    assert lines[-1] == "  decide with: kminer review mine-1 --approve ID | --reject ID"
