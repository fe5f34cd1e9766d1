"""Surface patterns: gazetteer matching and the word-gap fallback for relations.

Pure (no I/O). The dependency rules in `mining/relations.py` read most relations;
these patterns cover what a small parser misreads:

- `find_mentions`: gazetteer labels (DKG names and aliases) found case-insensitively
  with word boundaries, whitespace inside a label matching any whitespace. One regex per
  gazetteer is compiled from a character trie of the labels (cached), so matching costs a
  few character tests per position, not one per label. Leftmost, then longest; mentions
  never overlap; for two entries with one label the first in the gazetteer wins.
- `predicate_for`: the relation named by the words *between* two mentions ("signed a
  supply agreement with" -> `supplies`), ordered rules, first match wins. A verb followed
  by "by" ("is supplied by") and inverse phrasings ("'s supplier", "subsidiary of") swap
  subject and object. Nothing matching, a clause break, or more than `MAX_GAP_WORDS`
  words between them: no relation.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

Entry = tuple[str, str, str]  # (label, ual, type)
Gazetteer = list[Entry]
Found = tuple[str, str, str, int, int]  # (label, ual, type, start, end)


def _norm(label: str) -> str:
    return " ".join(label.split()).lower()


def _trie_pattern(node: dict[str, Any]) -> str:
    branches = [
        (r"\s+" if ch == " " else re.escape(ch)) + _trie_pattern(child)
        for ch, child in sorted(node.items())
        if ch
    ]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    # A label ending here while longer labels continue: the greedy optional group makes the
    # engine try the longest label first and back off to this one.
    return f"(?:{body})?" if "" in node else body


@lru_cache(maxsize=32)
def _matcher(key: tuple[Entry, ...]) -> tuple[re.Pattern[str] | None, dict[str, Entry]]:
    lookup: dict[str, Entry] = {}
    trie: dict[str, Any] = {}
    for label, ual, typ in key:
        norm = _norm(label)
        if len(norm) < 2 or norm in lookup:
            continue
        lookup[norm] = (label, ual, typ)
        node = trie
        for ch in norm:
            node = node.setdefault(ch, {})
        node[""] = {}
    if not lookup:
        return None, lookup
    return re.compile(r"(?<!\w)(?:" + _trie_pattern(trie) + r")(?!\w)", re.IGNORECASE), lookup


@lru_cache(maxsize=32)
def _homonyms(key: tuple[Entry, ...]) -> dict[str, tuple[Entry, ...]]:
    by_label: dict[str, dict[str, Entry]] = {}
    for label, ual, typ in key:
        by_label.setdefault(_norm(label), {}).setdefault(ual, (label, ual, typ))
    return {norm: tuple(e.values()) for norm, e in by_label.items() if len(e) > 1}


class Homonyms:
    """Every DKG asset a label names when it names more than one ("Lithium carbonate": the
    drug and the battery chemical). Built once per text read: keying the cache by the
    whole gazetteer costs a pass over it, too much for every relation end."""

    def __init__(self, gazetteer: Gazetteer) -> None:
        self._table = _homonyms(gazetteer_key(gazetteer))

    def of(self, label: str) -> tuple[Entry, ...]:
        return self._table.get(_norm(label), ())


def gazetteer_key(gazetteer: Gazetteer) -> tuple[Entry, ...]:
    return tuple((str(g[0]), str(g[1]), str(g[2])) for g in gazetteer)


def find_mentions(text: str, gazetteer: Gazetteer) -> list[Found]:
    """(label, ual, type, start, end) of each gazetteer mention in `text`, in text order."""
    pattern, lookup = _matcher(gazetteer_key(gazetteer))
    if pattern is None:
        return []
    found: list[Found] = []
    for m in pattern.finditer(text):
        entry = lookup.get(_norm(m.group()))
        if entry is not None:  # only misses on exotic Unicode case folding
            found.append((entry[0], entry[1], entry[2], m.start(), m.end()))
    return found


# (predicate, pattern over the lowercased words between two mentions, always inverse)
PREDICATE_RULES: list[tuple[str, str, bool]] = [
    ("supplies", r"'s\s+(?:\w+\s+)?(?:supplier|vendor)\b", True),
    ("subsidiaryOf", r"\b(?:subsidiary|unit|division|affiliate|arm)\s+of\b", False),
    ("acquired", r"\b(?:acquir\w*|took\s+over|takeover\s+of|bought|buys?)\b", False),
    (
        "affectedBy",
        r"\b(?:threaten\w*|endanger\w*|jeopardi[sz]\w*|affect\w*|impact\w*|disrupt\w*|hits?"
        r"|hurt\w*|damag\w*|delay\w*|weigh\w*\s+on|poses?\s+(?:a\s+)?risks?|risks?\s+(?:for|to))\b",
        True,
    ),
    (
        "restrictsExportsOf",
        r"\bexport\s+(?:ban|bans|restrictions?|controls?|curbs?|quotas?)\s+on\b"
        r"|\b(?:ban(?:s|ned)?|restrict\w*|prohibit\w*|curb\w*)\s+(?:the\s+)?exports?\s+of\b",
        False,
    ),
    ("imposesTariffsOn", r"\b(?:tariffs?|duties|levies)\s+on\b", False),
    ("sanctions", r"\bsanction\w*\b", False),
    ("exportsTo", r"\bexport(?:s|ed|ing)?\s+(?:\w+\s+){0,3}to\b", False),
    ("sponsors", r"\b(?:sponsor\w*|fund(?:s|ed|ing)?|financ\w*|backs|backed)\b", False),
    (
        "supplies",
        r"\b(?:suppl(?:y|ies|ied|ying)|suppliers?\s+(?:of|to|for)|sells?|selling|sold"
        r"|deliver(?:s|ed|ing)?|ship(?:s|ped|ping)?|offtake)\b",
        False,
    ),
    (
        "produces",
        r"\b(?:manufactur\w*|produc(?:e|es|ed|ing)|producers?\s+of|makes?|making|made"
        r"|refin(?:e|es|ed|ing)|mines?|mined)\b",
        False,
    ),
    (
        "ownsStakeIn",
        # Not the adjective "family-owned" or "state-controlled": that says who owns the
        # thing described, not that it owns its neighbour.
        r"(?<![\w-])(?:owns?|owned|(?:stake|shares?|interest)\s+in|invest(?:s|ed|ing|ment)?\s+in"
        r"|controls?|controlled)\b",
        False,
    ),
    (
        "partnerOf",
        r"\b(?:partner\w*|joint\s+venture|collaborat\w*|cooperat\w*|alliance"
        r"|(?:agreement|deal|mou)\s+with|team(?:s|ed)?\s+up|works?\s+with)\b",
        False,
    ),
    ("studies", r"\b(?:stud(?:y|ies|ied|ying)|test(?:s|ed|ing)?|evaluat\w*)\b", False),
    (
        "awardsContractTo",
        r"\bawarded\s+(?:an?\s+|the\s+)?(?:\w+\s+){0,3}(?:contract|tender)",
        False,
    ),
    (
        "operatesIn",
        r"\b(?:operat\w*|min(?:es?|ing)\s+in|active\s+in|presence\s+in"
        r"|(?:projects?|plants?|facilit\w+|sites?|mines?)\s+(?:in|at)|expand\w*\s+(?:in|into))\b",
        False,
    ),
    (
        "locatedIn",
        r"\b(?:located|based|headquartered|situated|registered)\s+(?:in|at)\b|^\W*in\W*$",
        False,
    ),
]
_RULES = [(p, re.compile(rx), inv) for p, rx, inv in PREDICATE_RULES]
_PASSIVE_BY = re.compile(r"\s*by\b")
_CLAUSE_BREAK = re.compile(r"[;:()]|\b(?:but|while|whereas|although|because)\b")
MAX_GAP_WORDS = 8
_WORDS_THEN_COMMA = re.compile(r"\w.*,")


def predicate_for(between: str) -> tuple[str, bool] | None:
    """(predicate, swap subject/object) for the words between two mentions, or None.

    Only typed relations: two names merely close together are not related (`relatedTo`
    comes from a verb the dependency rules do not know, in `mining/relations.py`).
    """
    text = " ".join(between.split()).lower()
    if _CLAUSE_BREAK.search(text) or len(re.findall(r"\w+", text)) > MAX_GAP_WORDS:
        return None
    for predicate, rx, inverse in _RULES:
        m = rx.search(text)
        # "X's largest suppliers of amoxicillin, depends on Y": the cue's phrase ends at the
        # comma; what follows it is another clause, not the cue's other end. Likewise a
        # comma after words before the cue ("X coffee trader, which buys from Y") closes
        # the left mention's phrase ("X, a unit of Y" opens with it and is kept).
        if m and "," not in text[m.end() :] and not _WORDS_THEN_COMMA.search(text[: m.start()]):
            return predicate, inverse != bool(_PASSIVE_BY.match(text[m.end() :]))
    return None
