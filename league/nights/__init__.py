"""Game nights: opening a night, arrivals, drawing rounds of tables and seating them, and the
games played at those tables."""
