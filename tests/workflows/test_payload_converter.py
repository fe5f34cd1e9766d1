"""The worker's payload converter: the plugin's JSON, built once per process."""

from __future__ import annotations

from temporalio.converter import DataConverter
from temporalio.deepagents._serde import DeepAgentsPayloadConverter

from contracts.tools import ToolMetadata, ToolResponse
from kminer.config import load_settings
from kminer.payload_converter import SharedPayloadConverter
from kminer.worker import deepagents_plugin

VALUES = [ToolResponse(success=True, results=[{"ual": "did:dkg:x/1"}],
                       metadata=ToolMetadata(count=1)), {"a": [1, None]}, "text", None]  # fmt: skip


def test_every_instance_shares_the_first_ones_parts() -> None:
    first, second = SharedPayloadConverter(), SharedPayloadConverter()
    assert first is not second
    assert first.converters is second.converters
    assert isinstance(second, DeepAgentsPayloadConverter)


def test_it_writes_and_reads_the_plugins_json_byte_for_byte() -> None:
    plugin = DataConverter(payload_converter_class=DeepAgentsPayloadConverter).payload_converter
    shared = DataConverter(payload_converter_class=SharedPayloadConverter).payload_converter
    ours = shared.to_payloads(VALUES)
    assert [p.SerializeToString() for p in ours] == [
        p.SerializeToString() for p in plugin.to_payloads(VALUES)
    ]
    hints = [ToolResponse, dict, str, type(None)]
    assert shared.from_payloads(ours, hints) == plugin.from_payloads(ours, hints) == VALUES


def test_the_worker_plugin_is_configured_with_it(tmp_path: object) -> None:
    plugin = deepagents_plugin(load_settings(tmp_path))  # type: ignore[arg-type]
    converter = plugin._data_converter  # noqa: SLF001
    assert converter is not None and converter.payload_converter_class is SharedPayloadConverter
