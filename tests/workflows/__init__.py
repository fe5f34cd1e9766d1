"""Runs on the real Temporal dev server (workflows/, the worker of kminer/worker.py):
review, replay, durability, continue-as-new, budgets, research, the rules policy and the
LLM path against a replayed model, batches and schedules."""
