"""Catleague's game engine: the rules of the cat card games, in pure Python (no Django)."""
