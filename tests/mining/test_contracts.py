"""Tags, thread ids and request bounds as the seed defines them."""

import pytest
from pydantic import ValidationError

from contracts.run import InvalidTagError, MiningRequest, memory_tags, normalize_tag, thread_id_for


def test_tags_are_stripped_lowercased_and_sorted_into_the_thread_id() -> None:
    assert thread_id_for(["#Supply_Chain", "general_risk"]) == "general_risk__supply_chain"


def test_no_tags_means_the_global_thread() -> None:
    assert thread_id_for([]) == "global"
    assert memory_tags([]) == ["global"]


def test_duplicate_tags_collapse() -> None:
    assert thread_id_for(["climate", "#climate", "CLIMATE"]) == "climate"


@pytest.mark.parametrize("bad", ["supply-chain", "", "#", "a b", "x" * 65, "../etc"])
def test_bad_tags_are_refused_with_the_rule(bad: str) -> None:
    with pytest.raises(InvalidTagError, match=r"\^\[a-z0-9_\]\{1,64\}\$"):
        normalize_tag(bad)


def test_request_normalises_tags_and_defaults() -> None:
    req = MiningRequest(query="  lithium  ", domainTags=["#Climate"])
    assert (req.query, req.domainTags, req.maxIterations, req.review) == (
        "lithium",
        ["climate"],
        4,
        "required",
    )
    assert req.threadId == "climate"


@pytest.mark.parametrize(
    "field,value",
    [("maxIterations", 0), ("maxIterations", 11), ("query", "   "), ("review", "maybe")],
)
def test_request_bounds(field: str, value: object) -> None:
    args = {"query": "q", field: value}
    with pytest.raises(ValidationError):
        MiningRequest(**args)
