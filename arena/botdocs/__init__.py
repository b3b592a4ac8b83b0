"""What a bot programmer reads: the docs as site pages and the starter kit to download."""
