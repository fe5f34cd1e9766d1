"""The source reliability table of mining/reliability.py, at its edges."""

from __future__ import annotations

import pytest

from mining.reliability import (
    classify_source,
    dkg_reliability,
    host_of,
    host_tier,
    noisy_or,
    recency,
    reliability,
)


@pytest.mark.parametrize(
    ("source", "host"),
    [
        ("https://www.reuters.com/markets/x", "reuters.com"),
        ("reuters.com/markets/x", "reuters.com"),  # no scheme
        ("WWW.USGS.GOV", "usgs.gov"),
        ("http://data.europa.eu./path", "data.europa.eu"),
        ("file:///home/ana/reports/q3.pdf", ""),
        ("reports/q3.pdf", ""),
        ("/home/ana/q3.md", ""),
        ("localhost", ""),
        ("", ""),
        ("FILE:///HOME/ANA/Q3.PDF", ""),
        ("reports/q3.final.pdf", ""),
        ("https://data.europa.eu./x", "data.europa.eu"),
        ("https:///no-host", ""),
        ("https://localhost:8080/x", ""),
    ],
)
def test_host_of(source: str, host: str) -> None:
    assert host_of(source) == host


@pytest.mark.parametrize(
    ("host", "tier"),
    [
        ("usgs.gov", "high"),
        ("energy.mil", "high"),
        ("nato.int", "high"),
        ("mit.edu", "high"),
        ("gov.uk", "high"),
        ("minsal.gob.cl", "high"),
        ("gob.cl", "high"),
        ("meti.go.jp", "high"),
        ("ox.ac.uk", "high"),
        ("unimelb.edu.au", "high"),
        ("stats.govt.nz", "high"),
        ("economie.gouv.fr", "high"),
        ("example.co.uk", "low"),  # a two-letter country code alone is not government
        ("news.example.de", "low"),
        ("gov.example.com", "low"),  # "gov" must be the second level of a country code
        ("govexample.com", "low"),
        ("data.europa.eu", "high"),  # subdomains of listed bodies
        ("europa.eu", "high"),
        ("noteuropa.eu", "low"),
        ("who.int", "high"),
        ("reuters.com", "medium"),
        ("uk.reuters.com", "medium"),
        ("notreuters.com", "low"),
        ("bbc.co.uk", "medium"),
        ("trade-monitor.example.net", "low"),
    ],
)
def test_host_tiers(host: str, tier: str) -> None:
    assert host_tier(host) == tier


def test_classify_source_keys_and_tiers() -> None:
    assert classify_source("did:dkg:otp:2043/0xabc/7") == ("did:dkg:otp:2043/0xabc/7", "dkg")
    assert classify_source("https://www.usgs.gov/a") == ("usgs.gov", "high")
    assert classify_source("usgs.gov/b") == ("usgs.gov", "high")
    assert classify_source("file:///tmp/Report.PDF") == ("file:///tmp/report.pdf", "low")
    # A declared tier wins over the host, but never over a DKG asset's stake.
    assert classify_source("file:///tmp/memo.md", "high") == ("file:///tmp/memo.md", "high")
    assert classify_source("https://reuters.com/x", "low") == ("reuters.com", "low")
    assert classify_source("https://reuters.com/x", "bogus") == ("reuters.com", "medium")
    assert classify_source("did:dkg:a/b/1", "low") == ("did:dkg:a/b/1", "dkg")


def test_reliability_by_tier_and_stake() -> None:
    assert [reliability(t) for t in ("high", "medium", "low", "unknown")] == [0.8, 0.6, 0.3, 0.3]
    assert dkg_reliability(None) == 0.5
    assert dkg_reliability(0) == 0.5
    assert dkg_reliability(-5) == 0.5
    assert dkg_reliability(50_000) == 0.65
    assert dkg_reliability(12_345) == 0.537  # rounded to 4 places: 0.537035
    assert dkg_reliability(100_000) == 0.8
    assert dkg_reliability(1_000_000) == 0.8
    assert reliability("dkg", 100_000) == 0.8 and reliability("dkg") == 0.5


@pytest.mark.parametrize(
    ("published", "as_of", "factor"),
    [
        ("2026-01-01", "2026-11-23", 1.0),
        ("2024-11-23", "2026-11-23", 1.0),  # exactly two years: still fresh
        ("2022-11-23", "2026-11-23", 0.875),  # 1,461 days, four years: 1 - 0.0625 * 2
        ("2022-11-24", "2026-11-23", 0.8752),  # a day less
        ("2016-11-23", "2026-11-23", 0.5001),  # 9.9986 years: just above the floor
        ("1990-01-01", "2026-11-23", 0.5),
        ("2030-01-01", "2026-11-23", 1.0),  # future-dated counts as fresh
        (None, "2026-11-23", 0.8),
        ("not a date", "2026-11-23", 0.8),
        ("2026-01-01", None, 0.8),
        ("2025-06-10T08:00:00Z", "2026-11-23", 1.0),
    ],
)
def test_recency(published: str | None, as_of: str | None, factor: float) -> None:
    assert recency(published, as_of) == factor


def test_noisy_or() -> None:
    assert noisy_or([]) == 0.0
    assert noisy_or([0.3]) == 0.3
    assert noisy_or([0.3, 0.3]) == 0.51
    assert noisy_or([1.5]) == 1.0 and noisy_or([-1.0]) == 0.0
    assert noisy_or([0.123456]) == 0.1235
