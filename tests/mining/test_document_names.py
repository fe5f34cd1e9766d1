"""The names a whole document uses travel with each of its passages, so a passage is
read, and anchored to a question, as part of the article it comes from."""

from __future__ import annotations

from mining.passage_selection import document_names

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
