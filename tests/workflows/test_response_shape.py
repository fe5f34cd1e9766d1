"""The run's output JSON (`response_from`): the shape seed 001 asks of each candidate."""

from __future__ import annotations

from contracts.run import Candidate, Workspace
from workflows.workspace import response_from

UAL = "did:dkg:otp:20430/0xcdb/2"
CONTEXT = {"@vocab": "https://schema.org/"}


def test_every_candidate_carries_linked_assets_even_an_edit_that_dropped_them() -> None:
    claim = Candidate(
        id="cand-claim",
        asset={"@context": CONTEXT, "@type": "Claim", "name": "Q supplies CATL",
               "linkedAssets": [UAL]},
    )  # fmt: skip
    # A reviewer's edit replaces the asset whole, and this one wrote no linkedAssets.
    edited = Candidate(
        id="cand-entity",
        kind="entity",
        asset={"@context": CONTEXT, "@type": "Organization", "name": "Quokka Minerals"},
        status="approved",
        edited=True,
    )
    response = response_from(Workspace(runId="mine-1"), [claim, edited])
    by_id = {c["candidateId"]: c for c in response.candidateAssets}
    assert by_id["cand-claim"]["linkedAssets"] == [UAL]
    assert by_id["cand-entity"]["linkedAssets"] == []
    assert by_id["cand-entity"]["candidateKind"] == "entity"
    assert "linkedAssets" not in edited.asset, "the candidate itself is left as decided"
