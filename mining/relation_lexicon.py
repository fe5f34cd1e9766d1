"""The words the relation rules read: verb and noun lexicons, and the word lists around them.

Plain data. `VERB_RULES` name a relation from a verb's lemma and the slot its object
fills; `NOUN_RULES` from a relational noun and its preposition ("stake in", "subsidiary
of"); `COMPOUND_OVERRIDES` from a noun's modifier ("offtake agreement", "export ban").
These are general English (trade, ownership, supply, regulation, research), not the
vocabulary of any one data set.
"""

from __future__ import annotations

ORG = frozenset({"organization", "person", "concept"})
PLACE = frozenset({"place", "organization"})
PRODUCT = frozenset({"product", "concept"})
ANY: frozenset[str] = frozenset()

# Verbs whose subject is a cause and whose object is affected by it.
AFFECT_VERBS = frozenset(
    "affect hit disrupt hurt threaten endanger damage delay jeopardise jeopardize "
    "squeeze pressure expose impact strand cripple harm".split()
)
# Verbs of an interruption: "X stopped its service after attacks on ships" -> X is affected
# by the attacks.
INTERRUPTED_VERBS = frozenset(
    "stop halt suspend cut lose close delay divert reroute reduce shut pause withdraw "
    "abandon cancel postpone idle curtail".split()
)
# Prepositions that put a cause after the interruption.
CAUSE_PREPS = frozenset({"after", "following", "amid"})
# (verb lemmas, slots, predicate, swap subject/object, object families allowed; empty = any)
VERB_RULES: list[tuple[frozenset[str], frozenset[str], str, bool, frozenset[str]]] = [
    (
        frozenset("buy purchase source import procure obtain order take get".split()),
        frozenset({"from"}),
        "supplies",
        True,
        frozenset({"organization", "place", "person"}),
    ),
    (
        # "Nordmark depends on Vardhan for amoxicillin": a company relied on is a supplier;
        # a country or a policy relied on is not.
        frozenset({"depend", "rely"}),
        frozenset({"on", "upon"}),
        "supplies",
        True,
        frozenset({"organization"}),
    ),
    (
        frozenset("supply sell ship deliver provide export send".split()),
        frozenset({"to", "dative"}),
        "supplies",
        False,
        frozenset({"organization", "person"}),
    ),
    (
        frozenset({"export", "ship", "send"}),
        frozenset({"to"}),
        "exportsTo",
        False,
        frozenset({"place"}),
    ),
    (
        frozenset("supply sell ship deliver provide serve".split()),
        frozenset({"dobj"}),
        "supplies",
        False,
        frozenset({"organization"}),
    ),
    (
        # Making the goods, not passing them on: a seller or exporter of a product is not
        # stated to produce it.
        frozenset("produce manufacture make mine refine extract assemble".split()),
        frozenset({"dobj"}),
        "produces",
        False,
        PRODUCT,
    ),
    (
        # Works an organisation puts out: datasets, reports, studies, indices.
        frozenset(
            "publish release issue compile maintain produce prepare author write update "
            "curate".split()
        ),
        frozenset({"dobj"}),
        "produces",
        False,
        frozenset({"creativework"}),
    ),
    (
        frozenset("acquire buy purchase absorb takeover".split()),
        frozenset({"dobj"}),
        "acquired",
        False,
        frozenset({"organization"}),
    ),
    (frozenset({"take"}), frozenset({"over"}), "acquired", False, frozenset({"organization"})),
    (
        # Controlling a site is running it ("YLB controls the Salar de Uyuni"); controlling
        # a company is owning it.
        frozenset({"control"}),
        frozenset({"dobj"}),
        "operatesIn",
        False,
        frozenset({"place"}),
    ),
    (
        frozenset("own hold control".split()),
        frozenset({"dobj"}),
        "ownsStakeIn",
        False,
        frozenset({"organization", "place", "product"}),
    ),
    (frozenset({"invest"}), frozenset({"in", "into"}), "ownsStakeIn", False, ANY),
    (
        frozenset("partner collaborate cooperate ally team sign agree work join merge".split()),
        frozenset({"with"}),
        "partnerOf",
        False,
        frozenset({"organization", "person", "place"}),
    ),
    (
        frozenset("operate run develop manage explore build expand commission".split()),
        frozenset({"dobj"}),
        "operatesIn",
        False,
        frozenset({"place"}),
    ),
    (
        frozenset(
            "operate mine work produce expand explore drill build active run manage open "
            "commission".split()
        ),
        frozenset({"in", "at", "into"}),
        "operatesIn",
        False,
        frozenset({"place"}),
    ),
    (
        frozenset("locate base headquarter situate register".split()),
        frozenset({"in", "at"}),
        "locatedIn",
        False,
        frozenset({"place"}),
    ),
    (frozenset({"sanction", "blacklist"}), frozenset({"dobj"}), "sanctions", False, ANY),
    (
        frozenset("nationalise nationalize expropriate seize".split()),
        frozenset({"dobj"}),
        "nationalises",
        False,
        ANY,
    ),
    (
        frozenset("regulate tax".split()),
        frozenset({"dobj"}),
        "regulates",
        False,
        frozenset({"organization", "product", "concept"}),
    ),
    (
        AFFECT_VERBS,
        frozenset({"dobj"}),
        "affectedBy",
        True,
        ANY,
    ),
    (frozenset({"weigh"}), frozenset({"on"}), "affectedBy", True, ANY),
    (
        frozenset("sponsor co-sponsor cosponsor fund finance back bankroll".split()),
        frozenset({"dobj"}),
        "sponsors",
        False,
        ANY,
    ),
    (
        # "Eli Lilly is running SURPASS-CVOT": whoever runs a trial is behind it.
        frozenset("run conduct lead launch start".split()),
        frozenset({"dobj"}),
        "sponsors",
        False,
        frozenset({"medicalstudy"}),
    ),
    (
        # "SURMOUNT-5 will compare Tirzepatide with Semaglutide"
        frozenset({"compare"}),
        frozenset({"dobj", "with"}),
        "studies",
        False,
        frozenset({"drug", "product"}),
    ),
    (
        frozenset("test evaluate study investigate assess examine trial".split()),
        frozenset({"dobj"}),
        "studies",
        False,
        frozenset({"product", "drug", "medicalcondition", "concept", "event", "organization"}),
    ),
    (
        # "tested Tirzepatide in Obesity", "tested A with Pembrolizumab"
        frozenset("test evaluate study investigate assess examine trial".split()),
        frozenset({"in", "with"}),
        "studies",
        False,
        frozenset({"drug", "medicalcondition"}),
    ),
    (frozenset({"treat"}), frozenset({"dobj"}), "treats", False, ANY),
    (
        frozenset({"join", "lead", "head", "chair"}),
        frozenset({"dobj"}),
        "memberOf",
        False,
        frozenset({"organization"}),
    ),
]

# (noun lemma, preposition) -> (predicate, swap). The verb's subject (or the noun's
# possessor, or the entity the noun is apposed to) is the relation's subject.
NOUN_RULES: dict[tuple[str, str], tuple[str, bool]] = {
    **{(n, "to"): ("supplies", False) for n in ("supplier", "seller", "vendor")},
    **{(n, "of"): ("produces", False) for n in (
        "producer", "maker", "manufacturer", "miner", "refiner", "purifier", "smelter",
        "grower", "processor", "publisher", "author", "compiler", "maintainer", "curator")},
    **{(n, "of"): ("supplies", True) for n in ("customer", "buyer", "client", "offtaker")},
    **{(n, "of"): ("subsidiaryOf", False) for n in (
        "subsidiary", "unit", "division", "arm", "affiliate")},
    ("parent", "of"): ("subsidiaryOf", True),
    ("owner", "of"): ("ownsStakeIn", False),
    ("operator", "of"): ("operatesIn", False),
    **{(n, "in"): ("ownsStakeIn", False) for n in (
        "stake", "interest", "share", "holding", "investment", "shareholding")},
    **{(n, "of"): ("acquired", False) for n in (
        "acquisition", "purchase", "takeover", "buyout")},
    ("partner", "of"): ("partnerOf", False),
    **{(n, "with"): ("partnerOf", False) for n in (
        "partnership", "venture", "agreement", "deal", "alliance", "collaboration", "mou",
        "memorandum", "pact", "consortium", "contract", "accord")},
    **{(n, "on"): ("restrictsExportsOf", False) for n in ("ban", "restriction", "control",
        "curb", "quota", "embargo", "prohibition", "limit")},
    **{(n, "on"): ("imposesTariffsOn", False) for n in ("tariff", "duty", "levy")},
    **{(n, p): ("sanctions", False) for n in ("sanction",) for p in ("on", "against")},
    **{(n, "on"): ("regulates", False) for n in ("royalty", "tax")},
    **{(n, "of"): ("nationalises", False) for n in (
        "nationalisation", "nationalization", "expropriation")},
    **{(n, "of"): ("sponsors", False) for n in ("sponsor", "funder", "backer")},
    ("member", "of"): ("memberOf", False),
    **{(n, p): ("affectedBy", True) for n in ("risk", "threat", "blow")
       for p in ("for", "to")},
    ("exposure", "to"): ("affectedBy", False),
}  # fmt: skip
# A relational noun's compound modifier can say more than the noun: an "offtake agreement
# with" or a "supply deal with" is a supply relation, an "export ban on" restricts exports.
COMPOUND_OVERRIDES: dict[tuple[str, str], str] = {
    **{(c, n): "supplies" for c in ("offtake", "supply", "sales", "purchase")
       for n in ("agreement", "deal", "contract", "pact", "accord", "mou")},
    **{("export", n): "restrictsExportsOf" for n in (
        "ban", "restriction", "control", "curb", "quota", "embargo", "prohibition", "limit",
        "licensing", "licence", "license", "permit")},
}  # fmt: skip
RESTRICTING_VERBS = frozenset(
    "ban restrict prohibit curb limit halt suspend block stop end cap control freeze".split()
)
EXPORT_NOUNS = frozenset({"export", "exports", "shipment", "shipments", "sale", "sales"})
CONCEPT_OBJECT_PREDICATES = frozenset(
    {"produces", "restrictsExportsOf", "imposesTariffsOn", "nationalises", "regulates"}
)
HEDGE_AUX = frozenset({"could", "may", "might"})
HEDGE_VERBS = frozenset(
    "plan expect consider propose seek aim hope fear intend want may threaten warn "
    "could would".split()
    # An attempt is not the deed: "has struggled to produce lithium carbonate at scale"
    # does not say that it produces it.
    + "struggle try attempt strive".split()
)
PASSIVE_STATE_VERBS = frozenset(
    "locate base headquarter situate register incorporate list domicile".split()
)
# "COP28 was held in Dubai": where an event took place (passive only: "X holds a stake in").
PASSIVE_LOCATION_VERBS = frozenset("hold host stage convene organise organize".split())
OWN_VERBS = frozenset("own hold control acquire buy take purchase keep retain".split())
QUANTITY_NOUNS = frozenset("% percent stake majority minority share portion half".split())
LIST_NOUNS = frozenset("list blacklist catalogue catalog register registry".split())
LIST_VERBS = frozenset("add place put include designate".split())
# Sites an organisation runs: "runs a logic fab in Hsinchu" operates in Hsinchu.
SITE_NOUNS = frozenset(
    """fab plant factory facility refinery smelter converter mine site warehouse terminal mill works
    operation operations plants factories facilities refineries converters mines sites""".split()
)
SITE_PREPS = frozenset({"in", "at", "near"})
# A dobj's prepositional phrase often belongs to the verb ("supplies X to B"): the small
# parser attaches it to the noun, so these prepositions are read as verb slots as well.
VERB_PREPS_ON_OBJECT = frozenset({"to", "from", "with", "into"})
GENERIC_NOUNS = frozenset(
    """thing things item items move step part rest way plan plans rule rules deal deals
    project projects company companies group groups it this that which what one ones
    amount amounts level levels number share shares most some many much all others
    other""".split()
)
# Nouns naming a policy, measure or event: "China's export restrictions" acts as a thing of
# its own in a sentence, distinct from the country that owns it.
EVENT_NOUNS = frozenset(
    """ban bans restriction restrictions control controls curb curbs tariff tariffs duty
    duties sanction sanctions reform reforms policy policies law laws rule rules regulation
    regulations strategy decision decree measure measures quota quotas embargo nationalisation
    nationalization expropriation royalty royalties tax taxes drought droughts flood floods
    strike strikes war conflict crisis shortage shortages outage outages dispute disputes
    protest protests election listing moratorium outbreak outbreaks attack attacks diversion
    delay delays
    diversions disruption disruptions licensing frost suspension revocation cancellation
    storm storms fire fires""".split()
)
# Event nouns that name one kind of measure: "the controls" may refer back to "export
# licensing for gallium" or "a ban on ore exports" said earlier.
RESTRICTION_NOUNS = frozenset(
    "ban restriction control curb embargo quota moratorium licensing sanction".split()
)
# "patients with Melanoma": who a trial enrols names the condition it studies.
POPULATION_NOUNS = frozenset(
    "patient people participant adult child volunteer subject person man woman".split()
)
# "the study", "the trial": the last entity of that kind the text named.
REFERENT_FAMILIES: dict[str, frozenset[str]] = {
    "study": frozenset({"medicalstudy"}),
    "trial": frozenset({"medicalstudy"}),
}
# "the government", "the authorities": the country the text is talking about.
GOVERNMENT_REFS = frozenset({"government", "authorities", "state"})
# Determiners that make a bare noun point back to something already said.
DEFINITE_DETS = frozenset({"the", "this", "these", "those"})
CONTRACT_NOUNS = frozenset({"contract", "tender", "order", "deal", "award", "concession"})


KNOWN_VERBS = frozenset(lemma for lemmas, *_ in VERB_RULES for lemma in lemmas) | {
    "be",
    "have",
    "say",
    "become",
    "remain",
    "include",
    "add",
    "use",
}

# "it", "they", "the company": subjects that point back to an organisation named earlier.
PRONOUNS = frozenset({"it", "they"})
DEFINITE_REFS = frozenset(
    "company group firm miner producer maker supplier buyer carrier operator manufacturer "
    "processor trader importer exporter".split()
)
# Nouns only a company is described by ("a roaster in Oslo"), beyond those "the ..." refers
# back with.
COMPANY_NOUNS = DEFINITE_REFS | frozenset(
    "roaster refiner recycler purifier distributor wholesaler retailer cooperative".split()
)
