"""Results: games logged and corrected, their confirmation and disputes, and the ratings they
make."""
