"""Tells the workflow which model and backends this worker runs (recorded in history)."""

from __future__ import annotations

from temporalio import activity

from contracts.activity_names import GET_RUNTIME_CONFIG
from contracts.run import RuntimeConfig


class RuntimeActivities:
    def __init__(self, config: RuntimeConfig) -> None:
        self._config = config

    @activity.defn(name=GET_RUNTIME_CONFIG)
    async def get_runtime_config(self) -> RuntimeConfig:
        return self._config
