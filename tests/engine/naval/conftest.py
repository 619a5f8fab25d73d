"""Helpers shared by the engine tests: loading rule cases and the invariants checked after each."""
