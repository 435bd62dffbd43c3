"""Text in and out: one module a format (a line, a block, JSON, tokens, pencil marks). These sit below ``Grid``,
which parses and prints itself through them; reading whole files of puzzles is ``bitdoku.reader``, a layer up."""
