"""What every ruleset's engine shares, and nothing more: the seeded, scripted dice source
(`dice`), the refusal of an input with a stable code (`refusals`), the reader's list of
problems in a file, each with its path (`problems`), and whether a package runs its compiled
build (`compiled`, also used by the map's drawing). Standard library only, like the engines."""
