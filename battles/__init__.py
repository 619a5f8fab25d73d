"""Stored battle reports for display."""
