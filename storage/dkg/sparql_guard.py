"""The read-only SPARQL guard both DKG implementations share.

A query is accepted only if pyoxigraph parses it as a *query*: its query parser
does not accept updates at all, so INSERT, DELETE, LOAD, CLEAR, DROP… never pass.
Before that, `screen_query` refuses what must not reach a parser at all (too long, too
deeply nested, too many operators, SERVICE); the parsing itself happens in an evaluator
process (`storage.dkg.sparql_sandbox`). Keywords are read only to word the refusal and
to name the result's form.
"""

from __future__ import annotations

import re

READ_ONLY = "only read queries (SELECT, ASK, CONSTRUCT, DESCRIBE) are allowed"
# Checked before anything parses the text: pyoxigraph's parser and evaluator recurse per
# nesting level and per operator (`1+1+...`, `a || b || ...`, a path `<p>|<p>|...` or
# `<p>/<p>/...` each build a tree one level deeper per term), and a few thousand levels
# overflow the stack (a segfault, not an exception: 12,000 `+` in a thread with an 8 MB
# stack, 3,400 path steps in a server thread). Parsing time also grows with the operator
# count (6,000 `+` took 6 s). Real queries stay far below all three limits; the evaluator
# process (`storage.dkg.sparql_sandbox`) contains whatever still gets through.
MAX_QUERY_CHARS = 50_000
MAX_QUERY_DEPTH = 100
MAX_QUERY_OPERATORS = 1_000
_OPENERS, _CLOSERS = "{([", "})]"
UPDATE_WORDS = {"INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY"}
TRIPLE_COLUMNS = ("subject", "predicate", "object")

# What `count_operators` counts, in text `strip_ignorable` already cleared of strings, IRIs
# and comments: expression operators, property path steps (`|`, `/`, `^`), argument and
# object-list commas, and the patterns a query joins (`{` groups, UNION, OPTIONAL, MINUS).
# Fixed alternatives only, so the scan is linear.
_OPERATOR = re.compile(
    r"\|\||&&|!=|<=|>=|[-+*/|^!=<>,{]|(?<![\w:?$@-])(?:UNION|OPTIONAL|MINUS)(?![\w:])",
    re.IGNORECASE,
)
_IRI_CHARS = re.compile(r"[^<>\"{}|^`\\\s]*>")
_PLAIN_RUN = re.compile(r"[^#'\"<]+")


def strip_ignorable(sparql: str) -> str:
    """The query with comments, strings and IRIs blanked, in one linear pass.

    A regular expression doing the same backtracks quadratically on adversarial text
    (thousands of unclosed quotes); this scanner looks at each character a bounded
    number of times. A string left open runs to the end of its line (such a query does
    not parse anyway).
    """
    out: list[str] = []
    i, n = 0, len(sparql)
    while i < n:
        ch = sparql[i]
        if ch == "#":
            j = sparql.find("\n", i)
            i = n if j < 0 else j
            out.append(" ")
        elif sparql.startswith(("'''", '"""'), i):
            j = sparql.find(sparql[i : i + 3], i + 3)
            i = n if j < 0 else j + 3
            out.append(" ")
        elif ch in "'\"":
            j = i + 1
            while j < n and sparql[j] not in (ch, "\n"):
                j += 2 if sparql[j] == "\\" else 1
            i = j + 1 if j < n and sparql[j] == ch else j
            out.append(" ")
        elif ch == "<" and (m := _IRI_CHARS.match(sparql, i + 1)):
            i = m.end()
            out.append(" ")
        elif ch == "<":
            out.append(ch)
            i += 1
        else:
            # Copy up to the next character that may open a comment, string or IRI.
            end = _PLAIN_RUN.match(sparql, i).end()  # type: ignore[union-attr]
            out.append(sparql[i:end])
            i = end
    return "".join(out)


class SparqlRefused(Exception):
    """Raised for queries that are not read-only or do not parse."""


def _words(stripped: str) -> list[str]:
    return [w.upper() for w in re.findall(r"(?<![\w:?$@-])[A-Za-z]+(?![\w:])", stripped)]


def keywords(sparql: str) -> list[str]:
    """Bare keywords of a query, ignoring comments, strings, IRIs, names and variables."""
    return _words(strip_ignorable(sparql))


def _form(words: list[str]) -> str:
    return next((w for w in words if w not in ("PREFIX", "BASE")), "")


def query_form(sparql: str) -> str:
    """The first keyword after PREFIX/BASE declarations (labels results; not a guard)."""
    return _form(keywords(sparql))


def _depth(stripped: str) -> int:
    depth = deepest = 0
    for ch in stripped:
        if ch in _OPENERS:
            depth += 1
            deepest = max(deepest, depth)
        elif ch in _CLOSERS:
            depth = max(0, depth - 1)
    return deepest


def nesting_depth(sparql: str) -> int:
    """Deepest bracket nesting of a query, strings, comments and IRIs left out (no recursion)."""
    return _depth(strip_ignorable(sparql))


def count_operators(stripped: str) -> int:
    """Operators and joined patterns of a query already stripped (see `_OPERATOR`)."""
    return sum(1 for _ in _OPERATOR.finditer(stripped))


def check_query_size(sparql: str) -> str:
    """Refuse a query too long, too deeply nested or with too many operators to parse
    safely, naming the limit.

    Returns the query stripped (`strip_ignorable`), so the checks after this one do not
    scan it again.
    """
    if len(sparql) > MAX_QUERY_CHARS:
        raise SparqlRefused(
            f"query of {len(sparql):,} characters refused: at most {MAX_QUERY_CHARS:,} allowed"
        )
    stripped = strip_ignorable(sparql)
    depth = _depth(stripped)
    if depth > MAX_QUERY_DEPTH:
        raise SparqlRefused(
            f"query nested {depth} levels deep refused: at most {MAX_QUERY_DEPTH} allowed"
        )
    operators = count_operators(stripped)
    if operators > MAX_QUERY_OPERATORS:
        raise SparqlRefused(
            f"query has {operators:,} operators (expression operators, path steps, commas,"
            f" joined patterns); the limit is {MAX_QUERY_OPERATORS:,}"
        )
    return stripped


def screen_query(sparql: str) -> list[str]:
    """Everything checked before a query is parsed: its size, nesting and operators, and no
    SERVICE. Returns its keywords, which `syntax_refusal` words a parser's error with."""
    words = _words(check_query_size(sparql))
    if "SERVICE" in words:
        # pyoxigraph would really fetch a remote endpoint: no outbound calls from a tool.
        raise SparqlRefused(f"federated SERVICE queries are not allowed; {READ_ONLY}")
    return words


def syntax_refusal(words: list[str], parser_message: str) -> SparqlRefused:
    """The refusal of a query the parser rejected: an update is named as one."""
    form = _form(words)
    if form in UPDATE_WORDS:
        return SparqlRefused(f"SPARQL update ({form}) refused: {READ_ONLY}")
    return SparqlRefused(f"SPARQL syntax error: {parser_message}. Note: {READ_ONLY}")
