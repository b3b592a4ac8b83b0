"""Text output of ``python -m engine play --game cantankerous-cats`` for one game; seats are
numbered from 1, as on the site (the code's index 0 is seat 1)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["describe_game"]


def describe_game(game: Any, seed: int, bots: Sequence[str], final: Any) -> str:
    """The deck (a demo deck says so), each Cat's end state, and how the game was won."""
    result = final.result()
    demo = " (DEMO DECK — not the published cards)" if game.deck.demo else ""
    lines = [
        f"{game.name} rules v{game.version}, {game.variant} game, deck "
        f'"{game.deck.name}" v{game.data_version}{demo}, {game.num_players} players, '
        f"seed {seed}: {final.turn} turns, {len(final.history)} decisions"
    ]
    for player in result.players:
        status = "Feral" if player.feral else "Domestic"
        lines.append(
            f"  seat {player.seat + 1} {bots[player.seat]:<10} rank {player.rank}  "
            f"{player.total:>2} Mischief  {status:<8} {player.affection:>2} Affection"
            f"  {final.tokens[player.seat]} tokens"
        )
    if result.winners:
        seat = result.winners[0]
        how = (
            "nine Mischief points"
            if result.win_type == "nine_mischief"
            else "Feral victory (nine Affection)"
        )
        lines.append(f"winner: seat {seat + 1} ({bots[seat]}) by {how}")
    else:
        lines.append(f"no winner: stopped by the turn limit ({game.turn_limit} turns)")
    return "\n".join(lines)
