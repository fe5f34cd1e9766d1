"""Talking to Temporal from outside a worker: starting and following runs, the search
attributes' indexing, the SDK runtime's metrics. Below both the API and the CLI."""
