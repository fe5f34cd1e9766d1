"""Deterministic statement extraction: relations between known DKG entities in plain text.

Pure (no I/O, clock or randomness): the same text and gazetteer always give the same
statements, so the tool behaves identically in a Temporal activity retry or a replayed agent.

Algorithm
1. Sentences: text is cut into blocks at blank lines and before markdown bullets/headings,
   whitespace is collapsed, and a block is cut after ``.``/``!``/``?`` followed by whitespace
   and a non-lowercase character, except after abbreviations (``Co.``, ``Ltd.``, ``Inc.``,
   ``Dr.`` ... see ``ABBREVIATIONS``), single initials (``J.``) and dotted acronyms (``U.S.``).
   Decimals never split (no whitespace after their dot). Trade-off: a sentence that really
   ends in an abbreviation stays joined to the next one.
2. Mentions: gazetteer labels (``(label, ual, type)``) are found case-insensitively with word
   boundaries, whitespace inside a label matching any whitespace. One regex per gazetteer is
   compiled from a character trie of the labels (cached), so matching costs a few character
   tests per position, not one per label. Matching is leftmost, then longest; mentions never
   overlap. Two entries with the same label: the first in the gazetteer wins.
3. Relations: in a sentence, each consecutive pair of mentions of different entities gives a
   statement, the first mention being the subject, the predicate read from the words between
   them with ``PREDICATE_RULES`` (ordered, first match wins, so "signed a supply agreement
   with" is ``supplies``, not ``partnerOf``). A verb followed by "by" ("is supplied by") and
   inverse phrasings ("'s supplier", "subsidiary of") swap subject and object. With no rule
   matching, the predicate is ``relatedTo``, but only when at most 12 words and no ``;``
   separate the two mentions (further apart, they are rarely related). "A supplies X to B"
   with X also an entity gives (A supplies X) and (A supplies B): after a ``supplies``,
   ``exportsTo`` or ``sponsors`` pair, a gap of just "to"/"for" hands the next entity to the
   same subject and verb instead of relating X to B.
4. Risk signals: a sentence that mentions exactly one entity and contains risk/event keywords
   (``RISK_KEYWORDS``) gives ``(entity, hasRiskSignal, keyword)`` per distinct keyword.
5. Statements are deduplicated by (subjectUal, predicate, objectUal or object), keeping the
   first (its sentence is the provenance), and capped at ``max_statements``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from workflows.tool_contracts import Statement

__all__ = [
    "ABBREVIATIONS",
    "PREDICATE_RULES",
    "RISK_KEYWORDS",
    "Statement",
    "extract_statements",
    "mentions",
    "predicate_for",
    "split_sentences",
]

Entry = tuple[str, str, str]  # (label, ual, type)
Gazetteer = list[Entry]
Mention = tuple[str, str, str, int, int]


ABBREVIATIONS = frozenset(
    "co. ltd. inc. corp. plc. llc. bhd. pty. cie. mr. mrs. ms. dr. prof. sr. jr. st. mt. ft. "
    "no. nos. vs. approx. est. dept. gov. int. fig. jan. feb. mar. apr. jun. jul. aug. sep. "
    "sept. oct. nov. dec.".split()
)
_BOUNDARY = re.compile(r"[.!?]+[\"'”’)\]]*\s+")
_MARKER = re.compile(r"^(?:[-*•>]|#+|\d+[.)])\s+")


def _blocks(text: str) -> list[str]:
    """Paragraphs, list items and headings: line breaks there end a sentence without a period."""
    blocks: list[list[str]] = [[]]
    for line in text.splitlines():
        stripped = line.strip()
        marker = _MARKER.match(stripped)
        if not stripped or marker:
            blocks.append([])
        if stripped:
            blocks[-1].append(stripped)
        if marker and stripped.startswith("#"):
            blocks.append([])
    return [" ".join(b) for b in blocks if b]


def _keeps_going(block: str, punct_end: int, punct: str) -> bool:
    """True when the period at the end of `block[:punct_end]` belongs to an abbreviation."""
    if punct != ".":
        return False
    token = block[:punct_end].rsplit(None, 1)[-1].lstrip("\"'“‘([").lower()
    return (
        token in ABBREVIATIONS
        or re.fullmatch(r"[a-z]\.", token) is not None
        or re.fullmatch(r"(?:[a-z]\.){2,}", token) is not None
    )


def split_sentences(text: str) -> list[str]:
    """Sentences of `text`, whitespace-collapsed, markdown list/heading markers removed."""
    sentences: list[str] = []
    for block in _blocks(text or ""):
        block = " ".join(block.split())
        start = 0
        for m in _BOUNDARY.finditer(block):
            nxt = block[m.end() :].lstrip("\"'“‘([")[:1]
            punct = re.match(r"[.!?]+", m.group()).group()  # type: ignore[union-attr]
            if nxt.islower() or _keeps_going(block, m.start() + len(punct), punct):
                continue
            sentences.append(block[start : m.end()].strip())
            start = m.end()
        sentences.append(block[start:].strip())
    return [_MARKER.sub("", s) for s in sentences if _MARKER.sub("", s)]


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
        if not norm or norm in lookup:
            continue
        lookup[norm] = (label, ual, typ)
        node = trie
        for ch in norm:
            node = node.setdefault(ch, {})
        node[""] = {}
    if not lookup:
        return None, lookup
    return re.compile(r"(?<!\w)(?:" + _trie_pattern(trie) + r")(?!\w)", re.IGNORECASE), lookup


def _key(gazetteer: Gazetteer) -> tuple[Entry, ...]:
    return tuple((str(g[0]), str(g[1]), str(g[2])) for g in gazetteer)


def mentions(text: str, gazetteer: Gazetteer) -> list[Mention]:
    """(label, ual, type, start, end) of each gazetteer mention in `text`, in text order."""
    return _find(text, *_matcher(_key(gazetteer)))


def _find(text: str, pattern: re.Pattern[str] | None, lookup: dict[str, Entry]) -> list[Mention]:
    if pattern is None:
        return []
    found: list[Mention] = []
    for m in pattern.finditer(text):
        entry = lookup.get(_norm(m.group()))
        if entry is not None:  # only misses on exotic Unicode case folding
            found.append((entry[0], entry[1], entry[2], m.start(), m.end()))
    return found


# (predicate, pattern over the lowercased words between two mentions, always inverse)
PREDICATE_RULES: list[tuple[str, str, bool]] = [
    ("supplies", r"'s\s+(?:\w+\s+)?supplier\b", True),
    ("ownsStakeIn", r"\b(?:subsidiary|unit|division|affiliate)\s+of\b", True),
    (
        "raisesRiskFor",
        r"\b(?:threaten\w*|endanger\w*|jeopardi[sz]\w*|poses?\s+(?:a\s+)?risks?"
        r"|risks?\s+(?:for|to))\b",
        False,
    ),
    (
        "restricts",
        r"\b(?:ban(?:s|ned|ning)?|restrict\w*|prohibit\w*|embargo\w*|sanction\w*"
        r"|blacklist\w*|block(?:s|ed|ing)?|(?:tariffs?|duties|quotas?)\s+on)\b",
        False,
    ),
    ("exportsTo", r"\bexport(?:s|ed|ing)?\b", False),
    (
        "sponsors",
        r"\b(?:sponsor\w*|fund(?:s|ed|ing)?|financ\w*|grants?\s+to|backs|backed)\b",
        False,
    ),
    (
        "supplies",
        r"\b(?:suppl(?:y|ies|ied|ying)|suppliers?\s+(?:of|to|for)|sells?|selling|sold"
        r"|provid(?:e|es|ed|ing)|deliver(?:s|ed|ing)?|ship(?:s|ped|ping)?|offtake)\b",
        False,
    ),
    (
        "manufactures",
        r"\b(?:manufactur\w*|produc(?:e|es|ed|ing)|mak(?:e|es|ing)|made"
        r"|refin(?:e|es|ed|ing)|process(?:es|ed)?|assembl\w*|builds?|built)\b",
        False,
    ),
    (
        "ownsStakeIn",
        r"\b(?:owns?|owned|(?:stake|shares?|interest)\s+in|acquir\w*|bought|buys?"
        r"|invest(?:s|ed|ing|ment)?\s+in|controls?|controlled)\b",
        False,
    ),
    (
        "partnerOf",
        r"\b(?:partner\w*|joint\s+venture|collaborat\w*|cooperat\w*|alliance"
        r"|(?:agreement|deal|contract|mou)\s+with|team(?:s|ed)?\s+up|signed\b.*\bwith"
        r"|works?\s+with)\b",
        False,
    ),
    (
        "studies",
        r"\b(?:stud(?:y|ies|ied|ying)|research\w*|investigat\w*|analy[sz]\w*"
        r"|assess\w*|examin\w*|monitor\w*|survey\w*)\b",
        False,
    ),
    (
        "operatesIn",
        r"\b(?:operat\w*|min(?:es?|ing)\s+in|active\s+in|presence\s+in"
        r"|(?:projects?|plants?|facilit\w+|sites?)\s+in|expand\w*\s+(?:in|into))\b",
        False,
    ),
    (
        "locatedIn",
        r"\b(?:located|based|headquartered|situated|registered)\s+(?:in|at)\b"
        r"|^\W*in\W*$",
        False,
    ),
    (
        "affects",
        r"\b(?:affect\w*|impact\w*|disrupt\w*|hits?|hurt\w*|damag\w*|delay\w*"
        r"|weigh\w*\s+on)\b",
        False,
    ),
]
_RULES = [(p, re.compile(rx), inv) for p, rx, inv in PREDICATE_RULES]
_PASSIVE_BY = re.compile(r"\s*by\b")
MAX_RELATED_GAP_WORDS = 12
# Verbs that take a recipient after their direct object ("supplies X to B", "exports X to B").
_DITRANSITIVE = frozenset({"supplies", "exportsTo", "sponsors"})
_RECIPIENT_GAP = re.compile(r"^\W*(?:to|for)\W*$", re.IGNORECASE)


def predicate_for(between: str) -> tuple[str, bool] | None:
    """(predicate, swap subject/object) for the words between two mentions, or None to skip."""
    text = " ".join(between.split()).lower()
    for predicate, rx, inverse in _RULES:
        m = rx.search(text)
        if m:
            return predicate, inverse or bool(_PASSIVE_BY.match(text[m.end() :]))
    if ";" in text or len(re.findall(r"\w+", text)) > MAX_RELATED_GAP_WORDS:
        return None
    return "relatedTo", False


RISK_KEYWORDS: list[tuple[str, str]] = [
    ("export ban", r"export\s+bans?"),
    ("export restriction", r"export\s+(?:restrictions?|controls?|curbs?|quotas?)"),
    ("nationalisation", r"nationali[sz](?:ation|ations|e|es|ed|ing)"),
    ("windfall tax", r"windfall\s+tax(?:es)?"),
    ("royalty", r"royalt(?:y|ies)"),
    ("sanction", r"sanction(?:s|ed)?"),
    ("embargo", r"embargo(?:es|ed)?"),
    ("ban", r"ban(?:s|ned)?"),
    ("tariff", r"tariffs?"),
    ("strike", r"strikes?|walkouts?"),
    ("protest", r"protests?|blockades?"),
    ("shortage", r"shortages?"),
    ("flood", r"floods?|flooding|flooded"),
    ("drought", r"droughts?"),
    ("earthquake", r"earthquakes?"),
    ("wildfire", r"wildfires?"),
    ("outage", r"outages?"),
    ("cyberattack", r"cyber-?attacks?|ransomware"),
    ("bankruptcy", r"bankrupt(?:cy|cies)?|insolven(?:cy|t)"),
    ("lawsuit", r"lawsuits?|litigation"),
    ("recall", r"recalls?|recalled"),
]
_RISK = re.compile(
    r"(?<!\w)(?:"
    + "|".join(f"(?P<k{i}>{rx})" for i, (_, rx) in enumerate(RISK_KEYWORDS))
    + r")(?!\w)",
    re.IGNORECASE,
)


def _risk_keywords(sentence: str) -> list[str]:
    found: list[str] = []
    for m in _RISK.finditer(sentence):
        keyword = RISK_KEYWORDS[int((m.lastgroup or "k0")[1:])][0]
        if keyword not in found:
            found.append(keyword)
    return found


def extract_statements(
    text: str, source: str, gazetteer: Gazetteer, max_statements: int = 50
) -> list[Statement]:
    """Statements between gazetteer entities in `text`, each with its sentence and source."""
    out: list[Statement] = []
    seen: set[tuple[str, str, str]] = set()

    def emit(subj: Mention, predicate: str, obj: Mention | None, obj_text: str, sent: str) -> None:
        key = (subj[1], predicate, obj[1] if obj else obj_text)
        if key in seen or len(out) >= max_statements:
            return
        seen.add(key)
        out.append(
            Statement(
                subject=subj[0],
                subjectUal=subj[1],
                subjectType=subj[2],
                predicate=predicate,
                object=obj[0] if obj else obj_text,
                objectUal=obj[1] if obj else None,
                objectType=obj[2] if obj else None,
                sentence=sent,
                source=source,
            )
        )

    # Built once per call: re-keying a large gazetteer for every sentence would dominate.
    pattern, lookup = _matcher(_key(gazetteer))
    for sentence in split_sentences(text):
        if len(out) >= max_statements:
            break
        found = _find(sentence, pattern, lookup)
        if len({m[1] for m in found}) == 1:
            for keyword in _risk_keywords(sentence):
                emit(found[0], "hasRiskSignal", None, keyword, sentence)
            continue
        carried: tuple[Mention, str] | None = None
        for left, right in zip(found, found[1:], strict=False):
            if left[1] == right[1]:
                continue
            gap = sentence[left[4] : right[3]]
            if carried and _RECIPIENT_GAP.match(gap) and carried[0][1] != right[1]:
                # "A supplies X to B": the recipient B belongs to A's verb, not to X.
                emit(carried[0], carried[1], right, right[0], sentence)
                carried = None
                continue
            rule = predicate_for(gap)
            carried = None
            if rule is None:
                continue
            predicate, swap = rule
            subj, obj = (right, left) if swap else (left, right)
            emit(subj, predicate, obj, obj[0], sentence)
            if not swap and predicate in _DITRANSITIVE:
                carried = (subj, predicate)
    return out
