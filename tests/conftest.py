"""Shared test configuration. Engine tests never touch the database."""
