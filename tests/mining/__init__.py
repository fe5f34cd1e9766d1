"""The pure mining library and the contracts it speaks (mining/, contracts/): extraction,
open relations and mentions, relevance, scoring, reliability, claims and answers, entities.
No Temporal server, no database; each file runs in seconds."""
