"""How relevant a statement is to the user's question (pure: no I/O, clock or randomness).

    base      = w.sentence        * semantic(max(cos(question, sentence), cos(question, claim)))
              + w.source          * semantic(cos(question, source title + passage))
              + w.lexical         * lexical(question, sentence + title)
              + w.source_lexical  * lexical(question, source title + passage)
              + w.relation        * semantic(cos(question, what the claim's relation is about))
    relevance = (1 - w.anchor) * base + w.anchor * anchor    when the question names entities
                base                                          otherwise             in [0, 1]

with w = `WEIGHTS` (sentence 0, source 0.4, lexical 0, source_lexical 0.2, relation 0.4,
anchor 0.2).

semantic(c)
    the embedding cosine rescaled to [0, 1] between the model's `low` (what unrelated
    English text scores) and `high` (a paraphrase-level match), clamped. Cosine scales
    differ between embedding models, so each model has its own pair in `CALIBRATION`.
lexical
    the share of the question's content words (stems; question words, auxiliaries and
    other function words left out) that the text contains. It keeps a sentence that merely
    sounds like the question (same topic, other subject) from passing on embeddings
    alone, and rewards the exact terms an analyst typed.
source terms
    whether the passage the statement comes from is about the question at all: a true
    statement from an off-topic source is off-topic, and a terse sentence ("It buys from
    X.") in a passage about the question is not.
relation fit
    the question against a plain description of the claim's relation
    (`mining/predicates.py` `ASKS`): "Who sponsors the trials?" asks for `sponsors`,
    so of two true statements in one sentence the one of the asked relation ranks higher.
    A compound question ("What is behind the shortage, and which makers are affected?")
    asks each part's relation too: the cosine is the mean of the whole question's and
    the best part's when that is higher (`mining/question.py` `question_parts`).
anchor
    1 when the claim is about an entity the question names ("Who are Tesla's suppliers?":
    Tesla), 0.5 when its sentence mentions one, `SOURCE_ANCHOR` when only its source
    does: a question about named entities is answered by facts about them. A source that
    names none of them cannot answer the question: relevance 0 ("Which cocoa traders are
    exposed in Ghana?" is not answered by a page on lithium that never names Ghana,
    however well its export-restriction sentences match the question's words).

A source whose own terms (`source_topic`: the two source terms on their own scale) fall
below `SOURCE_FLOOR` is off-topic and every statement from it scores 0: on the labeled
sets, 0.3 keeps 60 of 68 relevant demo sources and 24 of 24 held-out ones while dropping
half and four fifths of the irrelevant ones. A claim about an entity the question names
(anchor 1) needs only `SOURCE_FLOOR_ANCHORED`.

A statement below `RELEVANCE_FLOOR` is never proposed. The constants come from
`bench/relevance_calibration.py`: searched on the odd-numbered labeled demo questions,
checked on the even-numbered ones and on the held-out set (other domains, documents the
search never saw during tuning); its output is recorded in `bench/results.json` under
`relevance_calibration`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from mining.names import normalise_label


class Embedder(Protocol):
    """A sentence embedder (`activities/embeddings.py` has the models): unit vectors, one
    row per text, so a dot product is the cosine. `name` picks its `CALIBRATION`."""

    name: str

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


@dataclass(frozen=True)
class Weights:
    sentence: float = 0.0
    source: float = 0.4
    lexical: float = 0.0
    source_lexical: float = 0.2
    relation: float = 0.4
    anchor: float = 0.2


WEIGHTS = Weights()
RELEVANCE_FLOOR = 0.375
# A source scoring below this on its own terms (`source_topic`) is off-topic: nothing it
# states is relevant, however its sentences sound.
SOURCE_FLOOR = 0.3
# ... a lower one when the claim is about what the question names (or something the DKG
# places in it): the question's own entity is evidence that the source is about it, and a
# terse source ("TfL awarded bus contracts to Wrightbus", for "contracts in the UK") falls
# below 0.3. On the labeled sets 0.0, 0.1 and 0.15 give demo recall 0.580, 0.580, 0.563
# with precision 0.818, 0.818, 0.815; held-out unchanged. 0.1 keeps a source that is
# about nothing the question says out, whatever entity it names.
SOURCE_FLOOR_ANCHORED = 0.1
# The anchor of a statement whose source, not its sentence, names a question entity.
SOURCE_ANCHOR = 0.25

# (low, high) cosine per embedding model name (`Embedder.name`).
CALIBRATION: dict[str, tuple[float, float]] = {
    "all-MiniLM-L6-v2-int8": (0.20, 0.70),
    # OpenAI's text-embedding-3 family scores unrelated text a little higher; not measured
    # here (no network), set from its published similarity ranges.
    "openai:text-embedding-3-small": (0.15, 0.65),
    "openai:text-embedding-3-large": (0.12, 0.62),
}
DEFAULT_CALIBRATION = (0.20, 0.70)

FUNCTION_WORDS = frozenset(
    """a about above across after against all also am among an and any are as at be because
    been before being below between both but by can could did do does doing during each
    either for from had has have having how i if in into is it its itself just me more most
    my no nor not now of off on once only or other our out over own same she should so some
    such than that the their them then there these they this those through to too under
    until up very was we were what when where which while who whom whose why will with
    would you your""".split()
)
# Words that shape a question without naming its topic.
QUESTION_WORDS = frozenset(
    """list name tell show give find identify describe explain main key major biggest
    largest top current recent currently recently today now new latest many much kind
    kinds type types carry face faces facing exist exists""".split()
)
_WORD = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")


def stem(word: str) -> str:
    """A light English stem: enough to match 'suppliers'/'supplier', 'shortages'/'shortage'."""
    w = word.lower().strip("'")
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 4 and w.endswith(("sses", "ches", "shes", "xes")):
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w


def content_words(text: str) -> set[str]:
    """Stems of the words that carry a text's topic."""
    return {
        stem(w)
        for w in _WORD.findall(text.lower())
        if w not in FUNCTION_WORDS and w not in QUESTION_WORDS and len(w) > 1
    }


def lexical(question: str, text: str) -> float:
    """Share of the question's content words present in `text` (0.0 for a wordless question)."""
    wanted = content_words(question)
    if not wanted:
        return 0.0
    return len(wanted & content_words(text)) / len(wanted)


def semantic(cosine: float, model: str) -> float:
    """An embedding cosine on the model's calibrated [low, high] scale, clamped to [0, 1]."""
    low, high = CALIBRATION.get(model, DEFAULT_CALIBRATION)
    return min(1.0, max(0.0, (cosine - low) / (high - low)))


def anchor(
    question_entities: set[str],
    ends: set[str],
    sentence: str,
    source: str,
    sentence_uals: frozenset[str] = frozenset(),
    source_uals: frozenset[str] = frozenset(),
) -> float | None:
    """1 / 0.5 / 0.25 / 0 as documented; None when the question names no entity.

    Entities are compared as normalised names or UALs (the caller's keys). A text names
    an entity when its normalised words contain the name, or when the DKG assets found in
    it (`sentence_uals`, `source_uals`: by any of their aliases) include it.
    """
    if not question_entities:
        return None
    if ends & question_entities:
        return 1.0
    if sentence_uals & question_entities or _names_any(question_entities, sentence):
        return 0.5
    if source_uals & question_entities or _names_any(question_entities, source):
        return SOURCE_ANCHOR
    return 0.0


def _names_any(entities: set[str], text: str) -> bool:
    # The text is normalised like the names are ("Alzheimer's" -> "alzheimers"); a UAL
    # never matches, its ':' and '/' being separators.
    words = f" {normalise_label(text)} "
    return any(f" {e} " in words for e in entities)


@dataclass(frozen=True)
class Signals:
    """What relevance is computed from; cosines are raw, shares in [0, 1]."""

    sentence_cos: float
    source_cos: float
    lexical: float
    source_lexical: float = 0.0
    relation_cos: float | None = None  # None: no relation to compare (a bare text)
    anchor: float | None = None  # None: the question names no entity
    # Whether the source names the kind the question asks for ("potash" of "Which potash
    # producers ..."); None: the question names no kind.
    kind_named: bool | None = None


def passage_text(title: str | None, text: str) -> str:
    """The text a source's relevance is judged on: its title, then the passage."""
    return f"{title}. {text}" if title else text


def _share(value: float) -> float:
    return min(1.0, max(0.0, value))


def source_topic(signals: Signals, model: str, weights: Weights = WEIGHTS) -> float:
    """How much the source is about the question: its two source terms, on their own
    weights' scale (1.0 when both are full); 1.0 when the weights give sources no say."""
    total = weights.source + weights.source_lexical
    if total <= 0:
        return 1.0
    return (
        weights.source * semantic(signals.source_cos, model)
        + weights.source_lexical * _share(signals.source_lexical)
    ) / total


def relevance(signals: Signals, model: str, weights: Weights = WEIGHTS) -> float:
    """The module's formula, rounded to 3 decimals."""
    # A text with no relation (a model's free sentence) gives that weight to its own
    # sentence: the remaining weights still sum to one.
    relation = signals.relation_cos
    sentence_weight = weights.sentence + (weights.relation if relation is None else 0.0)
    score = (
        sentence_weight * semantic(signals.sentence_cos, model)
        + weights.source * semantic(signals.source_cos, model)
        + weights.lexical * _share(signals.lexical)
        + weights.source_lexical * _share(signals.source_lexical)
        + (weights.relation * semantic(relation, model) if relation is not None else 0.0)
    )
    if signals.kind_named is False:
        return 0.0  # a source on lithium does not answer "which potash producers ..."
    floor = SOURCE_FLOOR_ANCHORED if signals.anchor == 1.0 else SOURCE_FLOOR
    if source_topic(signals, model, weights) < floor:
        return 0.0  # the source is about something else
    if signals.anchor is not None:
        if signals.anchor == 0.0:
            return 0.0  # the source never names what the question is about
        score = (1 - weights.anchor) * score + weights.anchor * signals.anchor
    return round(score, 3)


def is_relevant(score: float, floor: float = RELEVANCE_FLOOR) -> bool:
    return score >= floor
