"""The read-only SPARQL guard both DKG implementations share.

A query is accepted only if pyoxigraph parses it as a *query*: its query parser
does not accept updates at all, so INSERT, DELETE, LOAD, CLEAR, DROP… never pass.
Keywords are read only to word the refusal and to name the result's form.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pyoxigraph import QueryBoolean, QuerySolutions, Store

READ_ONLY = "only read queries (SELECT, ASK, CONSTRUCT, DESCRIBE) are allowed"
UPDATE_WORDS = {"INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY"}
TRIPLE_COLUMNS = ("subject", "predicate", "object")
QueryKind = Literal["select", "ask", "construct", "describe"]

_IGNORABLE = re.compile(
    r"#[^\n]*|'''.*?'''|\"\"\".*?\"\"\"|'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\""
    r"|<[^<>\"{}|^`\\\s]*>",
    re.S,
)


class SparqlRefused(Exception):
    """Raised for queries that are not read-only or do not parse."""


def keywords(sparql: str) -> list[str]:
    """Bare keywords of a query, ignoring comments, strings, IRIs, names and variables."""
    stripped = _IGNORABLE.sub(" ", sparql)
    return [w.upper() for w in re.findall(r"(?<![\w:?$@-])[A-Za-z]+(?![\w:])", stripped)]


def query_form(sparql: str) -> str:
    """The first keyword after PREFIX/BASE declarations (labels results; not a guard)."""
    words = keywords(sparql)
    while words and words[0] in ("PREFIX", "BASE"):
        words.pop(0)
    return words[0] if words else ""


def parse_read_query(store: Store, sparql: str, prefixes: dict[str, str], **options: Any) -> Any:
    """Run `store.query` on a read-only query; refuse everything else with a clear reason."""
    if "SERVICE" in keywords(sparql):
        # pyoxigraph would really fetch a remote endpoint: no outbound calls from a tool.
        raise SparqlRefused(f"federated SERVICE queries are not allowed; {READ_ONLY}")
    try:
        return store.query(sparql, prefixes=prefixes, **options)
    except SyntaxError as exc:
        form = query_form(sparql)
        if form in UPDATE_WORDS:
            raise SparqlRefused(f"SPARQL update ({form}) refused: {READ_ONLY}") from exc
        raise SparqlRefused(f"SPARQL syntax error: {exc}. Note: {READ_ONLY}") from exc


def result_shape(result: Any, sparql: str) -> tuple[QueryKind, list[str]]:
    """(kind, columns) of a parsed query's result."""
    if isinstance(result, QueryBoolean):
        return "ask", []
    if isinstance(result, QuerySolutions):
        return "select", [v.value for v in result.variables]
    kind: QueryKind = "describe" if query_form(sparql) == "DESCRIBE" else "construct"
    return kind, list(TRIPLE_COLUMNS)
