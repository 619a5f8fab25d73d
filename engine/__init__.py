"""The rules engines of Admiralty's games, one package per ruleset, and their small shared kernel.

    engine/kernel/     dice (seeded, scripted), refusals, problems in a file with their paths
    engine/naval/      the naval campaign (../shared/rules/naval.md): simultaneous turns
    engine/seafarers/  the seafaring hex-board game (../shared/rules/seafarers.md): actions in turn

Standard library only: no Django, no database, no clock, no I/O. The two engines never import
each other (import-linter contracts in pyproject.toml, checked by `make test`).
"""
