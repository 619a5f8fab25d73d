"""The rulebooks on the site: each ruleset's rules, rendered from a copy kept in the project, with
every clause id as an anchor, so the ids that pages show (R3, E2, U2, X27) link to their text."""
