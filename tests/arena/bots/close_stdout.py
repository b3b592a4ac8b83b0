import os

os.close(1)  # catbot cannot answer any more: the arena must see a crash, not hang
