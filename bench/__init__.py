"""Admiralty's performance benchmark (`make bench` = `python -m bench`).

Generates deterministic campaigns, times the engine's `resolve_turn` on them, and compares it with
a minimal-work floor measured in the same run on the same data (see docs/benchmarks.md).
"""
