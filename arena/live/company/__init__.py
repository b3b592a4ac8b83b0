"""Friends at a live table: the seats left for them (services) and their pages (views)."""
