"""What every ruleset's engine shares, and nothing more: the seeded, scripted dice source
(`dice`), the refusal of an input with a stable code (`refusals`), and the reader's list of
problems in a file, each with its path (`problems`). Standard library only, like the engines."""
