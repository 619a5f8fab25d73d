"""The seafaring ruleset's engine (../shared/rules/seafarers.md): see README.md in this folder."""
