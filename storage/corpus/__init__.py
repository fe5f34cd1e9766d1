"""Local document search: the offline stand-in for web search and the user's own library.

`index.CorpusIndex` keeps passages (`passages`) of documents read by the format readers
of `documents/` in a SQLite FTS5 index; `models` holds its schema and result shapes.
`shipped/` holds the demo documents indexed on every start.
"""
