"""The plugin's payload converter, built once per process instead of once per activation.

The SDK gives each workflow activation a data converter of its own (one per
serialization context), and a data converter builds its payload converter when it is
made. The plugin's converter (Pydantic JSON, `exclude_unset`) builds a schema
serializer, a type-adapter cache and its composite's converters each time: about 3 % of
a worker's CPU under load (bench/cpu_profile.py), and each fresh cache starts empty. It
holds no per-context state, so every instance here shares the first one's parts,
caches included (an `lru_cache` is thread-safe). The JSON it writes and reads is the
plugin's, byte for byte.
"""

from __future__ import annotations

from typing import Any, ClassVar

from temporalio.converter import DataConverter
from temporalio.deepagents._serde import DeepAgentsPayloadConverter


class SharedPayloadConverter(DeepAgentsPayloadConverter):
    """`DeepAgentsPayloadConverter` whose instances share one set of parts."""

    _parts: ClassVar[dict[str, Any] | None] = None

    def __init__(self) -> None:
        parts = SharedPayloadConverter._parts
        if parts is None:
            super().__init__()
            # Two threads may both get here first: each keeps an equivalent set.
            SharedPayloadConverter._parts = dict(self.__dict__)
        else:
            self.__dict__.update(parts)


def data_converter() -> DataConverter:
    return DataConverter(payload_converter_class=SharedPayloadConverter)
