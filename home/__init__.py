"""The site as a whole, above its apps: the front page, which shows the leagues and the arena
side by side, and the demo data of both. The league and the arena never import each other;
what needs both lives here."""
