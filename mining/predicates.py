"""The typed relations a mined claim can state, and how each one is written in JSON-LD.

Pure data (the workflow imports it). Every claim states one relation between a subject
and an object. Each relation has one canonical direction, so "CATL buys from Tianqi"
and "Tianqi supplies CATL" are the same fact and corroborate each other; the inverse
phrasings are listed under `inverses`. `relatedTo` is the fallback when no typed
relation fits: it is never accepted without a reviewer.

JSON-LD: the claim's `about` node is the subject, and carries the relation as the
property named by `property` (a schema.org term or a `dkg:` term), whose value is the
object node. Where schema.org has the relation only in the other direction (a study's
`sponsor`, a product's `manufacturer`) `schemaInverse` names that property too.
"""

from __future__ import annotations

from dataclasses import dataclass

DKG_NS = "https://ontology.origintrail.io/dkg/1.0#"
RELATED_TO = "relatedTo"


@dataclass(frozen=True)
class Predicate:
    name: str
    property: str  # JSON-LD key on the subject node
    label: str  # how a sentence says it: "{subject} {label} {object}"
    inverses: tuple[str, ...] = ()  # names of the same relation read object -> subject
    symmetric: bool = False
    schema_inverse: str | None = None  # schema.org property from object to subject
    subject_kinds: tuple[str, ...] = ()  # type families expected as subject (empty: any)
    object_kinds: tuple[str, ...] = ()


ORG = ("organization",)
ACTOR = ("organization", "place", "person")
PLACE = ("place",)
GOODS = ("product", "drug", "concept", "creativework")

PREDICATES: dict[str, Predicate] = {
    p.name: p
    for p in (
        Predicate(
            "supplies", "dkg:supplies", "supplies",
            inverses=("customerOf", "sourcesFrom", "buysFrom"),
            subject_kinds=("organization", "place"), object_kinds=ORG,
        ),
        Predicate(
            "produces", "dkg:produces", "produces", schema_inverse="manufacturer",
            subject_kinds=("organization", "place"), object_kinds=GOODS,
        ),
        Predicate(
            "subsidiaryOf", "parentOrganization", "is a subsidiary of",
            inverses=("parentOf",), schema_inverse="subOrganization",
            subject_kinds=ORG, object_kinds=ORG,
        ),
        Predicate(
            "ownsStakeIn", "dkg:ownsStakeIn", "owns a stake in",
            subject_kinds=ACTOR, object_kinds=("organization", "place"),
        ),
        Predicate(
            "acquired", "dkg:acquired", "acquired", inverses=("acquiredBy",),
            subject_kinds=ORG, object_kinds=("organization", "place"),
        ),
        Predicate(
            "partnerOf", "dkg:partnerOf", "is a partner of", symmetric=True,
            subject_kinds=ACTOR, object_kinds=ACTOR,
        ),
        Predicate(
            "operatesIn", "dkg:operatesIn", "operates in",
            subject_kinds=ORG, object_kinds=PLACE,
        ),
        Predicate(
            "locatedIn", "containedInPlace", "is located in",
            subject_kinds=("organization", "place", "event"), object_kinds=PLACE,
        ),
        Predicate(
            "restrictsExportsOf", "dkg:restrictsExportsOf", "restricts exports of",
            inverses=("exportsRestrictedBy",),
            subject_kinds=("place", "organization"), object_kinds=GOODS,
        ),
        Predicate(
            "imposesTariffsOn", "dkg:imposesTariffsOn", "imposes tariffs on",
            subject_kinds=("place", "organization"), object_kinds=(*GOODS, "place"),
        ),
        Predicate(
            "sanctions", "dkg:sanctions", "sanctions", inverses=("sanctionedBy",),
            subject_kinds=("place", "organization"), object_kinds=ACTOR,
        ),
        Predicate(
            "nationalises", "dkg:nationalises", "nationalises",
            subject_kinds=("place", "organization"), object_kinds=(*GOODS, "organization"),
        ),
        Predicate(
            "regulates", "dkg:regulates", "regulates", inverses=("regulatedBy",),
            subject_kinds=("place", "organization"),
        ),
        Predicate("affectedBy", "dkg:affectedBy", "is affected by", inverses=("affects",)),
        Predicate(
            "sponsors", "dkg:sponsors", "sponsors",
            inverses=("sponsoredBy", "fundedBy"), schema_inverse="sponsor",
            subject_kinds=("organization", "place"),
        ),
        Predicate(
            "studies", "dkg:studies", "studies", schema_inverse="studySubject",
            subject_kinds=("medicalstudy", "organization", "event", "creativework"),
            object_kinds=("drug", "medicalcondition", "product", "concept"),
        ),
        Predicate(
            "treats", "dkg:treats", "treats", inverses=("treatedBy",),
            subject_kinds=GOODS, object_kinds=("medicalcondition", "concept"),
        ),
        Predicate(
            "awardsContractTo", "dkg:awardsContractTo", "awarded a contract to",
            inverses=("contractorOf",),
            subject_kinds=("organization", "place"), object_kinds=ORG,
        ),
        Predicate(
            "exportsTo", "dkg:exportsTo", "exports to",
            subject_kinds=("place", "organization"), object_kinds=PLACE,
        ),
        Predicate("memberOf", "memberOf", "is a member of", object_kinds=ORG),
        Predicate(RELATED_TO, "dkg:relatedTo", "is related to", symmetric=True),
    )
}  # fmt: skip

# What a question about each relation talks about, in plain words. Relevance compares the
# question with these (mining/relevance.py "relation fit"), so a claim whose relation
# is the kind of fact the question asks for ranks above its sentence-mates.
ASKS: dict[str, str] = {
    "supplies": "suppliers, customers and buyers: who supplies, sells to or buys from whom",
    "produces": "producers: who produces, makes, publishes or manufactures a product",
    "subsidiaryOf": "ownership structure: which company is a subsidiary of which parent",
    "ownsStakeIn": "owners: who owns, holds a stake in or controls a company, mine or project",
    "acquired": "acquisitions: which company acquired or bought another",
    "partnerOf": "partners: joint ventures, partnerships and agreements between organisations",
    "operatesIn": "operations: who runs or operates a site, mine, plant or project, and where",
    "locatedIn": "locations: where something is located or was held",
    "restrictsExportsOf": "export restrictions: which governments ban or restrict exports of goods",
    "imposesTariffsOn": "tariffs and trade measures imposed on imports of goods",
    "sanctions": "sanctions: who sanctions or blacklists whom",
    "nationalises": "nationalisation: which state nationalises a resource or company",
    "regulates": "regulation: which authority regulates, licenses or revokes permits of whom",
    "affectedBy": "risk exposure: which companies or operations are affected, hit or threatened "
    "by events, policies, shortages, droughts, disasters or conflicts",
    "sponsors": "sponsors: who sponsors, funds or runs a study or trial",
    "studies": "studies: which drug, product or condition a trial or study tests",
    "treats": "treatments: which drug treats which condition",
    "awardsContractTo": "contracts: who awarded or won a contract or tender, and to whom",
    "exportsTo": "trade flows: which country or company exports goods to where",
    "memberOf": "membership: who is a member of which organisation",
    RELATED_TO: "any connection between two things",
}

# Families that carry no type information: they never block a relation.
UNTYPED = frozenset({"thing", ""})


def kinds_allow(predicate: str, subject_family: str, object_family: str) -> bool:
    """Whether the two ends' type families fit the relation (unknown types always fit)."""
    spec = PREDICATES.get(predicate)
    if spec is None:
        return True

    def fits(family: str, kinds: tuple[str, ...]) -> bool:
        # A small NER tags many companies PERSON: a person may fill an organisation's slot.
        if family == "person" and "organization" in kinds:
            return True
        return not kinds or family in UNTYPED or family in kinds

    return fits(subject_family, spec.subject_kinds) and fits(object_family, spec.object_kinds)


# Inverse name -> canonical name: "customerOf(B, A)" is stored as "supplies(A, B)".
INVERSE_OF: dict[str, str] = {
    inverse: p.name for p in PREDICATES.values() for inverse in p.inverses
}


def canonical(predicate: str, subject: str, obj: str) -> tuple[str, str, str]:
    """(predicate, subject, object) in the relation's canonical direction.

    Symmetric relations order their two ends by name, so "A partners B" and
    "B partners A" are one fact. An unknown predicate is returned as it is.
    """
    if predicate in INVERSE_OF:
        return INVERSE_OF[predicate], obj, subject
    spec = PREDICATES.get(predicate)
    if spec is not None and spec.symmetric and obj.lower() < subject.lower():
        return predicate, obj, subject
    return predicate, subject, obj


def is_open(predicate: str) -> bool:
    """A relation named by its source's own words ("halt production of"), not one of the
    typed vocabulary: kept as a text-typed relation."""
    return bool(predicate.strip()) and predicate not in PREDICATES


def open_property(predicate: str) -> str:
    """The JSON-LD key of a text-typed relation: "halt production of" -> dkg:haltProductionOf."""
    words = [w for w in "".join(ch if ch.isalnum() else " " for ch in predicate).split() if w]
    if not words:
        return PREDICATES[RELATED_TO].property
    return "dkg:" + words[0].lower() + "".join(w[:1].upper() + w[1:].lower() for w in words[1:])


def spec_for(predicate: str) -> Predicate:
    """The typed relation, or a text-typed one named and labelled by its own words."""
    known = PREDICATES.get(predicate)
    if known is not None:
        return known
    return Predicate(predicate, open_property(predicate), predicate)


def is_typed(predicate: str) -> bool:
    """A known relation more specific than `relatedTo`."""
    return predicate in PREDICATES and predicate != RELATED_TO


def sentence_for(predicate: str, subject: str, obj: str) -> str:
    """The plain sentence a claim states: 'Tianqi Lithium supplies CATL'."""
    spec = PREDICATES.get(predicate)
    label = spec.label if spec else predicate
    return f"{subject} {label} {obj}"
