"""Clubs: leagues and their settings, players, members and roles, invitations and seasons, and
the pages of leagues and players."""
