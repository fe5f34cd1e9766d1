"""The names a whole document uses travel with each of its passages, so a passage is
read, and anchored to a question, as part of the article it comes from."""

from __future__ import annotations

import time

from mining.passage_selection import document_names
from tests.support.large_text import prose

ARTICLE = """The harbour works at Kirkwall were put out to tender by Orkneyport, the island's
port authority, in 2023.
Three bidders shared the lots among themselves. Orkneyport said it would claim damages.
The Marine Directorate fined Stromness Civil Works and Hoy Dredging in March.
Because the works were late, the ferries used the old pier. Ferries still call at the pier."""


def test_a_one_word_name_used_twice_is_a_name_of_the_document() -> None:
    assert "Orkneyport" in document_names(ARTICLE)


def test_multi_word_names_come_first_and_common_words_never_count() -> None:
    names = document_names(ARTICLE)
    assert names == ["Marine Directorate", "Stromness Civil Works", "Orkneyport"]
    # "Three" and "Because" open sentences only; "Ferries" is also written "ferries".
    for word in ("Three", "Because", "Ferries", "March"):
        assert word not in names


def test_the_tail_of_a_name_joined_by_and_is_not_a_name_of_its_own() -> None:
    names = document_names("The Sylvanian Food and Drug Administration fined Hoy Dredging.")
    assert "Drug Administration" not in names and "Hoy Dredging" in names
    assert "Drug Administration" in document_names("Food prices and Drug Administration fees")


def test_the_names_of_a_long_document_take_time_linear_in_its_length() -> None:
    # A scan from the start of the text before every name made 1 MB take over 120 s.
    text = prose(4_000_000)
    started = time.perf_counter()
    names = document_names(text)
    assert time.perf_counter() - started < 30
    assert "Ganfeng Lithium" in names and "Orkneyport" in names


def test_a_name_never_runs_over_a_paragraph_or_a_line_its_writer_broke() -> None:
    text = (
        "Ferry Notes · 8 October 2024 · by Ingrid Solberg\n\n"
        "Five Harbours Group said on Monday that it had sold two ships.\n"
        "In Norway, Fjord Press signed with Kestrel Paper."
    )
    found = document_names(text)
    assert "Ingrid Solberg" in found and "Five Harbours Group" in found
    assert not any("Solberg Five" in n for n in found)
    assert "In Norway" not in found


def test_a_one_word_name_of_the_document_is_a_mention_where_the_passage_says_nothing() -> None:
    from mining.nlp import Resolver, mentions_in
    from mining.parsing import parse

    def named(text: str, names: list[str]) -> dict[str, str]:
        return {m.text: m.family for m in mentions_in(parse(text), [], Resolver([]), names)}

    # The small NER model leaves "the Tarn" out; the rest of the article names it.
    passage = "Hoyvik has no slipway. Its two cranes pump water from the Tarn through pipes."
    assert "Tarn" not in named(passage, [])
    assert named(passage, ["Tarn", "Hoyvik"])["Tarn"] == "concept"
    # Typed as the text types the same name elsewhere.
    typed = "Ships reach the Tarn in Norway. Ferries pump water from the Tarn."
    assert set(named(typed, ["Tarn"]).values()) == {"place"}


def test_a_word_that_opens_a_sentence_and_is_written_small_elsewhere_starts_no_name() -> None:
    article = (
        "Ferries left Kirkwall. - Only Stromness Harbour and Hoy Pier stayed open. "
        "The only pier left was small."
    )
    names = document_names(article)
    assert "Stromness Harbour" in names
    assert not any(n.startswith("Only") for n in names)


def test_a_count_in_a_table_row_is_no_part_of_the_name_before_it() -> None:
    from mining.nlp import Resolver, mentions_in
    from mining.parsing import parse

    rows = "Ferries per port:\nNorway 1,350,000 about 65%\nIceland 470,000 about 70%\n"
    found = {m.name for m in mentions_in(parse(rows), [], Resolver([]))}
    assert "Norway" in found and not any("1,350,000" in name for name in found)
