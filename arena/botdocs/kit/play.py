"""Play local matches between your bot files and the house bots, as the arena plays them.

    python3 play.py starter_bot.py random greedy --seed 1 --games 10 --sandbox unsafe
    python3 play.py cantankerous_starter_bot.py greedy --game cantankerous-cats --seed 1 --sandbox unsafe

Standard library only: run it with Python 3.11 from this folder (see README.md).
"""

import sys

from arena.localplay import main

if __name__ == "__main__":
    sys.exit(main())
