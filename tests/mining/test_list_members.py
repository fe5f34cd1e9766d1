"""Named members of a general noun (mining/list_members.py): "several ports, including
Kiel and Gdansk", "railways such as A and B", "clubs like A and B". Whatever a sentence
says of the noun it says of each named member, with the relation a named object in the
noun's place would get. Invented names from ferries, railways, museums, sports leagues
and publishing: no data set of the project is about any of them."""

from __future__ import annotations

from contracts.tools import SourceDocument
from mining.extraction import read_statements
from mining.list_members import list_noun, listed
from mining.nlp import Resolver
from mining.parsing import parse

U = "did:dkg:otp:20430/0xcdb/"
GAZ: list[tuple[str, str, str]] = [
    ("Nordvik Ferries", U + "301", "Corporation"),
    ("Kiel", U + "302", "City"),
    ("Gdansk", U + "303", "City"),
    ("Tarnow Steelworks", U + "304", "Corporation"),
    ("Polregio", U + "305", "Corporation"),
    ("Arriva Rail", U + "306", "Corporation"),
    ("Halvard Museum", U + "307", "Organization"),
    ("Ostberg Gallery", U + "308", "Organization"),
    ("Lindqvist Collection", U + "309", "Organization"),
    ("Rovers FC", U + "310", "Organization"),
    ("Albion Town", U + "311", "Organization"),
    ("Kestrel Sports", U + "312", "Corporation"),
    ("Quillon Press", U + "313", "Corporation"),
    ("Brekke Paper", U + "314", "Corporation"),
    ("Solvang Pulp", U + "315", "Corporation"),
    ("Haldor Mills", U + "316", "Corporation"),
]


def facts(text: str) -> set[tuple[str, str, str]]:
    found = read_statements(SourceDocument(text=text, source="https://example.org/a"),
                            GAZ, Resolver(GAZ))  # fmt: skip
    return {(s.subject, s.predicate, s.object) for s in found if not s.negated}


def test_the_ports_a_ferry_line_sells_tickets_to_including_two_named_are_those_two() -> None:
    listed_ports = facts(
        "Nordvik Ferries sells tickets to several ports, including Kiel and Gdansk."
    )
    named_ports = facts("Nordvik Ferries sells tickets to Kiel and Gdansk.")
    assert listed_ports == named_ports
    assert {o for s, _, o in listed_ports if s == "Nordvik Ferries"} == {"Kiel", "Gdansk"}


def test_a_supplier_to_railways_such_as_two_operators_supplies_each() -> None:
    out = facts("Tarnow Steelworks supplies rails to railways such as Polregio and Arriva Rail.")
    assert out == {
        ("Tarnow Steelworks", "supplies", "Polregio"),
        ("Tarnow Steelworks", "supplies", "Arriva Rail"),
    }


def test_a_list_after_a_comma_names_the_members_wherever_the_parser_hangs_it() -> None:
    # The small parser hangs this "including" on the verb, not on "operators".
    out = facts(
        "Tarnow Steelworks supplies rails to railway operators, including Polregio and "
        "Arriva Rail."
    )
    assert out == {
        ("Tarnow Steelworks", "supplies", "Polregio"),
        ("Tarnow Steelworks", "supplies", "Arriva Rail"),
    }


def test_a_buyer_from_mills_such_as_three_named_buys_from_each_of_them() -> None:
    out = facts("Quillon Press buys paper from mills such as Brekke Paper, Solvang Pulp and "
                "Haldor Mills.")  # fmt: skip
    assert out == {(mill, "supplies", "Quillon Press")
                   for mill in ("Brekke Paper", "Solvang Pulp", "Haldor Mills")}  # fmt: skip


def test_a_sponsor_of_clubs_like_two_named_sponsors_both() -> None:
    listed_clubs = facts("Kestrel Sports sponsors clubs like Rovers FC and Albion Town.")
    assert listed_clubs == facts("Kestrel Sports sponsors Rovers FC and Albion Town.")
    assert listed_clubs == {
        ("Kestrel Sports", "sponsors", "Rovers FC"),
        ("Kestrel Sports", "sponsors", "Albion Town"),
    }


def test_a_relation_no_type_names_is_read_in_the_words_of_the_clause_for_each_member() -> None:
    # No typed relation lends; the clause's own words do, as for the named galleries.
    listed_galleries = facts(
        "The Halvard Museum lends paintings to galleries like the Ostberg Gallery and the "
        "Lindqvist Collection."
    )
    assert listed_galleries == facts(
        "The Halvard Museum lends paintings to the Ostberg Gallery and the Lindqvist Collection."
    )
    assert {o for s, _, o in listed_galleries if s == "Halvard Museum"} == {
        "Ostberg Gallery", "Lindqvist Collection"}  # fmt: skip


def test_the_named_members_of_a_subject_each_act() -> None:
    out = facts(
        "Several publishers, including Quillon Press and Brekke Paper, buy pulp from Haldor Mills."
    )
    assert out == {
        ("Haldor Mills", "supplies", "Quillon Press"),
        ("Haldor Mills", "supplies", "Brekke Paper"),
    }
    clubs = facts("Several clubs, including Rovers FC and Albion Town, sued Kestrel Sports.")
    assert {s for s, _, o in clubs if o == "Kestrel Sports"} == {"Rovers FC", "Albion Town"}


def test_no_cue_word_of_the_list_ends_up_in_a_relation() -> None:
    for text in (
        "Tarnow Steelworks supplies rails to railways such as Polregio and Arriva Rail.",
        "Nordvik Ferries sells tickets to several ports, including Kiel and Gdansk.",
        "Kestrel Sports sponsors clubs like Rovers FC and Albion Town.",
    ):
        for _, predicate, _ in facts(text):
            assert not {"such", "as", "including", "include", "like"} & set(predicate.split())


def test_members_of_one_list_are_not_related_to_each_other() -> None:
    out = facts("Tarnow Steelworks supplies rails to railways such as Polregio and Arriva Rail.")
    assert not any({s, o} == {"Polregio", "Arriva Rail"} for s, _, o in out)


def test_a_general_noun_with_no_named_member_relates_nothing() -> None:
    assert facts("Quillon Press buys paper from mills.") == set()


def test_a_comparison_on_the_verb_is_no_list_of_its_objects() -> None:
    # "Like X, Y buys ...": X is compared with the buyer, it is no seller.
    out = facts("Like Tarnow Steelworks, Nordvik Ferries buys coal from Haldor Mills.")
    assert ("Haldor Mills", "supplies", "Nordvik Ferries") in out
    assert not any(p == "supplies" and "Tarnow Steelworks" in (s, o) for s, p, o in out)


def test_the_list_is_read_from_the_parse_with_its_coordinated_members() -> None:
    doc = parse("The league fined several clubs, including Rovers and Albion, last season.")
    clubs = next(t for t in doc if t.text == "clubs")
    assert [t.text for t in listed(clubs)] == ["Rovers"]  # the coordination's first member
    assert {list_noun(t).text for t in doc if t.text in ("Rovers", "Albion")} == {"clubs"}
    assert list_noun(next(t for t in doc if t.text == "league")) is None


def test_a_name_is_no_general_noun_to_give_examples_of() -> None:
    # "Nordvik Ferries, like Tarnow Steelworks": two names side by side, no list (the
    # parser tags "Ferries" a common noun, but it is part of a name).
    out = facts("Nordvik Ferries, like Tarnow Steelworks, buys coal from Haldor Mills.")
    assert ("Haldor Mills", "supplies", "Nordvik Ferries") in out
    assert ("Haldor Mills", "supplies", "Tarnow Steelworks") not in out


def test_examples_that_only_say_what_kind_of_thing_a_participle_describes_did_nothing() -> None:
    # "paper made by mills such as A": which paper is meant, not what A made.
    assert facts("Quillon Press prints books on paper made by mills such as Brekke Paper and "
                 "Solvang Pulp.") == set()  # fmt: skip
    assert facts("The league bans shirts with logos printed by firms such as Kestrel Sports.") == (
        set()
    )


def test_among_them_and_among_others_introduce_members_too() -> None:
    assert facts("Kestrel Sports sponsors several clubs, among them Rovers FC and Albion "
                 "Town.") == {("Kestrel Sports", "sponsors", "Rovers FC"),
                              ("Kestrel Sports", "sponsors", "Albion Town")}  # fmt: skip
    assert facts("Quillon Press buys paper from mills, among others Brekke Paper.") == {
        ("Brekke Paper", "supplies", "Quillon Press")
    }
