"""The seafaring game's pages (issue 13), one module per audience: `play` (a seat's desk: the
board, the hand, the dice, the actions), `offers` (domestic trade offers between players),
`moderate` (the moderator's dashboard and the game's setup), `log` (the log, the table, the
forum exports and the board as a picture)."""
