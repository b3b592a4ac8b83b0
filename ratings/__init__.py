"""What the league and the arena both need and neither owns: the Elo maths
(:mod:`ratings.elo`) and the rating charts (:mod:`ratings.charts`). It imports neither app, so
the two apps stay independent of each other (an import-linter contract)."""
