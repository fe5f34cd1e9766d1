"""The HTTP routers, one module per resource, each included by `api/app.py`.

`runs` (start, list, read, decide, result, cancel), `run_files` (research files of a run),
`run_events` (a run as AG-UI Server-Sent Events), `audit` (a run's audit trail), `dkg`
(SPARQL and assets), `memory` (long-term memory notes), `health` (liveness, readiness,
metrics) and `ui` (the chat UI's page and static files). They reach Temporal and the
worker's services only through the dependencies of `api/deps.py` and `api/auth.py`.
"""
