"""A saved page's furniture is not read as prose: consent dialogs, buttons, menus marked
by their role, hidden parts and tool bars made only of links."""

from __future__ import annotations

from pathlib import Path

from storage.corpus.documents.html import read_html

PAGE = b"""<html><head><title>Ferry fleet renewed</title></head><body>
<div id="consent" role="dialog"><p>We and our partners use cookies.
<div><p>Nested inside the dialog too.</p></div> Still the dialog.</p>
<button>Accept</button> <button>Settings</button></div>
<div role="navigation"><p>Ports Ships Crews</p></div>
<main><article>
<p>Corvina Ferries ordered two hybrid ferries from Gdansk Yards in May.</p>
<div class="tools"><a href="#">Share</a> <a href="#">Print</a>
<a href="#">Gift this article</a></div>
<p hidden>Subscriber-only teaser.</p>
<p>The ships will sail between <a href="/kirkwall">Kirkwall</a> and Lerwick from 2027.</p>
</article></main></body></html>"""


def test_only_the_article_prose_is_read(tmp_path: Path) -> None:
    path = tmp_path / "ferries.html"
    path.write_bytes(PAGE)
    text = read_html(path, PAGE).content
    assert "Corvina Ferries ordered two hybrid ferries" in text
    assert "sail between Kirkwall and Lerwick" in text  # a link inside prose stays
    for furniture in ("cookies", "Nested inside", "Still the dialog", "Accept", "Settings",
                      "Ports Ships", "Share", "Gift this article", "Subscriber-only"):
        assert furniture not in text, furniture
