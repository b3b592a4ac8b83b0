"""Games in and out of a league: BG Stats files (read, planned, imported and written) and the
CSV exports of games and standings."""
