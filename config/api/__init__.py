"""The API plumbing shared by the league and the arena: authentication, errors, filters, pagination, parsers and the schema."""
